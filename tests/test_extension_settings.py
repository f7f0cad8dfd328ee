"""The VS Code extension's settings name every format's release option, as the faces declare them: its
package.json is static JSON, so this test is what keeps a new format (or a new release row) from being missing
there."""

from __future__ import annotations

import json
from pathlib import Path

from session_lsp.analysis.formats import with_releases

PACKAGE = Path(__file__).resolve().parent.parent / "vscode-extension" / "package.json"


def _settings() -> dict[str, dict[str, object]]:
    contributes = json.loads(PACKAGE.read_text(encoding="utf-8"))["contributes"]["configuration"]
    sections = contributes if isinstance(contributes, list) else [contributes]
    return {key: value for section in sections for key, value in section["properties"].items()}


def test_each_release_option_is_a_setting_with_the_faces_default_and_releases() -> None:
    settings = _settings()
    faces = with_releases()
    assert {key for key in settings if key.endswith("Version")} == \
        {f"sessionLsp.{face.release_option}Version" for face in faces}
    for face in faces:
        setting = settings[f"sessionLsp.{face.release_option}Version"]
        assert setting["default"] == face.default_release
        if "enum" in setting:  # a closed list: every release the face knows, and no other
            assert sorted(setting["enum"]) == sorted(face.releases)  # type: ignore[call-overload]
        else:  # any version, which the face reads as its newest release no newer (pi's)
            for release in face.releases:
                face.release_for(release)
            assert all(f"`{release}`" in str(setting["markdownDescription"]) for release in face.releases)


def test_every_session_format_is_named_in_the_help_and_in_sls001() -> None:
    from session_lsp.analysis import analyze
    from session_lsp.analysis.formats import session_formats
    from session_lsp.cli import build_parser

    help_text = " ".join(build_parser().format_help().split())
    message = analyze("not a session\n").diagnostics()[0].message
    for face in session_formats():
        assert face.title in help_text and face.title in message and face.recognised_by in message
