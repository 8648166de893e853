"""`remora analyze` on real projects of about 500, 5,000 and 20,000 nodes: Remora's own cost.

The model is a stand-in (benchmarks/standin_server.py, on 127.0.0.1, started
here) that answers at once or after ``--latency-ms`` with one minimal valid tool
call: the figures are the host's cost around the model (discovery, ruff, the
sandbox, workspaces, records), not any model's speed or quality.

Projects are pinned sdists from PyPI (name, version, sha256), fetched once with
``pip download --no-deps --no-binary :all:`` into ``--cache`` (default
~/.cache/remora/bench) and unpacked afresh for each size; only some of their
folders are analysed, to land near each size.

Per size, one JSON object (a list of them is printed):

- discovery: ``remora.discovery.discover`` of the analysed folders alone, in a
  process of its own: nodes, wall, CPU-s (its parse processes included) and peak
  RSS; ``--discovery-only`` stops there (a size too large to analyse here);

- per_operation (unless ``--no-per-operation``): each operation alone on a fresh
  ``.remora/``: runs, wall, CPU-s of the command and everything it started
  (sandbox workers, ruff, bwrap'd programs: the script is a child subreaper, see
  benchmarks/process_cpu.py), of which the remora process's own (host) CPU, and
  CPU ms per run of each. An operation that runs pytest in the sandbox (``test``)
  is its own entry, so its cost stays apart from the others';
- combined: all the operations in one command: the same figures plus peak RSS of
  the remora process, the size of ``.remora/``, requests in flight at the
  stand-ins (max, and mean while requests came; with ``--servers N`` each server's
  too; ``in_flight_timeline``: [second, mean in flight] in at most 40 steps, where
  the start's ramp and the end's tail show apart from the steady state) and the
  unchanged second run's wall;
- profile (unless ``--no-profile``): the combined command again under cProfile on
  a fresh ``.remora/``, the top functions by own time and by cumulative time; the
  clock is the event loop thread's CPU time (``--profile-clock cpu``, what the
  per-run figures count; the work in worker threads is not in it) or wall time.

``--server-limit N`` sets each stand-in's ``model.max_in_flight`` and leaves ``-j`` to
analyze's default (what the servers take, with headroom): whether the agents keep the
servers' slots full.

``--processes N`` is passed to analyze (sandbox.host_processes: N host processes,
each on a shard of the files: the command's own runs the first, N − 1 children the
others). The host CPU then counts the children too (``shards_cpu_s``, sampled every
0.1 s from /proc; ``shards`` lists each child), and ``peak_rss_sum_mb`` is the
peak of the remora processes' RSS summed (sampled; the parent alone: ``peak_rss_mb``);
``peak_pss_sum_mb`` the peak of their PSS summed, sampled every second: the shared pages
(the interpreter, the extension modules each process maps) counted once, not once per
process — what they take of the machine's memory together.

Usage: python benchmarks/scale.py [--sizes 500,5000,20000] [--operations lint,docstring,sample_data]
       [--latency-ms 0] [--jobs N | --server-limit N] [--servers 1] [--processes N]
       [--no-per-operation]
       [--no-combined] [--no-profile] [--profile-clock cpu|wall] [--profile-out FILE]
       [--discovery-only] [--paths SOME,FILES] [--src OTHER_CHECKOUT/src] [--output FILE]
       [--queue-out DIR] [--agent-time]

``--agent-time`` logs the combined command's events and adds ``agent_time``
(benchmarks/agent_time.py): how full the ``-j`` places were kept, each run's share
with a request out, and per operation where the rest of a run's time went; and
``in_flight_mean_until_last_start``: the mean in flight while runs remain to be
started (from the first request to the last run's start; the drain after it, when
fewer runs are left than agents, is left out).

``--queue-out DIR`` writes, after each operation alone, every queued change
(benchmarks/analyze.py's ``queue_text``, by ``--src``'s remora) to
``DIR/SIZE-OPERATION.txt``: the same files from two commits say whether a change
left the review queue as it was.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import hashlib
import io
import json
import os
import pstats
import resource
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
from dataclasses import dataclass
from itertools import zip_longest
from pathlib import Path
from typing import Any

from agent_time import agent_time, read_events
from analyze import write_queue
from process_cpu import HostProcesses, become_subreaper, reap_orphans
from standin_server import MODEL_ID, StandIn

ROOT = Path(__file__).resolve().parents[1]


@dataclass(frozen=True)
class Source:
    name: str
    version: str
    sha256: str
    paths: tuple[str, ...]  # folders of the unpacked sdist that are analysed


SOURCES = {
    500: Source(
        "click",
        "8.1.7",
        "ca9853ad459e787e2192211578cc907e7594e294c7ccc834310722b41b9ca6de",
        ("src",),
    ),
    5000: Source(
        "Django",
        "5.1.4",
        "de450c09e91879fa5a307f696e57c851955c910a438a35e6b4c895e86bedc82a",
        ("django/db", "django/utils"),
    ),
    20000: Source(
        "sqlalchemy",
        "2.0.36",
        "7f2767680b6d2398aea7082e45a774b2b0767b5c8d8ffb9c8b683088ea9b29c5",
        ("lib", "test/sql", "test/engine"),
    ),
}

# The remora CLI, recording its own CPU and peak RSS at exit (RUSAGE_SELF, all its
# threads) and, when asked, a cProfile of its main thread (the event loop's).
_WRAPPER = """
import atexit, json, os, resource, sys
prof = None
if os.environ.get("REMORA_BENCH_PROFILE"):
    import cProfile, time
    wall = os.environ.get("REMORA_BENCH_PROFILE_CLOCK") == "wall"
    prof = cProfile.Profile(time.perf_counter if wall else time.thread_time)
    prof.enable()
