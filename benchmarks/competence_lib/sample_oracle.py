"""The sample_data oracle: the fixtures a run added and the tests that read them, run.

What the operation writes (src/remora/code/samples/sample_fixtures.py): parametrized
pytest fixtures in a ``conftest.py``, one ``pytest.param`` per argument set,
and in the module's test file the tests that read them. Measured on the run's
workspace, copied:

- fixtures, sets: the fixtures the change added to a conftest and the items of
  their ``params=[...]``;
- sets read: those of fixtures a test the change added requests, itself or
  through the fixtures it requests;
- cases, cases passing twice: the new tests' cases as pytest's JUnit report
  names them (a parametrized test, one per set), passing in both of two runs;
- coverage of the node's body, lines and branches, that the cases' calls
  reached (coverage.py branch mode, first run), as the test oracle counts it.
"""

from __future__ import annotations

import ast
import tempfile
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from testgen_lib.measure import junit_outcomes, passing_twice

from competence_lib.checks import allowed_path
from competence_lib.corpus import Target
from competence_lib.oracles import changes_of, covered_run, node_coverage, test_names
from remora.workspace import Workspace
from remora.workspace.sync import materialize

Function = ast.FunctionDef | ast.AsyncFunctionDef
# The figures a run's record keeps (competence.py) and the report adds up.
SAMPLE_FIGURES = (
    "fixtures",
    "sets",
    "sets_read",
    "cases",
    "cases_passed",
    "coverage",
    "branches",
    "branches_covered",
)


@dataclass(slots=True)
class SampleOutcome:
    fixtures: int = 0
    sets: int = 0
    sets_read: int = 0
    cases: int = 0
    cases_passed: int = 0
    coverage: float = 0.0
    branches: int = 0
    branches_covered: int = 0
    problems: list[str] = field(default_factory=list)


def _is_fixture(decorator: ast.expr) -> bool:
    """``@pytest.fixture``, ``@fixture``, with or without arguments."""
    target = decorator.func if isinstance(decorator, ast.Call) else decorator
    name = target.attr if isinstance(target, ast.Attribute) else getattr(target, "id", "")
    return name == "fixture"


def fixtures(text: str | None) -> dict[str, tuple[int, list[str]]]:
    """Each module-level fixture of ``text``: (items of its ``params=`` list, the names
    its parameters request)."""
    if not text:
        return {}
    found: dict[str, tuple[int, list[str]]] = {}
    for stmt in ast.parse(text).body:
        if not isinstance(stmt, Function):
            continue
        marks = [d for d in stmt.decorator_list if _is_fixture(d)]
        if not marks:
            continue
        params = 0
        for mark in marks:
            for keyword in mark.keywords if isinstance(mark, ast.Call) else []:
                if keyword.arg == "params" and isinstance(keyword.value, ast.List | ast.Tuple):
                    params = len(keyword.value.elts)
        found[stmt.name] = (params, _requested(stmt))
    return found


def _requested(function: Function) -> list[str]:
    arguments = function.args
    return [a.arg for a in [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs]]


def requests_of_tests(text: str, names: set[str]) -> set[str]:
    """The fixture names the tests ``names`` (``name`` / ``Class::name``) request."""
    wanted: set[str] = set()
    for stmt in ast.parse(text).body:
        if isinstance(stmt, Function) and stmt.name in names:
            wanted.update(_requested(stmt))
        elif isinstance(stmt, ast.ClassDef):
            for inner in stmt.body:
                if isinstance(inner, Function) and f"{stmt.name}::{inner.name}" in names:
                    wanted.update(n for n in _requested(inner) if n != "self")
    return wanted


def read_closure(requested: set[str], known: dict[str, tuple[int, list[str]]]) -> set[str]:
    """``requested`` with every fixture those fixtures request in turn."""
    seen: set[str] = set()
    stack = list(requested)
    while stack:
        name = stack.pop()
        if name in seen:
            continue
        seen.add(name)
        stack.extend(known.get(name, (0, []))[1])
    return seen


def measure_samples(ws: Workspace, project: Path, target: Target) -> SampleOutcome:
    """The fixtures the run added, the sets they hold, and the new tests reading them, run."""
    outcome = SampleOutcome()
    added: dict[str, int] = {}
    known: dict[str, tuple[int, list[str]]] = {}
    requested: set[str] = set()
    ids: list[str] = []
    for path, (before, after) in changes_of(ws, project).items():
        if not allowed_path("sample_data", path, target.file_path) or after is None:
            continue
        if not path.endswith(".py"):
            continue  # the JSON export: no test reads it
        try:
            now, then = fixtures(after), fixtures(before)
            new_tests = test_names(after) - test_names(before)
        except SyntaxError as exc:
            outcome.problems.append(f"{path}:{exc.lineno}: does not parse")
            continue
        known.update(now)
        if PurePosixPath(path).name == "conftest.py":
            added.update({name: now[name][0] for name in set(now) - set(then)})
        requested |= requests_of_tests(after, new_tests)
        ids += [f"{path}::{name}" for name in sorted(new_tests)]
    outcome.fixtures, outcome.sets = len(added), sum(added.values())
    read = read_closure(requested, known)
    outcome.sets_read = sum(count for name, count in added.items() if name in read)
    if ids:
        _run_cases(outcome, ws, project, target, ids)
    return outcome


def _run_cases(
    outcome: SampleOutcome, ws: Workspace, project: Path, target: Target, ids: list[str]
) -> None:
    with tempfile.TemporaryDirectory(prefix="remora-competence-samples-") as scratch:
        work = Path(scratch)
        copy = work / "project"
        materialize(ws, copy)
        one, two = (covered_run(copy, work, target, ids, number) for number in (1, 2))
        if one.junit is None or two.junit is None:
            outcome.problems += [run.problem for run in (one, two) if run.junit is None]
            return
        first, second = junit_outcomes(one.junit.read_text()), junit_outcomes(two.junit.read_text())
        outcome.cases, outcome.cases_passed = len(first), passing_twice(first, second)
        if one.coverage is not None:
            node_coverage(outcome, one.coverage, project, target)


__all__ = [
    "SAMPLE_FIGURES",
    "SampleOutcome",
    "fixtures",
    "measure_samples",
    "read_closure",
    "requests_of_tests",
]
