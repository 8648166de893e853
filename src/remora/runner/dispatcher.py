"""Tool dispatch: one call in, one result envelope out (docs/agents.md, "The agent loop").

Every failure the model could react to is an envelope it sees; only
programming errors escape. The dispatcher knows nothing of how a tool runs:
that is the :class:`ToolExecutor`'s business (`.pym` in the sandbox, or
in-process capabilities for the assistant).
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, Protocol, runtime_checkable

from jsonschema import Draft202012Validator

from remora.agents.definition import SubagentDefinition, ToolDefinition
from remora.conversation import ToolCall, ToolResult
from remora.errors import RemoraError
from remora.events import Event, EventEmitter
from remora.runner.policy import RepeatGuard, RunState, TurnPolicy, call_key

__all__ = [
    "CallOutcome",
    "ToolDispatcher",
    "ToolExecutor",
    "WorkspaceReporter",
    "envelope_error",
    "envelope_ok",
]


class ToolExecutor(Protocol):
    """Runs tools for the loop."""

    async def call(self, tool: ToolDefinition, arguments: dict[str, Any]) -> dict[str, Any]:
        """Run ``tool``; always an envelope ``{"ok": ...}``. May raise RemoraError."""
        ...

    async def context(self, provider_script: Path) -> str:
        """Run one context provider; its output as text. Raises RemoraError on failure."""
        ...


@runtime_checkable
class WorkspaceReporter(Protocol):
    """An executor bound to a workspace says which one and what changed in it."""

    @property
    def workspace_id(self) -> str | None: ...

    async def changed_files(self) -> list[str]: ...


def envelope_ok(result: Any) -> dict[str, Any]:
    return {"ok": True, "result": result}


def envelope_error(
    code: str, message: str, details: dict[str, Any] | None = None
) -> dict[str, Any]:
    return {"ok": False, "error": {"code": code, "message": message, "details": details or {}}}


@dataclass(slots=True)
class CallOutcome:
    result: ToolResult
    # New [Context] outputs gathered for this call, in order.
    contexts: list[tuple[Path, str]] = field(default_factory=list)
    # The submission, when this was an accepted submit_result.
    submission: dict[str, Any] | None = None
    # The envelope came from really running the tool (not a refusal or a repeat).
    executed: bool = False
    # The call got nothing new (repeat guard on): "done" when the guard answered it as
    # already done, "refused" when it was refused for the same reason as last time.
    repeat: Literal["done", "refused"] | None = None
    # The loop did not run the call (over the per-turn limit, after submit): the model
    # is to call it again, there is nothing in it to fix.
    not_run: bool = False


class ToolDispatcher:
    """Validates, guards and runs the calls of one run, emitting events."""

    def __init__(
        self,
        definition: SubagentDefinition,
        executor: ToolExecutor,
        policy: TurnPolicy,
        state: RunState,
        emitter: EventEmitter,
        run_id: str | None,
    ) -> None:
        self.definition = definition
        self.executor = executor
        self.policy = policy
        self.state = state
        self.emitter = emitter
        self.run_id = run_id
        self.guard = RepeatGuard()
        # (tool, arguments, envelope) of every executed call, for degraded summaries.
        self.log: list[tuple[str, dict[str, Any], dict[str, Any]]] = []
        self._validators = {
            t.name: Draft202012Validator(t.to_spec().parameters) for t in definition.tools
        }

    def _emit(self, kind: Any, data: dict[str, Any]) -> None:
        self.emitter.emit(Event(kind, data, self.run_id))

    def refuse(self, call: ToolCall, turn: int, code: str, message: str) -> CallOutcome:
        """A result for a call the loop will not run (over the per-turn limit, after submit)."""
        env = envelope_error(code, message)
        self._emit(
            "tool_call",
            {"turn": turn, "call_id": call.id, "name": call.name, "arguments": call.arguments},
        )
        self._emit_result(call, turn, env, 0.0)
        return CallOutcome(ToolResult(call.id, call.name, env), not_run=True)

    async def dispatch(self, call: ToolCall, turn: int) -> CallOutcome:
        self._emit(
            "tool_call",
            {"turn": turn, "call_id": call.id, "name": call.name, "arguments": call.arguments},
        )
        started = time.perf_counter()
        outcome = await self._dispatch(call, turn)
        envelope = outcome.result.payload
        if self.policy.rules.repeat_guard and not envelope.get("ok"):
            error = envelope.get("error")
            reason = json.dumps(
                [error.get("code"), error.get("message")] if isinstance(error, dict) else error,
                default=str,
            )
            if self.guard.record_refusal(call_key(call.name, call.arguments), reason):
                outcome.repeat = "refused"
        self._emit_result(
            call,
            turn,
            outcome.result.payload,
            time.perf_counter() - started,
            executed=outcome.executed,
        )
        return outcome

    def _emit_result(
        self,
        call: ToolCall,
        turn: int,
        env: dict[str, Any],
        duration: float,
        *,
        executed: bool = False,
    ) -> None:
        error = env.get("error") if not env.get("ok") else None
        self._emit(
            "tool_result",
            {
                "turn": turn,
                "call_id": call.id,
                "name": call.name,
                "ok": bool(env.get("ok")),
                "code": error.get("code") if isinstance(error, dict) else None,
                "executed": executed,
                "duration_s": round(duration, 6),
            },
        )

    async def _dispatch(self, call: ToolCall, turn: int) -> CallOutcome:
        tool = self.definition.tools_by_name.get(call.name)
        if tool is not None and tool.host_only and turn > 0:
            tool = None  # only a host step (turn 0) calls it; the model was never offered it
        if tool is None:
            offered = [spec.name for spec in self.definition.tool_specs]
            known = ", ".join(offered)
            return self._refused(
                call,
                envelope_error(
                    "unknown_function",
                    f"there is no tool named {call.name!r}",
                    {
                        "available": offered,
                        "hint": f"use one of: {known}",
                    },
                ),
            )
        problems = self._argument_problems(tool.name, call.arguments)
        if problems:
            first = problems[0]
            return self._refused(
                call,
                envelope_error(
                    "invalid_args",
                    f"arguments for {tool.name} do not match its schema: {first['message']}",
                    {"errors": problems, "schema": tool.to_spec().parameters},
                ),
            )
        if tool.is_submit and self.policy.submit_premature(self.state, turn):
            others = ", ".join(t.name for t in self.definition.tools if not t.is_submit)
            return self._refused(
                call,
                envelope_error(
                    "submit_too_early",
                    f"do the task first: call one of {others} before submit_result",
                ),
            )
        key = call_key(call.name, call.arguments)
        if not tool.is_submit and self.policy.rules.repeat_guard:
            earlier = self.guard.previous_turn(key)
            if earlier is not None:
                repeat = self._refused(
                    call,
                    envelope_ok(
                        {
                            "already_done": True,
                            "message": f"{call.name} was already called with these arguments "
                            f"(turn {earlier}); its result is above. Do the next step.",
                        }
                    ),
                )
                repeat.repeat = "done"
                return repeat
        contexts: list[tuple[Path, str]] = []
        for provider in tool.context_providers:
            try:
                output = await self.executor.context(provider)
            except RemoraError as exc:
                return self._refused(
                    call,
                    envelope_error(
                        "context_failed",
                        f"context provider {provider.name} of {tool.name} failed: {exc.message}",
                        {"provider": str(provider), "code": exc.code},
                    ),
                )
            contexts.append((provider, output))
        envelope = await self._execute(tool, call.arguments)
        if not tool.is_submit:
            self.state.tools_run += 1
        self.log.append((tool.name, call.arguments, envelope))
        outcome = CallOutcome(ToolResult(call.id, call.name, envelope), contexts, executed=True)
        if envelope["ok"]:
            if tool.is_submit:
                outcome.submission = merge_submission(call.arguments, envelope.get("result"))
            else:
                self.guard.record_success(key, turn)
        return outcome

    @staticmethod
    def _refused(call: ToolCall, envelope: dict[str, Any]) -> CallOutcome:
        return CallOutcome(ToolResult(call.id, call.name, envelope))

    def _argument_problems(self, name: str, arguments: Any) -> list[dict[str, str]]:
        if not isinstance(arguments, dict):
            return [
                {
                    "path": "",
                    "message": f"arguments must be an object, got {type(arguments).__name__}",
                }
            ]
        validator = self._validators[name]
        return [
            {"path": "/" + "/".join(str(p) for p in err.absolute_path), "message": err.message}
            for err in sorted(validator.iter_errors(arguments), key=lambda e: list(e.path))
        ]

    async def _execute(self, tool: ToolDefinition, arguments: dict[str, Any]) -> dict[str, Any]:
        try:
            envelope = await self.executor.call(tool, arguments)
        except RemoraError as exc:
            return envelope_error(exc.code, exc.message, {"hint": exc.hint} if exc.hint else None)
        except TimeoutError:
            return envelope_error("timeout", f"{tool.name} did not finish in time")
        if not isinstance(envelope, dict) or not isinstance(envelope.get("ok"), bool):
            # The executor broke its contract: a bug, not something the model can fix.
            raise TypeError(
                f"tool executor returned {envelope!r} for {tool.name}, "
                "expected an envelope {'ok': bool, ...}"
            )
        return envelope


def merge_submission(arguments: dict[str, Any], script_result: Any) -> dict[str, Any]:
    """The model's submit arguments plus what the submit script returned.

    A mapping result is merged over the arguments (the script may normalise
    them); any other non-null result is kept under ``submit_result``.
    """
    submission = dict(arguments)
    if isinstance(script_result, dict):
        submission.update(script_result)
    elif script_result is not None:
        submission["submit_result"] = script_result
    return submission
