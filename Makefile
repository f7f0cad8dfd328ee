# Two entry points for a fresh machine (Python 3.11 and make are all it needs):
#   make demo   set up, then check the example sessions in examples/
#   make test   set up, install what the tests drive (make test-deps), then run the whole test suite
# and the static gate CI runs before the tests:
#   make check  ruff (lint) and mypy (types), with the versions pyproject.toml pins
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
LOG := $(VENV)/setup.log
NEEDS_311 := import sys; sys.exit(sys.version_info < (3, 11))
# The package is compiled to bytecode by setup: an editable install under PYTHONDONTWRITEBYTECODE=1 would otherwise
# compile every module again on every run (a third of a second per `check`). compileall writes whatever that
# variable says and skips what is up to date, so `make setup` after an edit recompiles only the edited modules.
COMPILE := $(BIN)/python -m compileall -q session_lsp

# A .venv made by a Python older than 3.11 (or whose Python is gone) would keep its stamp and break every command:
# such a .venv is rebuilt.
STALE := $(shell test -e $(VENV) && ! $(BIN)/python -c '$(NEEDS_311)' >/dev/null 2>&1 && echo yes)

.PHONY: demo test test-deps check setup bench rules-doc clean FORCE

# pip's output goes to $(LOG) and is shown only when setup fails.
$(STAMP): pyproject.toml $(if $(STALE),FORCE)
	$(if $(STALE),@echo "$(VENV) was made by a Python older than 3.11 or is broken: rebuilding it"; rm -rf $(VENV))
	@$(PYTHON) -c '$(NEEDS_311)' || { echo "session-lsp needs Python 3.11 or later; run make PYTHON=python3.11"; exit 1; }
	@$(PYTHON) -m venv $(VENV)
	@{ $(BIN)/pip install --upgrade pip && $(BIN)/pip install -e '.[test,dev]'; } >$(LOG) 2>&1 \
		|| { cat $(LOG); echo "setup failed (log: $(LOG))"; exit 1; }
	@$(COMPILE)
	@touch $(STAMP)

setup: $(STAMP)
	@$(COMPILE)

# The broken examples are meant to have errors: --fail-on never keeps their exit status 1 from failing the demo,
# while a usage or I/O error (status 2) still does.
demo: $(STAMP)
	@echo "The files in examples/broken/ are meant to have errors; examples/clean/ shows what a sound file gets."
	@$(BIN)/session-lsp check --verbose --fail-on never examples/

# What the tests drive besides Python, each install one line (its output goes to a log shown only when it fails):
# the pinned pi releases and Claude Code, and the pinned Codex CLI, that the conformance suites run (npm ci each,
# skipped while its lock's hash matches its stamp) and the real editors tests/editors drives (Debian, PyPI, npm;
# idempotent, a second run takes a second or two).
# A new install is one more line here.
define install
	@printf 'test deps: %s ... ' '$(1)'; start=$$(date +%s); \
	if $(2) >$(VENV)/$(3).log 2>&1; then echo "ready ($$(( $$(date +%s) - start )) s)"; \
	else echo failed; cat $(VENV)/$(3).log; echo "installing $(1) failed (log: $(VENV)/$(3).log)"; exit 1; fi
endef

test-deps: $(STAMP)
	$(call install,the pinned pi releases (tests/conformance),timeout 600 bash tests/conformance/install.sh,install-pi)
	$(call install,the pinned Codex CLI (tests/conformance/codex-cli),timeout 600 bash tests/conformance/install.sh codex-cli,install-codex)
	$(call install,the real editors (tests/editors),timeout 900 bash editors/install-test-editors.sh,install-editors)

# pytest exits 5 when it collects no tests, and make fails on it: an empty run can never pass.
test: test-deps
	$(BIN)/python -m pytest -q -rs

# No formatter yet: reformatting every file at once would collide with the work of every open branch.
check: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/mypy

bench: setup
	$(BIN)/python benchmarks/run.py

rules-doc: $(STAMP)
	$(BIN)/python tools/gen_rules_doc.py

clean:
	rm -rf $(VENV) build *.egg-info
