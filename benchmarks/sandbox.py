"""One sandboxed tool call against one Python subprocess per tool.

Figures: docs/performance.md, "The latest figures".

The tool reads a file through the ``read_file`` external (bound to a real
workspace over a temp project) and returns its line count. Each call is a full
``SandboxRuntime.run``: input validation, a clean checkout of a warm worker,
limits, the feed, the awaited external, the envelope. The peer does the same
work the way a tool would without the sandbox: ``python -c`` reading the file
and printing JSON, one process per call. Targets: p50 <= 1 ms, >= 50x faster.

Also reported: the load + check of a script (first time and cached), a bare run
without externals, and the workspace figures on a 1000-file project (from
``benchmarks/workspace.py`` when present).

    .venv/bin/python benchmarks/sandbox.py [--calls 500] [--subprocess-calls 40]
"""

from __future__ import annotations

import argparse
import asyncio
import importlib.util
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from remora.code import load_tool_script
from remora.config import SandboxConfig
from remora.sandbox import SandboxRuntime, build_externals, clear_cache
from remora.workspace import WorkspaceStore

TARGET_P50_MS = 1.0
TARGET_SPEEDUP = 50.0

TOOL = """from remora.pym import Input, external

path: str = Input("path")

@external
async def read_file(path: str) -> str: ...

text = await read_file(path)
{"lines": len(text.splitlines())}
"""
PEER = (
    "import json, sys; text = open(sys.argv[1], encoding='utf-8').read(); "
    "print(json.dumps({'lines': len(text.splitlines())}))"
)


def _stats(samples_ms: list[float]) -> dict[str, float]:
    ordered = sorted(samples_ms)
    return {
        "p50_ms": round(statistics.median(ordered), 4),
        "p90_ms": round(ordered[int(len(ordered) * 0.9)], 4),
        "mean_ms": round(statistics.fmean(ordered), 4),
        "n": len(ordered),
    }


async def _time_async(fn: Callable[[], Awaitable[Any]], count: int) -> list[float]:
    samples = []
    for _ in range(count):
        start = time.perf_counter()
        await fn()
        samples.append((time.perf_counter() - start) * 1000)
    return samples


async def _sandbox_figures(project: Path, tool: Path, bare: Path, calls: int) -> dict[str, Any]:
    config = SandboxConfig()
    clear_cache()
    start = time.perf_counter()
    script = load_tool_script(tool)
    load_first_ms = (time.perf_counter() - start) * 1000
    start = time.perf_counter()
    load_tool_script(tool)
    load_cached_ms = (time.perf_counter() - start) * 1000
    bare_script = load_tool_script(bare)
    ws = WorkspaceStore(project).create("bench", "sandbox")
    externals = build_externals(ws, None, config)
    inputs = {"path": "pkg/mod.py"}
    try:
        async with SandboxRuntime(config) as runtime:
            expected = await runtime.run(script, inputs, externals)
            assert expected == {"ok": True, "result": {"lines": 60}, "prints": ""}, expected
            for _ in range(50):  # warm both workers and the caches
                await runtime.run(script, inputs, externals)
            read = await _time_async(lambda: runtime.run(script, inputs, externals), calls)
            plain = await _time_async(lambda: runtime.run(bare_script, {}, {}), calls)
    finally:
        ws.close()
    return {
        "read": _stats(read),
        "bare": _stats(plain),
        "load_first_ms": round(load_first_ms, 3),
        "load_cached_ms": round(load_cached_ms, 4),
    }


def _subprocess_figures(project: Path, calls: int) -> dict[str, float]:
    target = str(project / "pkg" / "mod.py")
    samples = []
    for _ in range(calls + 3):
        start = time.perf_counter()
        out = subprocess.run(
            [sys.executable, "-c", PEER, target], capture_output=True, text=True, check=True
        ).stdout
        samples.append((time.perf_counter() - start) * 1000)
        assert json.loads(out) == {"lines": 60}
    return _stats(samples[3:])


def _workspace_figures(tmp: Path) -> dict[str, Any] | str:
    path = Path(__file__).with_name("workspace.py")
    if not path.is_file():
        return "benchmarks/workspace.py not found"
    spec = importlib.util.spec_from_file_location("remora_bench_workspace", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    figures: dict[str, Any] = module.workspace_figures(tmp)
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--calls", type=int, default=500)
    parser.add_argument("--subprocess-calls", type=int, default=40)
    parser.add_argument(
        "--no-workspace", action="store_true", help="skip the 1000-file workspace figures"
    )
    options = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="remora-sandbox-bench-") as tmp_name:
        tmp = Path(tmp_name)
        project = tmp / "project"
        (project / "pkg").mkdir(parents=True)
        (project / "pkg" / "mod.py").write_text(
            "".join(f"def f{i}(x):\n    return x + {i}\n\n" for i in range(20))
        )
        tool = tmp / "read.pym"
        tool.write_text(TOOL)
        bare = tmp / "bare.pym"
        bare.write_text("{'lines': 60}\n")
        sandbox = asyncio.run(_sandbox_figures(project, tool, bare, options.calls))
        peer = _subprocess_figures(project, options.subprocess_calls)
        workspace = "skipped" if options.no_workspace else _workspace_figures(tmp / "workspace")
    read, sub = sandbox["read"], peer
    speedup = sub["p50_ms"] / read["p50_ms"]
    report = {
        "external_read_p50_ms": read["p50_ms"],
        "external_read_p90_ms": read["p90_ms"],
        "external_read_mean_ms": read["mean_ms"],
        "subprocess_p50_ms": sub["p50_ms"],
        "subprocess_p90_ms": sub["p90_ms"],
        "speedup_p50": round(speedup, 1),
        "target_p50_ms": TARGET_P50_MS,
        "target_speedup": TARGET_SPEEDUP,
        "meets_targets": read["p50_ms"] <= TARGET_P50_MS and speedup >= TARGET_SPEEDUP,
        "bare_run_p50_ms": sandbox["bare"]["p50_ms"],
        "bare_run_p90_ms": sandbox["bare"]["p90_ms"],
        "load_and_check_first_ms": sandbox["load_first_ms"],
        "load_cached_ms": sandbox["load_cached_ms"],
        "calls": read["n"],
        "subprocess_calls": sub["n"],
        "workspace_1000_files": workspace,
        "python": platform.python_version(),
        "cpus": os.cpu_count(),
        "load_avg": [round(x, 2) for x in os.getloadavg()],
    }
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
