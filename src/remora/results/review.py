"""The review queue: workspaces with changes, joined with their recorded results.

Accept and reject go through here so the workspace store and the results
database always move together, whichever front end (CLI, TUI) drives them.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from typing import Any

from remora.errors import USAGE, RemoraError
from remora.results.db import ResultsDB, ReviewState
from remora.workspace import AcceptReport, WorkspaceStore

__all__ = ["ReviewItem", "accept", "reject", "resolve_ids", "review_items"]


@dataclass(frozen=True, slots=True)
class ReviewItem:
    id: str
    operation: str
    node_id: str
    node: str
    file_path: str
    summary: str
    status: str
    state: str
    result_id: str | None
    files: int
    additions: int
    deletions: int
    changed_files: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def review_items(
    store: WorkspaceStore, db: ResultsDB, *, include_empty: bool = False
) -> list[ReviewItem]:
    """One item per workspace that has changes (or an interrupted accept)."""
    items: list[ReviewItem] = []
    for workspace_id in store.ids():
        with store.open(workspace_id) as ws:
            accepting = ws.accepting
            changes = ws.changes()
            stats = ws.stats()
            operation, node_id = ws.operation, ws.node_id
        if not changes and not accepting and not include_empty:
            continue
        record = db.get(workspace_id)
        state = "accepting" if accepting else (record.review_state if record else "pending")
        items.append(
            ReviewItem(
                id=workspace_id,
                operation=record.operation if record else operation,
                node_id=record.node_id if record else node_id,
                node=record.node_name if record else node_id,
                file_path=record.file_path if record else "",
                summary=record.summary if record else "",
                status=record.status if record else "",
                state=state,
                result_id=record.result_id if record else None,
                files=stats["files"],
                additions=stats["additions"],
                deletions=stats["deletions"],
                changed_files=[c.path for c in changes],
            )
        )
    return items


def resolve_ids(store: WorkspaceStore, ids: Iterable[str], all_: bool) -> list[str]:
    """The workspace ids a command acts on; every one must exist (else WORKSPACE_003)."""
    chosen = list(dict.fromkeys(ids))
    if all_ and chosen:
        raise RemoraError(USAGE, "give workspace ids or --all, not both")
    if all_:
        return store.ids()
    if not chosen:
        raise RemoraError(USAGE, "no workspace given", "pass one or more ids, or --all")
    for workspace_id in chosen:
        store.open(workspace_id).close()  # raises WORKSPACE_003 for an unknown id
    return chosen


def _set_state(db: ResultsDB, workspace_id: str, state: ReviewState) -> None:
    if db.get(workspace_id) is not None:  # a workspace may have no recorded result
        db.set_review_state(workspace_id, state)


def accept(store: WorkspaceStore, db: ResultsDB, workspace_id: str) -> AcceptReport:
    """Accept one workspace and record the outcome (accepted or conflict)."""
    report = store.accept(workspace_id)
    _set_state(db, workspace_id, "accepted" if report.accepted else "conflict")
    return report


def reject(store: WorkspaceStore, db: ResultsDB, workspace_id: str) -> None:
    store.reject(workspace_id)
    _set_state(db, workspace_id, "rejected")
