"""Ruff's own safe fixes, applied only where every edit lies inside the node.

A fix is kept only when the file still parses and has fewer findings on the node;
a finding it caused elsewhere in the file (an import it left unused) is removed by
ruff's own safe fix in the same change (:mod:`remora.code.lint.caused_findings`),
or the fix is not made; so is one that writes a line longer than the project keeps its
lines (:mod:`remora.code.lint.long_lines`), and one that names a loop's lookup by the loop's
value but leaves the same lookup in a store (:mod:`remora.code.lint.partial_lookups`).
A fix that changes what an annotation means (PYI032's ``Any`` → ``object``) is made
only when the project's type checker, where it has one, finds no new error in the changed
file (:mod:`remora.code.lint.type_checks`); the node's other fixes are made without it.
The lines a fix wrote are laid out by the project's formatter where it declares one
(:mod:`remora.code.formatter`: UP008's ``super().__init__(`` joined to one line where it
now fits, as ``black --check`` wants).
"""

from __future__ import annotations

from collections import Counter
from typing import Any, TypedDict

from remora.code.context import CodeContext
from remora.code.formatter import format_written
from remora.code.host_function import host_function
from remora.code.lint.annotation_meaning import changed_annotations
from remora.code.lint.caused_findings import apply_edits, fix_caused
from remora.code.lint.long_lines import line_limit, long_line_refusal
from remora.code.lint.own_findings import LintFinding, node_findings, own_lines
from remora.code.lint.partial_lookups import partial_lookup_refusal
from remora.code.lint.record_edits import Edit, fix_edits
from remora.code.lint.refusals import lint_refusals, refuse
from remora.code.lint.ruff_runs import held_back, start_ruff
from remora.code.lint.type_checks import type_check_refusal
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


def _taken(
    node: SourceNode, records: list[dict[str, Any]]
) -> list[tuple[dict[str, Any], list[Edit]]]:
    """The records whose safe fix is made, each with its byte edits: those whose every edit
    lies inside the node, less any that overlaps one taken before it."""
    data = node.file.data
    starts: list[int] = []  # found on the first safe fix: most nodes have none
    taken: list[tuple[dict[str, Any], list[Edit]]] = []
    chosen: list[Edit] = []
    for record in records:
        fix = record.get("fix") or {}
        if fix.get("applicability") != "safe":
            continue
        starts = starts or line_starts(data)
        edits = fix_edits(data, record, starts)
        if not edits or not all(_inside(node, *edit) for edit in edits):
            continue
        # An edit the same as one taken is made once, as ruff makes it (two PLR1733 fixes
        # of one loop both rewrite its target); any other overlap waits for the next run.
        new = [edit for edit in edits if edit not in chosen]
        if any(s < e2 and s2 < e for s, e, _ in new for s2, e2, _ in chosen):
            continue
        chosen += new
        taken.append((record, edits))
    return taken


async def _fixed_text(
    context: CodeContext, node: SourceNode, records: list[dict[str, Any]], code: str
) -> str | None:
    """The file with the records' safe fixes inside the node, and ruff's fixes of what they
    caused elsewhere; None when there is none to make, or when the file would not parse,
    would not have fewer findings on the node, or keeps a finding the fixes caused."""
    edits = sorted({edit for _, taken in _taken(node, records) for edit in taken})
    if not edits:
        return None
    new_text = apply_edits(node.file.data, edits).decode("utf-8")
    start_ruff(context, node.file.path, new_text)  # checked below: it runs while this parses
    try:
        fixed = locate(parse(new_text, node.file.path), node.ref)
    except (ValueError, LookupError):
        return None
    _, findings = await node_findings(context, node)
    _, after = await node_findings(context, fixed)
    if len(after) >= len(findings):
        return None
    # A finding the fix caused elsewhere in the file (an import it left unused) goes in the
    # same change, by ruff's own fix, or the fix is not made.
    caused, left = await fix_caused(context, node.file.path, node.file.text, new_text)
    if left:
        refuse(context, code or "safe fixes", f"the fix adds {', '.join(left)}")
        return None
    return caused


