"""Configuration files: `[tool.session-lsp]` in a `pyproject.toml`, or a `.session-lsp.toml`, found upward from
each checked file as ruff finds its own (the closest one wins; in one folder `.session-lsp.toml` before
`pyproject.toml`, and a `pyproject.toml` without the table is passed over).

The CLI (`check`, `fix`) and the server read the same files with this module; the command line's options and the
editor's settings override what a file says. A key this version does not know, or a value it cannot use, is a
`ConfigError` that names the file and the key: a setting silently ignored is worse than a run that stops.

    [tool.session-lsp]
    select = ["ELY", "THN"]             # codes, code prefixes or rule names (as --select)
    ignore = ["ELY065"]                 # (as --ignore)
    severity = { ELY047 = "hint", ELY063 = "off" }
    per-file-ignores = { "tests/fixtures/**" = ["ELY"] }   # globs, from this file's folder: broken on purpose
    exclude = ["scratch", "*.tmp.jsonl"]                    # not searched when a folder is walked
    pi-version = "0.73"                 # and every other `<format>-version` a format declares
    output-format = "json"
"""

from __future__ import annotations

import fnmatch
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .analysis.formats import with_releases
from .analysis.rule_filter import LEVELS, RuleFilter

PYPROJECT = "pyproject.toml"
DOTFILE = ".session-lsp.toml"
TABLE = "session-lsp"

OUTPUT_FORMATS = ("text", "concise", "json", "json-lines", "github", "sarif", "junit")
"""The values of `output-format` (reporting.OutputFormat's, which `check --output-format` takes)."""


class ConfigError(Exception):
    """A configuration file that cannot be used: the message names the file and the key."""


def _release_keys() -> dict[str, str]:
    """`pi-version` -> "pi": one key for every format whose releases the messages can speak for, from the faces."""
    return {f"{face.release_option}-version": face.release_option for face in with_releases()}


KEYS = ("select", "ignore", "severity", "per-file-ignores", "exclude", "output-format")


@dataclass(frozen=True)
class Config:
    """What one configuration file says (everything empty: no file, or `--isolated`)."""

    path: str | None = None
    root: str = "."
    """The folder the file is in: `per-file-ignores` and `exclude` globs are read from there."""
    select: tuple[str, ...] | None = None
    ignore: tuple[str, ...] = ()
    severity: Mapping[str, str] = field(default_factory=dict)
    per_file_ignores: tuple[tuple[str, tuple[str, ...]], ...] = ()
    exclude: tuple[str, ...] = ()
    releases: Mapping[str, str] = field(default_factory=dict)
    """Release option ("pi") -> the version as written (MAJOR.MINOR[.PATCH], checked with the face)."""
    output_format: str | None = None

    def ignored_in(self, path: str) -> tuple[str, ...]:
        """The codes `per-file-ignores` drops in the file at `path`."""
        codes: list[str] = []
        for glob, ignored in self.per_file_ignores:
            if _matches(path, self.root, glob):
                codes.extend(ignored)
        return tuple(codes)

    def excludes(self, path: str) -> bool:
        """Whether `exclude` leaves out the file at `path` (or a folder holding it, below this file's folder)."""
        return any(_matches(path, self.root, glob, folders=True) for glob in self.exclude)

    def rules(self, select: Sequence[str] | None = None, ignore: Sequence[str] = (),
              path: str | None = None) -> RuleFilter:
        """The rule filter for a file: the command line's --select replaces the file's `select` and `ignore` (as
        ruff's does); --ignore adds to them; `per-file-ignores` drops its codes whatever is selected."""
        if select:
            chosen, dropped = list(select), list(ignore)
        else:
            chosen, dropped = list(self.select or ()), [*self.ignore, *ignore]
        return RuleFilter(chosen, dropped, self.severity, off=self.ignored_in(path) if path is not None else ())

    def editor_settings(self) -> dict[str, Any]:
        """The file as the server's `sessionLsp` settings object (which the editor's own settings then override)."""
        value: dict[str, Any] = {}
        if self.select is not None:
            value["select"] = list(self.select)
        if self.ignore:
            value["ignore"] = list(self.ignore)
        if self.severity:
            value["severity"] = dict(self.severity)
        for option, version in self.releases.items():
            value[f"{option}Version"] = version
        return value


