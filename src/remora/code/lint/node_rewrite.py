"""A model's rewrite of the node (or of a span of it), checked before it is written.

The replacement is spliced into the span and nowhere else, and accepted only when
the file still parses, no line is longer than the project keeps its lines
(:mod:`remora.code.lint.long_lines`), the finding is gone (every one of its code in
the file, for the conversions a maintainer keeps alike: :data:`ALL_OR_NONE`; and none
on the same code as one it fixed: :mod:`remora.code.lint.twin_findings`), no
other finding appeared, the code does what it did (:mod:`remora.code.lint.code_uses`,
:mod:`remora.code.lint.same_behaviour`), and the project's type checker accepts what an
annotation it changed now says (:mod:`remora.code.lint.type_checks`). The one
exception: a finding the change caused elsewhere in the file (an import it left
unused) is removed by ruff's own safe fix in the same change
(:mod:`remora.code.lint.caused_findings`), or the change is not made. What is written
is laid out as ruff's own fix lays it out, where that means the same, and by the
project's formatter where it declares one (:mod:`remora.code.formatter`).
"""

from __future__ import annotations

from collections import Counter
from typing import TypedDict

from remora.code.context import CodeContext
from remora.code.formatter import format_written
from remora.code.host_function import host_function
from remora.code.lint.caused_findings import fix_caused
from remora.code.lint.code_uses import lost_comments, lost_names, own_texts
from remora.code.lint.long_lines import line_limit, long_line_refusal
from remora.code.lint.own_findings import LintFinding, finding, node_findings, own_lines
from remora.code.lint.refusals import refuse
from remora.code.lint.removed_lines import syntax_tree
from remora.code.lint.repr_conversions import lost_reprs
from remora.code.lint.ruff_fix_agreement import departs_from_ruff, ruff_fixed
from remora.code.lint.ruff_runs import ruff_json
from remora.code.lint.same_behaviour import behaviour_change
from remora.code.lint.twin_findings import left_twin
from remora.code.lint.type_checks import type_check_refusal
from remora.code.parsing import ParsedFile, SourceNode, locate, parse

__all__ = ["ALL_OR_NONE", "LintRewrite", "lint_replace_node", "replace_checked"]

# Spellings a maintainer wants the same across a file: one ``'%s minute' % base`` made an
# f-string among six left as they were was rejected (zxcvbn's ``display_time``), so were
# one SQL string among a dozen (sqlitedict) and one ``__str__`` among five ``%`` formats
# (pygtrie); others were edited back (rfc3986's ``add_port``, voluptuous's
# ``Unordered.__call__``) or asked to be finished (pyrsistent's ``__repr__`` methods). So
# with annotations: unidiff's one ``_file_mode -> str | None`` among nineteen
# ``Optional[...]`` ruff has no safe fix for "mixes styles ... done across the module or not
# at all" (rejected). A rewrite is kept only where none of these codes' findings is left
# in the file.
ALL_OR_NONE = frozenset({"UP031", "UP032", "UP006", "UP007", "UP045"})


class LintRewrite(TypedDict):
    """Whether a rewrite was written (``ok``), why not (``reason``; '' when written), and
    the node's findings after it (before it, when refused)."""

    ok: bool
    reason: str
    remaining: list[LintFinding]


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


def _dropping_fix(node: SourceNode, span: tuple[int, int], fixed: str | None) -> str | None:
    """Ruff's own fix, ``fixed``, where it drops a call or a read (C405's ``set([x])`` to
    ``{x}``): :func:`lost_names` would refuse the rule's own change, so ruff's fix, not that
    check, judges a rewrite there (:mod:`.ruff_fix_agreement`); None elsewhere."""
    if fixed is None:
        return None
    try:
        by_ruff = locate(parse(fixed, node.file.path), node.ref)
    except (ValueError, LookupError):
        return None
    changed = lost_names(*own_texts(node, by_ruff, span))
    # What the rule takes out, not what it adds: UP031's own ``.format()`` is as right as an
    # f-string, which keeps every read; a C405 rewrite keeping ``set()`` is not.
    return fixed if any(c.endswith(("dropped", "less often")) for c in changed) else None


async def _laid_out(
    context: CodeContext, node: SourceNode, new_text: str, ruff_text: str | None
) -> str:
    """The rewrite as ruff's own fix lays it out where the two mean the same (the
    trailing comma a drafted signature dropped, which black keeps), then its lines laid
    out by the project's formatter (:mod:`remora.code.formatter`)."""
    if ruff_text is not None and syntax_tree(ruff_text) == syntax_tree(new_text):
        new_text = ruff_text
    return await format_written(context, node.file.path, node.file.text, new_text)


