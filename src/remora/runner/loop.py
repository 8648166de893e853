"""AgentRunner: the agent loop (docs/agents.md), shared by code agents and the assistant.

Step, limit check, generate, execute, record; the ending is always defined:
a submission, a text answer, or a limit that yields a degraded result.
Operational failures (ProviderError, timeouts, RemoraError) become results;
programming errors propagate.
"""

from __future__ import annotations

import asyncio
import time
import uuid
from typing import Any

from jsonschema import Draft202012Validator

from remora.agents.definition import SUBMIT_RESULT, SubagentDefinition, leaves_nothing
from remora.config import RunnerConfig
from remora.conversation import ModelRequest, ModelTurn, ToolCall, ToolResult, Usage
from remora.errors import (
    AGENT_INVALID_OUTPUT,
    AGENT_MODEL_UNAVAILABLE,
    AGENT_TURN_LIMIT,
    InvalidModelOutputError,
    RemoraError,
)
from remora.events import Event, EventEmitter, NullEmitter
from remora.providers.base import Provider, ProviderError
from remora.runner.agent_result import AgentResult, ResultError, settle
from remora.runner.clock import TurnClock
from remora.runner.completions import MeteredCompleter
from remora.runner.dispatcher import CallOutcome, ToolDispatcher, ToolExecutor, WorkspaceReporter
from remora.runner.host_steps import run_host_steps
from remora.runner.messages import Transcript
from remora.runner.place import ModelPlace
from remora.runner.policy import RunState, TurnPlan, TurnPolicy
from remora.runner.run_end import RetryRecord, RunEnd
from remora.runner.submission import established, json_object_in, submission_result

__all__ = ["AgentRunner", "effective_max_turns"]


def effective_max_turns(definition: SubagentDefinition, config: RunnerConfig) -> int:
    """The agent's own limit, capped by the configured one."""
    if definition.max_turns is None:
        return config.max_turns
    return min(definition.max_turns, config.max_turns)


