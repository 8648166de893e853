"""A rewrite held to ruff's own fix of the finding, where ruff has one.

Ruff knows what its rules' fixes are; a small model drafting one may not. C405's fix of
``set([other])`` is ``{other}``; a drafted ``set(other)`` removed the finding, read the same
names, made the same calls and passed the behaviour check (no derived call reached that
branch), and iterates ``other`` instead of holding it: a ``Range`` raises, an ``AllOf``'s
clauses are split out (a blind reviewer: reject, "changes behaviour"). The check that
keeps every call and read cannot judge such a rule: its own fix drops ``set()``, so the
right rewrite was refused and only a wrong one could pass. Where ruff has a fix (safe or
not: ruff marks C405's unsafe only because it may drop a comment) for every finding of the
code on the lines the rewrite replaces, and that fix itself drops a call or a read, the
rewrite must mean what ruff's fix means: the same syntax tree, formatting and comments
aside. Elsewhere (UP031's fix adds ``.format()``, where an f-string is as right) the calls
and reads are the check.
Nothing here runs ruff: it reads the records the check already has, and compares with
:mod:`ast`.
"""

from __future__ import annotations

import itertools
from typing import Any

from remora.code.lint.caused_findings import apply_edits
from remora.code.lint.record_edits import fix_edits
from remora.code.lint.removed_lines import syntax_tree

__all__ = ["departs_from_ruff", "ruff_fixed"]

# The longest text of ruff's fix a reason quotes.
_QUOTED = 80


def ruff_fixed(data: bytes, records: list[dict[str, Any]], code: str, lines: range) -> str | None:
    """``data`` with ruff's own fix of every ``code`` finding on ``lines`` made; None where
    one of them has no fix, or none is there."""
    found = [r for r in records if r.get("code") == code and r["location"]["row"] in lines]
    if not found or any(not (r.get("fix") or {}).get("edits") for r in found):
        return None
    edits = sorted(edit for record in found for edit in fix_edits(data, record))
    if any(a[1] > b[0] for a, b in itertools.pairwise(edits)):
        return None  # overlapping fixes: ruff applies them in rounds, not at once
    fixed = apply_edits(data, edits).decode("utf-8", "replace")
    return fixed if syntax_tree(fixed) is not None else None


def departs_from_ruff(code: str, original: str, ruff_text: str, new_text: str) -> str:
    """Why ``new_text`` means other than ``ruff_text``, ruff's own fix of ``code`` in
    ``original`` ('' when they mean the same); the reason quotes ruff's first changed line."""
    if syntax_tree(new_text) == syntax_tree(ruff_text):
        return ""
    theirs, before = ruff_text.splitlines(), original.splitlines()
    last = theirs[-1] if theirs else ""
    changed = next((a for a, b in zip(theirs, before, strict=False) if a != b), last)
    shown = changed.strip()[:_QUOTED]
    return (
        f"ruff's own fix of {code} writes `{shown}`; the replacement means something else: "
        "make ruff's change and nothing more"
    )
