"""A fix that leaves its twin: the same flagged code, unfixed, elsewhere in the node.

retrying's ``call()`` reads ``int(round(time.time() * 1000))`` on two lines, both flagged
RUF046; a rewrite dropped the ``int()`` of one and left the other, and its blind reviewer
sent it back: "change both lines or neither". A rewrite of a finding is refused where,
after it, the node still has a finding of the same code on the same code text (spaces
aside) as one the rewrite fixed: one changed among its twins reads as a slip. Fixing
each alike in one rewrite is kept; a twin of another code, or a finding of the code on
other text, is no twin. The flagged texts come from ruff's own ranges.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from remora.code.lint.own_findings import own_lines
from remora.code.lint.record_edits import flagged_code
from remora.code.parsing import SourceNode

__all__ = ["left_twin"]

# The most of a twin's text a reason quotes.
_QUOTED = 60


def _texts(node: SourceNode, records: list[dict[str, Any]], code: str) -> Counter[str]:
    """The code texts (spaces collapsed) the node's ``code`` findings flag."""
    rows = own_lines(node)
    data = node.file.data
    return Counter(
        " ".join(flagged_code(data, r).decode("utf-8").split())
        for r in records
        if r.get("code") == code and r["location"]["row"] in rows
    )


def left_twin(
    code: str,
    node: SourceNode,
    before: list[dict[str, Any]],
    replaced: SourceNode,
    after: list[dict[str, Any]],
) -> str:
    """Why the rewrite of ``node`` into ``replaced`` (ruff's records of the file
    ``before`` and ``after`` it) is refused: it fixed a ``code`` finding and left one on
    the same text; '' where it left none."""
    left = _texts(replaced, after, code)
    fixed = _texts(node, before, code) - left
    twin = next((text for text in fixed if text in left), None)
    if twin is None:
        return ""
    return (
        f"{code} is fixed on `{twin[:_QUOTED]}` here and left on the same code elsewhere "
        "in the node: fix each alike in one rewrite, or none (one changed among its twins "
        "reads as a slip)"
    )
