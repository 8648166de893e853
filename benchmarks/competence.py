"""Competence benchmark: what each bundled agent achieves on real code no one here wrote.

Runs Remora's coordinator (the same one ``remora analyze`` uses) on temporary
copies of small pure-Python projects from PyPI (pinned sdists, fetched once into
``~/.cache/remora/competence``), then reads the results database and the
workspaces and measures each run with an oracle that needs no judgement:

- docstring: the author's docstring is removed first; ROUGE-L F1 of the written
  summary against the author's first line, beside a summary made from the name;
  share of runs that left no summary; exact parameter sections; nothing but the
  docstring changed; the file parses.
- test: share of the new tests that pass; coverage.py branch-mode coverage of
  the node's body by them.
- sample_data: the fixtures the run added to a conftest, their argument sets,
  the sets a new test reads, those tests' cases passing in two pytest runs, and
  the node's lines and branches their calls reach (competence_lib/sample_oracle.py).
- lint: share of runs whose change equals ruff's own safe fix for the findings
  on the node's lines.
- every operation: runs finished, failed (by error code), degraded, turns and
  tokens per run, wall time, and the per-change checks (benchmarks/competence_lib/checks.py).

The corpus has a development part and a held-out part (``--part dev|heldout|all``,
competence_lib/corpus.py): each part's figures are reported on their own.

Usage: python benchmarks/competence.py [--limit N] [--operations docstring,test]
       [--projects inflection,toolz] [--part dev|heldout|all]
       [--provider openai --base-url URL --model ID]
       [--config remora.yaml] [--format table|json] [--json-out FILE] [-j N]
"""

from __future__ import annotations

import argparse
import ast
import asyncio
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import asdict
from pathlib import Path
from typing import Any

from competence_lib.checks import (
    check_change,
    check_docstring,
    findings_on,
    ruff_safe_fix,
    summary_line,
)
from competence_lib.corpus import (
    CORPUS,
    DEFAULT_COUNTS,
    OPERATIONS,
    PARTS,
    CorpusError,
    Project,
    Target,
    choose_targets,
    copy_project,
    fetch,
    remove_own_tests,
    strip_docstrings,
    write_lint_config,
)
from competence_lib.host_only import host_only_factory
from competence_lib.oracles import (
    changes_of,
    measure_tests,
    name_summary,
    rouge_l,
)
from competence_lib.report import corpus_listing, figures, share_table, table
from competence_lib.sample_oracle import SAMPLE_FIGURES, measure_samples

from remora.config import LoadedConfig, load_config
from remora.coordinator import Coordinator, TaskOutcome
from remora.coordinator.provider_pool import ProviderFactory
from remora.discovery import discover
from remora.discovery.node import CSTNode
from remora.errors import RemoraError
from remora.results import ResultsDB
from remora.results.db import ResultRecord
from remora.workspace import WorkspaceStore

ROOT = Path(__file__).resolve().parents[1]


class Progress:
    """One line on stderr per finished run, numbered over the whole benchmark."""

    def __init__(self, total: int) -> None:
        self.total, self.done, self.label = total, 0, ""

    def started(self, total: int) -> None:
        return None

    def task_started(self, node: CSTNode, operation: str) -> None:
        return None

    def task_done(self, outcome: TaskOutcome) -> None:
        self.done += 1
        result = outcome.result
        code = f" {result.error.code}" if result.error else ""
        print(
            f"[{self.done}/{self.total}] {self.label} {outcome.operation} {outcome.node.full_name}:"
            f" {result.status}{code} ({result.turns} turns, {result.duration_s:.1f} s)",
            file=sys.stderr,
            flush=True,
        )

    def finished(self) -> None:
        return None


def load(args: argparse.Namespace, project: Path) -> LoadedConfig:
    """Remora's own configuration for the copy: --config, REMORA_* variables, then flags."""
    model: dict[str, Any] = {}
    for key, value in (
        ("provider", args.provider),
        ("id", args.model),
        ("base_url", args.base_url),
        ("path", args.model_path),
    ):
        if value is not None:
            model[key] = value
    overrides: dict[str, Any] = {"model": model} if model else {}
    if args.jobs:
        overrides["sandbox"] = {"max_concurrent_agents": args.jobs}
    return load_config(args.config, overrides, project_root=project)


