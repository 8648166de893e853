"""Ruff on the node's own lines: findings, safe fixes, and checked replacements of the node.

Ruff reads the workspace's current text on stdin (``--stdin-filename`` keeps the
project's ruff settings and per-file rules), from the project root, once per
text (:mod:`remora.code.lint.ruff_runs`): the nodes of a file share its run. A node's own
lines are its span minus the classes and functions nested in it, which are
nodes of their own. Edits come from ruff's JSON (a fix's edits, applied only
when every edit lies inside the node and the fix is marked safe) or from the
model (the node's whole replacement text, accepted only when the file still
parses, the finding is gone, no other finding appeared, and nothing outside the
node changed: the replacement is spliced into the node's span and nowhere else).
The one exception either way: a finding the change caused elsewhere in the file
(an import it left unused) is removed by ruff's own safe fix in the same change
(:mod:`remora.code.lint.caused_findings`), or the change is not made.
"""

from __future__ import annotations

import ast
import functools
from collections import Counter
from typing import Any

from remora import python_ast
from remora.code.context import CodeContext
from remora.code.lint.caused_findings import apply_edits, byte_offset, fix_caused
from remora.code.lint.ruff_runs import ruff_json, start_ruff
from remora.code.lint.same_behaviour import behaviour_change
from remora.code.module import host_function
from remora.code.parsing import ParsedFile, SourceNode, line_starts, locate, parse

__all__ = ["node_findings", "own_lines", "replace_checked", "ruff_json"]


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


def _finding(record: dict[str, Any]) -> dict[str, Any]:
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
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """(ruff records on the node's own lines, their summaries)."""
    mine = own_lines(node)
    records = await ruff_json(context, node.file.path, node.file.text)
    own = [r for r in records if r["location"]["row"] in mine]
    return own, [_finding(r) for r in own]


def _inside(node: SourceNode, start: int, end: int, content: bytes) -> bool:
    """Whether an edit of bytes ``start``..``end`` changes only the node.

    The node ends before its last line's line break; an edit may take that line
    break too when it replaces the node's last lines whole (ruff's fix of a
    useless ``return`` at the end of a function, PLR1711, removes the line with
    its line break): the text is the same as removing the lines from the line
    break before them.
    """
    lo, hi = node.start_byte(), node.end_byte()
    if lo <= start <= end <= hi:
        return True
    data = node.file.data
    at_line_start = start == 0 or data[start - 1 : start] in (b"\n", b"\r")
    return (
        lo < start <= hi
        and at_line_start
        and data[hi:end] in (b"\n", b"\r\n", b"\r")
        and (content == b"" or content.endswith((b"\n", b"\r")))
    )


def _safe_edits(node: SourceNode, records: list[dict[str, Any]]) -> list[tuple[int, int, bytes]]:
    data = node.file.data
    starts: list[int] = []  # found on the first safe fix: most nodes have none
    chosen: list[tuple[int, int, bytes]] = []
    for record in records:
        fix = record.get("fix") or {}
        if fix.get("applicability") != "safe":
            continue
        starts = starts or line_starts(data)
        edits = [
            (
                byte_offset(data, starts, e["location"]["row"], e["location"]["column"]),
                byte_offset(data, starts, e["end_location"]["row"], e["end_location"]["column"]),
                str(e.get("content") or "").encode("utf-8"),
            )
            for e in fix.get("edits", [])
        ]
        if not edits or not all(_inside(node, *edit) for edit in edits):
            continue
        if any(s < e2 and s2 < e for s, e, _ in edits for s2, e2, _ in chosen):
            continue  # overlaps a fix already taken; ruff reports it again next time
        chosen += edits
    return sorted(chosen)


@host_function
async def lint_findings(context: CodeContext) -> list[dict[str, Any]]:
    """Ruff's findings on the node's own lines.

    ``[{"code", "message", "line", "column", "fixable"}]``; ``fixable`` means a safe fix.
    """
    return (await node_findings(context, context.located()))[1]


