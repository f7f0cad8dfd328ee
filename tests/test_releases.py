"""Messages state what the targeted pi release does: the loader rows of `elyra/releases.py` reach the diagnostics."""

from __future__ import annotations

import pytest

from session_lsp.analysis import Options, Severity, analyze
from session_lsp.analysis.elyra.releases import DEFAULT_RELEASE, RELEASES, release

USER = ('{"type":"message","id":"a0000001","parentId":null,"timestamp":"2026-03-01T09:00:01.000Z",'
        '"message":{"role":"user","content":"hi","timestamp":1772355600000}}')
HEADER = '{"type":"session","version":3,"id":"s1","timestamp":"2026-03-01T09:00:00.000Z","cwd":"/"}'


def _find(text: str, code: str, pi: str) -> list[tuple[str, Severity]]:
    document = analyze(text, Options(pi_version=pi))
    return [(d.message, d.severity) for d in document.diagnostics() if d.code == code]


@pytest.mark.parametrize(("pi", "says"), [("0.73", "destroying 1 entry"),
                                          ("1.6", "Session file is not a valid pi session")])
def test_a_missing_header_is_what_the_release_does(pi: str, says: str) -> None:
    (found,) = _find(USER + "\n", "ELY010", pi)
    assert says in found[0] and found[1] is Severity.ERROR


@pytest.mark.parametrize(("pi", "severity", "says"), [("0.73", Severity.WARNING, "both records"),
                                                      ("1.6", Severity.INFORMATION, "adds the missing newline")])
def test_a_missing_final_newline_is_data_loss_only_for_073(pi: str, severity: Severity, says: str) -> None:
    (found,) = _find(HEADER + "\n" + USER, "ELY005", pi)
    assert says in found[0] and found[1] is severity


@pytest.mark.parametrize(("pi", "flagged"), [("0.73", True), ("1.6", False)])
def test_a_600_byte_header_is_too_long_only_for_073(pi: str, flagged: bool) -> None:
    long_header = HEADER.replace('"cwd":"/"', '"cwd":"/' + "d" * 600 + '"')
    assert bool(_find(long_header + "\n" + USER + "\n", "ELY012", pi)) is flagged


def test_the_default_is_the_newest_release() -> None:
    assert release(None) is RELEASES[DEFAULT_RELEASE] and DEFAULT_RELEASE == "1.6"
    assert set(RELEASES["1.6"].thinking_levels) - set(RELEASES["0.73"].thinking_levels) == {"max"}
    assert set(RELEASES["1.6"].stop_reasons) - set(RELEASES["0.73"].stop_reasons) == {"pending", "deferred"}
