"""Starts the copy of session-lsp bundled in the .vsix: `python server.py --stdio` is `session-lsp serve --stdio`.

build.sh puts the server and its pure-Python dependencies in ../libs and the compiled ones (msgspec, lz4) in
../native/cp3XX for each CPython it was built for. Both go first on sys.path, so a different session-lsp installed
in the same interpreter does not shadow the bundled one.
"""

import os
import runpy
import sys

bundled = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
native = os.path.join(bundled, "native", f"cp{sys.version_info[0]}{sys.version_info[1]}")
if sys.version_info < (3, 11) or sys.implementation.name != "cpython" or not os.path.isdir(native):
    built = sorted(name for name in os.listdir(os.path.join(bundled, "native")) if name.startswith("cp"))
    sys.exit(f"the bundled session-lsp needs CPython {', '.join(built)}; {sys.executable} is "
             f"{sys.implementation.name} {sys.version.split()[0]}. "
             "Set sessionLsp.interpreter or sessionLsp.server.path.")

sys.path[:0] = [os.path.join(bundled, "libs"), native]
sys.argv = ["session-lsp", "serve", *sys.argv[1:]]
runpy.run_module("session_lsp", run_name="__main__", alter_sys=True)
