"""One open document as Remora sees it: its changes placed, as diagnostics.

A ``DocumentView`` is computed from the buffer's current text each time it is
needed (open, edit, a queue change), so diagnostics, hover and code actions
always agree with what the editor shows.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from lsprotocol import types

from remora.discovery import CSTNode, load_query_pack, parse_source
from remora.lsp.placing import HunkPlace, place_hunks
from remora.lsp.queue import PendingChange, ReviewQueue, find_node
from remora.lsp.textmap import Lines

__all__ = ["SOURCE", "DocumentView", "Mark"]

SOURCE = "remora"


@dataclass(frozen=True, slots=True)
class Mark:
    """Something shown in the document: a placed hunk, or a change's node elsewhere."""

    change: PendingChange
    first: int
    last: int
    place: HunkPlace | None  # None: the change edits other files; this marks its node
    conflict: str = ""

    @property
    def hunk_number(self) -> int | None:
        return self.place.hunk.number if self.place is not None else None

    def covers(self, start_line: int, end_line: int) -> bool:
        return self.first <= end_line and start_line <= self.last

    def data(self) -> dict[str, Any]:
        return {
            "change_id": self.change.id,
            "hunk": self.hunk_number,
            "operation": self.change.operation,
            "node": self.change.node,
            "conflict": bool(self.conflict),
        }


def _one_line(text: str) -> str:
    line = " ".join(text.split())
    return line if len(line) <= 160 else line[:159] + "…"


@dataclass
class DocumentView:
    rel: str
    buffer: Lines
    changes: list[PendingChange] = field(default_factory=list)

    @classmethod
    def build(cls, queue: ReviewQueue, rel: str, text: str, encoding: str) -> DocumentView:
        return cls(rel, Lines.of(text, encoding), queue.for_file(rel))

    @cached_property
    def nodes(self) -> list[CSTNode]:
        source = "".join(self.buffer.lines).encode("utf-8")
        nodes, _warnings = parse_source(source, self.rel, pack=load_query_pack())
        return nodes

    @cached_property
    def marks(self) -> list[Mark]:
        marks: list[Mark] = []
        for change in self.changes:
            own = change.file(self.rel)
            if own is None or not own.on_base:
                # The change edits other files, or this file was saved since the agent
                # read it (its hunks against the file now would undo the user's edits):
                # one mark on the node.
                node = find_node(self.nodes, change.record.node_id)
                line = node.start_line - 1 if node is not None else 0
                conflict = "" if own is None else f"{self.rel} was saved since the agent read it"
                marks.append(Mark(change, line, line, None, conflict))
                continue
            for place in place_hunks(change, own, self.buffer):
                marks.append(Mark(change, place.first, place.last, place, place.conflict))
        return marks

    def marks_at(self, start_line: int, end_line: int) -> list[Mark]:
        return [m for m in self.marks if m.covers(start_line, end_line)]

    def node_at(self, line: int) -> CSTNode | None:
        """The innermost node around ``line`` (0-based)."""
        around = [n for n in self.nodes if n.start_line - 1 <= line <= n.end_line - 1]
        return min(around, key=lambda n: n.end_line - n.start_line, default=None)

    def diagnostics(self) -> list[types.Diagnostic]:
        return [self._diagnostic(mark) for mark in self.marks]

    def _diagnostic(self, mark: Mark) -> types.Diagnostic:
        change = mark.change
        summary = _one_line(change.record.summary) or f"a change to {change.node}"
        total = len(change.hunks)
        where = f" [hunk {mark.hunk_number} of {total}]" if mark.place and total > 1 else ""
        if mark.conflict:
            message = (
                f"{change.operation} (conflict, not applied): {summary}{where}: {mark.conflict}; "
                "run the agent again or reject the change"
            )
            severity = types.DiagnosticSeverity.Warning
        else:
            message = f"{change.operation}: {summary}{where}"
            severity = types.DiagnosticSeverity.Information
        return types.Diagnostic(
            range=self.buffer.line_range(mark.first, mark.last),
            message=message,
            severity=severity,
            source=SOURCE,
            code=change.operation,
            data=mark.data(),
        )
