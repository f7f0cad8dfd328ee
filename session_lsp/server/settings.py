"""The `sessionLsp` settings section: which rules to report and at what severity, and which pi release to speak for;
and the configuration files (`session_lsp.config`) of each document, which the editor's settings override.

The client's value is untrusted JSON: anything not understood is reported back (window/logMessage) and left out,
never fatal. A configuration file that cannot be used is reported the same way, and left out whole.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from typing import Any

import msgspec

from ..analysis.formats import with_releases
from ..analysis.rule_filter import RuleFilter
from ..config import Config, ConfigError, find, load

SECTION = "sessionLsp"


def _strings(value: Any, field: str, problems: list[str]) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        problems.append(f"{field}: expected a list of rule codes or prefixes, got {value!r}")
        return [item for item in value if isinstance(item, str)] if isinstance(value, list) else []
    return value


DEFAULT_ANALYZE_FILE_MAX_BYTES = 1 << 30
"""1 GiB: a file this large takes the server a few GB of memory to analyse."""


class Settings(msgspec.Struct, frozen=True):
    rules: RuleFilter
    releases: tuple[tuple[str, str], ...] = ()
    """`sessionLsp.<format>Version` (`piVersion`, `claudeVersion`, ...): the release of each format whose behaviour
    messages and the context preview state, as (the face's `release_option`, release key)."""
    analyze_file_max_bytes: int = DEFAULT_ANALYZE_FILE_MAX_BYTES
    """`sessionLsp.analyzeFileMaxBytes`: the largest file `sessionLsp/analyzeFile` reads."""


def _releases(value: dict[str, Any], problems: list[str]) -> tuple[tuple[str, str], ...]:
    """The release row chosen for each format with releases (`piVersion`, `claudeVersion`: any
    MAJOR.MINOR[.PATCH], as `--pi-version`); what a version session-lsp does not know is read as goes to the log
    with the problems."""
    chosen: list[tuple[str, str]] = []
    for face in with_releases():
        key = f"{face.release_option}Version"
        found = value.get(key)
        release = face.default_release
        if found is not None:
            try:
                if not isinstance(found, str):
                    raise ValueError(f"expected a {face.agent} version such as {face.default_release!r}, got "
                                     f"{found!r}")
                release, note = face.release_for(found)
            except ValueError as error:
                problems.append(f"{key}: {error}; using {face.default_release}")
            else:
                if note is not None:
                    problems.append(f"{key}: {note}")
        chosen.append((face.release_option, release))
    return tuple(chosen)


def _max_bytes(value: Any, problems: list[str]) -> int:
    if value is None:
        return DEFAULT_ANALYZE_FILE_MAX_BYTES
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        problems.append(f"analyzeFileMaxBytes: expected a positive integer, got {value!r}")
        return DEFAULT_ANALYZE_FILE_MAX_BYTES
    return value


def parse(value: Any, off: Sequence[str] = ()) -> tuple[Settings, list[str]]:
    """The settings in a `sessionLsp` settings object, and what in it was not understood; `off`: the codes a
    configuration's per-file-ignores drop in the document."""
    problems: list[str] = []
    if value is None:
        value = {}
    if not isinstance(value, dict):
        return Settings(RuleFilter()), [f"expected an object, got {value!r}"]
    severity = value.get("severity")
    if severity is not None and not isinstance(severity, dict):
        problems.append(f"severity: expected an object mapping codes to levels, got {severity!r}")
        severity = None
    rules = RuleFilter(_strings(value.get("select"), "select", problems),
                       _strings(value.get("ignore"), "ignore", problems), severity, off)
    releases = _releases(value, problems)
    max_bytes = _max_bytes(value.get("analyzeFileMaxBytes"), problems)
    return Settings(rules, releases, max_bytes), problems + rules.problems


def _set(value: Any) -> bool:
    """Whether an editor setting says something: an empty list, object or string is the editor's default."""
    return value is not None and value != [] and value != {} and value != ""


def overlaid(config: Config, editor: Any) -> dict[str, Any]:
    """A configuration file's settings with the editor's over them, key by key."""
    value = config.editor_settings()
    if isinstance(editor, dict):
        value.update((key, item) for key, item in editor.items() if _set(item))
    return value


class Configured:
    """The configuration file of each document (the closest above it, as `check` finds it), read again when it
    changes on disk; a document under none has the editor's settings alone."""

    def __init__(self, log: Callable[[str], None]) -> None:
        self.log = log
        self._found: dict[str, str | None] = {}
        self._loaded: dict[str, tuple[tuple[int, int], Config | None]] = {}
        self._merged: dict[tuple[str, tuple[int, int], tuple[str, ...]], Settings] = {}

    def forget(self) -> None:
        """Look for configuration files again (one may have been created or removed) and merge them again with the
        editor's settings (which changed)."""
        self._found.clear()
        self._merged.clear()

    def _config(self, path: str) -> tuple[Config | None, tuple[int, int]]:
        folder = os.path.dirname(os.path.abspath(path))
        if folder not in self._found:
            self._found[folder] = find(folder)
        found = self._found[folder]
        if found is None:
            return None, (0, 0)
        try:
            status = os.stat(found)
        except OSError:
            self._found.pop(folder, None)
            return None, (0, 0)
        stamp = (status.st_mtime_ns, status.st_size)
        cached = self._loaded.get(found)
        if cached is None or cached[0] != stamp:
            try:
                config: Config | None = load(found)
            except ConfigError as error:
                self.log(f"configuration file not used: {error}")
                config = None
            self._loaded[found] = cached = (stamp, config)
        return cached[1], stamp

    def settings_for(self, path: str | None, editor: Settings, editor_value: Any) -> Settings:
        """A document's settings: its configuration file's, with the editor's over them."""
        config, stamp = self._config(path) if path is not None else (None, (0, 0))
        if config is None or config.path is None:
            return editor
        assert path is not None
        off = config.ignored_in(path)
        key = (config.path, stamp, off)
        settings = self._merged.get(key)
        if settings is None:
            merged, _ = parse(overlaid(config, editor_value), off)  # the editor's problems are logged already
            settings = self._merged[key] = msgspec.structs.replace(
                merged, analyze_file_max_bytes=editor.analyze_file_max_bytes)
        return settings