@host_function
async def lint_fix(context: CodeContext, code: str = "") -> dict[str, Any]:
    """Apply ruff's safe fixes on the node's own lines (only rule ``code`` when given).

    Returns ``{"applied": [codes], "remaining": [findings]}``; the file is written
    only when it still parses and has fewer findings.
    """
    node = context.located()
    records, findings = await node_findings(context, node)
    wanted = [r for r in records if not code or r.get("code") == code]
    edits = _safe_edits(node, wanted)
    if not edits:
        return {"applied": [], "remaining": findings}
    new_text = apply_edits(node.file.data, edits).decode("utf-8")
    start_ruff(context, node.file.path, new_text)  # checked below: it runs while this parses
    try:
        fixed = locate(parse(new_text, node.file.path), node.ref)
    except (ValueError, LookupError):
        return {"applied": [], "remaining": findings}
    _, after = await node_findings(context, fixed)
    if len(after) >= len(findings):
        return {"applied": [], "remaining": findings}
    # A finding the fix caused elsewhere in the file (an import it left unused) goes in the
    # same change, by ruff's own fix, or the fix is not made.
    caused, left = await fix_caused(context, node.file.path, node.file.text, new_text)
    if left:
        _refused(context, code or "safe fixes", f"the fix adds {', '.join(left)}")
        return {"applied": [], "remaining": findings}
    if caused != new_text:
        new_text = caused
        _, after = await node_findings(context, locate(parse(new_text, node.file.path), node.ref))
    context.write_text(node.file.path, new_text)
    gone = Counter(f["code"] for f in findings) - Counter(f["code"] for f in after)
    return {"applied": sorted(gone.elements()), "remaining": after}


def _candidates(node: SourceNode, replacement: str, start: int) -> list[str]:
    """The replacement as given, and with the indentation of ``start``'s line put back on
    lines 2..."""
    newline = node.file.newline
    text = replacement.replace("\r\n", "\n").strip("\n").replace("\n", newline)
    line_start = node.file.data.rfind(b"\n", 0, start) + 1
    indent = node.file.data[line_start:start].decode("utf-8")
    if indent and text.startswith(indent):
        text = text[len(indent) :]
    lines = text.split(newline)
    out = [text]
    if indent:
        out.append(newline.join([lines[0], *[indent + line if line else "" for line in lines[1:]]]))
    return out


def _definitions(file: ParsedFile) -> list[str]:
    return [name for name, _ in file.definitions]


# A file's text before a fix is the same for every candidate of every node of the file:
# counted once (read only: the Counters are shared between calls).
@functools.lru_cache(maxsize=32)
def _uses(text: str) -> tuple[Counter[str], Counter[str], Counter[str], int]:
    """How often ``text`` reads each name, calls each function (``.attr`` for a method)
    and writes each name, and how many statements do nothing (``pass``, ``...``: a
    model copying an example's ``if x is None: pass``)."""
    reads: Counter[str] = Counter()
    calls: Counter[str] = Counter()
    writes: Counter[str] = Counter()
    placeholders = 0
    for item in ast.walk(python_ast.parse(text)):
        if isinstance(item, ast.Name):
            (reads if isinstance(item.ctx, ast.Load) else writes)[item.id] += 1
        elif isinstance(item, ast.Call):
            func = item.func
            if isinstance(func, ast.Name | ast.Attribute):
                calls[func.id if isinstance(func, ast.Name) else "." + func.attr] += 1
        elif isinstance(item, ast.Pass) or (
            isinstance(item, ast.Expr)
            and isinstance(item.value, ast.Constant)
            and item.value.value is Ellipsis
        ):
            placeholders += 1
    return reads, calls, writes, placeholders


def _own_texts(node: SourceNode, replaced: SourceNode, span: tuple[int, int]) -> tuple[str, str]:
    """The node's text before and after a change of ``span`` inside it, each a module of its
    own (under an ``if 1:`` with its indentation): the rest of the file is the same on both
    sides, and counting what the whole file reads cost its size per candidate."""
    lo, hi = span
    if node.is_file or not node.start_byte() <= lo <= hi <= node.end_byte():
        return node.file.text, replaced.file.text

    def own(item: SourceNode) -> str:
        start = item.start_byte()
        indent = item.line_indent(start)
        code = item.file.data[start : item.end_byte()].decode("utf-8")
        return f"if 1:\n{indent}{code}\n" if indent else code

    return own(node), own(replaced)


def lost_names(before: str, after: str) -> list[str]:
    """What ``after`` does differently from ``before``, beyond a lint fix's rewording:
    calls made less or more often, names read less often while assigned no less,
    names ``before`` already read that it reads more often, and statements that do
    nothing (``pass``, ``...``) added.

    A fix that drops or adds a call, or a read of a value it computes with,
    changes what the code does: the model rewrote the code instead of fixing it
    (humanize's RET504 "fixed" by returning ``final_str + ' x 10' + ''.join(...)``).
    Removing an assignment with its reads is allowed (F841's unused variable,
    RET504's temporary): then something is written less often too. A name read
    for the first time is allowed (E722's ``except Exception``).
    """
    reads_before, calls_before, writes_before, placeholders_before = _uses(before)
    reads_after, calls_after, writes_after, placeholders_after = _uses(after)
    changed = [
        f"{name}() {'dropped' if calls_after[name] < calls_before[name] else 'added'}"
        for name in sorted(set(calls_before) | set(calls_after))
        if calls_after[name] != calls_before[name]
    ]
    if placeholders_after > placeholders_before:
        changed.append("a statement that does nothing (pass or ...) added")
    dropping = writes_after.total() >= writes_before.total()
    for name in sorted(reads_before):
        if (reads_after[name] < reads_before[name] and dropping) or (
            reads_after[name] > reads_before[name]
        ):
            more = reads_after[name] > reads_before[name]
            changed.append(f"{name} read {'more' if more else 'less'} often")
    return changed


