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
from remora.assistant.answering import answer_from_facts, said_not_found
from remora.assistant.capabilities import Capabilities
from remora.assistant.executor import CallRecord, CapabilityExecutor
from remora.assistant.grounding import NOT_FOUND, check_answer, source_texts
from remora.assistant.question_facts import QuestionFacts, gather_facts
from remora.assistant.specs import CAPABILITY_SPECS
from remora.config import AssistantConfig, RunnerConfig, TurnPolicyConfig
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

# The assistant's prompting contract: call functions for runtime facts, never guess.
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
    "step_limit",
    "step_timeout",
    "total_timeout",
    "invalid_response",
    "model_error",
    "unsupported_answer",
]

# The first message: the question, then the facts the host's capability calls found.
FIRST_MESSAGE = """\
{{ question }}
{%- if facts %}

{{ facts }}
Answer from these facts when they answer the question; call a function for anything else.
{%- endif %}"""


# The configuration's defaults (assistant: in remora.yaml) are the one source of these limits.
_CONFIGURED = AssistantConfig()


@dataclass(frozen=True, slots=True)
class AssistantLimits:
    """Per question: model steps, seconds per step and in all, corrective retries."""

    max_steps: int = _CONFIGURED.max_steps
    step_timeout_s: float = _CONFIGURED.step_timeout
    total_timeout_s: float = _CONFIGURED.total_timeout
    invalid_response_retries: int = _CONFIGURED.invalid_response_retries
    max_tokens: int = 512
    temperature: float = 0.0
    repeat_guard: bool = True
    # Ask for a plain-text answer from the host's facts before any function call
    # (see answering.py); off, the agent loop starts the question with a function call.
    answer_first: bool = True
    # An answer is a sentence or two; a small model left to 512 tokens rambles.
    answer_tokens: int = 96

    def runner_config(
        self, *, max_turns: int | None = None, total_timeout_s: float | None = None
    ) -> RunnerConfig:
        return RunnerConfig(
            max_turns=max_turns or self.max_steps,
            max_tokens=self.max_tokens,
            temperature=self.temperature,
            tool_choice="auto",
            per_turn_timeout=self.step_timeout_s,
            total_timeout=total_timeout_s or self.total_timeout_s,
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
    # The host's calls for the first message's facts (capability results as well).
    facts: tuple[CallRecord, ...] = ()
    steps: int = 0
    usage: Usage = field(default_factory=Usage)
    duration_s: float = 0.0
    # What the limit or failure said, for logs and --format json.
    error: str | None = None
    # The model's own answer when the host did not print it (stopped_by unsupported_answer).
    model_answer: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "answer": self.text,
            "degraded": self.degraded,
            "stopped_by": self.stopped_by,
            "error": self.error,
            "model_answer": self.model_answer,
            "steps": self.steps,
            "facts": [c.to_dict() for c in self.facts],
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
        initial_context=InitialContext(system_prompt=SYSTEM_PROMPT, node_context=FIRST_MESSAGE),
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
        "unsupported_answer": message,
    }
    return notes[reason]


def degraded_text(
    reason: StopReason,
    limits: AssistantLimits,
    message: str,
    findings: list[str],
    failures: list[str] | None = None,
    facts: str = "",
) -> str:
    """The best-effort answer: which limit stopped it, the host's facts, and what the
    model's calls confirmed."""
    lines = [f"No complete answer: {_limit_note(reason, limits, message)}."]
    if facts:
        lines.append(facts)
    if findings:
        lines.append("What the calls confirmed:")
        lines.extend(f"- {line}" for line in findings)
    else:
        lines.append("No function call completed before the stop.")
    if failures:
        lines.append("Calls that failed:")
        lines.extend(f"- {line}" for line in failures)
    return "\n".join(lines)


