"""The outcome of a coordinator run: one result per node × operation, counts, exit code."""

from __future__ import annotations

import dataclasses
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, cast

from remora.config import ModelConfig
from remora.conversation import Usage
from remora.discovery.node import CSTNode
from remora.runner import AgentResult, ResultError, Status

__all__ = [
    "AnalyzeReport",
    "NullProgress",
    "ProgressSink",
    "TaskOutcome",
    "outcome_from_dict",
    "transcript_details",
]

EXIT_OK = 0
EXIT_SOME_FAILED = 1
EXIT_NOTHING_SUCCEEDED = 2
EXIT_INTERRUPTED = 130
_MAX_ARGUMENT_CHARS = 80


def transcript_details(
    log: Sequence[tuple[str, dict[str, Any], dict[str, Any]]], model: ModelConfig | None
) -> dict[str, Any]:
    """What the review page shows of a run: the model and each tool called, with its outcome."""
    tools = []
    for name, arguments, envelope in log:
        shown = ", ".join(f"{k}={v!r}" for k, v in arguments.items())
        if len(shown) > _MAX_ARGUMENT_CHARS:
            shown = shown[: _MAX_ARGUMENT_CHARS - 1] + "…"
        tools.append({"name": name, "ok": bool(envelope.get("ok")), "arguments": shown})
    return {
        "model": "" if model is None else f"{model.provider}:{model.id}",
        "tools": tools,
    }


@dataclass(frozen=True, slots=True)
class TaskOutcome:
    node: CSTNode
    operation: str
    result: AgentResult
    result_id: str | None = None
    # none (nothing to review), pending, accepted or conflict (after --auto-accept).
    review: str = "none"
    conflicts: tuple[str, ...] = ()
    # Kept from an earlier run: its inputs have not changed since (not run again).
    reused: bool = False

    def without_details(self) -> TaskOutcome:
        """This outcome less its result's details (the tools called, the transcript): what a
        front end that shows only statuses and summaries keeps of each of 50,000 runs."""
        if not self.result.details:
            return self
        return dataclasses.replace(self, result=self.result.replace(details={}))

    def to_dict(self) -> dict[str, Any]:
        return {
            "node_id": self.node.node_id,
            "node": self.node.full_name,
            "node_type": self.node.node_type,
            "file_path": self.node.file_path,
            "operation": self.operation,
            "result_id": self.result_id,
            "review": self.review,
            "conflicts": list(self.conflicts),
            "reused": self.reused,
            **self.result.to_dict(),
        }


def outcome_from_dict(data: dict[str, Any], node: CSTNode) -> TaskOutcome:
    """A :meth:`TaskOutcome.to_dict` read back (sent by a shard process), with its node.

    The parent keeps one for each of 50,000 runs: the few words every outcome repeats
    (status, operation, review state, changed file) are interned, not a string each
    (JSON decodes each value anew: ~250 of ~1,000 bytes an outcome)."""
    error = data.get("error")
    result = AgentResult(
        cast(Status, sys.intern(data["status"])),
        workspace_id=data.get("workspace_id"),
        changed_files=[sys.intern(path) for path in data.get("changed_files") or ()],
        summary=data.get("summary") or "",
        details=data.get("details") or {},
        error=ResultError(error["code"], error["message"]) if error else None,
        turns=data.get("turns") or 0,
        usage=Usage(**(data.get("usage") or {})),
        duration_s=data.get("duration_s") or 0.0,
        degraded=bool(data.get("degraded")),
    )
    return TaskOutcome(
        node,
        sys.intern(data["operation"]),
        result,
        data.get("result_id"),
        sys.intern(data.get("review") or "none"),
        tuple(data.get("conflicts") or ()),
        reused=bool(data.get("reused")),
    )


@dataclass(repr=False)
class AnalyzeReport:
    run_id: str
    operations: list[str]
    nodes: int
    outcomes: list[TaskOutcome] = field(default_factory=list)
    interrupted: bool = False
    duration_s: float = 0.0
    # The counts of the outcomes not kept in ``outcomes`` (see :meth:`count_only`).
    not_kept: dict[str, int] = field(default_factory=dict)

    def __repr__(self) -> str:
        # Short: the dataclass's own repr holds every outcome, and asyncio.run (3.11) builds
        # the repr of its main task's result as it ends (a ValueError message made while it
        # restores the SIGINT handler): 426 MB of text four times at 56,793 outcomes.
        return (
            f"AnalyzeReport(run_id={self.run_id!r}, operations={self.operations!r}, "
            f"nodes={self.nodes}, {len(self.outcomes)} outcomes, counts={self.counts()})"
        )

    def count_only(self, outcome: TaskOutcome) -> None:
        """Count ``outcome`` without keeping it (a shard's, sent to its parent as it ended)."""
        for key, value in _tally([outcome]).items():
            self.not_kept[key] = self.not_kept.get(key, 0) + value

    def counts(self) -> dict[str, int]:
        counts = _tally(self.outcomes)
        for key, value in self.not_kept.items():
            counts[key] += value
        return counts

    @property
    def exit_code(self) -> int:
        """0 all good, 1 some failed, 2 nothing succeeded, 130 interrupted (README, exit codes)."""
        if self.interrupted:
            return EXIT_INTERRUPTED
        counts = self.counts()
        if counts["failed"] == 0:
            return EXIT_OK
        return EXIT_SOME_FAILED if counts["success"] > 0 else EXIT_NOTHING_SUCCEEDED

    def to_dict(self) -> dict[str, Any]:
        return {**self.header(), "results": [o.to_dict() for o in self.outcomes]}

    def header(self) -> dict[str, Any]:
        """:meth:`to_dict` without its ``results`` (the last key)."""
        return {
            "run_id": self.run_id,
            "operations": self.operations,
            "nodes": self.nodes,
            "counts": self.counts(),
            "reused": sum(1 for o in self.outcomes if o.reused),
            "interrupted": self.interrupted,
            "duration_s": round(self.duration_s, 3),
            "exit_code": self.exit_code,
        }


def _tally(outcomes: Sequence[TaskOutcome]) -> dict[str, int]:
    counts = {"success": 0, "failed": 0, "skipped": 0, "changed": 0}
    for outcome in outcomes:
        counts[outcome.result.status] += 1
        if outcome.result.changed_files:
            counts["changed"] += 1
    return counts


class ProgressSink(Protocol):
    """Live progress for a front end (the CLI draws a rich bar with counts)."""

    def started(self, total: int) -> None: ...

    def task_started(self, node: CSTNode, operation: str) -> None: ...

    def task_done(self, outcome: TaskOutcome) -> None: ...

    def finished(self) -> None: ...


class NullProgress:
    def started(self, total: int) -> None:
        return None

    def task_started(self, node: CSTNode, operation: str) -> None:
        return None

    def task_done(self, outcome: TaskOutcome) -> None:
        return None

    def finished(self) -> None:
        return None
