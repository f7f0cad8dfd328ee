"""README.md stays true: its rule list is the registry's, and it documents the commands and options that exist."""

from __future__ import annotations

import argparse
import importlib.util
import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType

from session_lsp import cli
from session_lsp.analysis import Severity
from session_lsp.analysis.registry import PLANNED, RULES
from session_lsp.reporting import OutputFormat

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"


def generator() -> ModuleType:
    spec = importlib.util.spec_from_file_location("gen_rules_doc", ROOT / "tools" / "gen_rules_doc.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_rules_section_is_generated_from_the_registry() -> None:
    text = README.read_text(encoding="utf-8")
    assert generator().update(text) == text, "README.md is out of date: run `python tools/gen_rules_doc.py`"


def test_the_rules_section_lists_every_rule_once_and_marks_planned_ones() -> None:
    gen = generator()
    section = gen.render()
    rows = [line for line in section.splitlines() if re.match(r"^\| [A-Z]{3}\d{3} \|", line)]
    assert [row.split("|")[1].strip() for row in rows] == list(RULES)
    for row, rule in zip(rows, RULES.values(), strict=True):
        cells = [cell.strip() for cell in row.strip("|").split(" | ")]
        assert cells[2] == rule.severity.label
        assert (gen.NOT_YET in cells[1]) is (rule.code in PLANNED)


def test_the_generator_refuses_a_readme_without_markers() -> None:
    gen = generator()
    try:
        gen.update("# no markers here\n")
    except ValueError as error:
        assert "rules section" in str(error)
    else:
        raise AssertionError("update() accepted a README without markers")


def test_the_two_setup_commands_come_first() -> None:
    text = README.read_text(encoding="utf-8")
    first_block = re.search(r"```sh\n(.*?)```", text, re.S)
    assert first_block is not None
    commands = [line.split("#")[0].strip() for line in first_block.group(1).splitlines()]
    assert commands == ["make demo", "make test"]


def test_sections_for_the_server_and_editors_exist() -> None:
    headings = re.findall(r"^## (.+)$", README.read_text(encoding="utf-8"), re.M)
    for heading in ("Command line", "Language server", "Editors", "Rules", "Adding a rule", "Benchmarks"):
        assert heading in headings


def _options(parser: argparse.ArgumentParser) -> set[str]:
    found: set[str] = set()
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in action.choices.values():
                found |= _options(sub)
        found |= {option for option in action.option_strings if option.startswith("--") and option != "--help"}
    return found


def test_every_command_line_option_is_documented() -> None:
    text = README.read_text(encoding="utf-8")
    missing = sorted(option for option in _options(cli.build_parser()) if f"`{option}" not in text)
    assert not missing, f"options not described in README.md: {missing}"


def test_every_check_format_and_fail_on_level_is_documented() -> None:
    text = README.read_text(encoding="utf-8")
    formats = re.search(r"^\| `--output-format` \| what it prints \|\n\|---\|---\|\n((?:\|.*\n)+)", text, re.M)
    assert formats is not None, "README.md has no table of the output formats"
    assert re.findall(r"^\| `([a-z-]+)` \|", formats.group(1), re.M) == [style.value for style in OutputFormat]
    for level in [*cli.FAIL_LEVELS, *(severity.label for severity in Severity)]:
        assert f"`{level}`" in text


def test_the_rule_example_is_what_session_lsp_rule_prints() -> None:
    sample = re.search(r"```\n\$ session-lsp rule (\S+)\n(.*?)```", README.read_text(encoding="utf-8"), re.S)
    assert sample is not None, "README.md shows no `session-lsp rule` run"
    result = subprocess.run([sys.executable, "-m", "session_lsp", "rule", sample.group(1)], cwd=ROOT,
                            capture_output=True, text=True, timeout=120)
    # run from a checkout, the link is this checkout's README; the README shows it as a checkout in a home folder
    shown = result.stdout.replace((ROOT / "README.md").as_uri(), "file:///home/you/src/session-lsp/README.md")
    assert result.returncode == 0 and sample.group(2) == shown


DEMO = ["check", "--verbose", "--fail-on", "never", "examples/"]


def test_the_sample_output_is_what_make_demo_prints() -> None:
    """The sample is the real output of the demo's command, so a rule or message change cannot leave it stale."""
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert f"$(BIN)/session-lsp {' '.join(DEMO)}" in makefile
    sample = re.search(r"<!-- demo output -->\n```\n(.*?)```", README.read_text(encoding="utf-8"), re.S)
    assert sample is not None, "README.md has no <!-- demo output --> block"
    result = subprocess.run([sys.executable, "-m", "session_lsp", *DEMO], cwd=ROOT, capture_output=True, text=True,
                            timeout=120)
    assert result.returncode == 0, result.stderr
    assert sample.group(1) == result.stdout, "README.md's demo output is stale: paste `make demo`'s output"


def test_pypi_is_named_only_as_what_a_release_will_do() -> None:
    """session-lsp is not on PyPI yet: every `pip install session-lsp` must say it waits for a release."""
    for path in (README, ROOT / "editors" / "README.md", ROOT / "vscode-extension" / "README.md"):
        text = " ".join(path.read_text(encoding="utf-8").split())
        for match in re.finditer(r"pip install session-lsp\b", text):
            around = text[max(0, match.start() - 120):match.end() + 40]
            assert "release" in around, f"{path.name}: {around!r}"
        assert "pip install session-lsp" not in text or "git+" in text, f"{path.name} gives no install that works"


def test_the_thndrs_id_rule_states_when_it_applies() -> None:
    assert "named like a thndrs session" in RULES["THN022"].summary


def test_every_cited_spec_section_is_stated_in_docs() -> None:
    """The format study is not in the repository; docs/formats.md states each section the README cites."""
    text = README.read_text(encoding="utf-8")
    assert "[docs/formats.md](docs/formats.md)" in text
    stated = set(re.findall(r"^\| (§[\d.]+)(?:–(§[\d.]+))? \|", (ROOT / "docs" / "formats.md").read_text(
        encoding="utf-8"), re.M))
    covered: list[tuple[tuple[int, ...], tuple[int, ...]]] = []
    for first, last in stated:
        start = tuple(int(part) for part in first[1:].split("."))
        covered.append((start, tuple(int(part) for part in (last or first)[1:].split("."))))
    for cited in re.findall(r"§(\d+(?:\.\d+)*)", text):
        number = tuple(int(part) for part in cited.split("."))
        assert any(low <= number[:len(low)] <= high for low, high in covered), f"§{cited} is not in docs/formats.md"


def test_relative_links_in_the_readme_exist() -> None:
    for target in re.findall(r"\]\(((?!https?:|#)[^)]+)\)", README.read_text(encoding="utf-8")):
        assert (ROOT / target).exists(), target
