"""The shape that lets a format land in one package plus one row of `formats.FORMATS`: nothing outside a format's
package imports it but the table, no code outside the packages names a format's rule code, and a face holds no
model (its `Session` does). Read from the source with `ast`, as tests/test_layers.py reads the floors."""

from __future__ import annotations

import ast
import re

import pytest
from test_layers import MODULES, _imports

PACKAGES = ("analysis.elyra", "analysis.thndrs", "analysis.claude", "analysis.codex")
"""The format packages; `analysis.plain` (files that are not sessions, and the null session every format's session
inherits from) is imported by them and by the table alone too."""
TABLE = "analysis.formats"
CODE = re.compile(r"(ELY|THN|CCD|CDX)\d{3}")
GENERIC = ("analysis.features", "analysis.fixing", "analysis.document", "server", "cli", "fixer", "reporting",
           "config")
"""Modules that serve every format: they ask the face or the session and name no format's rule."""
GENERATED = frozenset({"reporting.examples"})
"""Made by tools/gen_rule_examples.py from the rule cases: it quotes every rule's example."""


def _owner(module: str) -> str | None:
    return next((package for package in (*PACKAGES, "analysis.plain")
                 if module == package or module.startswith(package + ".")), None)


@pytest.mark.parametrize("module", sorted(name for name in MODULES
                                          if name and name != TABLE and _owner(name) not in PACKAGES))
def test_only_the_table_and_the_formats_import_a_format_package(module: str) -> None:
    own = _owner(module)
    reached = {owner for target in _imports(module) if (owner := _owner(target)) is not None and owner != own}
    assert reached == set(), f"session_lsp.{module} imports {sorted(reached)}: ask `doc.face` or `doc.session`"


def _code_literals(module: str) -> list[str]:
    tree = ast.parse(MODULES[module].read_text(encoding="utf-8"))
    return [node.value for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and CODE.fullmatch(node.value)]


def _generic(name: str) -> bool:
    return any(name == g or name.startswith(g + ".") for g in GENERIC)


@pytest.mark.parametrize("module", sorted(name for name in MODULES
                                          if _generic(name) and name not in GENERATED))
def test_generic_modules_name_no_format_s_rule(module: str) -> None:
    assert _code_literals(module) == []


def test_the_literal_check_sees_a_code_and_the_exceptions_are_needed() -> None:
    assert _code_literals("analysis.registry")[:1] == ["ELY001"]
    assert all(_generic(name) and _code_literals(name) for name in GENERATED)
    assert _owner("analysis.elyra.face") == "analysis.elyra" and _owner("analysis.features.hover") is None


@pytest.mark.parametrize("package", PACKAGES)
def test_a_face_holds_no_model(package: str) -> None:
    """The face is static: only the package's session (and the passes and modules under it) reads the model."""
    face = f"{package}.face"
    assert f"{package}.model" not in _imports(face)
    assert f"{package}.session" in MODULES