async def run_batch(
    loaded: LoadedConfig,
    copy: Path,
    operation: str,
    targets: list[Target],
    progress: Progress,
    factory: ProviderFactory | None = None,
) -> tuple[list[ResultRecord], float, bool]:
    """Run ``operation`` on the targets in ``copy``; the recorded results, wall time, faulted."""
    files = sorted({t.file_path for t in targets})
    found = discover([copy / f for f in files], project_root=copy, config=loaded.config.discovery)
    index = {(n.file_path, n.full_name): n for n in found.nodes}
    missing = [t.full_name for t in targets if (t.file_path, t.full_name) not in index]
    if missing:
        raise RuntimeError(f"discovery lost the targets {missing} in {copy}")
    nodes = [index[(t.file_path, t.full_name)] for t in targets]
    started = time.perf_counter()
    coordinator = Coordinator(
        loaded.config, copy, progress=progress, command="competence", provider_factory=factory
    )
    async with coordinator:
        report = await coordinator.analyze(nodes, [operation])
    wall = time.perf_counter() - started
    with ResultsDB(copy) as db:
        records = db.list(run_id=report.run_id)
    return records, wall, coordinator.sandbox_faulted


def evaluate(
    project: Project,
    operation: str,
    target: Target,
    record: ResultRecord | None,
    copy: Path,
    style: str,
) -> dict[str, Any]:
    """One run's record with the per-change checks and the operation's oracle."""
    if record is None:
        raise RuntimeError(f"no recorded result for {operation} on {target.full_name}")
    run: dict[str, Any] = {
        "project": project.key,
        "operation": operation,
        "node": target.full_name,
        "node_type": target.node_type,
        "file": target.file_path,
        "status": record.status,
        "error_code": record.error_code,
        "error": (record.error_message or "")[:300],
        "agent_summary": record.summary[:300],
        "degraded": record.degraded,
        "turns": record.turns,
        "prompt_tokens": int(record.usage.get("prompt_tokens", 0)),
        "completion_tokens": int(record.usage.get("completion_tokens", 0)),
        "duration_s": round(record.duration_s, 2),
        "changed_files": record.changed_files,
    }
    store = WorkspaceStore(copy)
    ws = None
    if record.workspace_id and store.exists(record.workspace_id):
        ws = store.open(record.workspace_id)
    try:
        changes = changes_of(ws, copy) if ws is not None else {}
        problems = check_change(
            operation, target.file_path, target.qualname, changes, project=copy, style=style
        )
        run["problems"] = [asdict(p) for p in problems]
        before = (copy / target.file_path).read_text(encoding="utf-8")
        after = changes.get(target.file_path, (before, before))[1] or ""
        if operation == "docstring" and target.qualname is not None:
            run.update(docstring_oracle(before, after, target, style, copy))
        elif operation == "test":
            outcome = measure_tests(ws, copy, target) if ws is not None else None
            run["tests_generated"] = outcome.generated if outcome else 0
            run["tests_passed"] = outcome.passed if outcome else 0
            run["coverage"] = round(outcome.coverage, 3) if outcome else 0.0
            run["branches"] = outcome.branches if outcome else 0
            run["branches_covered"] = outcome.branches_covered if outcome else 0
            run["oracle_problems"] = outcome.problems if outcome else []
        elif operation == "sample_data":
            samples = measure_samples(ws, copy, target) if ws is not None else None
            for key in SAMPLE_FIGURES:
                run[key] = getattr(samples, key) if samples else 0
            run["oracle_problems"] = samples.problems if samples else []
        elif operation == "lint":
            expected = ruff_safe_fix(before, target.file_path, copy, target.qualname)
            only_node = set(changes) <= {target.file_path}
            run["equals_ruff_fix"] = only_node and after == expected
            run.update(lint_beyond_ruff(expected, after, target, copy) if only_node else {})
    finally:
        if ws is not None:
            ws.close()
    return run


def lint_beyond_ruff(expected: str, after: str, target: Target, copy: Path) -> dict[str, Any]:
    """What the run did past ruff's safe fixes: findings gone, findings added (by code)."""
    try:
        ast.parse(after)
    except SyntaxError:
        return {"fixed_beyond_ruff": 0, "findings_added": ["does not parse"]}
    left = findings_on(expected, target.file_path, copy, target.qualname)
    now = findings_on(after, target.file_path, copy, target.qualname)
    gone = list((Counter(left) - Counter(now)).elements())
    added = list((Counter(now) - Counter(left)).elements())
    return {"fixed_beyond_ruff": len(gone), "fixed_codes": gone, "findings_added": added}


