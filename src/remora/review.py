"""The review queue as a library: list, show, accept and reject the agents' changes.

``remora review`` (the CLI) calls these same functions; the web app and the
language server share the per-workspace steps of :mod:`remora.results.review_queue`.
Every function takes the project's root directory (the folder holding
``.remora/``)::

    import remora

    for item in remora.review.list_changes("examples/sample_project"):
        print(item.id, item.operation, item.node, item.summary)
    print(remora.review.show(item.id, project="examples/sample_project").diff)
    remora.review.accept([item.id], project="examples/sample_project")
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from remora.code.lint.accepted_files import tidy_accepted
from remora.config.arguments import check_bool, check_ids, check_int_list, check_path, check_text
from remora.errors import RemoraError, UsageError, WorkspaceNotFoundError
from remora.project import STATE_DIR
from remora.results import ResultsDB
from remora.results import review_queue as queue
from remora.results.review_queue import ReviewItem
from remora.results.summary import coverage_line, mutation_line
from remora.workspace import AcceptReport, FileChange, WorkspaceStore
from remora.workspace.hunks import Hunk, change_hunks

__all__ = [
    "AcceptOutcome",
    "ChangeView",
    "ReviewItem",
    "accept",
    "list_changes",
    "reject",
    "show",
]


@dataclass(frozen=True, slots=True)
class ChangeView:
    """One workspace's change: its files, its numbered hunks and the unified diff.

    ``coverage``: for a test agent's change, the node's coverage before and after
    (``branches 0/2 -> 1/2 · lines 0/4 -> 2/4``); else "". ``mutation``: its mutants
    killed by the node's tests before and after (``mutants killed 0/7 -> 5/7``); else "".
    ``shared``: for each file the change creates, the other pending changes that create
    it too (several tests of one module each start ``tests/test_core.py``; asked of
    :func:`show` with ``shared=True``); accepting them merges their contents into one file.
    """

    workspace_id: str
    files: list[FileChange]
    hunks: list[Hunk]
    diff: str
    coverage: str = ""
    mutation: str = ""
    shared: dict[str, list[str]] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.workspace_id,
            "coverage": self.coverage,
            "mutation": self.mutation,
            "shared": self.shared,
            "files": [
                {
                    "path": c.path,
                    "status": c.status,
                    "binary": c.binary,
                    "additions": c.line_counts()[0],
                    "deletions": c.line_counts()[1],
                    "conflict": c.conflict,
                }
                for c in self.files
            ],
            "hunks": [
                {
                    "number": h.number,
                    "path": h.path,
                    "header": h.header,
                    "additions": h.additions,
                    "deletions": h.deletions,
                }
                for h in self.hunks
            ],
            "diff": self.diff,
        }


@dataclass(frozen=True, slots=True)
class AcceptOutcome:
    """What accepting one workspace did: a report, or the error that stopped it."""

    workspace_id: str
    report: AcceptReport | None = None
    error: RemoraError | None = None

    @property
    def accepted(self) -> bool:
        return self.report is not None and self.report.accepted

    def to_dict(self) -> dict[str, Any]:
        if self.report is not None:
            return self.report.to_dict()
        error = self.error.to_dict() if self.error is not None else None
        return {"workspace_id": self.workspace_id, "accepted": False, "error": error}


def _root(project: str | Path) -> Path:
    return Path(project).resolve()


def _open(project: str | Path) -> tuple[WorkspaceStore, ResultsDB]:
    root = _root(project)
    if not (root / STATE_DIR).is_dir():
        # Opening the results database would create .remora/ in any folder.
        raise WorkspaceNotFoundError(
            f"no changes to review in {root} (it has no {STATE_DIR}/)",
            "run `remora analyze` there first, or pass the project's root (--project)",
        )
    return WorkspaceStore(root), ResultsDB(root)


def list_changes(project: str | Path = ".", *, include_empty: bool = False) -> list[ReviewItem]:
    """The changes waiting for review in ``project``, one :class:`ReviewItem` per workspace.

    A project that was never analysed has none (and no ``.remora/`` is created).
    ``include_empty`` also lists workspaces without changes.
    """
    project = check_path("project", project)
    include_empty = check_bool("include_empty", include_empty)
    if not (_root(project) / STATE_DIR).is_dir():
        return []
    store, db = _open(project)
    with db:
        return queue.review_items(store, db, include_empty=include_empty)


def show(workspace_id: str, *, project: str | Path = ".", shared: bool = False) -> ChangeView:
    """One workspace's change: files, hunks (numbered as ``accept(hunks=...)`` takes them), diff.

    ``shared``: also the other pending changes that create a file this one creates, which
    reads every workspace of the queue (a person's one look asks for it; a loop over the
    queue does not). An unknown id raises ``WorkspaceNotFoundError`` (WORKSPACE_003).
    """
    workspace_id = check_text("workspace_id", workspace_id)
    root = _root(check_path("project", project))
    shared = check_bool("shared", shared)
    with WorkspaceStore(root).open(workspace_id) as ws:
        changes = ws.changes()
        diff = ws.diff()
    coverage, mutation = _checked(root, workspace_id)
    added = [c.path for c in changes if c.status == "added"]
    others = queue.also_created(list_changes(root), workspace_id, added) if shared and added else {}
    return ChangeView(
        workspace_id, changes, change_hunks(changes), diff, coverage, mutation, others
    )


def _checked(root: Path, workspace_id: str) -> tuple[str, str]:
    """The result's coverage line and mutation line (a test agent's run measures them)."""
    if not (root / STATE_DIR).is_dir():
        return "", ""
    with ResultsDB(root) as db:
        record = db.get(workspace_id)
    if record is None:
        return "", ""
    return coverage_line(record.details), mutation_line(record.details)


def accept(
    workspace_ids: str | Sequence[str] = (),
    *,
    project: str | Path = ".",
    every: bool = False,
    hunks: Sequence[int] | None = None,
) -> list[AcceptOutcome]:
    """Write changes into the project, atomically per workspace.

    A change to a file that moved on since its agent read it (another change accepted
    before it, an edit of yours) is merged into the file as it is now; only one whose
    lines were changed there too is refused, as a conflict naming the lines, and the
    other changes still waiting are marked as in conflict when an accept moved their
    lines. ``every=True`` accepts every workspace (give no ids then). With ``hunks``
    only those hunks of one workspace are written; its other hunks are
    discarded with it. A workspace that cannot be accepted never blocks the
    others: its outcome carries the error. One id may be given as a ``str``.

    An import the accepted change made unused in a file it writes is removed with it
    (one used before the change and unused after: never one that was already unused,
    nor a re-export); the report names each (``also_removed``).
    """
    workspace_ids = check_ids("workspace_ids", workspace_ids)
    every = check_bool("every", every)
    hunks = check_int_list("hunks", hunks)
    store, db = _open(check_path("project", project))
    outcomes: list[AcceptOutcome] = []
    with db:
        targets = queue.resolve_ids(store, workspace_ids, every)
        if hunks is not None and (every or len(targets) != 1):
            raise UsageError(
                "choosing hunks (--hunks) needs exactly one workspace id",
                "e.g. accept ID --hunks 1,3",
            )
        for workspace_id in targets:
            try:
                report = queue.accept(store, db, workspace_id, hunks, tidy=tidy_accepted)
                outcomes.append(AcceptOutcome(workspace_id, report=report))
            except RemoraError as exc:
                outcomes.append(AcceptOutcome(workspace_id, error=exc))
        if any(outcome.accepted for outcome in outcomes):
            queue.settle_conflicts(store, db)
    return outcomes


def reject(
    workspace_ids: str | Sequence[str] = (),
    *,
    project: str | Path = ".",
    every: bool = False,
    reason: str | None = None,
) -> list[str]:
    """Discard changes (the project is not touched); returns the ids rejected.

    A ``reason`` is stored with the node: the next run of its agent is told it
    (``remora analyze --retry-rejected`` re-runs just those). One id may be given as a
    ``str``.
    """
    workspace_ids = check_ids("workspace_ids", workspace_ids)
    every = check_bool("every", every)
    reason = check_text("reason", reason, optional=True) or None
    store, db = _open(check_path("project", project))
    with db:
        chosen = queue.resolve_ids(store, workspace_ids, every)
        for workspace_id in chosen:
            queue.reject(store, db, workspace_id, reason)
    return chosen
