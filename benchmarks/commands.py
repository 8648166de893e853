"""What the bubblewrap sandbox costs a ``run_command`` call.

Three timings per call of ``python -c pass`` on a temp project of N small files:

* ``run_command``: the whole call (copy of the workspace, bwrap, read-back);
* ``bwrap_only``: bwrap with the same mounts around the same command, no copy;
* ``plain``: the command as a bare subprocess.

``bwrap_only - plain`` is the sandbox's own cost; the rest of ``run_command``
is the copy and the read-back.

    .venv/bin/python benchmarks/commands.py [--calls 20] [--files 200]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from remora.sandbox.commands import run_command
from remora.sandbox.isolation import bwrap_argv, sandbox_problem
from remora.workspace import WorkspaceStore


def _p50_ms(samples: list[float]) -> float:
    return round(statistics.median(samples) * 1000, 2)


def _timed(action: Callable[[], object], calls: int) -> list[float]:
    samples = []
    for _ in range(calls):
        started = time.perf_counter()
        action()
        samples.append(time.perf_counter() - started)
    return samples


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=20)
    parser.add_argument("--files", type=int, default=200)
    args = parser.parse_args()
    problem = sandbox_problem()
    if problem is not None:
        sys.exit(f"no sandbox here: {problem}")
    with tempfile.TemporaryDirectory(prefix="remora-bench-") as folder:
        root = Path(folder) / "project"
        (root / "pkg").mkdir(parents=True)
        for i in range(args.files):
            (root / "pkg" / f"m{i:04}.py").write_text(f"VALUE = {i}\n" * 20)
        ws = WorkspaceStore(root).create("bench", "commands")
        argv = [sys.executable, "-c", "pass"]
        whole = _timed(lambda: asyncio.run(run_command(ws, argv, timeout_s=60)), args.calls)
        writable = Path(os.path.realpath(folder))
        sandboxed = bwrap_argv("bwrap", writable, sys.executable, ["-c", "pass"], writable)
        bwrap_only = _timed(lambda: subprocess.run(sandboxed, check=True), args.calls)
        plain = _timed(lambda: subprocess.run(argv, check=True), args.calls)
        ws.close()
    print(
        json.dumps(
            {
                "calls": args.calls,
                "files": args.files,
                "run_command_p50_ms": _p50_ms(whole),
                "bwrap_only_p50_ms": _p50_ms(bwrap_only),
                "plain_p50_ms": _p50_ms(plain),
                "sandbox_cost_p50_ms": round(_p50_ms(bwrap_only) - _p50_ms(plain), 2),
                "load_average": os.getloadavg(),
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    main()
