"""The host-side turn policy (docs/agents.md): what the model may do this turn.

Small models need the host's help: they submit before doing anything, repeat
the same call, and run out of turns without submitting. Each rule can be
switched off in ``runner.policy``; everything model-specific comes from the
profile, never from the model's name.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from remora.agents.definition import SUBMIT_RESULT, SubagentDefinition
from remora.config import RunnerConfig
from remora.conversation import ToolSpec
from remora.profiles import ModelProfile

__all__ = ["RepeatGuard", "RunState", "TurnPlan", "TurnPolicy", "call_key"]


@dataclass(slots=True)
class RunState:
    """What the policy needs to know about the run so far."""

    # Calls of tools other than submit_result that reached the executor (ok or not).
    tools_run: int = 0
    instructed_final: bool = False


@dataclass(frozen=True, slots=True)
class TurnPlan:
    tools: tuple[ToolSpec, ...]
    tool_choice: str
    # A host instruction to add before this turn's request (the final-turn nudge).
    instruction: str | None = None
    final: bool = False


def call_key(name: str, arguments: Any) -> str:
    """Identity of a call for the repeat guard: the name and canonical arguments."""
    return name + "\0" + json.dumps(arguments, sort_keys=True, separators=(",", ":"), default=str)


@dataclass(slots=True)
class RepeatGuard:
    """Spots a call identical to the last successful run of that call.

    A repeat is only "already done" when no other call has succeeded since:
    re-running a linter after a fix is legitimate, running it twice in a row
    is not. Only successful calls count, so a failed call may be retried; the
    guard also remembers each refusal's reason, so the loop can tell a retry
    that was refused again for the same reason (nothing new) from one that got
    a new answer.
    """

    _seen: dict[str, tuple[int, int]] = field(default_factory=dict)  # key -> (success no., turn)
    _successes: int = 0
    # key -> (success no., reason) of the call's last refusal.
    _refusals: dict[str, tuple[int, str]] = field(default_factory=dict)

    def previous_turn(self, key: str) -> int | None:
        seen = self._seen.get(key)
        if seen is not None and seen[0] == self._successes:
            return seen[1]
        return None

    def record_success(self, key: str, turn: int) -> None:
        self._successes += 1
        self._seen[key] = (self._successes, turn)

    def record_refusal(self, key: str, reason: str) -> bool:
        """Note that ``key`` was refused for ``reason``; True when that is exactly how it
        was refused last time, with no call succeeding in between."""
        earlier = self._refusals.get(key)
        self._refusals[key] = (self._successes, reason)
        return earlier == (self._successes, reason)


class TurnPolicy:
    """Decides each turn's tools and tool_choice, and when submit_result is allowed."""

    def __init__(
        self,
        definition: SubagentDefinition,
        profile: ModelProfile,
        config: RunnerConfig,
        max_turns: int,
    ) -> None:
        self.definition = definition
        self.profile = profile
        self.rules = config.policy
        self.max_turns = max_turns
        # A tool_choice the profile lacks falls back to auto.
        wanted = config.tool_choice
        self.tool_choice = wanted if wanted in profile.supported_tool_choice else "auto"
        specs = definition.tool_specs
        self._all = specs
        self._submit_only = tuple(s for s in specs if s.name == SUBMIT_RESULT)
        self._without_submit = tuple(s for s in specs if s.name != SUBMIT_RESULT)

    @property
    def has_submit(self) -> bool:
        return bool(self._submit_only)

    def max_calls_per_turn(self) -> int | None:
        if not self.profile.supports_parallel_tool_calls:
            return 1
        return self.profile.max_tool_calls_per_turn

    def submit_premature(self, state: RunState, turn: int) -> bool:
        """True when submit_result must wait until another tool has run.

        It holds back agents without host steps (a user's agent; a real model
        otherwise submits at once: tests/integration/test_agent_all_providers.py).
        A bundled agent's host steps count as tools run, so it never fires there.
        """
        return (
            self.rules.no_submit_before_tools
            and bool(self._without_submit)
            and state.tools_run == 0
            and turn < self.max_turns
        )

    def plan(self, turn: int, state: RunState) -> TurnPlan:
        """The plan for ``turn`` (1-based)."""
        final = turn >= self.max_turns and self.rules.final_turn_submit_only
        if final:
            return self._final_plan(state)
        tools = self._all
        if self.has_submit and self.submit_premature(state, turn):
            tools = self._without_submit
        return TurnPlan(tools=tools, tool_choice=self.tool_choice)

    def _final_plan(self, state: RunState) -> TurnPlan:
        force = self.profile.submit_result_strategy == "tool_choice_force"
        instruction: str | None = None
        if not self.has_submit:
            # Text answers: forbid tools if the model can be told so, else ask.
            if "none" in self.profile.supported_tool_choice:
                return TurnPlan(tools=self._all, tool_choice="none", final=True)
            instruction = (
                "[Host] This is your last turn: answer now in plain text with what "
                "you have found. Do not call a tool."
            )
            return self._once(TurnPlan(self._all, self.tool_choice, instruction, True), state)
        if force:
            # The full tool list keeps the prompt (and its cache) unchanged; the
            # choice alone restricts the model to submit_result.
            return TurnPlan(tools=self._all, tool_choice=SUBMIT_RESULT, final=True)
        instruction = (
            "[Host] This is your last turn: call submit_result now and report what you have done."
        )
        return self._once(TurnPlan(self._submit_only, self.tool_choice, instruction, True), state)

    @staticmethod
    def _once(plan: TurnPlan, state: RunState) -> TurnPlan:
        if state.instructed_final:
            return TurnPlan(plan.tools, plan.tool_choice, None, plan.final)
        state.instructed_final = True
        return plan
