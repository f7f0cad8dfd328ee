"""session-lsp: diagnostics, navigation and fixes for coding-agent session files (Elyra/pi and thndrs)."""

__version__ = "0.1.0"
