"""`python -m session_lsp.server [--stdio | --tcp HOST:PORT]`."""

from __future__ import annotations

import argparse

from . import serve


def _address(value: str) -> tuple[str, int]:
    host, _, port = value.rpartition(":")
    if not port.isdigit():
        raise argparse.ArgumentTypeError(f"expected HOST:PORT, got {value!r}")
    return host or "127.0.0.1", int(port)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m session_lsp.server", description="session-lsp language server")
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--stdio", action="store_true", help="speak LSP on stdin/stdout (the default)")
    mode.add_argument("--tcp", type=_address, metavar="HOST:PORT", help="listen for one client on a TCP port")
    args = parser.parse_args(argv)
    serve(args.tcp)


if __name__ == "__main__":
    main()
