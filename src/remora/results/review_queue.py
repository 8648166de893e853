"""The review queue: the workspaces with changes joined with their results, and their states.

Every move between review states (:mod:`remora.results.review_states`: the names,
which a new result starts in, which are still open) is decided here: when a newer
change supersedes older ones (:func:`supersede`), and accept and reject. They go
through here so the workspace store and the results database always move
together, whichever front end (CLI, web app, editor) drives them; the database
only stores the states.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from remora.errors import UsageError, WorkspaceConflictError
from remora.results.db import ResultsDB
from remora.results.review_states import ReviewState, is_open
from remora.workspace import AcceptReport, Workspace, WorkspaceStore, render_diff
from remora.workspace.accept import Tidy
from remora.workspace.hunks import change_signature, chosen_contents

__all__ = [
    "ReviewItem",
    "accept",
    "accepted_in_editor",
    "reject",
    "resolve_ids",
    "review_items",
    "settle_conflicts",
    "supersede",
]


def supersede(store: WorkspaceStore, db: ResultsDB, workspace: Workspace | str) -> None:
    """A finished run replaces its node's older open changes (never before it ends): with
    its own change, or with none when it proposes nothing now.

    The store retires their workspaces; their results become ``superseded``.
    """
    for old in store.retire_older(workspace):
        if db.get(old) is not None:
            db.set_review_state(old, "superseded")


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
    # the changed files whose change no longer merges into the project's file
    conflicted_files: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def review_items(
    store: WorkspaceStore, db: ResultsDB, *, include_empty: bool = False
) -> list[ReviewItem]:
    """One item per workspace that has changes (or an interrupted accept)."""
    items: list[ReviewItem] = []
    for workspace_id, found in store.summaries():
        if not found.changed_files and not found.accepting and not include_empty:
            continue
        record = db.get(workspace_id)
        # No record: a workspace whose run was interrupted before its result was stored.
        state = "accepting" if found.accepting else (record.review_state if record else "pending")
        if state == "pending" and found.conflicted_files:
            state = "conflict"  # another change accepted since touched the same lines
        items.append(
            ReviewItem(
                id=workspace_id,
                operation=record.operation if record else found.operation,
                node_id=record.node_id if record else found.node_id,
                node=record.node_name if record else found.node_id,
                file_path=record.file_path if record else "",
                summary=record.summary if record else "",
                status=record.status if record else "",
                state=state,
                result_id=record.result_id if record else None,
                files=len(found.changed_files),
                additions=found.additions,
                deletions=found.deletions,
                changed_files=list(found.changed_files),
                conflicted_files=list(found.conflicted_files),
            )
        )
    return items


def also_created(
    items: Iterable[ReviewItem], workspace_id: str, added: Iterable[str]
) -> dict[str, list[str]]:
    """For each path in ``added`` (files one change creates), the other pending changes of
    ``items`` that create it too: several tests of one module each start
    ``tests/test_core.py``, and accepting them merges their contents into one file."""
    wanted = set(added)
    found: dict[str, list[str]] = {}
    for item in items:
        if item.id != workspace_id and item.state == "pending":
            for path in sorted(wanted & set(item.changed_files)):
                found.setdefault(path, []).append(item.id)
    return found


def settle_conflicts(store: WorkspaceStore, db: ResultsDB) -> list[str]:
    """Record which open changes conflict now (after an accept moved their files on).

    A pending change whose lines another accept changed becomes ``conflict`` (its node is
    run again by the next ``remora analyze``: the result no longer stands); a conflict
    that merges again (the lines were put back) is ``pending`` again. Returns the ids
    now in conflict.
    """
    conflicted: list[str] = []
    for workspace_id, found in store.summaries():
        record = db.get(workspace_id)
        if record is None or not is_open(record.review_state) or found.accepting:
            continue
        state: ReviewState = "conflict" if found.conflicted_files else "pending"
        if state == "conflict":
            conflicted.append(workspace_id)
        if record.review_state != state:
            db.set_review_state(workspace_id, state)
    return conflicted


def resolve_ids(store: WorkspaceStore, ids: Iterable[str], all_: bool) -> list[str]:
    """The workspace ids a command acts on; every one must exist (else WORKSPACE_003)."""
    chosen = list(dict.fromkeys(ids))
    if all_ and chosen:
        raise UsageError("give workspace ids or --all, not both")
    if all_:
        return store.ids()
    if not chosen:
        raise UsageError("no workspace given", "pass one or more ids, or --all")
    for workspace_id in chosen:
        store.require(workspace_id)  # WORKSPACE_003 for an unknown id; its file is not read
    return chosen


def _set_state(db: ResultsDB, workspace_id: str, state: ReviewState, **decision: Any) -> None:
    if db.get(workspace_id) is not None:  # a workspace may have no recorded result
        db.set_review_state(workspace_id, state, **decision)


def accept(
    store: WorkspaceStore,
    db: ResultsDB,
    workspace_id: str,
    hunks: Sequence[int] | None = None,
    *,
    tidy: Tidy | None,
) -> AcceptReport:
    """Accept one workspace and record the outcome (accepted or conflict).

    With ``hunks`` only those hunks (numbered as `remora review show` prints
    them) are written; the other hunks are discarded with the workspace, as a
    whole accept discards it. ``tidy`` sees each file before it is written
    (every front end passes :func:`remora.code.lint.accepted_files.tidy_accepted`:
    the imports the change made unused go with it); what it removed is recorded.
    """
    contents = None
    if hunks is not None:
        with store.open(workspace_id) as ws:
            contents = chosen_contents(ws.changes(), hunks, workspace_id=workspace_id)
    report = store.accept(workspace_id, contents, tidy)
    if report.accepted:
        chosen = None if hunks is None else sorted(set(hunks))
        _set_state(
            db, workspace_id, "accepted", accepted_hunks=chosen, also_removed=report.also_removed
        )
    else:
        _set_state(db, workspace_id, "conflict")
    return report


def accepted_in_editor(
    store: WorkspaceStore,
    db: ResultsDB,
    workspace_id: str,
    hunks: Sequence[int] | None = None,
    also_removed: Mapping[str, Sequence[str]] | None = None,
) -> None:
    """Record an accept whose edits the editor made in its buffer (``remora lsp``).

    The editor holds the bytes until the user saves; the queue records the
    decision as :func:`accept` does (state, hunks, what its tidy hook removed
    beyond the change) and the workspace goes, its other hunks discarded with it.
    """
    store.retire(workspace_id)
    chosen = None if hunks is None else sorted(set(hunks))
    _set_state(db, workspace_id, "accepted", accepted_hunks=chosen, also_removed=also_removed)


def reject(
    store: WorkspaceStore, db: ResultsDB, workspace_id: str, reason: str | None = None
) -> None:
    """Discard a workspace, keeping its change (diff, signature) and the reason in the db.

    The next run of the node's agent is told the reason and the rejected diff,
    and a run that proposes the same change again is not queued.
    """
    try:
        with store.open(workspace_id) as ws:
            changes = ws.changes()
    except WorkspaceConflictError:  # unreadable (damaged, a newer Remora's): nothing to keep
        changes = []
    store.reject(workspace_id)
    _set_state(
        db,
        workspace_id,
        "rejected",
        reject_reason=(reason or "").strip() or None,
        rejected_diff=render_diff(changes),
        change_signature=change_signature(changes),
    )
