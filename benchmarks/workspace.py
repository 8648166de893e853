"""Workspace figures on a 1000-file project: create, writes, reads, diff, materialise, accept.

Run: ``.venv/bin/python benchmarks/workspace.py`` (prints JSON). The sandbox
benchmark imports :func:`workspace_figures` to include these numbers.
"""

from __future__ import annotations

import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

__all__ = ["workspace_figures"]

FILES = 1000


def _make_project(root: Path, files: int) -> None:
    for i in range(files):
        folder = root / "pkg" / f"sub{i // 50:02}"
        folder.mkdir(parents=True, exist_ok=True)
        body = "".join(f"def f{j}(x):\n    return x + {j}\n\n" for j in range(20))
        (folder / f"mod{i:04}.py").write_text(f'"""Module {i}."""\n\n{body}')


def _ms(start: float) -> float:
    return round((time.perf_counter() - start) * 1000, 3)


def _per_call_us(fn: Callable[[int], Any], count: int) -> dict[str, float]:
    samples = []
    for i in range(count):
        start = time.perf_counter()
        fn(i)
        samples.append((time.perf_counter() - start) * 1e6)
    samples.sort()
    return {
        "p50_us": round(statistics.median(samples), 1),
        "p95_us": round(samples[int(len(samples) * 0.95)], 1),
        "total_ms": round(sum(samples) / 1000, 3),
    }


def workspace_figures(tmp: Path, files: int = FILES) -> dict[str, Any]:
    """Time the workspace operations on a generated ``files``-file project under ``tmp``."""
    from remora.workspace import WorkspaceStore
    from remora.workspace.diff import change_stats
    from remora.workspace.sync import absorb, materialize

    root = tmp / "ws_bench_project"
    if root.exists():
        shutil.rmtree(root)
    _make_project(root, files)
    paths = sorted(p.relative_to(root).as_posix() for p in root.rglob("*.py"))
    store = WorkspaceStore(root)

    start = time.perf_counter()
    ws = store.create("bench", "n1")
    create_ms = _ms(start)

    reads = _per_call_us(lambda i: ws.read(paths[i]), len(paths))
    originals = {p: (root / p).read_bytes() for p in paths}
    writes = _per_call_us(
        lambda i: ws.write(paths[i], originals[paths[i]].replace(b"return x", b"return -x", 1)),
        len(paths),
    )
    overlay_reads = _per_call_us(lambda i: ws.read(paths[i]), len(paths))

    start = time.perf_counter()
    diff = ws.diff()
    diff_ms = _ms(start)
    start = time.perf_counter()
    stats = change_stats(ws.changes())
    stats_ms = _ms(start)

    dest = tmp / "ws_bench_copy"
    start = time.perf_counter()
    materialize(ws, dest)
    materialize_ms = _ms(start)
    start = time.perf_counter()
    absorbed = absorb(ws, dest)
    absorb_ms = _ms(start)
    shutil.rmtree(dest)
    ws.close()

    start = time.perf_counter()
    report = store.accept("bench-n1")
    accept_ms = _ms(start)
    assert report.accepted and len(report.written) == files, report

    return {
        "files": files,
        "create_ms": create_ms,
        "read_fallthrough": reads,
        "write": writes,
        "read_overlay": overlay_reads,
        "diff_ms": diff_ms,
        "diff_bytes": len(diff),
        "stats_ms": stats_ms,
        "stats": stats,
        "materialize_ms": materialize_ms,
        "absorb_unchanged_ms": absorb_ms,
        "absorbed": len(absorbed),
        "accept_ms": accept_ms,
        "accept_per_file_ms": round(accept_ms / files, 3),
    }


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="remora-ws-bench-") as tmp:
        figures = workspace_figures(Path(tmp))
    figures["python"] = sys.version.split()[0]
    figures["cpus"] = os.cpu_count()
    print(json.dumps(figures, indent=2))


if __name__ == "__main__":
    main()
