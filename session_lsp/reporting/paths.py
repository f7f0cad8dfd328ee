"""File names as each output writes them. A name is bytes: one that is not UTF-8 (Python keeps such a byte as a
surrogate escape, U+DC80-U+DCFF) must still reach every format, readable and, where the format allows, exact."""

from __future__ import annotations

import json
import os
import urllib.parse

import msgspec


def shown(path: str) -> str:
    """A path (or a message naming one) as text: a byte of a file name that is not UTF-8 is written `\\xNN`, as
    `ls -b` does; everything else is unchanged."""
    try:
        raw = path.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:  # a surrogate no file name decodes to (a lone one from elsewhere): \udNNN
        return path.encode("utf-8", "backslashreplace").decode("utf-8")
    return raw.decode("utf-8", "backslashreplace")


def json_path(path: str) -> msgspec.Raw:
    """A path as a JSON string. A file name whose bytes are not UTF-8 keeps them as `\\udcNN` escapes (Python's
    surrogateescape, so `os.fsencode(json.loads(...))` gives the bytes back); valid UTF-8 is written as it is."""
    try:
        return msgspec.Raw(msgspec.json.encode(path))
    except UnicodeEncodeError:
        return msgspec.Raw(json.dumps(path).encode("ascii"))


def uri(path: str) -> str:
    """A path as a URI reference (SARIF's `artifactLocation.uri`): a relative path stays relative, an absolute one
    is a `file://` URI; every byte that is not a URI character is percent-encoded, so a name that is not UTF-8 is
    exact (`urllib.parse.unquote_to_bytes` gives its bytes back)."""
    try:
        raw = os.fsencode(path)
    except UnicodeEncodeError:  # a lone surrogate from elsewhere than a file name
        raw = path.encode("utf-8", "backslashreplace")
    if os.sep != "/":
        raw = raw.replace(os.sep.encode(), b"/")
    quoted = urllib.parse.quote(raw, safe="/")
    return "file://" + quoted if raw.startswith(b"/") else quoted
