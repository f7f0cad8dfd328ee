"""`.jsonl.zst` is read wherever a `.jsonl` is: `check` (a path, a folder, standard input), `context`, and the
server's `sessionLsp/analyzeFile`, all through `files.FileLines`/`files.uncompressed`; the result equals the
uncompressed file's. Damaged compressed files are refused with a reason, never analysed as garbage."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from session_lsp.analysis import Document, Options, features
from session_lsp.analysis.document import analyze_bytes
from session_lsp.analysis.rule_filter import RuleFilter
from session_lsp.files import FileLines, NotReadable, uncompressed
from session_lsp.fixer import repair
from session_lsp.server.documents import read_file

if sys.version_info >= (3, 14):
    from compression.zstd import compress
else:
    from backports.zstd import compress

CORPUS = Path(__file__).parent / "corpus" / "codex-0.171.0-written"
ROLLOUT = CORPUS / "rollout-2026-12-05T08-14-59-01a24545-4d27-7bd0-beba-0fa477ba945e.jsonl"
BROKEN = Path(__file__).parent / "cases" / "codex" / "CDX020-orphan-output.jsonl"


def _zst(tmp_path: Path, source: Path, frames: int = 1) -> Path:
    data = source.read_bytes()
    cut = [len(data) * n // frames for n in range(frames + 1)]
    target = tmp_path / f"{source.name}.zst"
    target.write_bytes(b"".join(compress(data[cut[n]:cut[n + 1]]) for n in range(frames)))
    return target


def _diagnostics(document: Document) -> list[tuple[int, int, str, str]]:
    return [(d.span.line, d.span.start, d.code, d.message) for d in document.diagnostics()]


@pytest.mark.parametrize("frames", [1, 3])
@pytest.mark.parametrize("source", [ROLLOUT, BROKEN], ids=["corpus", "orphan"])
def test_a_compressed_file_streams_as_its_text(tmp_path: Path, source: Path, frames: int) -> None:
    packed = _zst(tmp_path, source, frames)
    options = Options(path=str(packed))
    whole = analyze_bytes(source.read_bytes(), Options(path=str(source)))
    with FileLines(str(packed)) as lines:
        streamed = Document.streamed(lines, options)
        assert streamed.face is whole.face
        assert _diagnostics(streamed) == _diagnostics(whole)
        assert features.context(streamed, -1)["messages"] == features.context(whole, -1)["messages"]
    assert uncompressed(packed.read_bytes()) == source.read_bytes()


def test_check_reads_zst_files_by_path_in_folders_and_on_standard_input(tmp_path: Path) -> None:
    packed = _zst(tmp_path, BROKEN)
    run = [sys.executable, "-m", "session_lsp", "check", "--format", "json"]
    plain = subprocess.run([*run, str(BROKEN)], capture_output=True, text=True, check=False)
    by_path = subprocess.run([*run, str(packed)], capture_output=True, text=True, check=False)
    in_folder = subprocess.run([*run, str(tmp_path)], capture_output=True, text=True, check=False)
    piped = subprocess.run([*run, "-"], input=packed.read_bytes(), capture_output=True, check=False)
    codes = [[(d["line"], d["code"]) for d in json.loads(out)] for out in
             (plain.stdout, by_path.stdout, in_folder.stdout, piped.stdout.decode())]
    assert codes[0] == [(5, "CDX020")]
    assert codes[1] == codes[2] == codes[3] == codes[0]


def test_analyze_file_reads_a_zst_file(tmp_path: Path) -> None:
    packed = _zst(tmp_path, ROLLOUT)
    with read_file(str(packed), (), 1 << 30) as document:
        assert document.face.agent == "Codex"
        assert [d for d in document.diagnostics() if d.severity.label in ("error", "warning")] == []


def test_a_limit_counts_the_decompressed_bytes(tmp_path: Path) -> None:
    packed = _zst(tmp_path, ROLLOUT)
    assert packed.stat().st_size < 1 << 16 < ROLLOUT.stat().st_size
    with pytest.raises(NotReadable, match="once decompressed"):
        FileLines(str(packed), 1 << 16)


def test_a_damaged_zst_file_is_refused_with_its_reason(tmp_path: Path) -> None:
    packed = _zst(tmp_path, ROLLOUT)
    data = packed.read_bytes()
    packed.write_bytes(data[: len(data) // 2])
    with pytest.raises(NotReadable, match="cut short"):
        FileLines(str(packed))
    packed.write_bytes(data[:4] + b"\xff" * 64)
    with pytest.raises(NotReadable, match="not a readable Zstandard file"):
        FileLines(str(packed))
    with pytest.raises(NotReadable, match="cut short"):
        uncompressed(data[: len(data) // 2])


def test_fix_leaves_a_zst_file_alone_and_says_why(tmp_path: Path) -> None:
    data = _zst(tmp_path, BROKEN).read_bytes()
    outcome = repair("x.jsonl.zst", data, RuleFilter([], []), "1.6", True)
    assert outcome.new is None and outcome.problem is not None and "zstd -d" in outcome.problem
