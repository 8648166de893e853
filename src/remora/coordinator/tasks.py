"""What a run will do: the operations' agents, and one task per node × operation."""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from remora.agents import AgentRegistry, SubagentDefinition
from remora.config import ModelConfig, RemoraConfig
from remora.coordinator.binding import bind_options
from remora.discovery.node import CSTNode
from remora.errors import RemoraError, UsageError
from remora.runner import AgentResult, ResultError
from remora.test_code import TEST_CODE_PATTERNS, path_matches

__all__ = [
    "OperationPlan",
    "Task",
    "file_filter_reason",
    "not_run_result",
    "parse_operations",
    "plan_operations",
    "plan_tasks",
]


@dataclass(frozen=True, slots=True)
class OperationPlan:
    """One operation ready to run: its agent (options bound), model and template options.

    ``error`` is set instead when the agent cannot be loaded (AGENT_001): every
    node then gets a failed result for this operation, and the others still run.
    """

    name: str
    definition: SubagentDefinition | None
    fixed_inputs: dict[str, dict[str, Any]] = field(default_factory=dict)
    options: dict[str, Any] = field(default_factory=dict)
    model: ModelConfig | None = None
    error: RemoraError | None = None
    # operations.<name>.include / exclude: which files the operation runs on.
    include: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Task:
    node: CSTNode
    operation: str
    plan: OperationPlan
    # Why the agent does not run on this node (its node_types exclude it).
    skip_reason: str = ""

    @property
    def runnable(self) -> bool:
        return not self.skip_reason and self.plan.error is None


def parse_operations(
    value: str | Sequence[str] | None, config: RemoraConfig, registry: AgentRegistry
) -> list[str]:
    """Operation names from ``-o lint,docstring`` (or the enabled ones), checked."""
    if value is None or (isinstance(value, str) and not value.strip()):
        names = [name for name, op in config.operations.items() if op.enabled]
    else:
        raw = value.split(",") if isinstance(value, str) else list(value)
        names = [n.strip() for n in raw if n.strip()]
    known = registry.names()
    for name in names:
        if name not in known:
            close = difflib.get_close_matches(name, known, n=1)
            hint = f"did you mean '{close[0]}'?" if close else f"known: {', '.join(known)}"
            raise UsageError(f"unknown operation {name!r}", hint)
    if not names:
        raise UsageError(
            "no operation to run",
            "pass -o lint,docstring,... or enable operations in remora.yaml",
        )
    return list(dict.fromkeys(names))


def plan_operations(
    names: Iterable[str], config: RemoraConfig, registry: AgentRegistry
) -> dict[str, OperationPlan]:
    plans: dict[str, OperationPlan] = {}
    for name in names:
        op = config.operations.get(name)
        options = dict(op.options) if op is not None else {}
        include = tuple(op.include) if op is not None else ()
        try:
            definition = registry.get(name)
        except RemoraError as exc:
            plans[name] = OperationPlan(name, None, options=options, error=exc)
            continue
        # A value its input does not take is the configuration's error: it ends the
        # whole command here, before any run, not one failed result per node.
        bound, fixed = bind_options(definition, options)
        if op is not None and "exclude" in op.model_fields_set:
            exclude = tuple(op.exclude)  # the user's choice, `[]` included
        else:
            exclude = TEST_CODE_PATTERNS if definition.test_code == "skip" else ()
        plans[name] = OperationPlan(
            name,
            bound,
            fixed,
            options,
            config.model_for(name, definition.model if definition else None),
            include=include,
            exclude=exclude,
        )
    return plans


def plan_tasks(nodes: Sequence[CSTNode], plans: dict[str, OperationPlan]) -> list[Task]:
    """Node-major order, so the agents of one node start close together."""
    tasks: list[Task] = []
    for node in nodes:
        for name, plan in plans.items():
            skip = ""
            if plan.definition is not None and node.node_type not in plan.definition.node_types:
                kinds = ", ".join(plan.definition.node_types)
                skip = f"{name} runs on {kinds} nodes, not on a {node.node_type}"
            elif reason := file_filter_reason(node.file_path, name, plan.include, plan.exclude):
                skip = reason
            tasks.append(Task(node, name, plan, skip))
    return tasks


def not_run_result(task: Task) -> AgentResult:
    """The result of a task that is not run: its agent failed to load, or it does not apply."""
    if task.plan.error is not None:
        error = task.plan.error
        return AgentResult(
            "failed", summary=error.message, error=ResultError(error.code, error.message)
        )
    return AgentResult("skipped", summary=task.skip_reason)


def file_filter_reason(
    path: str, operation: str, include: Sequence[str], exclude: Sequence[str]
) -> str:
    """Why ``operations.<operation>.include/exclude`` keep it off ``path`` ('' if not)."""
    if include and not any(path_matches(path, p) for p in include):
        return f"{path} matches none of operations.{operation}.include"
    for pattern in exclude:
        if path_matches(path, pattern):
            return f"{path} matches operations.{operation}.exclude {pattern!r}"
    return ""
