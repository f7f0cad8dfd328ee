"""session-lsp: diagnostics, navigation and fixes for coding agents' session files (a package a format under
`analysis/`, each named in `analysis/formats.py`'s `FORMATS`)."""

__version__ = "0.1.0"
