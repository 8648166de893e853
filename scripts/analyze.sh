#!/usr/bin/env bash
# Fresh-machine main job: create the venv, install Remora, run the agents on the bundled
# example with the embedded model, then list the review queue.
set -euo pipefail
cd "$(dirname "$0")/.."
# run_command's OS sandbox (bubblewrap) and the venv: scripts/setup.sh.
source scripts/setup.sh
setup_remora . bubblewrap
status=0
.venv/bin/remora analyze examples/sample_project "$@" || status=$?
.venv/bin/remora review --project examples/sample_project
exit "$status"
