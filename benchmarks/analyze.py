"""`remora analyze` on the sample project, measured: prints one JSON object.

Runs the real CLI in a subprocess on a fresh copy of examples/sample_project
(embedded model by default) with the JSONL event log on, then reports:

- wall_s: the command's wall time;
- peak_rss_mb: the largest resident set of the command (target <= 600 MB with
  the embedded model; RUSAGE_CHILDREN, so it is the remora process itself);
- outside_model_share: the share of wall time when no model call was in flight,
  from the union of the model_response events' intervals (target <= 5%);
- cpu_utilisation: CPU seconds of the command and everything it started
  (sandbox workers, ruff, pytest) per wall second; 2.0 = both cores of a 2-core
  machine (target >= 1.8). The script becomes a child subreaper so that the
  programs bubblewrap runs count too (benchmarks/process_cpu.py says why);
  cpu_counts_sandboxed_programs is false where it could not;
- machine_cpu_utilisation: the same over every process of the machine
  (/proc/stat), a cross-check that also counts whatever else was running;
- counts, failures by code, model turns and tool calls the host made instead of
  the model per run, tokens per run and the prompt-cache share, from the events;
- engine_prompt_s_sum / engine_generation_s_sum: llama.cpp's own time reading
  prompts and generating, summed over requests (slots overlap, so the sums can
  exceed the wall time);
- second_run_wall_s: the same command again on the unchanged copy, where every
  node × operation keeps its result (target <= 5 s);
- load_avg_*: the machine's load average before and after, to judge the figures.

``--queue-out FILE`` writes every queued change (summary and diff), ordered by
file, node and operation: the same file from two commits (run with
``PYTHONPATH=WORKTREE/src``) says whether a change left the queue as it was.

Usage: python benchmarks/analyze.py [--operations lint,docstring] [--paths inventory]
       [--provider embedded] [--threads N] [--jobs N] [--slots N] [--engines N] [--keep]
       [--queue-out FILE]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from process_cpu import become_subreaper, machine_busy_s, reap_orphans

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "examples" / "sample_project"
REMORA = str(Path(sys.executable).with_name("remora"))


def queue_text(project: Path) -> str:
    """Every change waiting for review, ordered by file, node and operation (ids are new
    in every run, so two runs compare by what was changed where): its summary and diff."""
    from remora.review import list_changes, show  # the code under measurement

    items = sorted(list_changes(project), key=lambda i: (i.file_path, i.node, i.operation))
    parts = []
    for item in items:
        head = f"=== {item.operation} {item.node} [{item.status}] {item.summary}"
        parts.append(f"{head}\n{show(item.id, project=project).diff}")
    return "".join(parts)


_QUEUE = """
import sys
from pathlib import Path
sys.path.insert(0, sys.argv[1])
from analyze import queue_text
Path(sys.argv[2]).write_text(queue_text(Path.cwd()))
"""


def write_queue(project: Path, src: Path, into: Path) -> None:
    """The review queue of ``project`` as ``src``'s remora lists it (see analyze.py)."""
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(src), os.environ.get("PYTHONPATH", "")]),
    }
    into.parent.mkdir(parents=True, exist_ok=True)
    here = str(Path(__file__).resolve().parent)
    subprocess.run(
        [sys.executable, "-c", _QUEUE, here, str(into)], cwd=project, env=env, check=True
    )


def union_length(intervals: list[tuple[float, float]]) -> float:
    total = 0.0
    end = float("-inf")
    for start, stop in sorted(intervals):
        if start > end:
            total += stop - start
            end = stop
        elif stop > end:
            total += stop - end
            end = stop
    return total


def figures(events: list[dict[str, Any]], wall_s: float) -> dict[str, Any]:
    responses = [e for e in events if e["kind"] == "model_response"]
    intervals = [(e["ts"] - float(e.get("duration_s") or 0.0), e["ts"]) for e in responses]
    in_model = union_length(intervals)
    # Start-up, discovery and engine load count against Remora: the window is the
    # command's whole wall time, measured outside the process.
    window = wall_s
    prompt = sum(int(e.get("prompt_tokens") or 0) for e in responses)
    cached = sum(int(e.get("cached_tokens") or 0) for e in responses)
    later = [e for e in responses if int(e.get("turn") or 0) >= 2]
    later_prompt = sum(int(e.get("prompt_tokens") or 0) for e in later)
    later_cached = sum(int(e.get("cached_tokens") or 0) for e in later)
    ends = [e for e in events if e["kind"] == "run_end"]
    tools = [e for e in events if e["kind"] == "tool_result"]
    runs = len(ends) or 1
    failures: dict[str, int] = {}
    for end in ends:
        code = (end.get("error") or {}).get("code")
        if code:
            failures[code] = failures.get(code, 0) + 1
    return {
        "model_time_s": round(in_model, 3),
        "outside_model_s": round(max(window - in_model, 0.0), 3),
        "outside_model_share": round(max(window - in_model, 0.0) / window, 4) if window else None,
        "model_calls": len(responses),
        "model_call_s_sum": round(sum(float(e.get("duration_s") or 0) for e in responses), 3),
        "agent_runs": len(ends),
        "turns_per_run": round(len(responses) / len(ends), 2) if ends else None,
        "host_calls_per_run": round(sum(int(e.get("host_calls") or 0) for e in ends) / runs, 2),
        "runs_without_model_turn": sum(1 for e in ends if not int(e.get("turns") or 0)),
        "prompt_tokens_per_run": round(prompt / runs, 1),
        "completion_tokens_per_run": round(
            sum(int(e.get("completion_tokens") or 0) for e in responses) / runs, 1
        ),
        "queued_s_sum": round(sum(float(e.get("queued_s") or 0) for e in responses), 3),
        # llama.cpp's own times: reading prompts and generating, summed over requests.
        "engine_prompt_s_sum": round(sum(float(e.get("prompt_s") or 0) for e in responses), 3),
        "engine_generation_s_sum": round(
            sum(float(e.get("generation_s") or 0) for e in responses), 3
        ),
        "failures_by_code": failures,
        "tool_calls": len(tools),
        "tool_s_sum": round(sum(float(e.get("duration_s") or 0) for e in tools), 3),
        "prompt_tokens": prompt,
        "completion_tokens": sum(int(e.get("completion_tokens") or 0) for e in responses),
        "cached_share": round(cached / prompt, 3) if prompt else None,
        "cached_share_turn2_on": round(later_cached / later_prompt, 3) if later_prompt else None,
        "timeouts": sum(1 for e in ends if (e.get("error") or {}).get("code") == "AGENT_002"),
    }


