"""One measure for every suite: coverage.py (branch mode) over pytest, run twice, fresh processes.

The suite is put in a fresh copy of the project (its own tests removed) and run
with the measure venv's python, the same command whoever wrote it:

    python -m coverage run --rcfile=RC --data-file=COV -m pytest -q -p no:cacheprovider -c INI
        --rootdir COPY --import-mode=importlib --junitxml=RUN.xml generated_tests

Coverage is the module's (statements and branches), from the first run; a test
counts as passing twice when both runs' JUnit reports show it passed (a skip or
an expected failure is not a pass). The first run also records which lines each
test ran (coverage.py's ``test_function`` contexts): the mutation score
(testgen_lib/mutation.py) runs each mutant only with the tests that ran its line.
"""

from __future__ import annotations

import io
import json
import os
import shutil
import subprocess
import tokenize
import xml.etree.ElementTree as ElementTree
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from testgen_lib.corpus import Module, untested_copy
from testgen_lib.mutation import (
    Runner,
    junit_items,
    lines_by_context,
    module_mutants,
    reach,
    score_suite,
)

RUN_TIMEOUT_S = 600
SUITE_DIR = "generated_tests"


@dataclass(slots=True)
class SuiteFigures:
    """What a suite gives the module, measured the same way for every tool."""

    tests: int = 0
    passed_twice: int = 0
    test_lines: int = 0
    statements: int = 0
    statements_covered: int = 0
    branches: int = 0
    branches_covered: int = 0
    line_coverage: float = 0.0
    branch_coverage: float | None = None
    # The module's mutants (the same for every suite): counted, killed, not run in time,
    # left out (their function not found by the runner); score = killed / counted.
    mutants: int = 0
    mutants_killed: int = 0
    mutants_not_run: int = 0
    mutants_left_out: int = 0
    mutation_score: float | None = None
    problems: list[str] = field(default_factory=list)


def coverage_figures(report: dict[str, Any], file_path: str) -> dict[str, Any]:
    """Statements and branches of ``file_path`` in a ``coverage json`` report.

    Raises ``ValueError`` naming the files the report has when the module is not among them.
    """
    files: dict[str, Any] = report.get("files", {})
    matches = [k for k in files if k.replace(os.sep, "/").endswith(file_path)]
    if len(matches) != 1:
        raise ValueError(
            f"coverage report: expected one entry for {file_path}, found {sorted(files)}"
        )
    summary = files[matches[0]]["summary"]
    statements, covered = int(summary["num_statements"]), int(summary["covered_lines"])
    branches = int(summary.get("num_branches", 0))
    branches_covered = int(summary.get("covered_branches", 0))
    return {
        "statements": statements,
        "statements_covered": covered,
        "branches": branches,
        "branches_covered": branches_covered,
        "line_coverage": round(covered / statements, 3) if statements else 0.0,
        "branch_coverage": round(branches_covered / branches, 3) if branches else None,
    }


def junit_outcomes(xml_text: str) -> dict[str, bool]:
    """Per test case (``classname::name``, parameters kept): did it pass."""
    outcomes: dict[str, bool] = {}
    for case in ElementTree.fromstring(xml_text).iter("testcase"):
        key = f"{case.get('classname', '')}::{case.get('name', '')}"
        failed = any(child.tag in ("failure", "error", "skipped") for child in case)
        outcomes[key] = outcomes.get(key, True) and not failed
    return outcomes


def passing_twice(first: dict[str, bool], second: dict[str, bool]) -> int:
    """Test cases that passed in both runs."""
    return sum(1 for key, ok in first.items() if ok and second.get(key, False))


def code_lines(text: str) -> int:
    """Lines holding code: not blank, not only a comment (docstrings count)."""
    lines: set[int] = set()
    skip = {tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT}
    for token in tokenize.generate_tokens(io.StringIO(text).readline):
        if token.type not in skip and token.type != tokenize.ENDMARKER:
            lines.update(range(token.start[0], token.end[0] + 1))
    return len(lines)


def _pytest_options(copy: Path, work: Path) -> list[str]:
    """pytest's options for every run of a suite, its own ones and the mutants'."""
    ini = work / "pytest.ini"
    # An empty ini: the project's own pytest settings (filterwarnings = error, ...) stay out.
    ini.write_text("[pytest]\n")
    options = ["-q", "-p", "no:cacheprovider", "--no-header", "-c", str(ini)]
    return [*options, "--rootdir", str(copy), "--import-mode=importlib"]


def _environment(copy: Path, module: Module) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "VIRTUAL_ENV"}
    env["PYTHONPATH"] = str(copy / module.import_root)
    return env


