# The two commands: `make run` and `make test`. Both do all set-up themselves.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

export TEST_DATABASE_URL ?= postgres://postgres@127.0.0.1:5432/golf

.PHONY: run test lint typecheck pytest install lock clean

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
