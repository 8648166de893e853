"""What a shard that ended before its runs did leaves: each of its other tasks a failed result."""

from __future__ import annotations

import asyncio
import contextlib
import signal
from collections.abc import Mapping, Sequence
from typing import Protocol

from remora.coordinator.report import TaskOutcome
from remora.coordinator.shards import SHARD_CRASHED, Shard
from remora.coordinator.tasks import Task, not_run_result
from remora.results import ResultsDB
from remora.runner import AgentResult, ResultError

__all__ = ["EndedShard", "crash_outcomes", "exit_reason"]


class EndedShard(Protocol):
    """A shard as its parent saw it end."""

    @property
    def shard(self) -> Shard: ...
    @property
    def tasks(self) -> Sequence[Task]: ...
    @property
    def process(self) -> asyncio.subprocess.Process | None: ...  # None: run in the parent
    @property
    def outcomes(self) -> Mapping[tuple[str, str], TaskOutcome]: ...


def exit_reason(returncode: int | None) -> str:
    if returncode is None:
        return "did not end"
    if returncode < 0:
        with contextlib.suppress(ValueError):
            return f"was killed by {signal.Signals(-returncode).name}"
        return f"was killed by signal {-returncode}"
    return f"exited with status {returncode}"


def crash_outcomes(
    child: EndedShard, count: int, db: ResultsDB, run_id: str
) -> list[tuple[TaskOutcome, str]]:
    """The tasks a shard left without a result, recorded as failed (or as not run)."""
    if child.process is None:  # the shard here: its coordinator gave every task or raised
        return []
    reason = exit_reason(child.process.returncode)
    message = (
        f"host process {child.shard.index + 1} of {count} (pid {child.process.pid}) {reason} "
        "before this run finished; the runs it finished are recorded, run `remora analyze` "
        "again for the rest (its stderr, shown above, may say why)"
    )
    failed = AgentResult("failed", summary=message, error=ResultError(SHARD_CRASHED, message))
    outcomes = []
    for task in child.tasks:
        if (task.node.node_id, task.operation) in child.outcomes:
            continue
        result = failed if task.runnable else not_run_result(task)
        result_id = db.record_result(run_id, task.node, task.operation, result.to_dict())
        outcomes.append((TaskOutcome(task.node, task.operation, result, result_id), message))
    return outcomes
