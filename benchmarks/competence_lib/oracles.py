"""Measures per operation that need no judgement, on what one agent run left.

docstring: ROUGE-L F1 of the written summary against the author's first line
(``rouge-score``), beside a summary made from the name alone. test: the new
tests run with pytest under coverage.py (branch mode) in a copy of the
workspace. sample_data: competence_lib/sample_oracle.py (the same runs).
"""

from __future__ import annotations

import ast
import functools
import json
import os
import re
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ElementTree
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any, Protocol

from competence_lib.checks import allowed_path, find_definition
from competence_lib.corpus import Target
from remora.workspace import Workspace
from remora.workspace.sync import materialize

TEST_TIMEOUT_S = 300


def rouge_l(candidate: str, reference: str) -> float:
    """ROUGE-L F1 (stemmed), 0.0 for an empty candidate."""
    if not candidate.strip():
        return 0.0
    return float(_scorer().score(reference, candidate)["rougeL"].fmeasure)


@functools.cache
def _scorer() -> Any:
    # Imported when first scored: rouge-score is in the bench extra, not dev, and the
    # unit tests of the benchmarks that import this module run without it.
    from rouge_score import rouge_scorer

    return rouge_scorer.RougeScorer(["rougeL"], use_stemmer=True)


def name_summary(full_name: str) -> str:
    """A summary from the name alone: ``to_snake_case`` gives 'To snake case.'."""
    name = full_name.split(".")[-1].strip("_")
    words = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", name).replace("_", " ").split()
    return (" ".join(words).capitalize() + ".") if words else ""


def module_name(file_path: str) -> str:
    parts = list(PurePosixPath(file_path).with_suffix("").parts)
    if parts and parts[0] == "src":
        parts = parts[1:]
    if parts and parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def workspace_text(ws: Workspace, path: str) -> str | None:
    data = ws.read(path)
    return None if data is None else data.decode("utf-8", errors="replace")


def changes_of(ws: Workspace, project: Path) -> dict[str, tuple[str | None, str | None]]:
    """Each file the run changed: (text in the project copy, text in the workspace)."""
    out: dict[str, tuple[str | None, str | None]] = {}
    for path in ws.changed_files():
        original = project / path
        before = original.read_text(encoding="utf-8") if original.is_file() else None
        out[path] = (before, workspace_text(ws, path))
    return out


# -- test -----------------------------------------------------------------------


def test_names(text: str | None) -> set[str]:
    """pytest ids (``name`` or ``Class::name``) of the test functions defined in ``text``."""
    if not text:
        return set()
    names: set[str] = set()
    for stmt in ast.parse(text).body:
        if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef) and stmt.name.startswith(
            "test"
        ):
            names.add(stmt.name)
        elif isinstance(stmt, ast.ClassDef) and stmt.name.startswith("Test"):
            names.update(
                f"{stmt.name}::{f.name}"
                for f in stmt.body
                if isinstance(f, ast.FunctionDef | ast.AsyncFunctionDef)
                and f.name.startswith("test")
            )
    return names


@dataclass(slots=True)
class TestOutcome:
    generated: int = 0
    passed: int = 0
    # Covered share of the node's body: statements and branches (coverage.py branch mode).
    coverage: float = 0.0
    branches: int = 0
    branches_covered: int = 0
    problems: list[str] = field(default_factory=list)


def _junit_passes(report: Path) -> dict[str, bool]:
    """Per test id (``name`` / ``Class::name``, parameters folded): did every case pass."""
    passes: dict[str, bool] = {}
    for case in ElementTree.parse(report).getroot().iter("testcase"):
        name = str(case.get("name", "")).split("[")[0]
        last = str(case.get("classname", "")).split(".")[-1]
        key = f"{last}::{name}" if last.startswith("Test") else name
        ok = not any(child.tag in ("failure", "error", "skipped") for child in case)
        passes[key] = passes.get(key, True) and ok
    return passes


def _body_lines(text: str, qualname: str) -> tuple[int, int]:
    node = find_definition(text, qualname).node
    return node.body[0].lineno, int(node.end_lineno or node.lineno)


