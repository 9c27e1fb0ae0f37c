# The two commands: `make run` and `make test`. Both do all set-up themselves.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# The npm tools the suite runs on the OpenAPI schema (openapi-typescript, tsc), from
# package-lock.json.
NODE_STAMP := node_modules/.installed
# The tests' servers: embedded PostgreSQL and Redis under var/test, unless both
# TEST_DATABASE_URL and TEST_REDIS_URL name running servers.
WITH_TEST_SERVERS := $(BIN)/python scripts/embedded.py exec --dir var/test --fast --
# The suite runs in this many processes (pytest-xdist), each on a database and a broker
# database of its own; a test module stays in one process (its module fixtures run once).
TEST_JOBS ?= 2
PYTEST := $(BIN)/pytest --numprocesses=$(TEST_JOBS) --dist=loadscope

.PHONY: run test pytest fuzz lint typecheck install lock clean

## Install the locked dependencies into .venv and node_modules (again when a lock changes).
install: $(STAMP) $(NODE_STAMP)
$(STAMP): requirements.lock
	@test -x $(BIN)/python || { $(PYTHON) -c 'import sys; sys.exit(sys.version_info[:2] != (3, 11))' \
		|| { echo "make: Python 3.11 is needed and $(PYTHON) is not it: name one with PYTHON=python3.11" >&2; exit 1; }; \
		$(PYTHON) -m venv $(VENV); }
	$(BIN)/python -m pip install --quiet --disable-pip-version-check --require-hashes -r requirements.lock
	@touch $@
$(NODE_STAMP): package-lock.json
	@command -v npm >/dev/null || { [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null \
		&& apt-get update -qq && apt-get install -y -qq nodejs npm; } \
		|| { echo "make: npm is missing: install Node.js 18 or newer with npm (Debian packages nodejs and npm)" >&2; exit 1; }
	npm ci --no-audit --no-fund --loglevel=error
	@touch $@

## Start the API, a Celery worker and beat, on embedded PostgreSQL and Redis under var/
## (or on DATABASE_URL / CELERY_BROKER_URL when set). Ctrl-C stops everything.
run: $(STAMP)
	@$(BIN)/python scripts/run.py

## Lint, type-check and run the whole suite on PostgreSQL and Redis.
test: $(STAMP) $(NODE_STAMP) lint typecheck
	$(WITH_TEST_SERVERS) $(PYTEST) $(ARGS)

## Run part of the suite, without lint: make pytest ARGS="tests/api -x"
pytest: $(STAMP) $(NODE_STAMP)
	$(WITH_TEST_SERVERS) $(PYTEST) $(ARGS)

## Fuzz every API operation from the OpenAPI schema with many fresh examples.
FUZZ_EXAMPLES ?= 500
fuzz: $(STAMP)
	GOLF_FUZZ_EXAMPLES=$(FUZZ_EXAMPLES) GOLF_FUZZ_RANDOM=1 \
		$(WITH_TEST_SERVERS) $(BIN)/pytest tests/fuzz --durations=5

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports --cache-dir var/cache/import-linter

typecheck: $(STAMP)
	$(BIN)/mypy

# The browser the web client's tests drive (tests/web): Debian's chromium, installed when
# make runs as root with apt-get; otherwise the test target stops, naming the package.
CHROMIUM := /usr/bin/chromium
test: $(CHROMIUM)
$(CHROMIUM):
	@{ [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null \
		&& apt-get update -qq && apt-get install -y -qq chromium; } \
		|| { echo "make: chromium is missing: install the Debian package chromium (apt-get install chromium)" >&2; exit 1; }

## Re-resolve requirements.lock from pyproject.toml (needs network access to the package index),
## and write its run-time part, requirements.runtime.lock, which the image installs.
lock:
	$(BIN)/python -m pip install --quiet uv
	$(BIN)/uv pip compile pyproject.toml --extra dev --generate-hashes --python-version 3.11 --no-header -o requirements.lock
	$(BIN)/python -m pip install --quiet --require-hashes -r requirements.lock
	$(BIN)/python scripts/runtime_lock.py

clean:
	-$(BIN)/python scripts/embedded.py stop --dir var
	-$(BIN)/python scripts/embedded.py stop --dir var/test
	rm -rf $(VENV) var node_modules
