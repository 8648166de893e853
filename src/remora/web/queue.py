"""The queue page's data: open changes from the workspaces, decided ones from the db."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from remora.results import ResultsDB
from remora.results.review_queue import review_items
from remora.workspace import WorkspaceStore

__all__ = ["STATE_FILTERS", "Queue", "QueueFilter", "QueueRow", "load_queue"]

# "open" is what still waits for a person: pending, in conflict, half accepted.
STATE_FILTERS = ("open", "pending", "conflict", "accepted", "rejected", "all")
_OPEN = frozenset({"pending", "conflict", "accepting"})


@dataclass(frozen=True, slots=True)
class QueueRow:
    id: str  # the workspace id while open, else the result id
    result_id: str | None
    node: str
    file_path: str
    operation: str
    summary: str
    state: str
    additions: int | None
    deletions: int | None
    open: bool
    reject_reason: str | None = None


@dataclass(frozen=True, slots=True)
class QueueFilter:
    state: str = "open"
    operation: str = ""
    file_path: str = ""

    def keeps(self, row: QueueRow) -> bool:
        if self.operation and row.operation != self.operation:
            return False
        if self.file_path and row.file_path != self.file_path:
            return False
        if self.state == "all":
            return True
        if self.state == "open":
            return row.open
        return row.state == self.state


@dataclass(frozen=True, slots=True)
class Queue:
    rows: list[QueueRow]  # after the filter
    total: int  # before it
    by_state: dict[str, int] = field(default_factory=dict)
    by_operation: dict[str, int] = field(default_factory=dict)
    operations: list[str] = field(default_factory=list)
    files: list[str] = field(default_factory=list)
    open_rejections: int = 0


def _rows(store: WorkspaceStore, db: ResultsDB) -> list[QueueRow]:
    rows = [
        QueueRow(
            item.id,
            item.result_id,
            item.node,
            item.file_path or ", ".join(item.changed_files),
            item.operation,
            item.summary,
            item.state,
            item.additions,
            item.deletions,
            open=True,
        )
        for item in review_items(store, db)
    ]
    for record in db.list(states=("accepted", "rejected")):
        rows.append(
            QueueRow(
                record.result_id,
                record.result_id,
                record.node_name,
                record.file_path,
                record.operation,
                record.summary,
                record.review_state,
                None,
                None,
                open=False,
                reject_reason=record.reject_reason,
            )
        )
    return rows


def load_queue(store: WorkspaceStore, db: ResultsDB, chosen: QueueFilter) -> Queue:
    """Every row, counted, then filtered."""
    rows = _rows(store, db)
    by_state = Counter("open" if r.open else r.state for r in rows)
    by_state.update(r.state for r in rows if r.open)
    open_rows: Sequence[QueueRow] = [r for r in rows if r.open]
    return Queue(
        rows=[r for r in rows if chosen.keeps(r)],
        total=len(rows),
        by_state=dict(by_state),
        by_operation=dict(Counter(r.operation for r in open_rows)),
        operations=sorted({r.operation for r in rows}),
        files=sorted({r.file_path for r in rows if r.file_path}),
        open_rejections=len(db.open_rejections()),
    )
