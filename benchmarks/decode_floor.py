"""The floor of a line pass written in Python around msgspec, as a whole process: the interpreter, msgspec and the
Elyra schema (`elyra/schema.py` alone, loaded by path, without the rest of session_lsp), the file read, decoded and
split into lines, and one typed decode of every line; no rule, no fact, no link. `pi_side_by_side.py` times it
beside `check` and pi, so the distance between this floor and pi says what room a Python core has at all.

    python benchmarks/decode_floor.py FILE
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import msgspec

SCHEMA = Path(__file__).resolve().parent.parent / "session_lsp" / "analysis" / "elyra" / "schema.py"


def main() -> None:
    spec = importlib.util.spec_from_file_location("elyra_schema", SCHEMA)
    assert spec is not None and spec.loader is not None
    schema = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = schema  # msgspec resolves the Structs' annotations through their module
    spec.loader.exec_module(schema)
    decode = msgspec.json.Decoder(schema.Line).decode
    decoded = failed = 0
    with open(sys.argv[1], encoding="utf-8", errors="replace") as file:
        for line in file.read().split("\n"):
            try:
                decode(line)
            except msgspec.DecodeError:
                failed += 1
            else:
                decoded += 1
    print(f"{decoded} lines decoded, {failed} not")


if __name__ == "__main__":
    main()
