"""Ruff's findings on a node's own lines.

Ruff reads the workspace's current text on stdin (``--stdin-filename`` keeps the
project's ruff settings and per-file rules), from the project root, once per
text (:mod:`remora.code.lint.ruff_runs`): the nodes of a file share its run. A node's own
lines are its span minus the classes and functions nested in it, which are
nodes of their own.
"""

from __future__ import annotations

from typing import Any, TypedDict

from remora.code.context import CodeContext
from remora.code.host_function import host_function
from remora.code.lint.ruff_runs import ruff_json
from remora.code.parsing import SourceNode

__all__ = ["LintFinding", "finding", "lint_findings", "node_findings", "own_lines"]


def own_lines(node: SourceNode) -> set[int]:
    """Lines of the node that belong to no nested class or function.

    The nested ones are the file's definitions (listed once per text) that start
    inside the node: visiting the node's whole tree for them, expressions and
    all, cost the node's size on every question about its findings.
    """
    file = node.file
    lo, hi = node.start_byte(), node.end_byte()
    first, last = file.line_of(lo), file.line_of(max(hi - 1, 0))
    lines = set(range(first, last + 1))
    # The definitions are in file order: the nested ones follow the node's own entry, up to
    # the first that starts past its end (looking at all of them cost the file's size).
    definitions = file.definitions
    after = next((i + 1 for i, (_, d) in enumerate(definitions) if d is node.definition), 0)
    for _, item in definitions[after:]:
        start = item.decorators[0] if item.decorators else item
        at = file.spans[start].start
        if at >= hi:
            break
        if at >= lo:
            lines.difference_update(
                range(file.positions[start].start.line, file.positions[item].end.line + 1)
            )
    return lines


def _fix_lines(fix: dict[str, Any]) -> list[int]:
    """[first, last] line ruff's fix (safe or not) edits; [] without one.

    An edit that ends at column 1 of a line stops before that line.
    """
    rows: list[int] = []
    for edit in fix.get("edits") or []:
        start, end = edit["location"], edit["end_location"]
        last = end["row"] - 1 if end["column"] == 1 and end["row"] > start["row"] else end["row"]
        rows += [start["row"], last]
    return [min(rows), max(rows)] if rows else []


class LintFinding(TypedDict):
    """A ruff finding on the node: ``fixable`` means a safe fix; ``fix_lines``: [first, last]
    line any fix of it (safe or not) edits, [] without one."""

    code: str
    message: str
    line: int
    column: int
    fixable: bool
    fix_lines: list[int]


def finding(record: dict[str, Any]) -> LintFinding:
    """A ruff record as the lint tools give it: code, message, place, whether safely fixable."""
    fix = record.get("fix") or {}
    return {
        "code": record.get("code") or "syntax-error",
        "message": record.get("message", ""),
        "line": record["location"]["row"],
        "column": record["location"]["column"],
        "fixable": fix.get("applicability") == "safe",
        # The lines a fix touches: RET504's spans the assignment and the return.
        "fix_lines": _fix_lines(fix),
    }


async def node_findings(
    context: CodeContext, node: SourceNode
) -> tuple[list[dict[str, Any]], list[LintFinding]]:
    """(ruff records on the node's own lines, their summaries)."""
    mine = own_lines(node)
    records = await ruff_json(context, node.file.path, node.file.text)
    own = [r for r in records if r["location"]["row"] in mine]
    return own, [finding(r) for r in own]


@host_function
async def lint_findings(context: CodeContext) -> list[LintFinding]:
    """Ruff's findings on the node's own lines.

    ``[{"code", "message", "line", "column", "fixable", "fix_lines"}]``; ``fixable`` means a
    safe fix.
    """
    return (await node_findings(context, context.located()))[1]