def _matches(path: str, root: str, glob: str, folders: bool = False) -> bool:
    """A glob matches a file's name, or its path below `root` (`/` separated; `**` crosses folders as `*` does);
    with `folders`, also any folder between `root` and the file, by name or by path."""
    relative = os.path.relpath(os.path.abspath(path), os.path.abspath(root)).replace(os.sep, "/")
    if relative.startswith("../"):
        return False
    parts = relative.split("/")
    candidates = [relative, parts[-1]]
    if folders:
        for end in range(1, len(parts)):
            candidates += ["/".join(parts[:end]), parts[end - 1]]
    pattern = glob.strip("/")
    while pattern.startswith("**/"):  # any folder, or none: the name and the path below `root` are both tried
        pattern = pattern[3:]
    pattern = pattern.replace("/**/", "/*").replace("**", "*")  # fnmatch's `*` crosses `/` already
    return any(fnmatch.fnmatchcase(candidate, pattern) for candidate in candidates)


def find(folder: str) -> str | None:
    """The closest configuration file in `folder` or a folder above it: a `.session-lsp.toml`, or a
    `pyproject.toml` with a `[tool.session-lsp]` table."""
    here = os.path.abspath(folder)
    while True:
        dotfile = os.path.join(here, DOTFILE)
        if os.path.isfile(dotfile):
            return dotfile
        pyproject = os.path.join(here, PYPROJECT)
        if os.path.isfile(pyproject) and _has_table(pyproject):
            return pyproject
        above = os.path.dirname(here)
        if above == here:
            return None
        here = above


def _has_table(pyproject: str) -> bool:
    """Whether a pyproject.toml has `[tool.session-lsp]`; one that cannot be read or parsed is the error of the
    run that uses it, so it is reported when it does."""
    import tomllib  # here: a check with no configuration file above it never parses TOML

    try:
        with open(pyproject, "rb") as handle:
            data = tomllib.load(handle)
    except (OSError, tomllib.TOMLDecodeError):
        return b"session-lsp" in _head(pyproject)
    tool = data.get("tool")
    return isinstance(tool, dict) and TABLE in tool


def _head(path: str) -> bytes:
    try:
        with open(path, "rb") as handle:
            return handle.read(1 << 20)
    except OSError:
        return b""


def load(path: str) -> Config:
    """The configuration in a file (a `.session-lsp.toml`'s top level, or a `pyproject.toml`'s
    `[tool.session-lsp]`); ConfigError when it cannot be read or holds something this version cannot use."""
    import tomllib  # here, as in `_has_table`

    try:
        with open(path, "rb") as handle:
            data = tomllib.load(handle)
    except OSError as error:
        raise ConfigError(f"{path}: cannot read configuration file ({error.strerror})") from None
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"{path}: not valid TOML ({error})") from None
    prefix = ""
    if os.path.basename(path) == PYPROJECT:
        tool = data.get("tool", {})
        data = tool.get(TABLE, {}) if isinstance(tool, dict) else {}
        prefix = "tool.session-lsp."
        if not isinstance(data, dict):
            raise ConfigError(f"{path}: [tool.session-lsp] must be a table")
    return parse(data, path, prefix)


