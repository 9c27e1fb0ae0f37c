# The two commands: `make run` and `make test`. Both do all set-up themselves.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

export TEST_DATABASE_URL ?= postgres://postgres@127.0.0.1:5432/golf

.PHONY: run test fuzz lint typecheck pytest install lock clean

## Install the locked dependencies into .venv (again whenever the lock file changes).
install: $(STAMP)
$(STAMP): requirements.lock
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check --require-hashes -r requirements.lock
	@touch $@

## Start the API and a Celery worker on embedded defaults (SQLite, filesystem broker).
run: $(STAMP)
	@scripts/run

## Lint, type-check and run the whole suite against PostgreSQL.
test: $(STAMP) lint typecheck
	@DATABASE_URL=$(TEST_DATABASE_URL) $(BIN)/python scripts/check_postgres.py
	DATABASE_URL=$(TEST_DATABASE_URL) $(BIN)/pytest

## Fuzz every API operation from the OpenAPI schema with many fresh examples.
FUZZ_EXAMPLES ?= 500
fuzz: $(STAMP)
	@DATABASE_URL=$(TEST_DATABASE_URL) $(BIN)/python scripts/check_postgres.py
	DATABASE_URL=$(TEST_DATABASE_URL) GOLF_FUZZ_EXAMPLES=$(FUZZ_EXAMPLES) GOLF_FUZZ_RANDOM=1 \
		$(BIN)/pytest tests/fuzz --durations=5

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports

typecheck: $(STAMP)
	$(BIN)/mypy

## Re-resolve requirements.lock from pyproject.toml (needs network access to the package index).
lock:
	$(BIN)/python -m pip install --quiet uv
	$(BIN)/uv pip compile pyproject.toml --extra dev --generate-hashes --python-version 3.11 --no-header -o requirements.lock

clean:
	rm -rf $(VENV) var .pytest_cache .mypy_cache .ruff_cache
