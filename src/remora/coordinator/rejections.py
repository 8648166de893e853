"""What reviewers said about a node's earlier changes, for its agent's next run.

A change rejected with a reason is told to the next run of the same node ×
operation (the reason and the rejected diff, after the node's context), and a
run that proposes a change equal to any rejected one, edit for edit, is not
queued again: its result says so and its workspace is discarded.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from remora.discovery.node import CSTNode
from remora.results import ResultRecord, ResultsDB
from remora.runner import AgentResult
from remora.workspace import FileChange
from remora.workspace.hunks import change_signature

__all__ = ["RerunPlan", "ReviewMemory", "feedback_text", "rerun_plan", "review_memory"]

# The rejected diff is shown to small models with a few thousand tokens of context.
_MAX_DIFF_CHARS = 1500


def feedback_text(record: ResultRecord) -> str:
    """The note the agent's first message ends with."""
    diff = record.rejected_diff or ""
    if len(diff) > _MAX_DIFF_CHARS:
        diff = diff[:_MAX_DIFF_CHARS] + "\n[... the rest of the rejected diff is left out]\n"
    lines = [
        "[Review] A reviewer rejected the change proposed for this node last time.",
        f"Reason: {record.reject_reason}",
    ]
    if diff:
        lines += ["The rejected change:", diff.rstrip("\n")]
    lines.append("Do not propose that change again: address the reason, or change nothing.")
    return "\n".join(lines)


@dataclass(frozen=True, slots=True)
class ReviewMemory:
    feedback: str | None = None
    # change_signature -> the rejected result it came from
    rejected: dict[str, ResultRecord] = field(default_factory=dict)

    def repeat_of(self, changes: Sequence[FileChange]) -> ResultRecord | None:
        """The rejected result whose change ``changes`` repeats, if any."""
        if not self.rejected or not changes:
            return None
        return self.rejected.get(change_signature(changes))

    def not_proposed(self, result: AgentResult, repeated: ResultRecord) -> AgentResult:
        """The result of a run that proposed a rejected change again: the change is
        dropped; whether the run is then skipped is the runner's one rule (``settle``)."""
        reason = repeated.reject_reason or "no reason given"
        return result.replace(
            changed_files=[],
            workspace_id=None,
            summary=f"proposed the change rejected before ({reason}); not queued again",
            details={**result.details, "repeat_of_rejected": repeated.result_id},
        )


def review_memory(db: ResultsDB, node_id: str, operation: str) -> ReviewMemory:
    """Rejected changes of one node × operation; feedback unless accepted since."""
    history = db.history(node_id, operation)
    rejected = {
        r.change_signature: r
        for r in reversed(history)
        if r.review_state == "rejected" and r.change_signature
    }
    feedback = None
    for record in history:  # newest first
        if record.review_state == "accepted":
            break  # a later accepted change answered the earlier rejection
        if record.review_state == "rejected" and record.reject_reason:
            feedback = feedback_text(record)
            break
    return ReviewMemory(feedback, rejected)


@dataclass(frozen=True, slots=True)
class RerunPlan:
    """What ``analyze --retry-rejected`` re-runs: the nodes, operations and exact pairs."""

    nodes: list[CSTNode]
    operations: list[str]
    pairs: set[tuple[str, str]]


def rerun_plan(
    db: ResultsDB, nodes: Sequence[CSTNode], operations: Sequence[str] | None
) -> RerunPlan:
    """The open rejections (rejected with a reason, not re-run since) among ``nodes``.

    ``operations`` narrows them (``-o``); None keeps every rejected operation.
    """
    wanted = None if operations is None else set(operations)
    pairs = {
        (r.node_id, r.operation)
        for r in db.open_rejections()
        if wanted is None or r.operation in wanted
    }
    chosen = [n for n in nodes if any(n.node_id == node_id for node_id, _ in pairs)]
    present = {n.node_id for n in chosen}
    pairs = {(node_id, op) for node_id, op in pairs if node_id in present}
    return RerunPlan(chosen, sorted({op for _, op in pairs}), pairs)