@dataclass
class _Question:
    """What one question has produced so far: steps, tokens, the model's rejected text."""

    question: str
    limits: AssistantLimits
    executor: CapabilityExecutor
    facts: QuestionFacts
    started: float = field(default_factory=time.monotonic)
    steps: int = 0
    usage: Usage = field(default_factory=Usage)
    rejected: str | None = None
    rejected_why: str | None = None

    def remaining_s(self) -> float:
        return self.limits.total_timeout_s - (time.monotonic() - self.started)

    def judge(self, text: str) -> bool:
        """Whether ``text`` may be printed; if not, why is kept for the report."""
        if not text:  # no answer at all: what stopped the question says more
            return False
        if said_not_found(text):
            self.rejected, self.rejected_why = text, "the model found no answer in the facts"
            return False
        grounding = check_answer(text, source_texts(self.executor.all_records(), self.question))
        if grounding.ok:
            return True
        self.rejected, self.rejected_why = text, grounding.reason()
        return False

    def answer(self, text: str, **extra: Any) -> AssistantAnswer:
        return AssistantAnswer(
            text,
            calls=tuple(self.executor.records),
            facts=self.facts.records,
            steps=self.steps,
            usage=self.usage,
            duration_s=time.monotonic() - self.started,
            **extra,
        )

    def stopped(self, reason: StopReason, message: str) -> AssistantAnswer:
        if self.rejected is not None:
            # The model did answer, but not from the facts: say so, not the limit.
            return self.answer(
                NOT_FOUND,
                degraded=True,
                stopped_by="unsupported_answer",
                error=f"{self.rejected_why} (then: {message})",
                model_answer=self.rejected,
            )
        failures = self.executor.failures()
        findings = self.executor.findings()
        text = degraded_text(reason, self.limits, message, findings, failures, self.facts.text)
        return self.answer(text, degraded=True, stopped_by=reason, error=message)


async def _answer_step(state: _Question, timed: _TimedProvider) -> str:
    """One plain-text answer from the facts and the model's calls so far."""
    budget = min(state.limits.step_timeout_s, state.remaining_s())
    if budget <= 0:
        timed.last = "total_timeout"
        raise TimeoutError("no time left for the answer")
    calls = state.executor.records
    async with asyncio.timeout(budget):
        reply = await answer_from_facts(
            timed,
            state.question,
            state.facts.text,
            calls,
            max_tokens=state.limits.answer_tokens,
            temperature=state.limits.temperature,
            timeout_s=budget,
        )
    state.steps += 1
    state.usage = state.usage + reply.usage
    return reply.text


def _failure_reason(timed: _TimedProvider) -> StopReason:
    return timed.last if timed.last in ("step_timeout", "total_timeout") else "model_error"


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
    model failures (they give a degraded answer).

    The host gathers the facts the question names (capability calls) first. With
    ``answer_first`` the model is asked to answer from them in plain text; when it
    cannot, the agent loop lets it call functions (AUTO on every step), and a last
    answer step reads what those calls returned. No answer is printed whose values
    no capability returned: "I could not find that out" is, instead.
    """
    limits = limits or AssistantLimits()
    executor = CapabilityExecutor(capabilities, on_call)
    state = _Question(question, limits, executor, gather_facts(question, executor))
    timed = _TimedProvider(provider, limits)
    if limits.answer_first:
        try:
            text = await _answer_step(state, timed)
        except (ProviderError, TimeoutError) as exc:
            return state.stopped(_failure_reason(timed), str(exc) or "the model timed out")
        if state.judge(text):
            return state.answer(text)
    # One step kept back for the last answer step when the loop's calls need reading.
    loop_steps = limits.max_steps - state.steps - (1 if limits.answer_first else 0)
    if loop_steps >= 1 and state.remaining_s() > 0:
        config = limits.runner_config(max_turns=loop_steps, total_timeout_s=state.remaining_s())
        runner = AgentRunner(
            assistant_definition(),
            timed,
            config,
            executor,
            emitter=emitter,
            template_vars={"question": question, "facts": state.facts.text},
        )
        result = await runner.run()
        state.steps += result.turns
        state.usage = state.usage + result.usage
        if result.ok:
            text = str(result.details.get("answer", result.summary)).strip()
            if state.judge(text):
                return state.answer(text)
            stop: tuple[StopReason, str] = (
                ("unsupported_answer", state.rejected_why or "")
                if text
                else ("invalid_response", "the model's answer was empty")
            )
        else:
            message = result.error.message if result.error else result.summary
            stop = (_stop_reason(result, timed), message)
            # The limit came after any earlier rejected answer: it is the news now.
            state.rejected = None
    else:
        stop = ("step_limit", f"no model step left after {state.steps}")
    if limits.answer_first and executor.records and state.steps < limits.max_steps:
        try:
            text = await _answer_step(state, timed)
        except (ProviderError, TimeoutError) as exc:
            # What stopped the loop cut the question short; this was a last try.
            failed = str(exc) or "the model timed out"
            return state.stopped(stop[0], f"{stop[1]}; the answer step then failed: {failed}")
        if state.judge(text):
            return state.answer(text)
    return state.stopped(*stop)
