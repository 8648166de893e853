# The developer loop. `make test` is the fast one (unit tests: no network, no model);
# `make test-all` is what CI runs (scripts/test.sh: install, lint, type-check, every test).

VENV ?= .venv
BIN := $(VENV)/bin
PY_PATHS := src tests benchmarks scripts

.PHONY: install format lint typecheck layers test test-all bench

install:  ## the venv with the dev extra (every provider SDK, test and lint tools)
	python3 -m venv $(VENV)
	$(BIN)/python -m pip install -q -e ".[dev]"

format:  ## rewrite: ruff format, then the safe ruff fixes
	$(BIN)/ruff format $(PY_PATHS)
	$(BIN)/ruff check --fix src tests benchmarks

lint:  ## check only: ruff rules and formatting
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/ruff format --check $(PY_PATHS)

typecheck:  ## mypy --strict on src (settings in pyproject.toml)
	$(BIN)/mypy

layers:  ## the import layers contract (pyproject.toml [tool.importlinter])
	$(BIN)/lint-imports --no-cache

test:  ## unit tests on two processes: offline, no model
	$(BIN)/pytest -q -p no:cacheprovider -n 2 tests/unit

test-all:  ## what CI runs
	bash scripts/test.sh

bench:  ## the benchmarks that need no model; each prints one JSON object
	$(BIN)/python benchmarks/discovery.py
	$(BIN)/python benchmarks/sandbox.py
	$(BIN)/python benchmarks/loop.py
	$(BIN)/python benchmarks/workspace.py
