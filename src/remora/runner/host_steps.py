"""Host steps: the tool calls an agent's YAML has the host make before the first model turn.

They go through the run's dispatcher like the model's calls (the same events,
``turn`` 0, the same envelopes). A step's result either joins the first
message as text or, with ``result_variable``, fills a template variable of
``initial_context``. A step marked ``changes_workspace`` may write the
workspace (ruff's safe fixes); one that is not marked and writes anyway is an
agent definition error. A step the run depends on (``changes_workspace`` or
``result_variable``) that fails ends the run with a failed result naming it, and
so does any step whose workspace cannot be read to make the undeclared-write check.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from remora.agents.definition import HostStep, SubagentDefinition
from remora.conversation import ToolCall
from remora.errors import AGENT_DEFINITION, RemoraError
from remora.runner.agent_result import AgentResult, ResultError
from remora.runner.dispatcher import ToolDispatcher, ToolExecutor, WorkspaceReporter
from remora.runner.messages import CONTEXT_PREFIX

__all__ = ["HostStepsOutcome", "agent_label", "run_host_steps", "unreadable_workspace"]

Emit = Callable[[Any, dict[str, Any]], None]


@dataclass(slots=True)
class HostStepsOutcome:
    # Text for the first message: step results (JSON) and their [Context] outputs.
    notes: list[str] = field(default_factory=list)
    # Template variables from steps with ``result_variable``.
    variables: dict[str, Any] = field(default_factory=dict)
    # A step left nothing to decide (``finish_if_empty``): the host submits.
    nothing_left: bool = False
    # A required step failed, or a step wrote without saying so: the run's result.
    failed: AgentResult | None = None
    # Tool calls made (each counts as a call the host made instead of the model).
    calls: int = 0


async def _changed(executor: ToolExecutor) -> list[str] | None:
    """The workspace's changed files, or None when the executor has no workspace.

    A ``RemoraError`` from the workspace propagates: the caller turns it into
    the run's failed result (CONTRIBUTING.md: operational failures become
    results), since without the list the undeclared-write check cannot be made.
    """
    if not isinstance(executor, WorkspaceReporter):
        return None
    return sorted(await executor.changed_files())


def agent_label(definition: SubagentDefinition) -> str:
    """How a failed result names the agent: its YAML file when it has one."""
    return str(definition.source) if definition.source else definition.name


def _failure(
    definition: SubagentDefinition, index: int, step: HostStep, envelope: dict[str, Any]
) -> AgentResult:
    raw = envelope.get("error")
    error: dict[str, Any] = raw if isinstance(raw, dict) else {}
    code = str(error.get("code") or "host_step_failed")
    message = (
        f"{agent_label(definition)}: host_steps[{index}] ({step.tool}) failed: "
        f"{error.get('message', 'no message')}"
    )
    return AgentResult(
        "failed",
        summary=f"host step {step.tool} failed: {error.get('message', 'no message')}",
        details={"host_step": {"index": index, "tool": step.tool, "error": error}},
        error=ResultError(code, message),
    )


def _undeclared_write(
    definition: SubagentDefinition, index: int, step: HostStep, files: list[str]
) -> AgentResult:
    message = (
        f"{agent_label(definition)}: host_steps[{index}].changes_workspace: {step.tool} changed "
        f"{', '.join(files)} but the step is not marked `changes_workspace: true`; "
        "mark it, or make the tool read-only"
    )
    return AgentResult(
        "failed",
        summary=message,
        details={"host_step": {"index": index, "tool": step.tool, "changed_files": files}},
        error=ResultError(AGENT_DEFINITION, message),
    )


def unreadable_workspace(
    where: str, when: str, unknown: str, exc: RemoraError, details: dict[str, Any]
) -> AgentResult:
    """The failed result for a workspace whose changed files cannot be read: what
    was written is unknown, so the run can neither be judged nor go on.

    ``where``: the agent (and step); ``when``: when reading failed; ``unknown``:
    what that leaves unknown.
    """
    message = (
        f"{where}: the workspace's changed files could not be read {when}, "
        f"so {unknown}: {exc.message}"
    )
    return AgentResult(
        "failed", summary=message, details=details, error=ResultError(exc.code, message)
    )


def _unreadable_workspace(
    definition: SubagentDefinition, index: int, step: HostStep, when: str, exc: RemoraError
) -> AgentResult:
    return unreadable_workspace(
        f"{agent_label(definition)}: host_steps[{index}] ({step.tool})",
        f"{when} the step",
        "whether it wrote without `changes_workspace: true` cannot be checked",
        exc,
        {"host_step": {"index": index, "tool": step.tool, "error": exc.to_dict()}},
    )


async def run_host_steps(
    definition: SubagentDefinition,
    dispatcher: ToolDispatcher,
    executor: ToolExecutor,
    emit: Emit,
) -> HostStepsOutcome:
    """Run the agent's ``host_steps`` in order; stop at one that finishes or fails the run."""
    outcome = HostStepsOutcome()
    for index, step in enumerate(definition.host_steps):
        try:
            before = None if step.changes_workspace else await _changed(executor)
        except RemoraError as exc:
            outcome.failed = _unreadable_workspace(definition, index, step, "before", exc)
            return outcome
        call = ToolCall(id=f"host-{index + 1}", name=step.tool, arguments=dict(step.args))
        done = await dispatcher.dispatch(call, 0)
        outcome.calls += 1
        envelope = done.result.payload
        if before is not None:
            try:
                after = await _changed(executor)
            except RemoraError as exc:
                outcome.failed = _unreadable_workspace(definition, index, step, "after", exc)
                return outcome
            if after is not None and after != before:
                new = sorted(set(after) - set(before)) or after
                outcome.failed = _undeclared_write(definition, index, step, new)
                return outcome
        if step.required and not envelope.get("ok"):
            outcome.failed = _failure(definition, index, step, envelope)
            return outcome
        if step.result_variable is not None:
            outcome.variables[step.result_variable] = envelope.get("result")
        else:
            outcome.notes.append(done.result.as_text())
        for provider, output in done.contexts:
            outcome.notes.append(CONTEXT_PREFIX + output)
            emit(
                "context_injected",
                {"turn": 0, "tool": step.tool, "provider": str(provider), "chars": len(output)},
            )
        if step.finishes(envelope):
            outcome.nothing_left = True
            return outcome
    return outcome
