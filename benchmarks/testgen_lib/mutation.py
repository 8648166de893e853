"""One mutation score for every suite: the same mutants of the module, run against each suite.

The mutants are Remora's (:func:`remora.code.testgen.mutants.node_mutants`) for every
function and method of the module (module level and in classes, nested
classes too; functions nested in functions are part of their outer one): a
comparison, arithmetic or boolean operator swapped, a condition negated, a
constant changed, a returned value replaced by ``None``, a call statement or
``raise`` removed, an attribute set to ``None``; at most 40 per function.
They depend on the module's text alone, so every suite of a module meets the
same ones, whoever wrote it.

They run with Remora's runner, ``remora/code/probes/programs/mutation_run.py`` (its
text, then a call of its ``main``), in the measure venv, the way the suite's
tests are measured (testgen_lib/measure.py): one pytest process per test file
and function, each test first on the code as it is (only a test passing there
counts), then on every mutant of a line that test ran (coverage.py's
``test_function`` contexts of the first measuring run), the function's code
object swapped for the mutant's. A mutant that fails a test, or makes it run
into ten times its own time, is killed; one no passing test reaches survives.
Mutants of a function the runner cannot find in the imported module (a
decorator without ``__wrapped__``, a name the module no longer holds) are left
out of every suite's count alike, as are mutants not run because a process ran
out of time (``not_run``). A private method ``__name`` is looked up under the
name its class stores (``_Class__name``); a package's ``__init__.py`` is
measured like any module.
"""

from __future__ import annotations

import ast
import json
import os
import subprocess
import xml.etree.ElementTree as ElementTree
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from remora.code.testgen.mutants import MAX_MUTANTS, Mutant, node_mutants

MARKER = "REMORA_REPORT "
# Seconds of mutants per function and test file; the process gets a minute more to start.
FUNCTION_BUDGET_S = 120.0
START_S = 60.0
FIRST_LIMIT_S = 10.0
# A test whose lines are unknown (no coverage context matched it) is run on every mutant.
EVERY_LINE = frozenset({-1})

Definition = ast.FunctionDef | ast.AsyncFunctionDef


@dataclass(slots=True)
class MutationFigures:
    """Mutants killed among those counted; the score is None when none could be counted."""

    mutants: int = 0
    killed: int = 0
    not_run: int = 0
    left_out: int = 0
    score: float | None = None
    problems: list[str] = field(default_factory=list)


def module_functions(text: str) -> dict[str, Definition]:
    """Each function and method of the module by qualified name (``Class.method``)."""
    found: dict[str, Definition] = {}

    def visit(body: list[ast.stmt], prefix: str) -> None:
        for stmt in body:
            if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef):
                found.setdefault(prefix + stmt.name, stmt)
            elif isinstance(stmt, ast.ClassDef):
                visit(stmt.body, f"{prefix}{stmt.name}.")

    visit(ast.parse(text).body, "")
    return found


def module_mutants(text: str) -> dict[str, list[Mutant]]:
    """The mutants of every function of the module, by the function's qualified name."""
    out: dict[str, list[Mutant]] = {}
    for qualname, function in module_functions(text).items():
        mutants = node_mutants(text, function, MAX_MUTANTS)
        if mutants:
            out[qualname] = mutants
    return out


def junit_items(xml_text: str, suite_dir: str) -> dict[str, list[tuple[str, str]]]:
    """Per test file (its stem), its tests as (pytest's id inside the file, context name).

    ``generated_tests.test_a.TestX`` / ``test_y[1]`` gives file ``test_a``, id
    ``TestX::test_y[1]`` and context ``generated_tests.test_a.TestX.test_y``, the name
    coverage.py's ``test_function`` context gives the test function.
    """
    items: dict[str, list[tuple[str, str]]] = {}
    for case in ElementTree.fromstring(xml_text).iter("testcase"):
        classname, name = str(case.get("classname", "")), str(case.get("name", ""))
        parts = classname.split(".")
        if len(parts) < 2 or parts[0] != suite_dir:
            continue
        stem, classes = parts[1], parts[2:]
        item = "::".join([*classes, name])
        context = ".".join([*parts, name.split("[", 1)[0]])
        items.setdefault(stem, []).append((item, context))
    return items


def lines_by_context(report: dict[str, Any], file_path: str) -> dict[str, set[int]]:
    """Per coverage context, the lines of ``file_path`` it ran (``coverage json
    --show-contexts``)."""
    out: dict[str, set[int]] = {}
    for name, data in report.get("files", {}).items():
        if not name.replace(os.sep, "/").endswith(file_path):
            continue
        for line, contexts in data.get("contexts", {}).items():
            for context in contexts:
                if context:
                    out.setdefault(context, set()).add(int(line))
    return out


