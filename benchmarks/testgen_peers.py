"""Tests side by side: Remora's test agent, Pynguin and Hypothesis' ghostwriter on the same modules.

For each module (benchmarks/testgen_lib/corpus.py: the competence corpus'
small modules and more pinned PyPI projects, a development part and a held-out
part, fetched into ``~/.cache/remora``, the projects' own tests removed) and
each tool, with the same per-module time budget:

- remora: ``remora analyze MODULE -o test`` on a copy (the embedded default
  model; ``--provider/--model/--base-url/--model-path`` are passed through);
- remora-host: the same with the host alone (no model word), so the model's
  share is the difference between the two rows;
- remora-no-model-cases: remora's model with the test operation's option
  ``model_cases: false``: what the model's cases add (tests kept, coverage,
  mutants killed) is the difference, printed as its own table;
- pynguin: Pynguin 0.48.0, DynaMOSA, ``--maximum-search-time BUDGET``, in its
  own venv (``~/.cache/remora/bench/pynguin-venv``, built on first use);
- ghostwriter: ``hypothesis write MODULE.FUNCTION`` for every public function
  (``~/.cache/remora/bench/measure-venv``, which also measures every suite).

Then every suite is measured with the same coverage.py command in fresh
processes (testgen_lib/measure.py): the module's line and branch coverage,
tests, tests passing in two separate runs, lines of test code; beside the
wall and CPU seconds the tool spent generating. And its mutation score
(testgen_lib/mutation.py): the same mutants of the module (Remora's mutation
operators over every function and method) run against every suite by the
same runner, killed / counted. Prints a markdown table (or
JSON) and writes the JSON with ``--json-out``.

Usage: python benchmarks/testgen_peers.py [--budget 60] [--limit N] [--modules K1,K2]
       [--tools remora,remora-host,pynguin,ghostwriter]
       [--provider openai --base-url URL --model ID]
       [--format table|json] [--json-out FILE] [--keep]
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
from dataclasses import asdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from competence_lib.corpus import PARTS, CorpusError
from process_cpu import become_subreaper
from testgen_lib.corpus import MODULES, PROJECTS, Module, check_corpus, untested_copy
from testgen_lib.measure import measure_suite
from testgen_lib.report import medians, model_cases_added, model_cases_table, table
from testgen_lib.tools import (
    TOOLS,
    Generation,
    host_only_options,
    no_model_cases_options,
    run_ghostwriter,
    run_pynguin,
    run_remora,
)
from testgen_lib.venvs import VenvError, venv_python, versions

ROOT = Path(__file__).resolve().parents[1]
PASSTHROUGH = ("provider", "model", "base_url", "model_path")


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--budget", type=float, default=60.0, help="seconds per module and tool")
    parser.add_argument("--limit", type=int, help="the first N modules of the corpus")
    parser.add_argument(
        "--modules", help="comma-separated module keys or names, e.g. roman,humanize.filesize"
    )
    parser.add_argument("--tools", default=",".join(TOOLS), help="comma-separated")
    parser.add_argument(
        "--part",
        choices=[*PARTS, "all"],
        default="all",
        help="the development part, the held-out part (only measured), or both",
    )
    parser.add_argument("--provider", help="Remora's provider: embedded (default), openai, ...")
    parser.add_argument("--model", help="Remora's model id")
    parser.add_argument("--base-url", help="Remora's server URL for openai / gemini")
    parser.add_argument("--model-path", help="a GGUF file for Remora's embedded provider")
    parser.add_argument("--format", choices=["table", "json"], default="table")
    parser.add_argument("--json-out", type=Path, help="also write the JSON report here")
    parser.add_argument("--keep", action="store_true", help="keep the copies, suites and logs")
    parser.add_argument(
        "--reuse",
        type=Path,
        help="an earlier --json-out report: the tools not run now are shown from it "
        "(same modules and budget), e.g. to re-run only --tools remora",
    )
    args = parser.parse_args(argv)
    tools = args.tools.split(",")
    if set(tools) - set(TOOLS):
        parser.error(f"unknown tools in {args.tools!r}; known: {', '.join(TOOLS)}")
    if args.budget <= 0:
        parser.error("--budget must be positive")
    if args.limit is not None and args.limit < 1:
        parser.error("--limit must be at least 1")
    if args.modules:
        known = {m.name: m for m in MODULES} | {m.key: m for m in MODULES}
        unknown = [k for k in args.modules.split(",") if k not in known]
        if unknown:
            parser.error(f"unknown modules {unknown}; known: {', '.join(m.name for m in MODULES)}")
    return args


def chosen_modules(args: argparse.Namespace) -> list[Module]:
    if args.modules:
        known = {m.name: m for m in MODULES} | {m.key: m for m in MODULES}
        modules = [known[k] for k in args.modules.split(",")]
    else:
        modules = list(MODULES)
    modules = [m for m in modules if args.part in ("all", m.part)]
    return modules[: args.limit] if args.limit else modules


def remora_passthrough(args: argparse.Namespace) -> list[str]:
    out: list[str] = []
    for key in PASSTHROUGH:
        value = getattr(args, key)
        if value is not None:
            out += [f"--{key.replace('_', '-')}", str(value)]
    return out


def generate(
    tool: str, module: Module, work: Path, args: argparse.Namespace, pythons: dict[str, Path]
) -> tuple[Generation, Path]:
    """Run one tool on a fresh copy; what it did and the folder holding its test files."""
    copy = untested_copy(module, work / "project")
    suite = work / "suite"
    suite.mkdir()
    if tool == "remora":
        gen = run_remora(module, copy, suite, args.budget, remora_passthrough(args))
    elif tool == "remora-no-model-cases":
        options = [*remora_passthrough(args), *no_model_cases_options(work)]
        gen = run_remora(module, copy, suite, args.budget, options, tool)
    elif tool == "remora-host":
        options = host_only_options(work)
        gen = run_remora(module, copy, suite, args.budget, options, tool)
    elif tool == "pynguin":
        gen = run_pynguin(module, copy, suite, args.budget, pythons["pynguin"])
    else:
        gen = run_ghostwriter(module, copy, suite, args.budget, pythons["measure"])
    return gen, suite


def one_run(
    tool: str, module: Module, work: Path, args: argparse.Namespace, pythons: dict[str, Path]
) -> dict[str, Any]:
    print(f"{module.key}: {tool} (budget {args.budget:.0f} s)", file=sys.stderr, flush=True)
    gen, suite = generate(tool, module, work, args, pythons)
    figures = measure_suite(pythons["measure"], module, suite, work / "measure")
    row: dict[str, Any] = {"module": module.key, "file": module.file_path, "tool": tool}
    row.update(asdict(figures))
    row.update(
        {
            "wall_s": round(gen.wall_s, 1),
            "cpu_s": round(gen.cpu_s, 1),
            "exit_code": gen.exit_code,
            "stopped_at_budget": gen.stopped_at_budget,
            "files": gen.files,
            "notes": [n[:400] for n in gen.notes],
        }
    )
    print(
        f"  {figures.tests} tests ({figures.passed_twice} pass twice), line "
        f"{figures.line_coverage}, branch {figures.branch_coverage}, mutants killed "
        f"{figures.mutants_killed}/{figures.mutants}, {gen.wall_s:.0f} s wall, "
        f"{gen.cpu_s:.0f} s CPU",
        file=sys.stderr,
        flush=True,
    )
    return row


def reused_rows(
    path: Path, modules: list[Module], tools: list[str], budget: float
) -> list[dict[str, Any]]:
    """The rows of ``path`` for the modules chosen and the tools not run now."""
    try:
        earlier = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise CorpusError(f"--reuse {path}: cannot read the report ({exc})") from exc
    if earlier.get("budget_s") != budget:
        raise CorpusError(
            f"--reuse {path}: its budget is {earlier.get('budget_s')} s, this run's {budget} s; "
            "pass the same --budget"
        )
    keys = {m.key for m in modules}
    rows = [r for r in earlier["runs"] if r["module"] in keys and r["tool"] not in tools]
    for row in rows:
        row["reused_from"] = f"{path} ({earlier['date']}, {earlier['git_commit']})"
    return rows


def git_commit() -> str:
    head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True)
    dirty = subprocess.run(
        ["git", "status", "--porcelain", "--untracked-files=no"], cwd=ROOT, capture_output=True
    )
    return head.stdout.decode().strip() + ("+dirty" if dirty.stdout.strip() else "")


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    problems = check_corpus()
    if problems:
        raise CorpusError("; ".join(problems))
    # The commit before the run: a commit made while it runs is not the code it ran.
    started, load_before, commit = time.time(), os.getloadavg(), git_commit()
    tools = args.tools.split(",")
    modules = chosen_modules(args)
    become_subreaper()  # sandboxed programs' CPU time comes back to this process
    pythons = {"measure": venv_python("measure")}
    if "pynguin" in tools:
        pythons["pynguin"] = venv_python("pynguin")
    work = Path(tempfile.mkdtemp(prefix="remora-testgen-"))
    rows: list[dict[str, Any]] = []
    try:
        for module in modules:
            for tool in tools:
                folder = work / module.key.replace(":", "-") / tool
                rows.append(one_run(tool, module, folder, args, pythons))
    finally:
        if args.keep:
            print(f"copies, suites and logs kept in {work}", file=sys.stderr)
        else:
            shutil.rmtree(work, ignore_errors=True)
    if args.reuse:
        rows += reused_rows(args.reuse, modules, tools, args.budget)
        order = {m.key: i for i, m in enumerate(modules)}
        rows.sort(key=lambda r: (order[r["module"]], TOOLS.index(r["tool"])))
        tools = [t for t in TOOLS if any(r["tool"] == t for r in rows)]
    report = {
        "benchmark": "testgen_peers",
        "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(started)),
        "git_commit": commit,
        "command": " ".join(["python", "benchmarks/testgen_peers.py", *(argv or sys.argv[1:])]),
        "cpu_count": os.cpu_count(),
        "load_avg_start": [round(x, 2) for x in load_before],
        "load_avg_end": [round(x, 2) for x in os.getloadavg()],
        "wall_s": round(time.time() - started, 1),
        "budget_s": args.budget,
        "remora_model": remora_passthrough(args) or ["embedded default"],
        "tool_versions": {name: versions(python) for name, python in pythons.items()},
        "reused_from": str(args.reuse) if args.reuse else None,
        "corpus": [
            {
                "module": m.key,
                "part": m.part,
                "file": m.file_path,
                "sha256": PROJECTS[m.project].sha256,
            }
            for m in modules
        ],
        "medians": {tool: medians(rows, tool) for tool in tools},
        # Each part on its own: the held-out modules are only measured, never developed against.
        "medians_by_part": {
            part: {tool: medians(of_part, tool) for tool in tools}
            for part in PARTS
            if (of_part := rows_of_part(rows, modules, part))
        },
        # What the model's cases add (remora minus remora-no-model-cases), per part.
        "model_cases_added": {
            part: model_cases_added(rows_of_part(rows, modules, part)) for part in PARTS
        },
        "runs": rows,
    }
    text = json.dumps(report, indent=2, ensure_ascii=False)
    if args.json_out:
        args.json_out.write_text(text + "\n")
    if args.format == "json":
        print(text, flush=True)
    else:
        print(table(rows, tools), flush=True)
        for part in report["medians_by_part"]:
            print(f"\n{PART_TITLES[part]}:\n", flush=True)
            print(table(rows_of_part(rows, modules, part), tools), flush=True)
            added = report["model_cases_added"][part]
            if added["modules"]:
                print("\nWhat the model's cases add (remora minus remora-no-model-cases):\n")
                print(model_cases_table(added), flush=True)
    return 0


PART_TITLES = {
    "dev": "Development part (the toolkit may be developed against it)",
    "heldout": "Held-out part (only measured)",
}


def rows_of_part(
    rows: list[dict[str, Any]], modules: list[Module], part: str
) -> list[dict[str, Any]]:
    """The rows of the modules of ``part``."""
    keys = {m.key for m in modules if m.part == part}
    return [r for r in rows if r["module"] in keys]


def entry() -> int:
    try:
        return main()
    except (CorpusError, VenvError) as exc:
        print(f"testgen_peers: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(entry())
