#!/usr/bin/env bash
# Fresh-machine test run: create the venv, install Remora with its dev extra,
# then lint, type-check, check the import layers and run every test (unit and integration).
set -euo pipefail
cd "$(dirname "$0")/.."
# Debian packages: run_command's OS sandbox (bubblewrap); Chromium and its chromedriver for
# the browser tests of `remora serve` (the tests use /usr/bin/chromium and /usr/bin/chromedriver
# and never download a browser); Neovim for the end-to-end test of `remora lsp` (Debian 12's
# 0.7.2: the test starts the client with vim.lsp.start_client). Then the venv: scripts/setup.sh.
source scripts/setup.sh
setup_remora '.[dev]' bubblewrap chromium chromium-driver neovim
.venv/bin/ruff check src tests benchmarks
.venv/bin/ruff format --check src tests benchmarks scripts
.venv/bin/mypy
.venv/bin/lint-imports --no-cache  # the layers contract in pyproject.toml
.venv/bin/pytest -q -p no:cacheprovider "$@"