def reach(
    items: dict[str, list[tuple[str, str]]], contexts: dict[str, set[int]]
) -> dict[str, dict[str, frozenset[int]]]:
    """Per test file, per test id, the module's lines it ran (EVERY_LINE when unknown)."""
    return {
        stem: {item: frozenset(contexts.get(context, EVERY_LINE)) for item, context in tests}
        for stem, tests in items.items()
    }


def _runs(lines: frozenset[int], line: int) -> bool:
    return line in lines or lines == EVERY_LINE


def _program(request: dict[str, Any]) -> str:
    text = (
        resources.files("remora.code.probes.programs")
        .joinpath("mutation_run.py")
        .read_text("utf-8")
    )
    return f"{text}\n\nmain(json.loads({json.dumps(json.dumps(request))}))\n"


def _missing_functions_program(module: str, qualnames: list[str]) -> str:
    """The runner's own lookup, asked which functions it cannot find in the module."""
    text = (
        resources.files("remora.code.probes.programs")
        .joinpath("mutation_run.py")
        .read_text("utf-8")
    )
    return (
        f"{text}\n\n_module = importlib.import_module({module!r})\n"
        f"print(MARKER + json.dumps([q for q in {qualnames!r} "
        "if _function(_module, q) is None]))\n"
    )


@dataclass(frozen=True, slots=True)
class Runner:
    """How the suite's tests run: the python, the copy, the environment, pytest's options."""

    python: Path
    copy: Path
    env: dict[str, str]
    pytest_args: tuple[str, ...]
    module: str

    def report(self, program: str, timeout_s: float) -> tuple[Any, str]:
        """The program's ``REMORA_REPORT`` value, or None and why not."""
        try:
            run = subprocess.run(
                [str(self.python), "-"],
                input=program,
                cwd=self.copy,
                env=self.env,
                capture_output=True,
                text=True,
                timeout=timeout_s,
            )
        except subprocess.TimeoutExpired:
            return None, f"ran over {timeout_s:.0f} s"
        for line in reversed(run.stdout.splitlines()):
            if line.startswith(MARKER):
                return json.loads(line[len(MARKER) :]), ""
        return None, f"no report (exit {run.returncode}): {run.stderr.strip()[-300:]}"


def score_suite(
    runner: Runner,
    mutants: dict[str, list[Mutant]],
    tests: dict[str, dict[str, frozenset[int]]],
    suite_dir: str,
) -> MutationFigures:
    """Run ``mutants`` (by function) against the suite's ``tests`` (by file: id → lines)."""
    figures = MutationFigures()
    missing, why = runner.report(
        _missing_functions_program(runner.module, sorted(mutants)), START_S
    )
    if missing is None:
        figures.problems.append(f"cannot look the functions up: {why}")
        return figures
    killed: set[tuple[str, str]] = set()
    not_run: set[tuple[str, str]] = set()
    for qualname, function_mutants in mutants.items():
        if qualname in missing:
            figures.left_out += len(function_mutants)
            continue
        figures.mutants += len(function_mutants)
        for stem, lines in sorted(tests.items()):
            plan: list[dict[str, Any]] = [
                {
                    "id": m.id,
                    "source": m.source,
                    "tests": sorted(t for t, ran in lines.items() if _runs(ran, m.line)),
                }
                for m in function_mutants
                if (qualname, m.id) not in killed
            ]
            plan = [row for row in plan if row["tests"]]
            if not plan:
                continue
            request = {
                "args": [*runner.pytest_args, f"{suite_dir}/{stem}.py"],
                "module": runner.module,
                "qualname": qualname,
                "mutants": plan,
                "budget_s": FUNCTION_BUDGET_S,
                "first_limit_s": FIRST_LIMIT_S,
            }
            report, why = runner.report(_program(request), FUNCTION_BUDGET_S + START_S)
            if report is None or report.get("error"):
                reason = (report or {}).get("error") or why
                figures.problems.append(f"{qualname} with {stem}: {reason}")
                not_run.update((qualname, row["id"]) for row in plan)
                continue
            for mutant_id, entry in report["mutants"].items():
                if entry.get("killed_by"):
                    killed.add((qualname, mutant_id))
                elif not entry.get("ran"):
                    not_run.add((qualname, mutant_id))
    not_run -= killed
    figures.killed, figures.not_run = len(killed), len(not_run)
    counted = figures.mutants - figures.not_run
    figures.mutants = counted
    figures.score = round(figures.killed / counted, 3) if counted else None
    return figures


__all__ = [
    "MutationFigures",
    "Runner",
    "junit_items",
    "lines_by_context",
    "module_functions",
    "module_mutants",
    "reach",
    "score_suite",
]
