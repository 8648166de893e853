#!/usr/bin/env bash
# Fresh-machine test run: create the venv, install Remora with its dev extra,
# then lint, type-check and run every test (unit and integration).
set -euo pipefail
cd "$(dirname "$0")/.."
# run_command's OS sandbox (bubblewrap); as root on Debian, as the scripts assume.
if ! command -v bwrap >/dev/null 2>&1; then
  apt-get update -qq
  apt-get install -y -qq bubblewrap
fi
python3 -m venv .venv
.venv/bin/python -m pip install -q --upgrade pip
.venv/bin/python -m pip install -q -e ".[dev]"
.venv/bin/ruff check src tests benchmarks
.venv/bin/mypy
.venv/bin/pytest -q -p no:cacheprovider "$@"
