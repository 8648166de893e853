#!/usr/bin/env bash
# Fresh-machine main job: create the venv, install Remora, run it on the bundled example.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m venv .venv
.venv/bin/python -m pip install -q --upgrade pip
.venv/bin/python -m pip install -q -e .
.venv/bin/remora discover examples/sample_project "$@"
