"""The findings a lint fix caused, removed by ruff's own safe fixes in the same change.

A fix can leave a finding behind it that was not there before: UP006 turns
``List[int]`` into ``list[int]`` inside a function, and the file's ``from typing
import List`` is then unused (F401), a finding on the file, outside the
function's own lines. Issue 57's reviewers found four such imports left behind.
Ruff is run on the whole file after the change (the records are shared with the
check that asks whether the change added a finding: no extra run when it added
none); each finding it did not report before gets ruff's safe fix, wherever it
lies in the file, and ruff is asked again, a few rounds at most. What is still
added after that is for the caller to refuse. Nothing here reads the Python text
but ruff and the parser.

A fix can also leave code that reads worse than it did, whatever the project selects:
SIM114 joins two branches into ``if a and b or c:``, correct and unclear (two blind
reviewers of pathspec asked for the parentheses). The chained ``and``/``or`` a change
adds get ruff's own ``RUF021`` fix, ``(a and b) or c``, selected or not. And an import a
fix adds (UP035's ``from collections.abc import Iterator``) goes where the file's order
puts it: a file whose imports were in ruff's order (``I001`` clean, and no isort of the
project's own judging them) gets ``I001``'s fix when the change unsorted them, selected
or not (latexcodec's reviewer moved two such lines above ``from typing`` by hand).
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

from remora import python_ast
from remora.code.context import CodeContext
from remora.code.lint.project_rules import isort_elsewhere
from remora.code.lint.record_edits import Edit, fix_edits, flagged_code
from remora.code.lint.removed_lines import tidied
from remora.code.lint.ruff_runs import ruff_json, rule_records

__all__ = ["apply_edits", "fix_caused", "new_records"]

ROUNDS = 3


def apply_edits(data: bytes, edits: list[Edit]) -> bytes:
    """``data`` with each (start, end, content) edit made; the edits do not overlap. Lines
    removed whole take the blank lines they would double (:mod:`.removed_lines`)."""
    return tidied(data, edits)


def _code(record: dict[str, Any]) -> str:
    return str(record.get("code") or "syntax-error")


def new_records(before: list[dict[str, Any]], after: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The records of ``after`` beyond ``before``'s: per code, those whose message ``before``
    did not have as often (F401 names the import), else the last ones of the code."""
    added = Counter(_code(r) for r in after) - Counter(_code(r) for r in before)
    if not added:
        return []
    known = Counter((_code(r), r.get("message")) for r in before)
    out: list[dict[str, Any]] = []
    for code, count in added.items():
        rows = [r for r in after if _code(r) == code]
        unmatched = []
        for row in rows:
            key = (code, row.get("message"))
            if known[key] > 0:
                known[key] -= 1
            else:
                unmatched.append(row)
        out += (unmatched or rows)[-count:]
    return out


async def fix_caused(
    context: CodeContext,
    path: str,
    before: str,
    after: str,
    written: tuple[int, int] | None = None,
) -> tuple[str, list[str]]:
    """``after`` with ruff's safe fixes of the findings it has that ``before`` had not,
    and the codes of those still added (empty when none is).

    ``written``: the lines of ``after`` a model wrote. A finding on them is the model's
    own (an ``import`` it added and never used) and is left for the caller to refuse, so
    the model hears it; only what its change caused elsewhere is fixed.
    """
    old = await ruff_json(context, path, before)
    text = after
    for _ in range(ROUNDS):
        added = new_records(old, await ruff_json(context, path, text))
        if not added:
            return await _tidied(context, path, before, text), []
        if written is not None:
            added = [r for r in added if not written[0] <= int(r["location"]["row"]) <= written[1]]
        fixed = _safe_fixed(text, added)
        if fixed is None:
            break
        text = fixed
    left = new_records(old, await ruff_json(context, path, text))
    return await _tidied(context, path, before, text), sorted(_code(r) for r in left)


async def _tidied(context: CodeContext, path: str, before: str, text: str) -> str:
    return await _kept_sorted(context, path, before, await _clarified(context, path, before, text))


async def _kept_sorted(context: CodeContext, path: str, before: str, text: str) -> str:
    """``text`` with ``I001``'s safe fix where ``before``'s imports were in ruff's order and
    ``text``'s are not, unless the project's own isort judges the order."""
    if isort_elsewhere(Path(context.workspace.project_root)):
        return text
    # The change's text first: most leave the imports alone, and ruff runs once.
    unsorted = await rule_records(context, path, text, ("I001",))
    if not unsorted or await rule_records(context, path, before, ("I001",)):
        return text
    fixed = _safe_fixed(text, unsorted)
    return text if fixed is None else fixed


# Fixes that only add parentheses a reader needs (``(a and b) or c``): applied to what a
# change added, whether the project's selection holds them or not.
_CLARIFYING = ("RUF021",)


async def _clarified(context: CodeContext, path: str, before: str, text: str) -> str:
    """``text`` with the safe fixes of :data:`_CLARIFYING` findings on code ``before`` did
    not have (the same chain, moved by the change, is the code's own)."""
    had = Counter(
        (_code(r), flagged_code(before.encode("utf-8"), r))
        for r in await rule_records(context, path, before, _CLARIFYING)
    )
    data = text.encode("utf-8")
    added: list[dict[str, Any]] = []
    for record in await rule_records(context, path, text, _CLARIFYING):
        key = (_code(record), flagged_code(data, record))
        if had[key] > 0:
            had[key] -= 1
        else:
            added.append(record)
    fixed = _safe_fixed(text, added)
    return text if fixed is None else fixed


def _safe_fixed(text: str, records: list[dict[str, Any]]) -> str | None:
    """``text`` with the safe fixes of ``records`` that overlap none taken before them (ruff
    reports the others again on the next run); None where none applies or the result
    does not parse."""
    data = text.encode("utf-8")
    chosen: list[Edit] = []
    for record in records:
        if (record.get("fix") or {}).get("applicability") != "safe":
            continue
        edits = fix_edits(data, record)
        if not any(s < e2 and s2 < e for s, e, _ in edits for s2, e2, _ in chosen):
            chosen += edits
    if not chosen:
        return None
    fixed = apply_edits(data, chosen).decode("utf-8")
    try:
        python_ast.parse(fixed)
    except SyntaxError:
        return None
    return fixed
