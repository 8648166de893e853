"""When a run ends, decided in one place: :class:`RunEnd`, asked by the loop at
three moments (after the host steps, before a turn, after a turn).

A run ends when the model submits (or answers in text), at the turn limit (the
loop), or when the host ends it for the model because no decision is left to
it. No model turn is spent where the host already knows the answer:

- a host step or a tool's ``finish_if_empty`` key says nothing is left to do:
  submitting is no decision, the host calls submit_result;
- the model's only possible move is submit_result without arguments
  (:meth:`RunEnd.only_submit_left`): the host calls it;
- the model's turn was made only of calls answered before exactly so (the
  repeat guard's "already done", or the same refusal for the same reason) with
  no call succeeding since (:meth:`RunEnd.after_repeats`): the run is where
  it was a turn ago, so asking again buys nothing. The host submits for the
  model when submit_result can go without arguments; otherwise, after a
  repeated refusal in a workspace nothing was written to, the run is skipped
  with the refusal's reason. A workspace whose changed files cannot be read
  there fails the run instead: skipping, or asking the model again, would hide
  an operational failure. A retry with changed arguments is no repeat: it
  gets a new answer, and the model its next turn;
- a refusal the model would be asked to fix, when this agent's model spent its
  last retries repeating itself (:meth:`RunEnd.without_retry`, with the
  :class:`RetryRecord`): the run ends as the repeat would have ended it.

Whether a retry is worth a model turn comes from how the model spent its last
ones. A tool that refuses a call, or leaves something to fix (its ``finish_if_empty``
key), gives the model another turn to fix it. A small model often spends that
turn repeating the refused call verbatim (or submitting): the repeat guard
answers, the host finishes, and the turn changed nothing. A ``RetryRecord``
(one per model over one command) keeps, per agent, how many retries in a row
went that way. Past ``runner.policy.max_repeated_retries`` the agent's later
runs end at the refusal, as the repeat would have ended them, without that
turn. A retry that changes anything resets the count, so a model that does fix
its calls keeps every retry.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from jsonschema import Draft202012Validator

from remora.agents.definition import SUBMIT_RESULT, SubagentDefinition
from remora.conversation import ToolCall
from remora.errors import RemoraError
from remora.runner.agent_result import AgentResult, settle
from remora.runner.dispatcher import CallOutcome, ToolDispatcher, ToolExecutor, WorkspaceReporter
from remora.runner.host_steps import agent_label, unreadable_workspace
from remora.runner.messages import Transcript
from remora.runner.policy import TurnPlan, TurnPolicy, call_key
from remora.runner.submission import submission_result

__all__ = ["RetryRecord", "RunEnd", "asks_for_a_fix", "changed_nothing"]

_MAX_REASON_CHARS = 200


class RunEnd:
    """The submit_result calls the host makes instead of the model, for one run."""

    def __init__(
        self,
        definition: SubagentDefinition,
        dispatcher: ToolDispatcher,
        policy: TurnPolicy,
        executor: ToolExecutor,
        retries: RetryRecord | None = None,
    ) -> None:
        self.definition = definition
        self.dispatcher = dispatcher
        self.policy = policy
        self.executor = executor
        # How the model used this agent's retries in the command so far (None: always retry).
        self.retries = retries
        # The last turn's answers asked the model to fix something.
        self._retrying = False
        # submit_result calls made for the model.
        self.calls = 0
        # One host submit that failed: only_submit_left does not try again.
        self.tried = False
        submit = definition.submit_tool
        params = submit.to_spec().parameters if submit is not None else None
        # The host may submit after repeats when the schema accepts no arguments at all.
        self._empty_submit_valid = params is not None and Draft202012Validator(params).is_valid({})

    async def after_host_steps(
        self, transcript: Transcript, nothing_left: bool, turn: int
    ) -> AgentResult | None:
        """The run's result when a host step left nothing to do; None: the model's turn."""
        if nothing_left:
            return await self.submit(transcript, turn)
        return None

    async def before_turn(
        self, transcript: Transcript, plan: TurnPlan, turn: int
    ) -> AgentResult | None:
        """The run's result when the model's only move in ``turn`` is a bare submit."""
        if self.only_submit_left(plan):
            # In the slot of the turn the model would have had.
            return await self.submit(transcript, turn)
        return None

    async def after_turn(
        self,
        transcript: Transcript,
        turn: int,
        calls: Sequence[ToolCall],
        outcomes: Sequence[CallOutcome],
        submission: dict[str, Any] | None,
        nothing_left: bool,
    ) -> AgentResult | None:
        """The run's result after the model's ``turn`` of tool calls; None: its next turn."""
        if self._retrying and self.retries is not None:
            self.retries.note(self.definition.name, not changed_nothing(calls, outcomes))
        if submission is not None:
            return submission_result(submission)
        if nothing_left:  # a tool's finish_if_empty: submitting is no decision
            submitted = await self.submit(transcript, turn + 1)
            if submitted is not None:
                return submitted
        # A turn of repeats only: the model would get the same turn again.
        finished = await self.after_repeats(transcript, turn, calls, outcomes)
        if finished is not None:
            return finished
        self._retrying = asks_for_a_fix(self.definition, calls, outcomes)
        streak = self.retries.spent(self.definition.name) if self.retries else None
        if self._retrying and streak is not None:
            return await self.without_retry(transcript, turn, calls, outcomes, streak)
        return None

    def only_submit_left(self, plan: TurnPlan) -> bool:
        """Whether the model's only possible move is a submit_result without arguments.

        That is so when the plan forces or offers only submit_result, or when every
        other tool takes no arguments and its one call already succeeded with
        nothing after it (the repeat guard would refuse it again). A submit tool
        that takes arguments, even optional ones, still needs the model: it may
        have something to say there.
        """
        if self.tried:
            return False
        submit = self.definition.submit_tool
        if submit is None or submit.to_spec().parameters.get("properties"):
            return False
        if plan.tool_choice == SUBMIT_RESULT:
            return True
        guard_on = self.policy.rules.repeat_guard
        for spec in plan.tools:
            if spec.name == SUBMIT_RESULT:
                continue
            takes_arguments = bool(spec.parameters.get("properties"))
            done = self.dispatcher.guard.previous_turn(call_key(spec.name, {})) is not None
            if takes_arguments or not (guard_on and done):
                return False
        return any(spec.name == SUBMIT_RESULT for spec in plan.tools)

    async def submit(self, transcript: Transcript, turn: int) -> AgentResult | None:
        """Call submit_result for the model in ``turn``'s slot; None (and a note) when
        it is not accepted."""
        self.tried = True
        call = ToolCall(id="host-submit", name=SUBMIT_RESULT, arguments={})
        outcome = await self.dispatcher.dispatch(call, turn)
        self.calls += 1
        if outcome.submission is not None:
            return submission_result(outcome.submission)
        error = outcome.result.payload.get("error") or {}
        transcript.host_note(
            f"[Host] submit_result was tried for you and failed: "
            f"{error.get('message', 'unknown error')}. Fix that, then call submit_result."
        )
        return None

    async def after_repeats(
        self,
        transcript: Transcript,
        turn: int,
        calls: Sequence[ToolCall],
        outcomes: Sequence[CallOutcome],
    ) -> AgentResult | None:
        """The run's result when the turn's calls were all repeats (see the module
        docstring); None when the model should have its next turn."""
        if not outcomes or any(o.repeat is None for o in outcomes):
            return None
        if self.definition.submit_tool is None or not self.policy.rules.repeat_guard:
            return None
        repeated = [self._repeated(c, o) for c, o in zip(calls, outcomes, strict=True)]
        reasons = [r["reason"] for r in repeated if r["reason"]]
        tool = next((r["tool"] for r in repeated if r["reason"]), None)
        refused = any(o.repeat == "refused" for o in outcomes)
        return await self._end(
            transcript,
            turn,
            {"repeated": repeated},
            note=f"the model repeated a refused {tool} call" if tool else None,
            # Only a refusal repeated in an empty workspace skips the run.
            skip=(
                f"nothing written: the model repeated a refused call "
                f"({reasons[0] if reasons else 'the same refusal'})"
                if refused
                else None
            ),
            doing="after the model repeated a refused call",
        )

    async def without_retry(
        self,
        transcript: Transcript,
        turn: int,
        calls: Sequence[ToolCall],
        outcomes: Sequence[CallOutcome],
        streak: int,
    ) -> AgentResult | None:
        """The run's result at a refusal when the model's retries have stopped paying
        (:class:`RetryRecord`): as :meth:`after_repeats` would have ended it one turn
        later; None when the model should still have its turn."""
        if self.definition.submit_tool is None:
            return None
        # Each call whose answer asked for a fix, with that answer's reason.
        left = [_entry(c, _reason(o.result.payload)) for c, o in zip(calls, outcomes, strict=True)]
        left = [entry for entry in left if entry["reason"]]
        last = f"its last {streak} retries" if streak > 1 else "its last retry"
        why = f"not asked to retry: the model only repeated its calls in {last}"
        return await self._end(
            transcript,
            turn,
            {"not_retried": {"repeated_retries": streak, "left": left}},
            note=why,
            skip=f"nothing written: {left[0]['reason'] if left else 'refused'} ({why})",
            doing="at a refusal it did not ask the model to fix",
        )

    async def _end(
        self,
        transcript: Transcript,
        turn: int,
        record: dict[str, Any],
        *,
        note: str | None,
        skip: str | None,
        doing: str,
    ) -> AgentResult | None:
        """Ends the run for the model: the host submits when submit_result takes no
        arguments (``note`` joins a skipped result's summary); otherwise, with ``skip``,
        a run that wrote nothing is skipped with that summary. None: the model decides."""
        if self._empty_submit_valid:
            result = await self.submit(transcript, turn)
            if result is not None:
                details = {**result.details, "host_finished": record}
                summary = result.summary
                if note and await self._skipped(result):
                    # The agent's summary says what is missing; the refusal itself,
                    # written for the model, stays in details.
                    summary = f"{summary} ({note})"
                return result.replace(summary=summary, details=details)
        if skip is None:
            return None
        try:
            nothing_written = await self._nothing_written()
        except RemoraError as exc:
            # Skipping, or asking the model again, would hide the broken workspace.
            return unreadable_workspace(
                agent_label(self.definition),
                doing,
                "whether anything was written is unknown",
                exc,
                {"host_finished": {**record, "error": exc.to_dict()}},
            )
        if nothing_written:
            # No agent summary here: the refusal is the only reason there is.
            return AgentResult("skipped", summary=skip, details={"host_finished": record})
        return None

    def _repeated(self, call: ToolCall, outcome: CallOutcome) -> dict[str, Any]:
        """What was repeated and why it got nothing new: the refusal's message, or the
        ``reason`` the earlier, identical call's result gave (a tool's own refusal)."""
        if outcome.repeat == "refused":
            return _entry(call, _reason(outcome.result.payload))
        key = call_key(call.name, call.arguments)
        for name, arguments, envelope in reversed(self.dispatcher.log):
            if call_key(name, arguments) == key:
                return _entry(call, _reason(envelope))
        return _entry(call, "")

    async def _skipped(self, result: AgentResult) -> bool:
        """Whether the run, ending now with ``result``, is one :func:`settle` skips."""
        try:
            nothing_written = await self._nothing_written()
        except RemoraError:
            return False  # unknown: settle leaves such a run as it is
        return (
            nothing_written and settle(result, self.definition.without_change).status == "skipped"
        )

    async def _nothing_written(self) -> bool:
        """True when the run's workspace has no change; False when there is no workspace.

        A ``RemoraError`` reading the workspace propagates: the run fails.
        """
        if not isinstance(self.executor, WorkspaceReporter):
            return False
        return not await self.executor.changed_files()


def _reason(envelope: dict[str, Any]) -> str:
    """Why a call got what it got: a refusal's message, else its result's ``reason``."""
    error = envelope.get("error")
    if error is not None:
        return str(error.get("message", "")) if isinstance(error, dict) else str(error)
    result = envelope.get("result")
    if isinstance(result, dict) and isinstance(result.get("reason"), str):
        return str(result["reason"])
    return ""


def _entry(call: ToolCall, reason: str) -> dict[str, Any]:
    """A call and why it got nothing new, both cut to a reviewer-sized length."""
    if len(reason) > _MAX_REASON_CHARS:
        reason = reason[: _MAX_REASON_CHARS - 1] + "…"
    arguments = json.dumps(call.arguments, ensure_ascii=False, default=str, sort_keys=True)
    return {"tool": call.name, "arguments": arguments[:_MAX_REASON_CHARS], "reason": reason}


@dataclass(slots=True)
class RetryRecord:
    """Retries in a row that changed nothing, per agent, for one model; shared by one
    command's runs of that model."""

    # 0: every refusal gets its retry, whatever the record says.
    limit: int
    _streaks: dict[str, int] = field(default_factory=dict)

    def note(self, agent: str, changed: bool) -> None:
        self._streaks[agent] = 0 if changed else self._streaks.get(agent, 0) + 1

    def spent(self, agent: str) -> int | None:
        """The streak when it has reached the limit (retries are no longer asked for)."""
        streak = self._streaks.get(agent, 0)
        return streak if self.limit and streak >= self.limit else None


def asks_for_a_fix(
    definition: SubagentDefinition, calls: Sequence[ToolCall], outcomes: Sequence[CallOutcome]
) -> bool:
    """Whether a turn's answers ask the model to fix something: a refused call (not
    one the loop did not run), or a result whose ``finish_if_empty`` key still lists
    something."""
    for call, outcome in zip(calls, outcomes, strict=True):
        if outcome.not_run:
            continue
        payload = outcome.result.payload
        if not payload.get("ok"):
            return True
        tool = definition.tools_by_name.get(call.name)
        key = tool.finish_if_empty if tool is not None else None
        result = payload.get("result")
        if key and isinstance(result, dict) and result.get(key):
            return True
    return False


def changed_nothing(calls: Sequence[ToolCall], outcomes: Sequence[CallOutcome]) -> bool:
    """Whether a retry turn was only repeats (answered as before) and submits."""
    return all(
        outcome.repeat is not None or call.name == SUBMIT_RESULT
        for call, outcome in zip(calls, outcomes, strict=True)
    )