class _Stop(Exception):
    """Internal: ends the loop with a failed, degraded result."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class AgentRunner:
    """Runs one agent definition against one provider and one tool executor."""

    def __init__(
        self,
        definition: SubagentDefinition,
        provider: Provider,
        config: RunnerConfig,
        executor: ToolExecutor,
        *,
        emitter: EventEmitter | None = None,
        template_vars: dict[str, Any] | None = None,
        run_id: str | None = None,
        review_feedback: str | None = None,
        retries: RetryRecord | None = None,
        completions: MeteredCompleter | None = None,
        place: ModelPlace | None = None,
    ) -> None:
        self.definition = definition
        # Held while the run talks to the model (runner/place.py).
        self.place = place or ModelPlace()
        self._talking = False
        # The completions the run's tools asked for: their tokens are the run's too.
        self.completions = completions
        # A reviewer's word on this node's earlier change, appended to the first message.
        self.review_feedback = review_feedback
        self.provider = provider
        self.config = config
        self.executor = executor
        self.emitter: EventEmitter = emitter or NullEmitter()
        self.template_vars = dict(template_vars or {})
        self.run_id = run_id or uuid.uuid4().hex[:12]
        self.profile = provider.profile
        self.max_turns = effective_max_turns(definition, config)
        self.state = RunState()
        self.policy = TurnPolicy(definition, self.profile, config, self.max_turns)
        self.dispatcher = ToolDispatcher(
            definition, executor, self.policy, self.state, self.emitter, self.run_id
        )
        self.transcript: Transcript | None = None
        self.turns = 0
        # Tool calls the host made instead of the model (host steps; the submits in finish).
        self.host_calls = 0
        # When the run ends for the model: one place (runner/run_end.py).
        self.finish = RunEnd(definition, self.dispatcher, self.policy, executor, retries)
        # Seconds this run's requests waited for the model before it started on them.
        self._queued_s = 0.0
        self._usage = Usage()
        submit = definition.submit_tool
        self._submit_validator = (
            Draft202012Validator(submit.to_spec().parameters) if submit else None
        )

    def _emit(self, kind: Any, data: dict[str, Any]) -> None:
        self.emitter.emit(Event(kind, {"agent": self.definition.name, **data}, self.run_id))

    # ------------------------------------------------------------------ run

    async def run(self) -> AgentResult:
        started = time.monotonic()
        self._emit(
            "run_start",
            {
                "max_turns": self.max_turns,
                "profile": self.profile.name,
                "tools": [t.name for t in self.definition.tools],
            },
        )
        try:
            result = await self._loop(started)
        except _Stop as stop:
            result = self._degraded(stop.code, stop.message)
        except RemoraError as exc:
            if self.turns:
                result = self._degraded(exc.code, exc.message)
            else:  # nothing happened yet, e.g. a template that cannot render
                result = AgentResult(
                    "failed", summary=exc.message, error=ResultError(exc.code, exc.message)
                )
        finally:
            self._stop_talking()  # what is left is the host's
        result = await self._finish(result, time.monotonic() - started)
        completions = result.details.get("completions")
        place = self.place.report()
        self._emit(
            "run_end",
            {
                "status": result.status,
                "turns": result.turns,
                "degraded": result.degraded,
                "duration_s": round(result.duration_s, 6),
                "error": result.error.to_dict() if result.error else None,
                "usage": result.usage.to_dict(),
                "host_calls": self.host_calls + self.finish.calls,
                **({"completions": completions} if completions else {}),
                **({"place": place} if place else {}),
            },
        )
        return result

    async def _finish(self, result: AgentResult, duration: float) -> AgentResult:
        workspace_id: str | None = None
        changed: list[str] = []
        if isinstance(self.executor, WorkspaceReporter):
            workspace_id = self.executor.workspace_id
            try:
                changed = await self.executor.changed_files()
            except RemoraError as exc:
                # The result must still come back; say why the list is missing.
                result = result.replace(
                    details={**result.details, "changed_files_error": exc.message}
                )
        spent = self._usage
        if self.completions is not None and self.completions.usage.requests:
            spent = spent + self.completions.usage
            result = result.replace(
                details={**result.details, "completions": self.completions.report()}
            )
        usage = Usage(spent.prompt_tokens, spent.completion_tokens, spent.cached_tokens, self.turns)
        finished = result.replace(
            workspace_id=workspace_id,
            changed_files=changed,
            turns=self.turns,
            usage=usage,
            duration_s=duration,
        )
        if not isinstance(self.executor, WorkspaceReporter):
            return finished  # no workspace: whether the run left a change is unknown
        return settle(finished, self.definition.without_change)

    async def _loop(self, started: float) -> AgentResult:
        steps = await run_host_steps(self.definition, self.dispatcher, self.executor, self._emit)
        self.host_calls += steps.calls
        if steps.failed is not None:
            return steps.failed
        # After the steps: a step's result_variable may fill the templates.
        system, first = self.definition.render({**self.template_vars, **steps.variables})
        notes, nothing_left = steps.notes, steps.nothing_left
        if self.review_feedback:
            notes.append(self.review_feedback)
        if notes:
            first = "\n\n".join([first.rstrip("\n"), *notes])
        transcript = self.transcript = Transcript(system, first)
        finished = await self.finish.after_host_steps(transcript, nothing_left, self.turns + 1)
        if finished is not None:
            return finished
        deadline = started + self.config.total_timeout
        invalid_streak = 0
        while self.turns < self.max_turns:
            plan = self.policy.plan(self.turns + 1, self.state)
            finished = await self.finish.before_turn(transcript, plan, self.turns + 1)
            if finished is not None:
                return finished
            if plan.instruction:
                transcript.host_note(plan.instruction)
            if not self._talking:
                await self.place.take()
                self._talking = True
            # Time spent queued for the model (or for a place) is not the run's own time.
            waited = self._queued_s + self.place.waited_s
            turn, problem = await self._ask(plan, transcript, deadline + waited)
            if problem is not None:
                invalid_streak += 1
                if invalid_streak > self.config.invalid_response_retries:
                    raise _Stop(
                        AGENT_INVALID_OUTPUT,
                        f"invalid model output {invalid_streak} time(s) in a row: {problem}",
                    )
                if turn is not None:
                    transcript.assistant_text(turn.message.text)
                transcript.corrective(
                    problem, [t.name for t in plan.tools], text_allowed=not self._tools_required()
                )
                continue
            invalid_streak = 0
            assert turn is not None
            calls = turn.message.tool_calls
            if self._likely_last(calls):
                self._stop_talking()  # a next turn waits for a place again
            if not calls:
                transcript.assistant(turn.message)
                result = await self._text_answer(turn.message.text, transcript)
                if result is not None:
                    return result
                continue
            transcript.assistant(turn.message)
            submission, nothing_left, outcomes = await self._run_calls(calls, transcript)
            finished = await self.finish.after_turn(
                transcript, self.turns, calls, outcomes, submission, nothing_left
            )
            if finished is not None:
                return finished
        raise _Stop(
            AGENT_TURN_LIMIT,
            f"turn limit ({self.max_turns}) reached without "
            + ("submit_result" if self.policy.has_submit else "a final answer"),
        )

    # ---------------------------------------------------------------- model

    def _likely_last(self, calls: list[ToolCall]) -> bool:
        """Whether the model's answer likely ends the run: a text answer, or a call of a tool
        that ends it when it succeeds (submit_result, a ``finish_if_empty`` tool)."""
        tools = self.definition.tools_by_name
        return not calls or any(
            (tool := tools.get(call.name)) is not None
            and (tool.is_submit or tool.finish_if_empty is not None)
            for call in calls
        )

    def _stop_talking(self) -> None:
        if self._talking:
            self._talking = False
            self.place.give_back()

    def _tools_required(self) -> bool:
        return self.profile.requires_tool_calls and self.definition.final_answer != "text"

    async def _ask(
        self, plan: TurnPlan, transcript: Transcript, deadline: float
    ) -> tuple[ModelTurn | None, str | None]:
        """One model request: (turn, None) when usable, else (turn or None, problem)."""
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise _Stop(
                AGENT_MODEL_UNAVAILABLE, f"total timeout of {self.config.total_timeout:g}s reached"
            )
        limit = min(self.config.per_turn_timeout, remaining)
        clock = TurnClock(limit)
        request = ModelRequest(
            messages=transcript.messages,
            tools=plan.tools,
            tool_choice=plan.tool_choice,
            max_tokens=self.config.max_tokens,
            temperature=self.config.temperature,
            timeout_s=limit,
            clock=clock,
        )
        self.turns += 1
        self._emit(
            "model_request",
            {
                "turn": self.turns,
                "messages": len(request.messages),
                "tools": [t.name for t in plan.tools],
                "tool_choice": plan.tool_choice,
                "final": plan.final,
            },
        )
        began = time.perf_counter()
        try:
            async with asyncio.timeout(limit) as scope:
                clock.scope = scope
                try:
                    turn = await self.provider.complete(request)
                finally:
                    self._queued_s += clock.queued_s
        except TimeoutError:
            which = "per-turn timeout" if limit == self.config.per_turn_timeout else "total timeout"
            raise _Stop(
                AGENT_MODEL_UNAVAILABLE,
                f"model did not answer turn {self.turns} within the {which} of {limit:g}s",
            ) from None
        except ProviderError as exc:
            self._emit(
                "model_response",
                {
                    "turn": self.turns,
                    "error": exc.code,
                    "message": exc.message,
                    "duration_s": round(time.perf_counter() - began, 6),
                },
            )
            if isinstance(exc, InvalidModelOutputError):  # the turn is retried
                return None, exc.message
            raise _Stop(exc.code, exc.message) from None
        self._usage = self._usage + turn.usage
        calls = turn.message.tool_calls
        self._emit(
            "model_response",
            {
                "turn": self.turns,
                "duration_s": round(time.perf_counter() - began, 6),
                "finish": turn.finish,
                "queued_s": round(clock.queued_s, 6),
                "prompt_tokens": turn.usage.prompt_tokens,
                "completion_tokens": turn.usage.completion_tokens,
                "cached_tokens": turn.usage.cached_tokens,
                "tool_calls": [c.name for c in calls],
                "text_chars": len(turn.message.text),
                **turn.timings,
                **({"error": turn.error} if turn.error else {}),
            },
        )
        return turn, self._problem(turn)

    def _problem(self, turn: ModelTurn) -> str | None:
        """Why a turn is an invalid response, or None."""
        if turn.finish == "invalid":
            return turn.error or "the output could not be parsed"
        if turn.finish == "blocked":
            return turn.error or "the response was blocked"
        if turn.message.tool_calls:
            return None
        if not turn.message.text.strip():
            return "the reply was empty"
        if self._tools_required():
            return "the reply had no tool call"
        return None

    # ---------------------------------------------------------------- tools

    async def _run_calls(
        self, calls: list[ToolCall], transcript: Transcript
    ) -> tuple[dict[str, Any] | None, bool, list[CallOutcome]]:
        """Run a turn's calls in order: the submission if one was accepted, whether
        a call's result left nothing to do (its tool's ``finish_if_empty``), and
        each call's outcome."""
        cap = self.policy.max_calls_per_turn()
        results: list[ToolResult] = []
        outcomes: list[CallOutcome] = []
        contexts: list[str] = []
        submission: dict[str, Any] | None = None
        nothing_left = False
        for index, call in enumerate(calls):
            if submission is not None:
                outcome = self.dispatcher.refuse(
                    call, self.turns, "not_run", "not run: submit_result already ended the run"
                )
            elif cap is not None and index >= cap:
                outcome = self.dispatcher.refuse(
                    call,
                    self.turns,
                    "too_many_calls",
                    f"not run: at most {cap} tool call(s) per turn; call it again next turn",
                )
            else:
                outcome = await self.dispatcher.dispatch(call, self.turns)
            results.append(outcome.result)
            outcomes.append(outcome)
            tool = self.definition.tools_by_name.get(call.name)
            if outcome.executed and tool is not None:
                nothing_left = leaves_nothing(outcome.result.payload, tool.finish_if_empty)
            for provider, output in outcome.contexts:
                contexts.append(output)
                self._emit(
                    "context_injected",
                    {
                        "turn": self.turns,
                        "tool": call.name,
                        "provider": str(provider),
                        "chars": len(output),
                    },
                )
            if outcome.submission is not None:
                submission = outcome.submission
        transcript.tool_results(results)
        for output in contexts:
            transcript.context(output)
        return submission, nothing_left, outcomes

    async def _text_answer(self, text: str, transcript: Transcript) -> AgentResult | None:
        """A turn without calls; None when the loop should go on."""
        if self.definition.final_answer == "text" or self._submit_validator is None:
            return AgentResult("success", summary=text.strip(), details={"answer": text})
        parsed = json_object_in(text)
        if parsed is not None and self._submit_validator.is_valid(parsed):
            call = ToolCall(id=f"text-{self.turns}", name=SUBMIT_RESULT, arguments=parsed)
            outcome = await self.dispatcher.dispatch(call, self.turns)
            if outcome.submission is not None:
                return submission_result(outcome.submission)
            error = outcome.result.payload.get("error", {})
            transcript.host_note(
                f"[Host] Your submission was not accepted: {error.get('message', 'unknown error')}"
            )
            return None
        return AgentResult("success", summary=text.strip(), details={"answer": text})

    def _degraded(self, code: str, message: str) -> AgentResult:
        summary, facts = established(self.dispatcher.log)
        details: dict[str, Any] = {"stopped_by": code, "established": facts}
        return AgentResult(
            "failed",
            summary=f"Stopped: {message}. {summary}".strip(),
            details=details,
            error=ResultError(code, message),
            degraded=True,
        )
