"""A summary checked as the docstring agent checks it, for the unit tests of its rules."""

from __future__ import annotations

from remora.code.docstring.pieces import Pieces, check_pieces
from remora.code.parsing import NodeRef, locate, parse


def summary_refusal(source: str, path: str, kind: str, name: str, summary: str) -> str:
    """The reasons the summary of node ``name`` (a ``kind`` of ``source``, read as the file
    ``path``) is refused, joined; '' when it stands."""
    node = locate(parse(source, path), NodeRef(kind, name, 0))
    _, refused = check_pieces(node, Pieces(summary=summary))
    return "; ".join(r["reason"] for r in refused if r["field"] == "summary")