def parse(data: Mapping[str, Any], path: str, prefix: str = "") -> Config:
    """Check every key and value; the first problem is the error."""
    releases = _release_keys()

    def fail(key: str, problem: str) -> ConfigError:
        return ConfigError(f"{path}: {prefix}{key}: {problem}")

    for key in data:
        if key not in KEYS and key not in releases:
            known = ", ".join([*KEYS, *releases])
            hint = f" (did you mean {key.replace('_', '-')!r}?)" if key.replace("_", "-") in (*KEYS, *releases) \
                else ""
            raise fail(key, f"unknown key{hint}; the keys are {known}")
    select = _codes(data, "select", fail) if "select" in data else None
    ignore = _codes(data, "ignore", fail)
    severity = data.get("severity", {})
    if not isinstance(severity, dict):
        raise fail("severity", f"expected a table of codes to levels ({', '.join(LEVELS)}), got {severity!r}")
    for selector, level in severity.items():
        if not isinstance(level, str) or level.lower() not in LEVELS:
            raise fail(f"severity.{selector}", f"{level!r} is not one of {', '.join(LEVELS)}")
        _check_selectors([selector], f"severity.{selector}", fail)
    per_file = data.get("per-file-ignores", {})
    if not isinstance(per_file, dict):
        raise fail("per-file-ignores", f"expected a table of globs to lists of codes, got {per_file!r}")
    pairs = tuple((glob, tuple(_codes(per_file, glob, fail, f"per-file-ignores.{glob!r}")))
                  for glob in per_file)
    exclude = data.get("exclude", [])
    if not isinstance(exclude, list) or not all(isinstance(item, str) for item in exclude):
        raise fail("exclude", f"expected a list of globs, got {exclude!r}")
    chosen: dict[str, str] = {}
    for key, option in releases.items():
        if key not in data:
            continue
        version = data[key]
        face = next(face for face in with_releases() if face.release_option == option)
        if not isinstance(version, str):
            raise fail(key, f"expected a {face.agent} version as a string, such as {face.default_release!r}, "
                            f"got {version!r}")
        try:
            face.release_for(version)
        except ValueError as error:
            raise fail(key, str(error)) from None
        chosen[option] = version
    output = data.get("output-format")
    if output is not None and output not in OUTPUT_FORMATS:
        raise fail("output-format", f"{output!r} is not one of {', '.join(OUTPUT_FORMATS)}")
    return Config(path, os.path.dirname(os.path.abspath(path)), tuple(select) if select is not None else None,
                  tuple(ignore), dict(severity), pairs, tuple(exclude), chosen, output)


def _codes(data: Mapping[str, Any], key: str, fail: Any, name: str | None = None) -> list[str]:
    value = data.get(key, [])
    name = name or key
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise fail(name, f"expected a list of rule codes, code prefixes or rule names, got {value!r}")
    _check_selectors(value, name, fail)
    return value


def _check_selectors(selectors: Sequence[str], name: str, fail: Any) -> None:
    problems = RuleFilter(selectors).problems
    if problems:
        raise fail(name, problems[0].split(": ", 1)[1] + " (see `session-lsp rules`)")


class Finder:
    """The configuration of each file of a run: `--config PATH` for every file, nothing with `--isolated`, else the
    closest file above it (one look per folder, one read per file)."""

    def __init__(self, explicit: str | None = None, isolated: bool = False) -> None:
        self.isolated = isolated
        self._fixed = load(explicit) if explicit is not None and not isolated else None
        self._by_folder: dict[str, str | None] = {}
        self._loaded: dict[str, Config] = {}

    def for_file(self, path: str | None) -> Config:
        """The configuration of a file (None: standard input, read from the current folder)."""
        if self.isolated:
            return Config()
        if self._fixed is not None:
            return self._fixed
        folder = os.path.dirname(os.path.abspath(path)) if path is not None else os.getcwd()
        return self.for_folder(folder)

    def for_folder(self, folder: str) -> Config:
        if self.isolated:
            return Config()
        if self._fixed is not None:
            return self._fixed
        if folder not in self._by_folder:
            self._by_folder[folder] = find(folder)
        found = self._by_folder[folder]
        if found is None:
            return Config()
        if found not in self._loaded:
            self._loaded[found] = load(found)
        return self._loaded[found]