def _pytest_run(python: Path, copy: Path, module: Module, work: Path, number: int) -> Path:
    """One run under coverage in a fresh process; the path of its JUnit report."""
    rc_file = work / "coveragerc"
    rc_file.write_text(
        f"[run]\nbranch = True\ndynamic_context = test_function\n"
        f"include = {copy / module.file_path}\n"
    )
    junit = work / f"run{number}.xml"
    argv = [str(python), "-m", "coverage", "run", f"--rcfile={rc_file}"]
    argv += [f"--data-file={work}/cov{number}", "-m", "pytest", *_pytest_options(copy, work)]
    argv += [f"--junitxml={junit}", SUITE_DIR]
    run = subprocess.run(
        argv,
        cwd=copy,
        env=_environment(copy, module),
        capture_output=True,
        text=True,
        timeout=RUN_TIMEOUT_S,
    )
    (work / f"run{number}.log").write_text(run.stdout + run.stderr)
    return junit


def measure_suite(
    python: Path, module: Module, suite: Path, work: Path, mutation: bool = True
) -> SuiteFigures:
    """The figures of the test files in ``suite`` on ``module`` (a fresh copy under ``work``);
    with ``mutation``, its mutation score too."""
    figures = SuiteFigures()
    files = sorted(suite.glob("test_*.py"))
    figures.test_lines = sum(code_lines(f.read_text(encoding="utf-8")) for f in files)
    if not files:
        # No test covers nothing and kills nothing: 0, not "unknown", so medians count it.
        figures.branch_coverage = 0.0
        figures.mutation_score = 0.0 if mutation else None
        return figures
    copy = untested_copy(module, work / "project")
    shutil.copytree(suite, copy / SUITE_DIR)
    measure_copy(figures, python, module, copy, work, mutation)
    return figures


def measure_copy(
    figures: SuiteFigures, python: Path, module: Module, copy: Path, work: Path, mutation: bool
) -> None:
    """Fill ``figures`` from the suite in ``copy``'s ``generated_tests`` folder."""
    outcomes: list[dict[str, bool]] = []
    for number in (1, 2):
        try:
            junit = _pytest_run(python, copy, module, work, number)
        except subprocess.TimeoutExpired:
            figures.problems.append(f"run {number} ran over {RUN_TIMEOUT_S} s")
            return
        if not junit.is_file():
            log = (work / f"run{number}.log").read_text()
            figures.problems.append(f"run {number}: pytest wrote no report: {log[-400:]}")
            return
        outcomes.append(junit_outcomes(junit.read_text()))
    figures.tests = len(outcomes[0])
    figures.passed_twice = passing_twice(outcomes[0], outcomes[1])
    report = work / "cov.json"
    argv = [str(python), "-m", "coverage", "json", f"--rcfile={work}/coveragerc"]
    argv += [f"--data-file={work}/cov1", "--show-contexts", "-o", str(report)]
    subprocess.run(
        argv,
        cwd=copy,
        capture_output=True,
        timeout=120,
    )
    if not report.is_file():
        figures.problems.append("coverage json wrote no report (no data: nothing imported?)")
        return
    data = json.loads(report.read_text())
    for key, value in coverage_figures(data, module.file_path).items():
        setattr(figures, key, value)
    if mutation:
        _score(figures, python, module, copy, work, data)


def _score(
    figures: SuiteFigures,
    python: Path,
    module: Module,
    copy: Path,
    work: Path,
    coverage: dict[str, Any],
) -> None:
    """The mutation figures of the suite in ``copy`` (its first run's JUnit report and
    coverage contexts say which tests ran which lines)."""
    mutants = module_mutants((copy / module.file_path).read_text(encoding="utf-8"))
    items = junit_items((work / "run1.xml").read_text(), SUITE_DIR)
    runner = Runner(
        python, copy, _environment(copy, module), tuple(_pytest_options(copy, work)), module.name
    )
    tests = reach(items, lines_by_context(coverage, module.file_path))
    scored = score_suite(runner, mutants, tests, SUITE_DIR)
    figures.mutants, figures.mutants_killed = scored.mutants, scored.killed
    figures.mutants_not_run, figures.mutants_left_out = scored.not_run, scored.left_out
    figures.mutation_score = scored.score
    figures.problems += [f"mutation: {p}" for p in scored.problems]


__all__ = [
    "SuiteFigures",
    "code_lines",
    "coverage_figures",
    "junit_outcomes",
    "measure_copy",
    "measure_suite",
    "passing_twice",
]