async def _type_refused(
    context: CodeContext, node: SourceNode, records: list[dict[str, Any]], new_text: str
) -> list[dict[str, Any]]:
    """The records whose fixes change what the project's type checker accepts and are refused
    for it (:mod:`remora.code.lint.type_checks`), each noted with the reason; [] when none."""
    reason = await type_check_refusal(context, node.file.path, node.file.text, new_text)
    if not reason:
        return []
    taken = _taken(node, records)
    refused = []
    for record, edits in taken:  # which of them: each fix alone
        try:
            alone = apply_edits(node.file.data, edits).decode("utf-8")
            changes = bool(changed_annotations(node.file.text, alone))
        except SyntaxError:
            changes = True
        if changes:
            refused.append(record)
    refused = refused or [record for record, _ in taken]  # only together: all of them
    # fix_safe asks again after its other fixes (their lines may have moved the finding's):
    # a refusal noted by an earlier call is not noted again.
    noted = {(r["code"], r["reason"]) for r in lint_refusals(context)}
    for record in refused:
        if (code := str(record.get("code"))) and (code, reason) not in noted:
            refuse(context, code, reason, int(record["location"]["row"]))
    return refused


async def _note_held_back(context: CodeContext, node: SourceNode) -> None:
    """Note, once per rule, the node's findings held back because the project supports a
    Python older than ruff's oldest target (:mod:`remora.code.lint.oldest_python`)."""
    held = await held_back(context, node.file.path, node.file.text)
    if not held:
        return
    mine = own_lines(node)
    noted = {(r["code"], r["reason"]) for r in lint_refusals(context)}
    for record, reason in held:
        code, line = str(record.get("code")), int(record["location"]["row"])
        if line in mine and (code, reason) not in noted:
            refuse(context, code, reason, line)
            noted.add((code, reason))


def _lookup_refused(
    context: CodeContext, node: SourceNode, records: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """The records whose loop-lookup fix leaves the same lookup in the loop
    (:mod:`remora.code.lint.partial_lookups`), each noted with the reason."""
    taken = _taken(node, records)
    made = {edit for _, edits in taken for edit in edits}
    refused = []
    for record, edits in taken:
        if reason := partial_lookup_refusal(node.file.data, record, edits, made):
            refuse(context, str(record.get("code")), reason, int(record["location"]["row"]))
            refused.append(record)
    return refused


def _long_refused(
    context: CodeContext, node: SourceNode, records: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """The records whose fix writes a line longer than the project keeps its lines
    (:mod:`remora.code.lint.long_lines`), each noted with the reason: taken in order, each
    fix with those kept before it, since fixes of one line add up (three FURB167 fixes of
    ``re.I | re.M | re.S`` each fit; together they wrote 97 columns in a file of 88). A line
    one of them is refused on keeps all of them out: half its flags spelled out reads as
    a slip (``re.IGNORECASE | re.M | re.S``)."""
    limit = line_limit(context, node.file.text)
    taken = _taken(node, records)
    too_long: dict[int, str] = {}  # row -> why
    kept: list[Edit] = []
    for record, edits in taken:
        together = apply_edits(node.file.data, [*kept, *edits]).decode("utf-8")
        if reason := long_line_refusal(node.file.text, together, limit):
            too_long.setdefault(int(record["location"]["row"]), reason)
        else:
            kept += edits
    refused = [r for r, _ in taken if int(r["location"]["row"]) in too_long]
    for record in refused:
        row = int(record["location"]["row"])
        refuse(context, str(record.get("code")), too_long[row], row)
    return refused


@host_function
async def lint_fix(context: CodeContext, code: str = "") -> LintFix:
    """Apply ruff's safe fixes on the node's own lines (only rule ``code`` when given).

    Returns ``{"applied": [codes], "remaining": [findings]}``; the file is written
    only when it still parses and has fewer findings. A fix that changes what an
    annotation means is made only when the project's type checker, if it has one,
    finds no new error in the changed file.
    """
    node = context.located()
    records, findings = await node_findings(context, node)
    await _note_held_back(context, node)
    wanted = [r for r in records if not code or r.get("code") == code]
    held = _long_refused(context, node, wanted) + _lookup_refused(context, node, wanted)
    wanted = [r for r in wanted if all(r is not other for other in held)]
    new_text = await _fixed_text(context, node, wanted, code)
    if new_text is not None and (refused := await _type_refused(context, node, wanted, new_text)):
        wanted = [r for r in wanted if all(r is not other for other in refused)]
        new_text = await _fixed_text(context, node, wanted, code)
    if new_text is None:
        return {"applied": [], "remaining": findings}
    new_text = await format_written(context, node.file.path, node.file.text, new_text)
    context.write_text(node.file.path, new_text)
    _, after = await node_findings(context, locate(parse(new_text, node.file.path), node.ref))
    gone = Counter(f["code"] for f in findings) - Counter(f["code"] for f in after)
    return {"applied": sorted(gone.elements()), "remaining": after}
