"""Starts the copy of session-lsp bundled in the .vsix: `python server.py --stdio` is `session-lsp serve --stdio`.

The server and its pure-Python dependencies sit in ../libs (put there by build.sh); they go first on sys.path so a
different session-lsp installed in the same interpreter does not shadow the bundled one.
"""

import os
import runpy
import sys

if sys.version_info < (3, 11):
    sys.exit(f"session-lsp needs Python 3.11 or newer; {sys.executable} is {sys.version.split()[0]}")

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "libs"))
sys.argv = ["session-lsp", "serve", *sys.argv[1:]]
runpy.run_module("session_lsp", run_name="__main__", alter_sys=True)
