"""The statement a ruff finding sits in: what the model sees and rewrites for a file or class.

A file's (or class's) whole text is too long for a small model's prompt and for
its reply: the lint agent shows each finding left on such a node with a few
numbered lines around it, and the model rewrites only the statement that holds
it. The unit is found with LibCST: the innermost simple statement holding the
finding's line, or the header of a compound statement or clause (``if ...:``,
``except:``) when the finding is on it; nested classes and functions are nodes
of their own and never a unit here. Replacing a unit goes through the same
checks as replacing a whole node (:func:`remora.code.lint.node_rewrite.replace_checked`),
and a unit's replacement may not add or remove a class or function.
"""

from __future__ import annotations

import textwrap

import libcst as cst

from remora.code.context import CodeContext
from remora.code.host_function import host_function
from remora.code.lint.node_rewrite import LintRewrite, replace_checked
from remora.code.lint.own_findings import LintFinding, node_findings, own_lines
from remora.code.parsing import SourceNode, statement_children

__all__ = ["LintUnit", "StatementRewrite", "statement_lines", "unit_lines"]


class LintUnit(LintFinding):
    """A finding with the statement that holds it: lines ``start_line``..``end_line``,
    ``text`` as in the file, ``excerpt`` numbered with lines around; the later findings in
    the same statement under ``also`` (``"CODE message"`` each)."""

    start_line: int
    end_line: int
    text: str
    excerpt: str
    also: list[str]


class StatementRewrite(LintRewrite):
    """A statement's rewrite, with the lines it replaced (0, 0 when no finding was there)."""

    start_line: int
    end_line: int


def statement_lines(node: SourceNode, line: int) -> tuple[int, int]:
    """(first, last) line of the smallest statement or clause header of ``node`` holding ``line``.

    ``(line, line)`` when no statement of the node's own holds it (a comment, a
    ``class`` line, a ``match`` header).
    """
    positions = node.file.positions
    found: list[tuple[int, int]] = []

    # Statements only, through their fields (a LibCST visit also went through every
    # expression, rebuilding each node: a class's size per finding).
    def walk(item: cst.CSTNode) -> None:
        if isinstance(item, cst.FunctionDef | cst.ClassDef):
            return  # a node of its own
        body = getattr(item, "body", None)
        unit: tuple[int, int] | None = None
        if isinstance(item, cst.SimpleStatementLine) or isinstance(body, cst.SimpleStatementSuite):
            unit = (positions[item].start.line, positions[item].end.line)
        elif isinstance(body, cst.IndentedBlock):
            unit = (positions[item].start.line, positions[body.header].start.line)
        if unit is not None and unit[0] <= line <= unit[1]:
            found.append(unit)  # walked outside in: the last one is the innermost
        for child in statement_children(item, simple=True):
            walk(child)

    for statement in node.body_statements:
        walk(statement)
    return found[-1] if found else (line, line)


def unit_lines(node: SourceNode, finding: LintFinding) -> tuple[int, int]:
    """(first, last) line of the statements a finding and its fix (safe or not) are on.

    Mostly one statement; RET504's fix removes the assignment before the return,
    so its unit holds both, and a rewrite of the unit can do what the fix does.
    """
    first, last = statement_lines(node, int(finding["line"]))
    fix_lines = finding.get("fix_lines") or []
    if fix_lines and set(range(fix_lines[0], fix_lines[1] + 1)) <= own_lines(node):
        first = min(first, statement_lines(node, fix_lines[0])[0])
        last = max(last, statement_lines(node, fix_lines[1])[1])
    return first, last


def _line_span(node: SourceNode, first: int, last: int, *, whole: bool = False) -> tuple[int, int]:
    """Bytes of lines ``first``..``last``, from the first one's indentation to the last's end
    (``whole``: from the first one's start through the last one's line break)."""
    data = node.file.data
    starts = node.file.line_starts
    lo = starts[first - 1]
    if whole:
        return lo, starts[last] if last < len(starts) else len(data)
    hi = starts[last] - 1 if last < len(starts) else len(data)
    if hi > lo and data[hi - 1 : hi] == b"\r":
        hi -= 1
    line = data[lo:hi]
    return lo + len(line) - len(line.lstrip(b" \t")), hi


