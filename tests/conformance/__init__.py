"""The conformance suite: what session-lsp predicts for a file, against what the real pi releases do with it."""
