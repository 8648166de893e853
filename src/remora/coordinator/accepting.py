"""``analyze --auto-accept``: each successful change of a finished batch written into the project.

Shared by the coordinator (one process) and the parent of sharded host processes,
which accepts once every shard has finished, as one process would.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from remora.code.lint.accepted_files import tidy_accepted
from remora.coordinator.report import AnalyzeReport, TaskOutcome
from remora.errors import RemoraError
from remora.results import ResultsDB
from remora.results.review_queue import accept as accept_workspace
from remora.results.review_queue import settle_conflicts
from remora.workspace import WorkspaceStore

__all__ = ["auto_accept"]


def auto_accept(
    store: WorkspaceStore,
    db: ResultsDB,
    report: AnalyzeReport,
    emit: Callable[[Any, dict[str, Any]], None],
) -> None:
    """Accept each successful change in order; a later one to the same file is merged into
    it (a conflict only where both changed the same lines)."""
    for index, outcome in enumerate(report.outcomes):
        result = outcome.result
        if outcome.review != "pending" or result.status != "success" or not result.workspace_id:
            continue
        try:
            accepted = accept_workspace(store, db, result.workspace_id, tidy=tidy_accepted)
        except RemoraError as exc:
            # e.g. another process holds the accept lock: this change stays
            # pending for `remora review`, and the others are still tried.
            emit(
                "warning",
                {"workspace_id": result.workspace_id, "auto_accept": "failed", **exc.to_dict()},
            )
            continue
        report.outcomes[index] = TaskOutcome(
            outcome.node,
            outcome.operation,
            result,
            outcome.result_id,
            "accepted" if accepted.accepted else "conflict",
            tuple(c.path for c in accepted.conflicts),
        )
    settle_conflicts(store, db)
