"""`python -m session_lsp` is the `session-lsp` command."""

import sys

from .cli import entry

sys.exit(entry())