async def replace_checked(
    context: CodeContext,
    node: SourceNode,
    span: tuple[int, int],
    code: str,
    replacement: str,
    *,
    keep_definitions: bool = False,
) -> LintRewrite:
    """Put ``replacement`` in place of the bytes ``span`` of the node's file to remove ``code``.

    Written only when the file still parses, the node is still there, ``code`` is
    reported less on the node's own lines, no finding is added anywhere in the
    file (one the change caused outside the lines it wrote gets ruff's safe fix),
    it means what ruff's own fix means where that fix drops a call or a read
    (:func:`departs_from_ruff`: C405's ``{x}`` for ``set([x])``), and elsewhere no call
    is dropped or added and no name read less or more often beyond a removed assignment
    (:func:`lost_names`) and no value formatted with ``str`` that was formatted with
    ``repr`` (:func:`lost_reprs`: ``%r`` kept as ``!r``); with ``keep_definitions`` no
    class or function was added or removed; calls of the node give what they gave
    before, having run every line and both sides of every branch ``span`` replaces
    (:func:`remora.code.lint.same_behaviour.behaviour_change`), and an annotation whose
    meaning changed passes the project's type checker
    (:func:`remora.code.lint.type_checks.type_check_refusal`). A refusal is noted for the
    run's result (:func:`lint_refusals`). ``{"ok", "reason", "remaining"}``.
    """
    path = node.file.path
    _, before = await node_findings(context, node)
    if not any(f["code"] == code for f in before):
        return {"ok": False, "reason": f"{code} is not reported on this node", "remaining": before}
    records_before = await ruff_json(context, path, node.file.text)
    whole_before = Counter(finding(r)["code"] for r in records_before)
    reason = "the replacement does not parse in place of the node"
    data = node.file.data
    lo, hi = span
    lines = (node.file.line_of(lo), node.file.line_of(max(hi - 1, lo)))
    # Ruff's own fix of the span, where it drops a call: what the fix means (once, not per
    # candidate).
    rows = range(lines[0], lines[1] + 1)
    ruff_text = ruff_fixed(data, records_before, code, rows)
    by_ruff = _dropping_fix(node, span, ruff_text)
    limit = line_limit(context, node.file.text)
    for candidate in _candidates(node, replacement, lo):
        new_text = (data[:lo] + candidate.encode("utf-8") + data[hi:]).decode("utf-8")
        new_text = drafted = await _laid_out(context, node, new_text, ruff_text)
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
        if too_long := long_line_refusal(node.file.text, drafted, limit):
            reason = too_long
            continue
        records = await ruff_json(context, path, new_text)
        if Counter(finding(r)["code"] for r in records) - whole_before:
            # What the rewrite caused (an import it left unused) goes by ruff's own fix.
            first = node.file.line_of(lo)
            written = (first, first + len(candidate.splitlines()) - 1)
            new_text, added = await fix_caused(context, path, node.file.text, new_text, written)
            if added:
                reason = f"the replacement adds {', '.join(added)}"
                break
            replaced = locate(parse(new_text, path), node.ref)
            records = await ruff_json(context, path, new_text)
        if by_ruff is not None:
            if departed := departs_from_ruff(code, node.file.text, by_ruff, drafted):
                reason = departed
                break
        else:
            texts = own_texts(node, replaced, span)
            if lost := lost_names(*texts):
                reason = (
                    f"the replacement changes what the code does ({', '.join(lost)}); "
                    "fix the finding and keep every call and read as it is"
                )
                break
            if lost_repr := lost_reprs(*texts):
                reason = lost_repr
                break
            if dropped := lost_comments(*texts):
                reason = f"the replacement drops the comment {dropped[0]!r}: keep every comment"
                break
        mine = own_lines(replaced)
        after = [finding(r) for r in records if r["location"]["row"] in mine]
        if sum(f["code"] == code for f in after) >= sum(f["code"] == code for f in before):
            reason = f"{code} is still reported"
            break
        if twin := left_twin(code, node, records_before, replaced, records):
            reason = twin
            break
        if code in ALL_OR_NONE and any(finding(r)["code"] == code for r in records):
            reason = (
                f"{code} is still reported on other lines of the file: convert every one of "
                "the node's in one rewrite, and none where the file keeps others (one "
                "converted among unconverted siblings is less consistent than before)"
            )
            break
        if changed := await behaviour_change(context, path, node.file.text, new_text, lines):
            reason = changed
            break
        if typed := await type_check_refusal(context, path, node.file.text, new_text):
            reason = typed
            break
        return {"ok": True, "reason": "", "remaining": after}
    refuse(context, code, reason, node.file.line_of(lo))
    return {"ok": False, "reason": reason, "remaining": before}


@host_function
async def lint_replace_node(context: CodeContext, code: str, replacement: str) -> LintRewrite:
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
