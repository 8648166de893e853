"""The node's line and branch coverage: measured in the command sandbox, reported as its source.

coverage.py in branch mode runs around a program of :mod:`remora.code.probes.programs`
(pytest on a test file, or the node called with argument sets) and reports,
per test or per set, the statements of the node's body it ran and the branch
arcs it took (:mod:`remora.code.probes.programs.coverage_support`). Here those become
a :class:`Coverage` to add up and compare, and the missed report a model reads:
the node's source with each line that never ran marked ``>>`` and each branch
that never went one way annotated with where it did not go.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, TypedDict

from remora import python_ast
from remora.code.context import CodeContext
from remora.code.probes.pytest_files import run_pytest_measured
from remora.code.probes.pytest_results import PytestReport

__all__ = ["Coverage", "CoverageSummary", "Span", "measure_test_file", "missed_report", "node_span"]


class CoverageSummary(TypedDict):
    """The node's coverage (:meth:`Coverage.summary`): ``lines`` and ``branches`` as
    "covered/total", the rates as shares (1.0 when there is none to cover)."""

    lines: str
    branches: str
    line_rate: float
    branch_rate: float


Unit = tuple[str, int, int]  # ("line", n, 0) or ("arc", from, to)


@dataclass(frozen=True)
class Span:
    """The node's file, its first line (decorators included) and its body's lines."""

    file: str
    start: int
    first: int
    last: int

    def spec(self) -> dict[str, Any]:
        return {"file": self.file, "first": self.first, "last": self.last}


@dataclass
class Coverage:
    """What can be covered in the span, and what has been."""

    statements: list[int]
    branches: list[tuple[int, int]]
    lines: set[int] = field(default_factory=set)
    arcs: set[tuple[int, int]] = field(default_factory=set)

    @classmethod
    def of(cls, measured: dict[str, Any]) -> Coverage:
        return cls(
            [int(n) for n in measured["statements"]],
            [(int(a), int(b)) for a, b in measured["branches"]],
        )

    def units(self) -> set[Unit]:
        return {("line", n, 0) for n in self.lines} | {("arc", a, b) for a, b in self.arcs}

    def add(self, units: Iterable[Unit]) -> None:
        for kind, a, b in units:
            if kind == "line":
                self.lines.add(a)
            else:
                self.arcs.add((a, b))

    def copy(self) -> Coverage:
        return Coverage(self.statements, self.branches, set(self.lines), set(self.arcs))

    def summary(self) -> CoverageSummary:
        """``{lines, branches, line_rate, branch_rate}``: "covered/total" and the shares."""
        covered_lines = len(self.lines & set(self.statements))
        covered_arcs = len(self.arcs & set(self.branches))
        return {
            "lines": f"{covered_lines}/{len(self.statements)}",
            "branches": f"{covered_arcs}/{len(self.branches)}",
            "line_rate": round(covered_lines / len(self.statements), 2) if self.statements else 1.0,
            "branch_rate": round(covered_arcs / len(self.branches), 2) if self.branches else 1.0,
        }

    def complete(self) -> bool:
        return set(self.statements) <= self.lines and set(self.branches) <= self.arcs


def context_units(measured: dict[str, Any] | None, name: str) -> set[Unit]:
    """The lines and branch arcs one context (a test, an argument set) covered."""
    if measured is None or name not in measured["contexts"]:
        return set()
    entry = measured["contexts"][name]
    return {("line", int(n), 0) for n in entry["lines"]} | {
        ("arc", int(a), int(b)) for a, b in entry["arcs"]
    }


def node_span(context: CodeContext) -> Span:
    """The node's body lines, from its function definition in the parsed file."""
    node = context.bound_node()
    text = context.node_file_text()
    try:
        tree = python_ast.parse(text)
    except SyntaxError as exc:
        raise ValueError(f"{node.file_path}:{exc.lineno}: cannot parse ({exc.msg})") from None
    for found in ast.walk(tree):
        if (
            isinstance(found, ast.FunctionDef | ast.AsyncFunctionDef)
            and found.name == node.name
            and node.start_line <= found.lineno <= node.end_line
        ):
            body = found.body
            first = body[1] if len(body) > 1 and _is_docstring(body[0]) else body[0]
            last = found.end_lineno or node.end_line
            return Span(node.file_path, node.start_line, first.lineno, last)
    return Span(node.file_path, node.start_line, node.start_line, node.end_line)


def _is_docstring(statement: ast.stmt) -> bool:
    return (
        isinstance(statement, ast.Expr)
        and isinstance(statement.value, ast.Constant)
        and isinstance(statement.value.value, str)
    )


async def measure_test_file(
    context: CodeContext,
    path: str,
    span: Span,
    timeout_s: float | None = None,
    *,
    elsewhere: bool = False,
) -> tuple[PytestReport, dict[str, Any] | None]:
    """Run pytest on ``path`` under coverage: (the report of
    :func:`remora.code.probes.pytest_files.run_pytest`, the coverage report);
    ``elsewhere``: as on another machine (``run_pytest_measured``).

    The coverage is None when pytest or coverage could not run.
    """
    report, measured = await run_pytest_measured(
        context, path, span.spec(), timeout_s, elsewhere=elsewhere
    )
    return report, measured if not report["collection_errors"] else None


def _exit_words(target: int) -> str:
    return "the function's exit" if target < 0 else f"line {target}"


def missed_report(source: str, first_line: int, span: Span, covered: Coverage) -> str:
    """The node's source (``source`` starts at ``first_line``) with what no test ran marked.

    ``>>`` marks a statement that never ran; a line whose branch never went one
    way ends with ``# never went to line N`` (or to the function's exit). Empty
    when everything in the span is covered.
    """
    if covered.complete():
        return ""
    missed_lines = set(covered.statements) - covered.lines
    untaken: dict[int, list[int]] = {}
    for a, b in covered.branches:
        if (a, b) not in covered.arcs and a not in missed_lines:
            untaken.setdefault(a, []).append(b)
    out: list[str] = []
    for number, line in enumerate(source.splitlines(), first_line):
        mark = ">> " if number in missed_lines else "   "
        note = ""
        if number in untaken:
            note = "  # never went to " + ", ".join(_exit_words(b) for b in untaken[number])
        out.append(f"{mark}{line}{note}" if span.first <= number <= span.last else f"   {line}")
    return "\n".join(out)
