"""The review queue of a large project: how long listing it takes, in the CLI and the browser.

Analyses a pinned project as ``scale.py`` does (lint, docstring and sample_data against
the stand-in server at 0 ms: 21,563 changes at ``--size 20000``), or takes a project
already analysed (``--project``), then prints JSON (seconds; the load averages beside):

- ``review_list_s``: ``remora review list --format json`` in a fresh process, as a person
  runs it (the interpreter's start included);
- ``queue_first_s`` and ``queue_again_s``: the web queue's data (``load_queue``, what each
  view of ``remora serve``'s queue page reads) in one process, the first view and the next;
- ``show_s``: ``remora review show`` of the change to the largest file, in a fresh process.

``--src`` measures another checkout's remora on the same project (analysed once)::

    python benchmarks/review_queue.py --size 20000 --keep /tmp/queue
    python benchmarks/review_queue.py --project /tmp/queue/sqlalchemy-2.0.36 --src OTHER/src
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from scale import SOURCES, fetch, unpack
from standin_server import MODEL_ID, StandIn

ROOT = Path(__file__).resolve().parent.parent
OPERATIONS = "lint,docstring,sample_data"

_QUEUE = """
import json, sys, time
from pathlib import Path
from remora.results import ResultsDB
from remora.web.queue import QueueFilter, load_queue
from remora.workspace import WorkspaceStore
root = Path(sys.argv[1])
store, seconds = WorkspaceStore(root), []
for _ in range(2):
    with ResultsDB(root) as db:
        started = time.perf_counter()
        rows = len(load_queue(store, db, QueueFilter()).rows)
        seconds.append(time.perf_counter() - started)
print(json.dumps({"rows": rows, "seconds": seconds}))
"""


def _with(src: Path) -> dict[str, str]:
    """The environment of a process that imports ``src``'s remora."""
    return {**os.environ, "PYTHONPATH": str(src)}


def _remora(src: Path, project: Path, *args: str) -> tuple[float, str]:
    """Seconds and standard output of ``remora ARGS`` run with ``src``'s package."""
    command = [sys.executable, "-c", "from remora.cli.app import main; main()", *args]
    started = time.perf_counter()
    done = subprocess.run(command, cwd=project, env=_with(src), capture_output=True, text=True)
    if done.returncode:
        sys.exit(f"remora {' '.join(args)} exited {done.returncode}: {done.stderr[-2000:]}")
    return time.perf_counter() - started, done.stdout


def analysed(size: int, cache: Path, into: Path) -> Path:
    """The pinned project of ``size`` unpacked in ``into`` and analysed with the stand-in."""
    source = SOURCES[size]
    project = unpack(fetch(source, cache), into)
    with StandIn(0.0) as server:
        arguments = [*source.paths, "--format", "json", "-o", OPERATIONS]
        arguments += ["--provider", "openai", "--base-url", server.base_url, "--model", MODEL_ID]
        seconds, _ = _remora(ROOT / "src", project, "analyze", *arguments)
    print(f"analysed {source.name} {source.version} in {seconds:.1f} s", file=sys.stderr)
    return project


def measure(project: Path, src: Path) -> dict[str, Any]:
    figures: dict[str, Any] = {"project": str(project), "src": str(src)}
    figures["load_avg_before"] = [round(load, 2) for load in os.getloadavg()]
    seconds, listed = _remora(src, project, "review", "list", "--format", "json")
    items = json.loads(listed)
    figures["changes"] = len(items)
    figures["review_list_s"] = round(seconds, 2)
    queue = subprocess.run(
        [sys.executable, "-c", _QUEUE, str(project)], env=_with(src), capture_output=True, text=True
    )
    if queue.returncode:
        sys.exit(f"the queue's data: {queue.stderr[-2000:]}")
    read = json.loads(queue.stdout)
    figures["queue_rows"] = read["rows"]
    figures["queue_first_s"], figures["queue_again_s"] = (round(s, 2) for s in read["seconds"])
    if items:
        largest = max(items, key=lambda item: (project / item["file_path"]).stat().st_size)
        seconds, _ = _remora(src, project, "review", "show", largest["id"])
        figures["show_s"] = round(seconds, 2)
    figures["load_avg_after"] = [round(load, 2) for load in os.getloadavg()]
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=20000, help=f"of {sorted(SOURCES)}")
    parser.add_argument("--project", type=Path, help="an analysed project: measured as it is")
    parser.add_argument("--src", type=Path, default=ROOT / "src", help="remora's sources")
    parser.add_argument("--cache", type=Path, default=Path.home() / ".cache/remora/bench")
    parser.add_argument("--keep", type=Path, help="analyse into this folder and keep it")
    args = parser.parse_args()
    if args.size not in SOURCES:
        parser.error(f"--size: no project pinned for {args.size}; pinned: {sorted(SOURCES)}")
    if args.project is not None:
        print(json.dumps(measure(args.project.resolve(), args.src.resolve()), indent=1))
        return
    into = args.keep or Path(tempfile.mkdtemp(prefix="remora-queue-"))
    into.mkdir(parents=True, exist_ok=True)
    try:
        project = analysed(args.size, args.cache, into)
        print(json.dumps(measure(project, args.src.resolve()), indent=1))
    finally:
        if args.keep is None:
            shutil.rmtree(into, ignore_errors=True)


if __name__ == "__main__":
    main()
