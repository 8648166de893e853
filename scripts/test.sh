#!/usr/bin/env bash
# Fresh-machine test run: create the venv, install Remora with its dev extra,
# then lint, type-check and run every test (unit and integration).
set -euo pipefail
cd "$(dirname "$0")/.."
# Debian packages, as root as the scripts assume: run_command's OS sandbox (bubblewrap);
# Chromium and its chromedriver for the browser tests of `remora serve` (the tests use
# these two files and never download a browser).
missing=()
command -v bwrap >/dev/null 2>&1 || missing+=(bubblewrap)
{ [ -x /usr/bin/chromium ] && [ -x /usr/bin/chromedriver ]; } || missing+=(chromium chromium-driver)
if [ ${#missing[@]} -gt 0 ]; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"
fi
python3 -m venv .venv
.venv/bin/python -m pip install -q --upgrade pip
.venv/bin/python -m pip install -q -e ".[dev]"
.venv/bin/ruff check src tests benchmarks
.venv/bin/ruff format --check src tests benchmarks scripts
.venv/bin/mypy
.venv/bin/pytest -q -p no:cacheprovider "$@"