def _reused(stdout: str) -> int | None:
    """How many results the second run kept, from its JSON report."""
    try:
        return int(json.loads(stdout).get("reused", 0))
    except (ValueError, AttributeError):
        return None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--operations", default="", help="-o for analyze (default: all enabled)")
    parser.add_argument("--paths", default=".", help="paths inside the project copy")
    parser.add_argument("--provider", default="embedded")
    parser.add_argument("--threads", type=int, default=None, help="embedded: CPU threads")
    parser.add_argument("--jobs", type=int, default=None, help="max_concurrent_agents")
    parser.add_argument("--slots", type=int, default=None, help="embedded: parallel slots")
    parser.add_argument("--engines", type=int, default=None, help="embedded: model copies")
    parser.add_argument("--ctx", type=int, default=None, help="embedded: context per slot")
    parser.add_argument("--keep", action="store_true", help="keep the project copy")
    parser.add_argument(
        "--queue-out",
        type=Path,
        default=None,
        help="write every queued change's diff here, by operation and node (compare two commits)",
    )
    args = parser.parse_args()

    work = Path(tempfile.mkdtemp(prefix="remora-bench-"))
    project = work / "sample_project"
    shutil.copytree(
        SAMPLE,
        project,
        ignore=shutil.ignore_patterns(".remora", "__pycache__", ".pytest_cache", ".ruff_cache"),
    )
    events_file = work / "events.jsonl"
    command = [
        REMORA,
        "analyze",
        *args.paths.split(","),
        "--format",
        "json",
        "--provider",
        args.provider,
        "--events-file",
        str(events_file),
    ]
    if args.operations:
        command += ["-o", args.operations]
    if args.jobs:
        command += ["-j", str(args.jobs)]
    env = {k: v for k, v in os.environ.items() if not k.startswith("REMORA_")}
    if args.threads:
        env["REMORA_MODEL__THREADS"] = str(args.threads)
    if args.slots:
        env["REMORA_MODEL__N_PARALLEL"] = str(args.slots)
    if args.engines:
        env["REMORA_MODEL__ENGINES"] = str(args.engines)
    if args.ctx:
        env["REMORA_MODEL__N_CTX_PER_SLOT"] = str(args.ctx)
    counts_sandboxes = become_subreaper()
    load_before = os.getloadavg()
    busy_before = machine_busy_s()
    started = time.perf_counter()
    run = subprocess.run(command, cwd=project, env=env, capture_output=True, text=True)
    wall = time.perf_counter() - started
    busy_after = machine_busy_s()
    reap_orphans()
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    peak_kb = usage.ru_maxrss
    cpu_s = usage.ru_utime + usage.ru_stime
    load_after = os.getloadavg()
    # The same command on the unchanged copy: every result is kept.
    second_command = [c for c in command if c != str(events_file)]
    second_command.remove("--events-file")
    again = time.perf_counter()
    second = subprocess.run(second_command, cwd=project, env=env, capture_output=True, text=True)
    second_wall = time.perf_counter() - again
    reap_orphans()
    try:
        report = json.loads(run.stdout)
    except ValueError:
        print(
            json.dumps(
                {
                    "error": "analyze did not print JSON",
                    "exit_code": run.returncode,
                    "stderr": run.stderr[-2000:],
                },
                indent=2,
            )
        )
        sys.exit(1)
    events = [json.loads(line) for line in events_file.read_text().splitlines()]
    result = {
        "command": " ".join(["remora", *command[1:]]).replace(str(events_file), "EVENTS"),
        "cpu_count": os.cpu_count(),
        "load_avg_before": [round(x, 2) for x in load_before],
        "load_avg_after": [round(x, 2) for x in load_after],
        "exit_code": run.returncode,
        "nodes": report["nodes"],
        "operations": report["operations"],
        "results": len(report["results"]),
        "counts": report["counts"],
        "wall_s": round(wall, 2),
        "cpu_utilisation": round(cpu_s / wall, 3) if wall else None,
        "cpu_counts_sandboxed_programs": counts_sandboxes,
        "machine_cpu_utilisation": (
            round((busy_after - busy_before) / wall, 3)
            if wall and busy_before is not None and busy_after is not None
            else None
        ),
        "peak_rss_mb": round(peak_kb / 1024, 1),
        "second_run_wall_s": round(second_wall, 2),
        "second_run_exit_code": second.returncode,
        "second_run_reused": _reused(second.stdout),
        **figures(events, wall),
        "targets": {
            "wall_s": 180,
            "cpu_utilisation": 1.8,
            "timeouts": 0,
            "second_run_wall_s": 5,
            "peak_rss_mb": 600,
            "outside_model_share": 0.05,
        },
    }
    print(json.dumps(result, indent=2))
    if args.queue_out is not None:
        args.queue_out.write_text(queue_text(project), encoding="utf-8")
    if args.keep:
        print(f"project kept at {project}", file=sys.stderr)
    else:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
