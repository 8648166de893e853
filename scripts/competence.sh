#!/usr/bin/env bash
# Competence benchmark from a fresh clone: create the venv, install Remora with the bench
# extra, then measure the bundled agents on the pinned PyPI corpus (docs/competence.md).
# Arguments go to benchmarks/competence.py (--limit N, --operations, --provider, ...).
set -euo pipefail
cd "$(dirname "$0")/.."
# run_command's OS sandbox (bubblewrap); as root on Debian, as the scripts assume.
if ! command -v bwrap >/dev/null 2>&1; then
  apt-get update -qq
  apt-get install -y -qq bubblewrap
fi
python3 -m venv .venv
.venv/bin/python -m pip install -q --upgrade pip
.venv/bin/python -m pip install -q -e '.[bench]'
exec .venv/bin/python benchmarks/competence.py "$@"
