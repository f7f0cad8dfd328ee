# Two entry points for a fresh machine (Python 3.11 and make are all it needs):
#   make demo   set up, then check the example sessions in examples/
#   make test   set up, then run the whole test suite
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test setup bench rules-doc clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test]'
	touch $(STAMP)

setup: $(STAMP)

# The broken examples are meant to have errors: --fail-on never keeps their exit status 1 from failing the demo,
# while a usage or I/O error (status 2) still does.
demo: $(STAMP)
	$(BIN)/session-lsp check --verbose --fail-on never examples/

# pytest exits 5 when it collects no tests, and make fails on it: an empty run can never pass.
test: $(STAMP)
	$(BIN)/python -m pytest -q -rs

bench: $(STAMP)
	$(BIN)/python benchmarks/run.py

rules-doc: $(STAMP)
	$(BIN)/python tools/gen_rules_doc.py

clean:
	rm -rf $(VENV) build *.egg-info