def dump():
    if prof is not None:
        prof.disable()
        prof.dump_stats(os.environ["REMORA_BENCH_PROFILE"])
    use = resource.getrusage(resource.RUSAGE_SELF)
    with open(os.environ["REMORA_BENCH_SELF"], "w") as out:
        json.dump({"cpu_s": use.ru_utime + use.ru_stime, "peak_rss_kb": use.ru_maxrss}, out)
atexit.register(dump)
from remora.cli import main
sys.argv[0] = "remora"
sys.exit(main())
"""


# Discovery alone, as analyze runs it (default configuration), in a fresh process.
_DISCOVER = """
import json, resource, sys, time
from pathlib import Path
from remora.discovery import discover
root = Path.cwd()
started = time.perf_counter()
result = discover([root / p for p in sys.argv[1:]], project_root=root)
wall = time.perf_counter() - started
me = resource.getrusage(resource.RUSAGE_SELF)
kids = resource.getrusage(resource.RUSAGE_CHILDREN)
print(json.dumps({
    "nodes": len(result.nodes),
    "wall_s": round(wall, 2),
    "cpu_s": round(me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime, 2),
    "peak_rss_mb": round(me.ru_maxrss / 1024, 1),
}))
"""


def discovery(project: Path, source: Source, src: Path) -> dict[str, Any]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("REMORA_")}
    env["PYTHONPATH"] = os.pathsep.join([str(src), env.get("PYTHONPATH", "")])
    load = os.getloadavg()
    run = subprocess.run(
        [sys.executable, "-c", _DISCOVER, *source.paths],
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    if run.returncode != 0:
        sys.exit(f"discovery exited {run.returncode}: {run.stderr[-3000:]}")
    figures: dict[str, Any] = json.loads(run.stdout.splitlines()[-1])
    figures["load_avg_before"] = [round(x, 2) for x in load]
    return figures


def _steps(seconds: list[float], most: int = 40) -> list[list[float]]:
    """[second it starts, mean in flight] for at most ``most`` equal steps of a run."""
    width = max(1, -(-len(seconds) // most))
    chunks = [(start, seconds[start : start + width]) for start in range(0, len(seconds), width)]
    return [[float(start), round(sum(chunk) / len(chunk), 1)] for start, chunk in chunks]


def in_flight_until(seconds: list[float], first_request_at: float | None, until: float) -> float:
    """The mean in flight from the first request to ``until`` (a wall time, in whole seconds):
    with ``until`` the last run's start, the mean while runs remain to be started, the drain
    after it (fewer runs left than agents) left out. 0.0 when that is under a second."""
    whole = int(until - first_request_at) if first_request_at is not None else 0
    return round(sum(seconds[:whole]) / whole, 2) if whole >= 1 else 0.0


def fetch(source: Source, cache: Path) -> Path:
    """The sdist in ``cache`` (downloaded when missing), its sha256 checked."""
    cache.mkdir(parents=True, exist_ok=True)

    def find() -> Path | None:
        wanted = f"{source.name}-{source.version}.tar.gz".lower()
        return next((p for p in cache.iterdir() if p.name.lower() == wanted), None)

    found = find()
    if found is None:
        subprocess.run(
            [
                *(sys.executable, "-m", "pip", "download", "--quiet", "--no-deps"),
                *("--no-binary", ":all:", "-d", str(cache), f"{source.name}=={source.version}"),
            ],
            check=True,
        )
        found = find()
        if found is None:
            sys.exit(f"pip download left no {source.name}-{source.version}.tar.gz in {cache}")
    digest = hashlib.sha256(found.read_bytes()).hexdigest()
    if digest != source.sha256:
        sys.exit(f"{found}: sha256 {digest}, expected {source.sha256}; delete it to fetch again")
    return found


def unpack(sdist: Path, into: Path) -> Path:
    with tarfile.open(sdist) as archive:
        archive.extractall(into, filter="data")
    (root,) = [p for p in into.iterdir() if p.is_dir()]
    return root


def tree_bytes(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


def children_cpu_s() -> float:
    use = resource.getrusage(resource.RUSAGE_CHILDREN)
    return use.ru_utime + use.ru_stime


class Bench:
    def __init__(
        self, servers: list[StandIn], jobs: int | None, work: Path, src: Path, clock: str = "cpu"
    ) -> None:
        self.processes: str | None = None
        self.server_limit: int | None = None  # each server's max_in_flight, -j left to analyze
        self.servers = servers
        self.clock = clock
        self.src = src
        self.jobs = jobs
        self.work = work
        self.seconds: list[float] = []  # the last command's in flight, second by second
        self.first_request_at: float | None = None

    def command(self, source: Source, operations: str) -> list[str]:
        command = [*source.paths, "--format", "json", "-o", operations]
        urls = ",".join(server.base_url for server in self.servers)
        command += ["--provider", "openai", "--base-url", urls, "--model", MODEL_ID]
        if self.jobs:
            command += ["-j", str(self.jobs)]
        return command + (["--processes", self.processes] if self.processes else [])

    def in_flight(self) -> dict[str, Any]:
        """The stand-ins' figures: summed (the mean of a sum is the sum of the means: they
        count over nearly the same span), and each server's share when there are several."""
        each = [server.in_flight.summary() for server in self.servers]
        by_second = [e.pop("in_flight_by_second") for e in each]  # summed over servers
        seconds = [sum(column) for column in zip_longest(*by_second, fillvalue=0.0)]
        firsts = [e.pop("first_request_at") for e in each]
        self.seconds = seconds  # for in_flight_until, once the events are read
        self.first_request_at = min((t for t in firsts if t is not None), default=None)
        total = {
            "requests": sum(e["requests"] for e in each),
            "in_flight_max": sum(e["in_flight_max"] for e in each),
            "in_flight_mean": round(sum(e["in_flight_mean"] for e in each), 2),
            "in_flight_timeline": _steps(seconds),
        }
        if len(each) > 1:
            total["per_server"] = each
        return total

    def analyze(
        self, project: Path, arguments: list[str], profile: Path | None = None
    ) -> dict[str, Any]:
        env = {k: v for k, v in os.environ.items() if not k.startswith("REMORA_")}
        env["PYTHONPATH"] = os.pathsep.join([str(self.src), env.get("PYTHONPATH", "")])
        own = self.work / "self.json"
        env["REMORA_BENCH_SELF"] = str(own)
        if profile is not None:
            env["REMORA_BENCH_PROFILE"] = str(profile)
            env["REMORA_BENCH_PROFILE_CLOCK"] = self.clock
        if self.jobs:  # each server takes all of -j: the agents are the limit measured
            env["REMORA_MODEL__MAX_IN_FLIGHT"] = str(self.jobs)
        if self.server_limit:
            env["REMORA_MODEL__MAX_IN_FLIGHT"] = str(self.server_limit)
        for server in self.servers:
            server.in_flight.reset()
        cpu_before = children_cpu_s()
        load = os.getloadavg()
        started = time.perf_counter()
        process = subprocess.Popen(
            [sys.executable, "-c", _WRAPPER, "analyze", *arguments],
            cwd=project,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        hosts = HostProcesses(process.pid, b"remora.coordinator.shard_child")
        out, err = process.communicate()
        run = subprocess.CompletedProcess(process.args, process.returncode, out, err)
        wall = time.perf_counter() - started
        hosts.stop()
        reap_orphans()
        cpu = children_cpu_s() - cpu_before
        try:
            report = json.loads(run.stdout)
        except ValueError:
            sys.exit(f"analyze exited {run.returncode} without JSON: {run.stderr[-3000:]}")
        host = json.loads(own.read_text())
        shards_cpu_s = sum(hosts.cpu_s.values())
        host["cpu_s"] += shards_cpu_s
        ran = [r for r in report["results"] if not r.get("reused")]
        runs = len(ran) or 1
        return {
            "exit_code": run.returncode,
            "nodes": report["nodes"],
            "runs": len(ran),
            "reused": report.get("reused", 0),
            "counts": report["counts"],
            "failures": sorted({(r.get("error") or {}).get("code", "") for r in ran} - {""}),
            # What failed, so a failure at a size too large to run again can be reproduced.
            "failed_runs": [
                {
                    "node": f"{r['file_path']}::{r['node']}",
                    "operation": r["operation"],
                    "error": str((r.get("error") or {}).get("message", ""))[:300],
                }
                for r in ran
                if r.get("status") == "failed"
            ][:20],
            "wall_s": round(wall, 2),
            "cpu_s": round(cpu, 2),
            "host_cpu_s": round(host["cpu_s"], 2),
            "cpu_ms_per_run": round(cpu * 1000 / runs, 1),
            "host_cpu_ms_per_run": round(host["cpu_s"] * 1000 / runs, 1),
            "peak_rss_mb": round(host["peak_rss_kb"] / 1024, 1),
            "shards_cpu_s": round(shards_cpu_s, 2),
            "shards": [  # each child process: its CPU and when it ran (s from the start)
                {"cpu_s": round(cpu, 2), "ran_s": hosts.seen_s[pid]}
                for pid, cpu in hosts.cpu_s.items()
            ],
            "peak_rss_sum_mb": round(hosts.peak_rss_kb / 1024, 1),
            "peak_pss_sum_mb": round(hosts.peak_pss_kb / 1024, 1),
            "load_avg_before": [round(x, 2) for x in load],
            **self.in_flight(),
        }


def top_functions(profile: Path, sort: str, count: int = 15) -> list[dict[str, Any]]:
    stats = pstats.Stats(str(profile), stream=io.StringIO())
    rows = []
    for (file, line, name), (_, calls, own, cumulative, _) in stats.stats.items():  # type: ignore[attr-defined]
        rows.append(
            {
                "function": f"{Path(file).name}:{line}({name})",
                "calls": calls,
                "own_s": round(own, 3),
                "cumulative_s": round(cumulative, 3),
            }
        )
    key = "own_s" if sort == "own" else "cumulative_s"
    return sorted(rows, key=lambda r: -r[key])[:count]


def measure(size: int, args: argparse.Namespace, bench: Bench) -> dict[str, Any]:
    source = SOURCES[size]
    if args.paths:  # a part of the project, for a quick comparison
        source = dataclasses.replace(source, paths=tuple(args.paths.split(",")))
    sdist = fetch(source, args.cache)
    project = unpack(sdist, Path(tempfile.mkdtemp(prefix=f"scale-{size}-", dir=bench.work)))
    state = project / ".remora"
    result: dict[str, Any] = {
        "size": size,
        "project": f"{source.name}=={source.version}",
        "sha256": source.sha256,
        "paths": list(source.paths),
        "latency_ms": args.latency_ms,
        "servers": args.servers,
        "processes": args.processes or "analyze's default (sandbox.host_processes)",
    }
    result["discovery"] = discovery(project, source, bench.src)
    print(f"{size} discovery: {json.dumps(result['discovery'])}", file=sys.stderr)
    if args.discovery_only:
        shutil.rmtree(project.parent, ignore_errors=True)
        return result
    if not args.no_per_operation:
        result["per_operation"] = {}
        for operation in args.operations.split(","):
            shutil.rmtree(state, ignore_errors=True)
            figures = bench.analyze(project, bench.command(source, operation))
            result["per_operation"][operation] = figures
            if args.queue_out is not None:
                write_queue(project, bench.src, args.queue_out / f"{size}-{operation}.txt")
            print(f"{size} {operation}: {json.dumps(figures)}", file=sys.stderr)
    if args.no_combined:
        shutil.rmtree(project.parent, ignore_errors=True)
        return result
    shutil.rmtree(state, ignore_errors=True)
    events = bench.work / f"events-{size}.jsonl"
    logged = ["--events-file", str(events)] if args.agent_time else []
    combined = bench.analyze(project, bench.command(source, args.operations) + logged)
    if args.agent_time:
        logged_events = read_events(events)
        combined["agent_time"] = agent_time(logged_events)
        last_start = max(e["ts"] for e in logged_events if e["kind"] == "run_start")
        combined["in_flight_mean_until_last_start"] = in_flight_until(
            bench.seconds, bench.first_request_at, last_start
        )
    combined["remora_dir_mb"] = round(tree_bytes(state) / 2**20, 1)
    second = bench.analyze(project, bench.command(source, args.operations))
    combined["second_run_wall_s"] = second["wall_s"]
    combined["second_run_reused"] = second["reused"]
    result["combined"] = combined
    print(f"{size} combined: {json.dumps(combined)}", file=sys.stderr)
    if not args.no_profile:
        shutil.rmtree(state, ignore_errors=True)
        profile = bench.work / f"scale-{size}.prof"
        profiled = bench.analyze(project, bench.command(source, args.operations), profile)
        result["profile"] = {
            "wall_s_under_cprofile": profiled["wall_s"],
            "clock": args.profile_clock,
            "by_own_time": top_functions(profile, "own"),
            "by_cumulative_time": top_functions(profile, "cumulative"),
        }
        if args.profile_out:  # the whole profile, for pstats or snakeviz
            shutil.copyfile(profile, args.profile_out.with_suffix(f".{size}.prof"))
    shutil.rmtree(project.parent, ignore_errors=True)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="500,5000,20000", help=f"of {sorted(SOURCES)}")
    parser.add_argument("--operations", default="lint,docstring,sample_data")
    parser.add_argument("--latency-ms", type=float, default=0.0, help="the stand-in's latency")
    parser.add_argument("--jobs", type=int, default=None, help="-j (and each server's limit)")
    parser.add_argument("--servers", type=int, default=1, help="stand-ins, one base_url each")
    parser.add_argument(
        "--server-limit", type=int, default=None, help="each server's max_in_flight (no -j)"
    )
    parser.add_argument("--processes", default=None, help="analyze --processes (N or auto)")
    parser.add_argument("--cache", type=Path, default=Path.home() / ".cache/remora/bench")
    parser.add_argument("--no-per-operation", action="store_true")
    parser.add_argument("--paths", default="", help="analyse these folders or files instead")
    parser.add_argument("--no-combined", action="store_true", help="each operation alone only")
    parser.add_argument("--no-profile", action="store_true")
    parser.add_argument("--discovery-only", action="store_true", help="no analyze runs")
    parser.add_argument("--profile-clock", choices=("cpu", "wall"), default="cpu")
    parser.add_argument("--profile-out", type=Path, default=None, help="keep it: FILE.SIZE.prof")
    parser.add_argument(
        "--src", type=Path, default=ROOT / "src", help="remora's sources (another commit's)"
    )
    parser.add_argument("--output", type=Path, default=None, help="also write the JSON here")
    parser.add_argument("--queue-out", type=Path, default=None, help="the review queues here")
    parser.add_argument(
        "--agent-time", action="store_true", help="where the agents' time went (agent_time.py)"
    )
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    unknown = [s for s in sizes if s not in SOURCES]
    if unknown:
        parser.error(f"--sizes: no project pinned for {unknown}; pinned: {sorted(SOURCES)}")
    counts_sandboxes = become_subreaper()
    work = Path(tempfile.mkdtemp(prefix="remora-scale-"))
    results = []
    try:
        with contextlib.ExitStack() as stack:
            servers = [stack.enter_context(StandIn(args.latency_ms)) for _ in range(args.servers)]
            bench = Bench(servers, args.jobs, work, args.src.resolve(), args.profile_clock)
            bench.processes = args.processes
            bench.server_limit = args.server_limit
            for size in sizes:
                results.append(measure(size, args, bench))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    report = {
        "what": "Remora's own cost against a stand-in model server, not a model's",
        "cpu_count": os.cpu_count(),
        "cpu_counts_sandboxed_programs": counts_sandboxes,
        "operations": args.operations,
        "src": str(args.src),
        "load_avg_after": [round(x, 2) for x in os.getloadavg()],
        "sizes": results,
    }
    text = json.dumps(report, indent=2)
    print(text)
    if args.output:
        args.output.write_text(text + "\n")


if __name__ == "__main__":
    main()