async def replace_checked(
    context: CodeContext,
    node: SourceNode,
    span: tuple[int, int],
    code: str,
    replacement: str,
    *,
    keep_definitions: bool = False,
) -> dict[str, Any]:
    """Put ``replacement`` in place of the bytes ``span`` of the node's file to remove ``code``.

    Written only when the file still parses, the node is still there, ``code`` is
    reported less on the node's own lines, no finding is added anywhere in the
    file (one the change caused outside the lines it wrote gets ruff's safe fix),
    no call is dropped or added and no name read less or more often beyond
    a removed assignment (:func:`lost_names`), with ``keep_definitions`` no class or function
    was added or removed, and calls of the node give what they gave before, having run
    every line and both sides of every branch ``span`` replaces
    (:func:`remora.code.lint.same_behaviour.behaviour_change`). A refusal is noted for the
    run's result (:func:`lint_refusals`). ``{"ok", "reason", "remaining"}``.
    """
    path = node.file.path
    _, before = await node_findings(context, node)
    if not any(f["code"] == code for f in before):
        return {"ok": False, "reason": f"{code} is not reported on this node", "remaining": before}
    whole_before = Counter(
        _finding(r)["code"] for r in await ruff_json(context, path, node.file.text)
    )
    reason = "the replacement does not parse in place of the node"
    data = node.file.data
    lo, hi = span
    for candidate in _candidates(node, replacement, lo):
        new_text = (data[:lo] + candidate.encode("utf-8") + data[hi:]).decode("utf-8")
        try:
            replaced = locate(parse(new_text, path), node.ref)
        except ValueError as exc:
            reason = f"the replacement does not parse: {exc}"
            continue
        except LookupError:
            reason = f"the replacement no longer defines {node.ref.full_name}"
            continue
        if keep_definitions and _definitions(replaced.file) != _definitions(node.file):
            reason = "the replacement adds or removes a class or function"
            continue
        records = await ruff_json(context, path, new_text)
        if Counter(_finding(r)["code"] for r in records) - whole_before:
            # What the rewrite caused (an import it left unused) goes by ruff's own fix.
            first = node.file.line_of(lo)
            written = (first, first + len(candidate.splitlines()) - 1)
            new_text, added = await fix_caused(context, path, node.file.text, new_text, written)
            if added:
                reason = f"the replacement adds {', '.join(added)}"
                break
            replaced = locate(parse(new_text, path), node.ref)
            records = await ruff_json(context, path, new_text)
        if lost := lost_names(*_own_texts(node, replaced, span)):
            reason = (
                f"the replacement changes what the code does ({', '.join(lost)}); "
                "fix the finding and keep every call and read as it is"
            )
            break
        mine = own_lines(replaced)
        after = [_finding(r) for r in records if r["location"]["row"] in mine]
        if sum(f["code"] == code for f in after) >= sum(f["code"] == code for f in before):
            reason = f"{code} is still reported"
            break
        lines = (node.file.line_of(lo), node.file.line_of(max(hi - 1, lo)))
        if changed := await behaviour_change(context, path, node.file.text, new_text, lines):
            reason = changed
            break
        return {"ok": True, "reason": "", "remaining": after}
    _refused(context, code, reason, node.file.line_of(lo))
    return {"ok": False, "reason": reason, "remaining": before}


def _refused(context: CodeContext, code: str, reason: str, line: int = 0) -> None:
    """Note a refused fix for the run's result (``lint_refusals``)."""
    context.note("lint refused", {"code": code, "line": line, "reason": reason})


@host_function
def lint_refusals(context: CodeContext) -> list[dict[str, Any]]:
    """The fixes this run refused, oldest first: ``[{code, line, reason}]`` (line 0: none
    given). A drafted rewrite refused because no call ran the lines it replaces is here
    with that reason, whatever the tests would say."""
    return context.notes("lint refused")


@host_function
async def lint_replace_node(context: CodeContext, code: str, replacement: str) -> dict[str, Any]:
    """Replace the node's text to remove ruff finding ``code``; refused with a reason otherwise.

    ``replacement`` is the node's whole new text (decorators to the end of its
    body) as in the file. Accepted only when the file still parses, the node is
    still there, there are fewer ``code`` findings on it and no new finding
    anywhere in the file. Returns ``{"ok", "reason", "remaining"}``; only an
    accepted text is written.
    """
    node = context.located()
    return await replace_checked(
        context, node, (node.start_byte(), node.end_byte()), code, replacement
    )
