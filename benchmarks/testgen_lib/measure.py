"""One measure for every suite: coverage.py (branch mode) over pytest, run twice, fresh processes.

The suite is put in a fresh copy of the project (its own tests removed) and run
with the measure venv's python, the same command whoever wrote it:

    python -m coverage run --rcfile=RC --data-file=COV -m pytest -q -p no:cacheprovider -c INI
        --rootdir COPY --import-mode=importlib --junitxml=RUN.xml generated_tests

Coverage is the module's (statements and branches), from the first run; a test
counts as passing twice when both runs' JUnit reports show it passed (a skip or
an expected failure is not a pass).
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


def _pytest_run(python: Path, copy: Path, module: Module, work: Path, number: int) -> Path:
    """One run under coverage in a fresh process; the path of its JUnit report."""
    rc_file, ini = work / "coveragerc", work / "pytest.ini"
    rc_file.write_text(f"[run]\nbranch = True\ninclude = {copy / module.file_path}\n")
    # An empty ini: the project's own pytest settings (filterwarnings = error, ...) stay out.
    ini.write_text("[pytest]\n")
    junit = work / f"run{number}.xml"
    argv = [str(python), "-m", "coverage", "run", f"--rcfile={rc_file}"]
    argv += [f"--data-file={work}/cov{number}", "-m", "pytest", "-q"]
    argv += ["-p", "no:cacheprovider", "--no-header", "-c", str(ini), "--rootdir", str(copy)]
    argv += ["--import-mode=importlib", f"--junitxml={junit}", SUITE_DIR]
    env = {k: v for k, v in os.environ.items() if k != "VIRTUAL_ENV"}
    env["PYTHONPATH"] = str(copy / module.import_root)
    run = subprocess.run(
        argv, cwd=copy, env=env, capture_output=True, text=True, timeout=RUN_TIMEOUT_S
    )
    (work / f"run{number}.log").write_text(run.stdout + run.stderr)
    return junit


def measure_suite(python: Path, module: Module, suite: Path, work: Path) -> SuiteFigures:
    """The figures of the test files in ``suite`` on ``module`` (a fresh copy under ``work``)."""
    figures = SuiteFigures()
    files = sorted(suite.glob("test_*.py"))
    figures.test_lines = sum(code_lines(f.read_text(encoding="utf-8")) for f in files)
    if not files:
        # No test covers nothing: 0, not "no branches", so medians count the module.
        figures.branch_coverage = 0.0
        return figures
    copy = untested_copy(module, work / "project")
    shutil.copytree(suite, copy / SUITE_DIR)
    outcomes: list[dict[str, bool]] = []
    for number in (1, 2):
        try:
            junit = _pytest_run(python, copy, module, work, number)
        except subprocess.TimeoutExpired:
            figures.problems.append(f"run {number} ran over {RUN_TIMEOUT_S} s")
            return figures
        if not junit.is_file():
            log = (work / f"run{number}.log").read_text()
            figures.problems.append(f"run {number}: pytest wrote no report: {log[-400:]}")
            return figures
        outcomes.append(junit_outcomes(junit.read_text()))
    figures.tests = len(outcomes[0])
    figures.passed_twice = passing_twice(outcomes[0], outcomes[1])
    report = work / "cov.json"
    argv = [str(python), "-m", "coverage", "json", f"--rcfile={work}/coveragerc"]
    argv += [f"--data-file={work}/cov1", "-o", str(report)]
    subprocess.run(
        argv,
        cwd=copy,
        capture_output=True,
        timeout=120,
    )
    if not report.is_file():
        figures.problems.append("coverage json wrote no report (no data: nothing imported?)")
        return figures
    for key, value in coverage_figures(json.loads(report.read_text()), module.file_path).items():
        setattr(figures, key, value)
    return figures


__all__ = [
    "SuiteFigures",
    "code_lines",
    "coverage_figures",
    "junit_outcomes",
    "measure_suite",
    "passing_twice",
]
