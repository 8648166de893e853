#!/usr/bin/env bash
# Fresh-machine main job: create the venv, install Remora, run the agents on the bundled
# example with the embedded model, then list the review queue.
set -euo pipefail
cd "$(dirname "$0")/.."
# run_command's OS sandbox (bubblewrap); as root on Debian, as the scripts assume.
if ! command -v bwrap >/dev/null 2>&1; then
  apt-get update -qq
  apt-get install -y -qq bubblewrap
fi
python3 -m venv .venv
.venv/bin/python -m pip install -q --upgrade pip
.venv/bin/python -m pip install -q -e .
status=0
.venv/bin/remora analyze examples/sample_project "$@" || status=$?
.venv/bin/remora review --project examples/sample_project
exit "$status"
