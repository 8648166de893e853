"""One assistant question, answered by the shared agent loop.

The assistant is an agent whose tools are the in-process capabilities and whose
final answer is plain text (``final_answer: text``). Every question gets a new
runner and a new transcript: memory lives for one question only. Tool calling
stays in AUTO mode on every step; the model may answer at once.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from typing import Any, Literal

from remora.agents.definition import InitialContext, SubagentDefinition, ToolDefinition
from remora.assistant.capabilities import Capabilities
from remora.assistant.executor import CallRecord, CapabilityExecutor
from remora.assistant.specs import CAPABILITY_SPECS
from remora.config import RunnerConfig, TurnPolicyConfig
from remora.conversation import ModelRequest, ModelTurn, Usage
from remora.errors import AGENT_INVALID_OUTPUT, AGENT_MODEL_UNAVAILABLE, AGENT_TURN_LIMIT
from remora.events import EventEmitter
from remora.profiles import ModelProfile
from remora.providers.base import Availability, Provider, ProviderError
from remora.runner import AgentResult, AgentRunner

__all__ = [
    "SYSTEM_PROMPT",
    "AssistantAnswer",
    "AssistantLimits",
    "StopReason",
    "ask",
    "assistant_definition",
    "assistant_profile",
    "degraded_text",
]

# Seed 004's prompting contract, word for word but for the product's name.
SYSTEM_PROMPT = """\
You are Remora assistant operating over a live Python runtime via declared functions.

Rules:
1) For runtime facts (values, types, attributes, docs, last exception), call functions instead of guessing.
2) You may call multiple functions when needed.
3) When enough information is gathered, provide a concise final answer in plain text.
4) If a function returns an error, adapt and continue when possible.
5) Do not invent variables or results that were not returned by function responses.
6) Keep responses concise and technically precise.
"""  # noqa: E501

StopReason = Literal[
    "step_limit", "step_timeout", "total_timeout", "invalid_response", "model_error"
]


@dataclass(frozen=True, slots=True)
class AssistantLimits:
    """Seed 004's defaults: 6 steps, 8 s per step, 20 s in all, one corrective retry."""

    max_steps: int = 6
    step_timeout_s: float = 8.0
    total_timeout_s: float = 20.0
    invalid_response_retries: int = 1
    max_tokens: int = 512
    temperature: float = 0.0
    repeat_guard: bool = True

    def runner_config(self) -> RunnerConfig:
        return RunnerConfig(
            max_turns=self.max_steps,
            max_tokens=self.max_tokens,
            temperature=self.temperature,
            tool_choice="auto",
            per_turn_timeout=self.step_timeout_s,
            total_timeout=self.total_timeout_s,
            invalid_response_retries=self.invalid_response_retries,
            # AUTO on every step, the last one too: no forced final turn.
            policy=TurnPolicyConfig(
                no_submit_before_tools=False,
                repeat_guard=self.repeat_guard,
                final_turn_submit_only=False,
            ),
        )


@dataclass(frozen=True, slots=True)
class AssistantAnswer:
    text: str
    degraded: bool = False
    stopped_by: StopReason | None = None
    calls: tuple[CallRecord, ...] = ()
    steps: int = 0
    usage: Usage = field(default_factory=Usage)
    duration_s: float = 0.0
    # What the limit or failure said, for logs and --format json.
    error: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "answer": self.text,
            "degraded": self.degraded,
            "stopped_by": self.stopped_by,
            "error": self.error,
            "steps": self.steps,
            "calls": [c.to_dict() for c in self.calls],
            "usage": self.usage.to_dict(),
            "duration_s": round(self.duration_s, 6),
        }


@cache
def assistant_definition() -> SubagentDefinition:
    """The assistant as an agent: capabilities as in-process tools, text answers."""
    return SubagentDefinition(
        name="assistant",
        description="Answers questions about a live Python session.",
        final_answer="text",
        initial_context=InitialContext(system_prompt=SYSTEM_PROMPT, node_context="{{ question }}"),
        tools=[
            ToolDefinition(name=s.name, description=s.description, parameters=s.parameters)
            for s in CAPABILITY_SPECS
        ],
    )


def assistant_profile(profile: ModelProfile) -> ModelProfile:
    """The profile for assistant questions: a plain-text reply is always allowed.

    Profiles of tiny models require a call on every turn (code agents end with
    submit_result), and providers that constrain output read that flag to decide
    whether a text reply is offered at all; the assistant answers in text.
    """
    if not profile.requires_tool_calls:
        return profile
    return profile.model_copy(update={"requires_tool_calls": False})


