#!/usr/bin/env bash
# Competence benchmark from a fresh clone: create the venv, install Remora with the bench
# extra, then measure the bundled agents on the pinned PyPI corpus (docs/competence.md).
# Arguments go to benchmarks/competence.py (--limit N, --operations, --provider, ...).
set -euo pipefail
cd "$(dirname "$0")/.."
# run_command's OS sandbox (bubblewrap) and the venv: scripts/setup.sh.
source scripts/setup.sh
setup_remora '.[bench]' bubblewrap
exec .venv/bin/python benchmarks/competence.py "$@"
