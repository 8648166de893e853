"""Incremental analyze: a node × operation whose inputs have not changed is not run again.

A run's inputs are digested into a fingerprint recorded with its result: the
node (path, name, kind, text), the agent's YAML and scripts, the host code its
scripts call, the model, and the options and settings that reach the run.
The next ``analyze`` (or ``watch``) keeps that result when the fingerprint is
the same and the result still stands: it succeeded (or the agent itself
skipped the node), and its change, if any, still waits for review in its
workspace. Accepting or rejecting the change, editing the node, or
``--force`` makes it run again.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from remora.config import ModelConfig, RemoraConfig
from remora.conversation import Usage
from remora.coordinator.report import TaskOutcome
from remora.coordinator.tasks import OperationPlan, Task, plan_tasks
from remora.discovery.node import CSTNode
from remora.providers.catalogue import lookup
from remora.results import ResultsDB
from remora.results.db import ResultRecord
from remora.results.review_states import is_open
from remora.runner import AgentResult, ResultError
from remora.runner.agent_result import Status
from remora.version import __version__
from remora.workspace import WorkspaceStore

__all__ = [
    "BatchPlan",
    "PlannedTasks",
    "plan_digest",
    "result_of",
    "reusable_result",
    "reused_outcome",
    "standing_results",
    "task_fingerprint",
]

# Settings that change how long a run may take or how it is scheduled, not what it
# produces: changing them keeps earlier results.
_MODEL_SCHEDULING = {
    "timeout",
    "retry",
    "n_parallel",
    "threads",
    "api_key_env",
    "prompt_cache_mib",
    "max_in_flight",
    "cooldown_s",
}
_RUNNER_SCHEDULING = {"per_turn_timeout", "total_timeout"}
_SANDBOX_SCHEDULING = {"max_concurrent_agents", "host_processes", "workers", "request_timeout"}


def _digest(*parts: Any) -> str:
    text = json.dumps(parts, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def _file_digest(paths: list[Path]) -> str:
    sha = hashlib.sha256()
    for path in paths:
        sha.update(str(path.name).encode() + b"\0")
        try:
            sha.update(path.read_bytes())
        except OSError as exc:  # a script that vanished is a changed input
            sha.update(f"unreadable: {exc.strerror}".encode())
        sha.update(b"\0")
    return sha.hexdigest()


@lru_cache(maxsize=1)
def _host_code_digest() -> str:
    """Remora's version and the host code that tool scripts call (``remora.code``)."""
    spec = importlib.util.find_spec("remora.code")
    if spec is None or spec.origin is None:
        raise RuntimeError("remora.code is not importable; the installation is broken")
    package = Path(spec.origin).parent
    files = sorted(p for p in package.rglob("*") if p.is_file() and "__pycache__" not in p.parts)
    return _digest(__version__, _file_digest(files))


def _model_inputs(model: ModelConfig) -> dict[str, Any]:
    inputs = model.model_dump(mode="json", exclude=_MODEL_SCHEDULING)
    known = lookup(model.id)
    if model.provider == "embedded" and model.path is None and known is not None:
        inputs["file"] = known.filename  # the weights as fetched (re-encoded or not)
    return inputs


def plan_digest(plan: OperationPlan, config: RemoraConfig) -> str:
    """Everything of one operation that reaches each of its runs, digested once per batch."""
    definition = plan.definition
    files: list[Path] = []
    if definition is not None:
        if definition.source is not None:
            files.append(definition.source)
        for tool in definition.tools:
            files.extend(tool.context_providers)
            if tool.pym is not None:
                files.append(tool.pym)
    model = _model_inputs(plan.model) if plan.model else None
    return _digest(
        plan.name,
        _file_digest(files),
        _host_code_digest(),
        plan.options,
        model,
        config.runner.model_dump(mode="json", exclude=_RUNNER_SCHEDULING),
        config.sandbox.model_dump(mode="json", exclude=_SANDBOX_SCHEDULING),
        config.discovery.language,
    )