class _TimedProvider:
    """Passes requests through and notes whether the last one ran out of time.

    The loop reports every model timeout and unreachable model under one error
    code; the assistant tells the user which limit stopped it, so it watches
    the clock itself instead of reading messages.
    """

    def __init__(self, inner: Provider, limits: AssistantLimits) -> None:
        self.inner = inner
        self.limits = limits
        self.profile = inner.profile
        self.last: Literal["none", "ok", "step_timeout", "total_timeout", "error"] = "none"

    async def complete(self, request: ModelRequest) -> ModelTurn:
        started = time.monotonic()
        try:
            turn = await self.inner.complete(request)
        except BaseException as exc:  # noted, never swallowed: re-raised below
            budget = request.timeout_s
            elapsed = time.monotonic() - started
            timed_out = budget is not None and elapsed >= budget * 0.95
            if timed_out and isinstance(exc, ProviderError | TimeoutError | asyncio.CancelledError):
                tight = budget is not None and budget < self.limits.step_timeout_s - 1e-6
                self.last = "total_timeout" if tight else "step_timeout"
            else:
                self.last = "error"
            raise
        self.last = "ok"
        return turn

    async def check(self) -> Availability:
        return await self.inner.check()

    async def aclose(self) -> None:
        await self.inner.aclose()


def _stop_reason(result: AgentResult, timed: _TimedProvider) -> StopReason:
    code = result.error.code if result.error else ""
    if code == AGENT_TURN_LIMIT:
        return "step_limit"
    if code == AGENT_INVALID_OUTPUT:
        return "invalid_response"
    if code == AGENT_MODEL_UNAVAILABLE and timed.last in ("step_timeout", "total_timeout"):
        return timed.last
    if code == AGENT_MODEL_UNAVAILABLE and timed.last == "ok":
        # The loop stopped before asking: the total budget was already spent.
        return "total_timeout"
    return "model_error"


def _limit_note(reason: StopReason, limits: AssistantLimits, message: str) -> str:
    notes: dict[StopReason, str] = {
        "step_limit": f"the step limit ({limits.max_steps} model steps) was reached",
        "step_timeout": f"the model did not answer within the per-step timeout "
        f"({limits.step_timeout_s:g} s)",
        "total_timeout": f"the total time limit ({limits.total_timeout_s:g} s) ran out",
        "invalid_response": "the model's replies could not be used, even after "
        f"{limits.invalid_response_retries} corrective retry ({message})",
        "model_error": f"the model failed ({message})",
    }
    return notes[reason]


def degraded_text(
    reason: StopReason,
    limits: AssistantLimits,
    message: str,
    findings: list[str],
    failures: list[str] | None = None,
) -> str:
    """The best-effort answer: which limit stopped it and what the calls confirmed."""
    lines = [f"No complete answer: {_limit_note(reason, limits, message)}."]
    if findings:
        lines.append("What the calls confirmed:")
        lines.extend(f"- {line}" for line in findings)
    else:
        lines.append("No function call completed before the stop.")
    if failures:
        lines.append("Calls that failed:")
        lines.extend(f"- {line}" for line in failures)
    return "\n".join(lines)


async def ask(
    question: str,
    provider: Provider,
    capabilities: Capabilities,
    limits: AssistantLimits | None = None,
    *,
    emitter: EventEmitter | None = None,
    on_call: Callable[[str, dict[str, Any]], None] | None = None,
) -> AssistantAnswer:
    """Answer ``question`` about the session behind ``capabilities``; never raises for
    model failures (they give a degraded answer)."""
    limits = limits or AssistantLimits()
    executor = CapabilityExecutor(capabilities, on_call)
    timed = _TimedProvider(provider, limits)
    runner = AgentRunner(
        assistant_definition(),
        timed,
        limits.runner_config(),
        executor,
        emitter=emitter,
        template_vars={"question": question},
    )
    result = await runner.run()
    calls = tuple(executor.records)
    if result.ok:
        text = str(result.details.get("answer", result.summary)).strip()
        return AssistantAnswer(
            text, calls=calls, steps=result.turns, usage=result.usage, duration_s=result.duration_s
        )
    reason = _stop_reason(result, timed)
    message = result.error.message if result.error else result.summary
    return AssistantAnswer(
        degraded_text(reason, limits, message, executor.findings(), executor.failures()),
        degraded=True,
        stopped_by=reason,
        calls=calls,
        steps=result.turns,
        usage=result.usage,
        duration_s=result.duration_s,
        error=message,
    )