def measure_tests(ws: Workspace, project: Path, target: Target) -> TestOutcome:
    """Run the tests the run added, under coverage, in a copy of its workspace."""
    outcome = TestOutcome()
    ids: list[str] = []
    for path, (before, after) in changes_of(ws, project).items():
        if not allowed_path("test", path, target.file_path) or after is None:
            continue
        try:
            new = test_names(after) - test_names(before)
        except SyntaxError as exc:
            outcome.problems.append(f"{path}:{exc.lineno}: does not parse")
            continue
        ids += [f"{path}::{name}" for name in sorted(new)]
    outcome.generated = len(ids)
    if not ids:
        return outcome
    with tempfile.TemporaryDirectory(prefix="remora-competence-") as scratch:
        work = Path(scratch)
        copy = work / "project"
        materialize(ws, copy)
        run = covered_run(copy, work, target, ids, 1)
        if run.junit is None:
            outcome.problems.append(run.problem)
            return outcome
        passes = _junit_passes(run.junit)
        outcome.passed = sum(1 for i in ids if passes.get(i.split("::", 1)[1], False))
        if run.coverage is not None:
            node_coverage(outcome, run.coverage, project, target)
    return outcome


@dataclass(frozen=True, slots=True)
class CoveredRun:
    """One pytest run's JUnit report and ``coverage json`` report (None when not written)."""

    junit: Path | None
    coverage: dict[str, Any] | None
    problem: str = ""


def covered_run(copy: Path, work: Path, target: Target, ids: list[str], number: int) -> CoveredRun:
    """Run the tests ``ids`` with pytest under coverage.py (branch mode) in ``copy``."""
    rc = work / f"coveragerc{number}"
    rc.write_text(f"[run]\nbranch = True\nrelative_files = True\ndata_file = {work}/cov{number}\n")
    junit = work / f"junit{number}.xml"
    pytest = ["-m", "pytest", "-q", "-p", "no:cacheprovider", "--no-header"]
    if target.file_path.startswith("src/"):
        pytest += ["-o", "pythonpath=src"]
    argv = [sys.executable, "-m", "coverage", "run", f"--rcfile={rc}", *pytest]
    argv += [f"--junitxml={junit}", *ids]
    # Plain pytest: plugins installed beside Remora (pytest-asyncio, ...) are no part of
    # the project and break under a project's filterwarnings = error.
    env = {**os.environ, "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"}
    try:
        run = subprocess.run(
            argv, cwd=copy, env=env, capture_output=True, text=True, timeout=TEST_TIMEOUT_S
        )
    except subprocess.TimeoutExpired:
        return CoveredRun(None, None, f"tests ran over {TEST_TIMEOUT_S} s")
    if not junit.is_file():
        tail = (run.stdout + run.stderr).strip()[-400:]
        return CoveredRun(None, None, f"pytest wrote no report (exit {run.returncode}): {tail}")
    report = work / f"cov{number}.json"
    subprocess.run(
        [sys.executable, "-m", "coverage", "json", f"--rcfile={rc}", "-o", str(report)],
        cwd=copy,
        capture_output=True,
        timeout=120,
    )
    data = json.loads(report.read_text()) if report.is_file() else None
    return CoveredRun(junit, data)


class NodeCoverage(Protocol):
    """An outcome that keeps the node's coverage."""

    coverage: float
    branches: int
    branches_covered: int


def node_coverage(
    outcome: NodeCoverage, report: dict[str, Any], project: Path, target: Target
) -> None:
    data = report.get("files", {}).get(target.file_path)
    if data is None or target.qualname is None:
        return
    text = (project / target.file_path).read_text(encoding="utf-8")
    lo, hi = _body_lines(text, target.qualname)

    def inside(lines: list[int]) -> int:
        return sum(1 for line in lines if lo <= line <= hi)

    def inside_arcs(arcs: list[list[int]]) -> int:
        return sum(1 for arc in arcs if lo <= arc[0] <= hi)

    run_lines, missed_lines = inside(data["executed_lines"]), inside(data["missing_lines"])
    run_arcs = inside_arcs(data.get("executed_branches", []))
    missed_arcs = inside_arcs(data.get("missing_branches", []))
    total = run_lines + missed_lines + run_arcs + missed_arcs
    outcome.coverage = (run_lines + run_arcs) / total if total else 0.0
    outcome.branches, outcome.branches_covered = run_arcs + missed_arcs, run_arcs
