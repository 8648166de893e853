#!/bin/bash
# On a lent many-core machine (no PyPI there): install .device/ (benchmarks/device/bundle.sh)
# and run scale.py's in-flight check, then print its figures, one JSON line per variant.
#
#   bash benchmarks/device/run.sh [VARIANT ...]      # default: j64p16
#
# j64p16  the target: -j 64 over 16 processes, SQLAlchemy's orm + engine + sql, 200 ms
# j64p8   the same over 8 processes
# j4p1    the per-process share on two of engine's files (as the 2-core runs measure it)
# The whole scale.py JSON of each goes to $OUT/VARIANT.json, its stderr beside it.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
bundle="$root/.device"
out=${OUT:-/tmp/remora-device}
mkdir -p "$out"
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
  --target /tmp/site "$bundle"/wheels/*.whl || exit 1
# Compiled once, on every core, as an install would: otherwise the shards' interpreters,
# all starting at once, each compile what they import and the start is measured slower.
python3 -m compileall -q -j 0 /tmp/site "$root/src" > /dev/null \
  || echo "compileall: some files did not compile; their imports will"
export PYTHONPATH=/tmp/site:$root/src PATH=/tmp/site/bin:$PATH PYTHONUNBUFFERED=1
if ! bwrap --version > /dev/null 2>&1; then
  mkdir -p /tmp/bwrap
  printf '#!/bin/sh\nLD_LIBRARY_PATH=%s exec %s "$@"\n' "$bundle/bwrap" "$bundle/bwrap/bwrap.real" \
    > /tmp/bwrap/bwrap
  chmod +x /tmp/bwrap/bwrap
  export PATH=/tmp/bwrap:$PATH
fi
echo "python $(python3 --version 2>&1 | cut -d' ' -f2), $(nproc) cores, $(bwrap --version)," \
  "ruff $(ruff --version | cut -d' ' -f2)"
bwrap --ro-bind / / --dev /dev --proc /proc true || { echo "bwrap cannot make a sandbox here"; exit 1; }
for variant in "${@:-j64p16}"; do
  paths=lib/sqlalchemy/orm,lib/sqlalchemy/engine,lib/sqlalchemy/sql
  case $variant in
    j64p16) extra=(--jobs 64 --processes 16) ;;
    j64p8) extra=(--jobs 64 --processes 8) ;;
    j4p1) extra=(--jobs 4 --processes 1)
      paths=lib/sqlalchemy/engine/cursor.py,lib/sqlalchemy/engine/default.py ;;
    *) echo "run.sh: unknown variant $variant (j64p16, j64p8, j4p1)"; exit 2 ;;
  esac
  load=$(cut -d' ' -f1-3 /proc/loadavg)
  python3 "$root/benchmarks/scale.py" --cache "$bundle/bench" --sizes 20000 --paths "$paths" \
    --latency-ms 200 --no-per-operation --no-profile --agent-time "${extra[@]}" \
    --output "$out/$variant.json" > /dev/null 2> "$out/$variant.err" \
    || { echo "$variant: scale.py failed"; tail -20 "$out/$variant.err"; continue; }
  python3 - "$out/$variant.json" "$variant" "$load" <<'EOF'
import json
import sys

path, variant, load = sys.argv[1:]
combined = json.load(open(path))["sizes"][0]["combined"]
agents = combined["agent_time"]
figures = {"variant": variant, "load_before": load}
for key in ("runs", "wall_s", "in_flight_mean", "in_flight_mean_until_last_start",
            "in_flight_max", "host_cpu_ms_per_run"):
    figures[key] = combined[key]
figures["failed"] = combined["counts"]["failed"]
for key in ("places_held_mean", "request_share_of_places", "runs_active_mean"):
    figures[key] = agents[key]
figures["timeline_head"] = combined["in_flight_timeline"][:4]  # [second, in flight]
print(json.dumps(figures))
EOF
done
