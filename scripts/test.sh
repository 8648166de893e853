#!/usr/bin/env bash
# Fresh-machine test run: create the venv, install Remora with its dev extra,
# then lint, type-check and run every test (unit and integration).
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m venv .venv
.venv/bin/python -m pip install -q --upgrade pip
.venv/bin/python -m pip install -q -e ".[dev]"
.venv/bin/ruff check src tests benchmarks
.venv/bin/mypy
.venv/bin/pytest -q -p no:cacheprovider "$@"