def docstring_oracle(
    before: str, after: str, target: Target, style: str, copy: Path
) -> dict[str, Any]:
    checked = check_docstring(
        before, after, target.full_name, style, project=copy, rel_path=target.file_path
    )
    reference = summary_line(target.docstring)
    baseline = name_summary(target.full_name)
    score = rouge_l(checked.summary, reference)
    return {
        "summary": checked.summary,
        "reference": reference,
        "rouge_l": round(score, 3),
        "name_baseline": baseline,
        "name_rouge_l": round(rouge_l(baseline, reference), 3),
        "same_as_name": bool(checked.summary) and rouge_l(checked.summary, baseline) == 1.0,
        "has_docstring": bool(checked.summary),
        "params_match": checked.params_match,
        "params_unjudged": checked.params_unjudged,
        "code_unchanged": checked.code_unchanged,
        "parses": checked.parses,
    }


def docstring_style(loaded: LoadedConfig) -> str:
    """The style the docstring agent writes (operations.docstring.options.style)."""
    operation = loaded.config.operations.get("docstring")
    return str((operation.options if operation else {}).get("style", "google"))


def measure_project(
    args: argparse.Namespace,
    project: Project,
    targets: dict[str, list[Target]],
    work: Path,
    progress: Progress,
    host_only: bool = False,
) -> tuple[list[dict[str, Any]], dict[str, float], bool]:
    """Every chosen operation on one project: the evaluated runs, wall time per operation.

    ``host_only``: with a provider that submits at once (``host_only_factory``).
    """
    factory = host_only_factory if host_only else None
    tag = "host-only" if host_only else "model"
    source = fetch(project)
    runs: list[dict[str, Any]] = []
    walls: dict[str, float] = {}
    faulted = False
    for operation, chosen in targets.items():
        if not chosen:
            continue
        # A fresh copy per operation: no run sees another operation's results.
        copy = copy_project(source, work / f"{project.key}-{operation}-{tag}")
        if operation == "docstring":
            strip_docstrings(copy, chosen)
        if operation == "lint":
            write_lint_config(copy)
        if operation == "test":
            remove_own_tests(copy)
        loaded = load(args, copy)
        progress.label = f"{project.key} ({tag})" if host_only else project.key
        print(f"{progress.label} {operation}: {len(chosen)} runs in {copy}", file=sys.stderr)
        records, wall, fault = asyncio.run(
            run_batch(loaded, copy, operation, chosen, progress, factory)
        )
        faulted = faulted or fault
        walls[operation] = walls.get(operation, 0.0) + wall
        by_node = {(r.file_path, r.node_name): r for r in records}
        style = docstring_style(loaded)
        for target in chosen:
            record = by_node.get((target.file_path, target.full_name))
            runs.append(evaluate(project, operation, target, record, copy, style))
    return runs, walls, faulted