def task_fingerprint(task: Task, plan_digests: Mapping[str, str]) -> str:
    """The fingerprint of one node × operation: its node plus its operation's digest."""
    node = task.node
    return _digest(
        plan_digests[task.operation], node.file_path, node.full_name, node.node_type, node.text
    )


def reusable_result(
    db: ResultsDB, store: WorkspaceStore, task: Task, fingerprint: str
) -> ResultRecord | None:
    """The recorded result that still stands for ``task``, or None when it must run.

    Failed results run again (a timeout or a crash says nothing about the
    inputs); accepted, rejected and superseded ones too, a pending change
    whose workspace is gone, and one in conflict with the file as it is now.
    """
    latest = db.latest(task.node.node_id, task.operation)
    if latest is None or latest.fingerprint != fingerprint or latest.status == "failed":
        return None
    if latest.review_state == "conflict":
        return None  # its change no longer merges into the file: run the node again
    if is_open(latest.review_state):
        if latest.workspace_id is None or not store.exists(latest.workspace_id):
            return None
        return latest
    return latest if latest.review_state == "none" else None


def result_of(record: ResultRecord) -> AgentResult:
    """A recorded result as the AgentResult the report shows."""
    usage = {k: int(v) for k, v in record.usage.items() if k in Usage.__dataclass_fields__}
    error = (
        ResultError(record.error_code, record.error_message or "") if record.error_code else None
    )
    status: Status = "failed"
    if record.status == "success":
        status = "success"
    elif record.status == "skipped":
        status = "skipped"
    return AgentResult(
        status,
        workspace_id=record.workspace_id,
        changed_files=list(record.changed_files),
        summary=record.summary,
        details=dict(record.details),
        error=error,
        turns=record.turns,
        usage=Usage(**usage),
        duration_s=record.duration_s,
        degraded=record.degraded,
    )


def standing_results(
    db: ResultsDB, store: WorkspaceStore, tasks: Sequence[Task], digests: Mapping[str, str]
) -> dict[tuple[str, str], ResultRecord]:
    """The recorded results that stand for tasks whose inputs are unchanged."""
    kept: dict[tuple[str, str], ResultRecord] = {}
    for task in tasks:
        if not task.runnable:
            continue
        record = reusable_result(db, store, task, task_fingerprint(task, digests))
        if record is not None:
            kept[(task.node.node_id, task.operation)] = record
    return kept


def reused_outcome(task: Task, record: ResultRecord) -> TaskOutcome:
    """The outcome of a task whose standing result stands: not run again."""
    review = record.review_state if is_open(record.review_state) else "none"
    result = result_of(record)
    return TaskOutcome(task.node, task.operation, result, record.result_id, review, reused=True)


@dataclass(frozen=True, slots=True)
class PlannedTasks:
    tasks: list[Task]
    kept: dict[tuple[str, str], ResultRecord]  # the standing results that stand for some

    @property
    def to_run(self) -> list[Task]:
        kept = self.kept
        return [t for t in self.tasks if t.runnable and (t.node.node_id, t.operation) not in kept]


@dataclass(frozen=True, slots=True)
class BatchPlan:
    """What plans a batch's tasks, the first ones and those added as it runs."""

    plans: dict[str, OperationPlan]
    digests: dict[str, str]  # each operation's plan_digest
    only: Collection[tuple[str, str]] | None
    force: bool

    def tasks_on(
        self, db: ResultsDB, store: WorkspaceStore, nodes: Sequence[CSTNode]
    ) -> PlannedTasks:
        """The batch's tasks on ``nodes``, and the standing results that stand for some."""
        tasks = plan_tasks(nodes, self.plans)
        if self.only is not None:
            tasks = [t for t in tasks if (t.node.node_id, t.operation) in self.only]
        if self.force:
            return PlannedTasks(tasks, {})
        return PlannedTasks(tasks, standing_results(db, store, tasks, self.digests))