@host_function
def lint_units(
    context: CodeContext, findings: list[LintFinding], around: int = 2
) -> list[LintUnit]:
    """Each finding (from ``lint_findings``) with the statement that holds it, for the prompt.

    Adds ``start_line``/``end_line`` (the unit ``lint_replace_statement``
    rewrites), ``text`` (its lines as in the file) and ``excerpt`` (numbered
    lines, ``around`` either side). Findings in the same unit are merged:
    the later ones are listed under the first's ``also``.
    """
    node = context.located()
    lines = node.file.text.splitlines()
    units: list[LintUnit] = []
    for finding in findings:
        first, last = unit_lines(node, finding)
        same = [u for u in units if (u["start_line"], u["end_line"]) == (first, last)]
        earlier = same[0] if same else None
        if earlier is not None:
            earlier["also"].append(f"{finding['code']} {finding['message']}")
            continue
        shown = range(max(first - around, 1), min(last + around, len(lines)) + 1)
        width = len(str(shown[-1])) if shown else 1
        units.append(
            {
                **finding,
                "start_line": first,
                "end_line": last,
                "text": "\n".join(lines[first - 1 : last]),
                "excerpt": "\n".join(f"{n:>{width}} | {lines[n - 1]}" for n in shown),
                "also": [],
            }
        )
    return units


@host_function
async def lint_replace_statement(
    context: CodeContext, code: str, replacement: str
) -> StatementRewrite:
    """Rewrite the statement holding the node's first ``code`` finding; refused with a reason.

    ``replacement`` is the new text of that statement's lines (``lint_units``'s
    ``start_line``..``end_line``; for a compound statement only its header, such as
    ``if x is None:``). Accepted only when the file still parses, ``code`` is
    reported less on the node's own lines, no finding is added anywhere in the
    file and no class or function is added or removed. ``{"ok", "reason",
    "remaining", "start_line", "end_line"}``; only an accepted text is written.
    """
    node = context.located()
    _, findings = await node_findings(context, node)
    target = next((f for f in findings if f["code"] == code), None)
    if target is None:
        return {
            "ok": False,
            "reason": f"{code} is not reported on this node",
            "remaining": findings,
            "start_line": 0,
            "end_line": 0,
        }
    first, last = unit_lines(node, target)
    # An empty replacement deletes the statement: its lines go, or a line of its
    # indentation alone was left behind.
    deleted = not replacement.strip()
    span = _line_span(node, first, last, whole=deleted)
    outcome = await replace_checked(
        context, node, span, code, "" if deleted else replacement, keep_definitions=True
    )
    return {**outcome, "start_line": first, "end_line": last}


def _defines_the_node(node: SourceNode, replacement: str) -> bool:
    """Whether ``replacement`` parses as one definition of the node's own name (its whole text)."""
    if node.definition is None:
        return False
    try:
        module = cst.parse_module(textwrap.dedent(replacement.replace("\r\n", "\n")).strip("\n"))
    except (cst.ParserSyntaxError, cst.CSTValidationError):
        return False
    body = module.body
    return (
        len(body) == 1
        and isinstance(body[0], type(node.definition))
        and body[0].name.value == node.definition.name.value
    )


@host_function
async def lint_edit(context: CodeContext, code: str, replacement: str) -> LintRewrite:
    """The model's fix of finding ``code``: the node's whole text, or the statement's.

    A replacement that is one definition of the node's own name (``def f(...): ...``)
    replaces the whole node (``lint_replace_node``); any other replaces the statement
    that holds the first ``code`` finding (``lint_replace_statement``). The same
    checks either way; ``{"ok", "reason", "remaining"}``.
    """
    node = context.located()
    if _defines_the_node(node, replacement):
        return await replace_checked(
            context, node, (node.start_byte(), node.end_byte()), code, replacement
        )
    return await lint_replace_statement(context, code, replacement)
