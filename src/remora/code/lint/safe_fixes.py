"""Ruff's own safe fixes, applied only where every edit lies inside the node.

A fix is kept only when the file still parses and has fewer findings on the node;
a finding it caused elsewhere in the file (an import it left unused) is removed by
ruff's own safe fix in the same change (:mod:`remora.code.lint.caused_findings`),
or the fix is not made.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, TypedDict

from remora.code.context import CodeContext
from remora.code.host_function import host_function
from remora.code.lint.caused_findings import apply_edits, byte_offset, fix_caused
from remora.code.lint.own_findings import LintFinding, node_findings
from remora.code.lint.refusals import refuse
from remora.code.lint.ruff_runs import start_ruff
from remora.code.parsing import SourceNode, line_starts, locate, parse

__all__ = ["LintFix", "lint_fix"]


class LintFix(TypedDict):
    """The rules whose findings ruff's safe fixes removed (one code per finding), and the
    node's findings after them."""

    applied: list[str]
    remaining: list[LintFinding]


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
async def lint_fix(context: CodeContext, code: str = "") -> LintFix:
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
        refuse(context, code or "safe fixes", f"the fix adds {', '.join(left)}")
        return {"applied": [], "remaining": findings}
    if caused != new_text:
        new_text = caused
        _, after = await node_findings(context, locate(parse(new_text, node.file.path), node.ref))
    context.write_text(node.file.path, new_text)
    gone = Counter(f["code"] for f in findings) - Counter(f["code"] for f in after)
    return {"applied": sorted(gone.elements()), "remaining": after}