def git_commit() -> str:
    head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True)
    dirty = subprocess.run(
        ["git", "status", "--porcelain", "--untracked-files=no"], cwd=ROOT, capture_output=True
    )
    return head.stdout.decode().strip() + ("+dirty" if dirty.stdout.strip() else "")


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--limit", type=int, help="at most N nodes per operation and project")
    parser.add_argument("--operations", default=",".join(OPERATIONS), help="comma-separated")
    parser.add_argument("--projects", default=",".join(p.name for p in CORPUS))
    parser.add_argument(
        "--part",
        choices=[*PARTS, "all"],
        default="all",
        help="the development part, the held-out part (only measured), or both",
    )
    parser.add_argument("--config", type=Path, help="a remora.yaml (model, operations, ...)")
    parser.add_argument("--provider", help="embedded (default), openai, llm, gemini")
    parser.add_argument("--model", help="model id as the provider names it")
    parser.add_argument("--base-url", help="server URL for openai / gemini")
    parser.add_argument("--model-path", help="a GGUF file for the embedded provider")
    parser.add_argument("-j", "--jobs", type=int, help="agents at once (max_concurrent_agents)")
    parser.add_argument("--format", choices=["table", "json"], default="table")
    parser.add_argument("--json-out", type=Path, help="also write the JSON report here")
    parser.add_argument("--keep", action="store_true", help="keep the project copies")
    parser.add_argument(
        "--host-only",
        action="store_true",
        help="also run every operation with a provider that submits at once, and print the "
        "model's share beside it",
    )
    args = parser.parse_args(argv)
    unknown = set(args.operations.split(",")) - set(OPERATIONS)
    if unknown:
        parser.error(f"unknown operations {sorted(unknown)}; known: {', '.join(OPERATIONS)}")
    names = {p.name for p in CORPUS}
    if set(args.projects.split(",")) - names:
        parser.error(f"unknown projects in {args.projects!r}; known: {', '.join(sorted(names))}")
    if args.limit is not None and args.limit < 1:
        parser.error("--limit must be at least 1")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    started, load_before = time.time(), os.getloadavg()
    operations = args.operations.split(",")
    counts = {op: min(n, args.limit or n) for op, n in DEFAULT_COUNTS.items()}
    projects = [
        p for p in CORPUS if p.name in args.projects.split(",") and args.part in ("all", p.part)
    ]
    if not projects:
        raise CorpusError(f"no project of {args.projects!r} is in the {args.part} part")
    plan: list[tuple[Project, dict[str, list[Target]]]] = []
    corpus: list[dict[str, Any]] = []
    for project in projects:
        print(f"corpus: {project.key} (sha256 {project.sha256[:12]}...)", file=sys.stderr)
        chosen = choose_targets(project, fetch(project), counts)
        targets = {op: chosen[op] for op in operations}
        plan.append((project, targets))
        corpus.append(
            {
                "project": project.key,
                "part": project.part,
                "sha256": project.sha256,
                "files": list(project.sources),
                "nodes": {
                    op: [f"{t.file_path}::{t.full_name}" for t in ts] for op, ts in targets.items()
                },
            }
        )
    passes = [True, False] if args.host_only else [False]
    progress = Progress(
        len(passes) * sum(len(ts) for _, targets in plan for ts in targets.values())
    )
    work = Path(tempfile.mkdtemp(prefix="remora-competence-"))
    runs: list[dict[str, Any]] = []
    walls: dict[str, float] = {}
    host_runs: list[dict[str, Any]] = []
    host_walls: dict[str, float] = {}
    faulted = False
    try:
        for host_only in passes:
            into, into_walls = (host_runs, host_walls) if host_only else (runs, walls)
            for project, targets in plan:
                got, project_walls, fault = measure_project(
                    args, project, targets, work, progress, host_only
                )
                into += got
                faulted = faulted or fault
                for operation, wall in project_walls.items():
                    into_walls[operation] = into_walls.get(operation, 0.0) + wall
    finally:
        if args.keep:
            print(f"project copies kept in {work}", file=sys.stderr)
        else:
            shutil.rmtree(work, ignore_errors=True)
    model = load(args, fetch(projects[0])).config.model
    per_operation = figures(runs, walls)
    report = {
        "benchmark": "competence",
        "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(started)),
        "git_commit": git_commit(),
        "command": " ".join(["python", "benchmarks/competence.py", *(argv or sys.argv[1:])]),
        "cpu_count": os.cpu_count(),
        "load_avg_start": [round(x, 2) for x in load_before],
        "load_avg_end": [round(x, 2) for x in os.getloadavg()],
        "wall_s": round(time.time() - started, 1),
        "model": {"provider": model.provider, "id": model.id, "base_url": model.base_url},
        "corpus": corpus,
        "operations": per_operation,
        "per_project": {
            p.key: figures([r for r in runs if r["project"] == p.key], {}) for p in projects
        },
        # Each part on its own: the held-out part is never averaged into what the toolkit
        # was developed against.
        "per_part": {
            part: figures([r for r in runs if r["project"] in keys], {})
            for part in PARTS
            if (keys := {p.key for p in projects if p.part == part})
        },
        "runs": runs,
    }
    if args.host_only:
        report["host_only"] = {"operations": figures(host_runs, host_walls), "runs": host_runs}
    text = json.dumps(report, indent=2, ensure_ascii=False)
    if args.json_out:
        args.json_out.write_text(text + "\n")
    if args.format == "json":
        print(text, flush=True)
    else:
        shares = ""
        if args.host_only:
            host = report["host_only"]["operations"]
            shares = "\nThe model's share (host alone: every turn submits at once):\n\n"
            shares += share_table(per_operation, host) + "\n"
        by_part = "".join(
            f"\n{PART_TITLES[part]}:\n\n{table(figures_of)}\n"
            for part, figures_of in report["per_part"].items()
        )
        print(table(per_operation) + "\n" + by_part + shares + corpus_listing(corpus), flush=True)
    sys.stderr.flush()
    if faulted:
        # A tool hit a sandbox time limit: Monty's runtime threads can abort the
        # interpreter's shutdown (exit 134); everything is printed, end here.
        os._exit(0)
    return 0


PART_TITLES = {
    "dev": "Development part (the toolkit may be developed against it)",
    "heldout": "Held-out part (only measured)",
}


def entry() -> int:
    """main(), with Remora's own errors (no model, bad configuration) as one line and exit 2."""
    try:
        return main()
    except (RemoraError, CorpusError) as exc:
        hint = getattr(exc, "hint", "")
        print(f"competence: {exc}" + (f" ({hint})" if hint else ""), file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(entry())
