"""Whether a retry is worth a model turn, from how the model spent its last ones.

A tool that refuses a call, or leaves something to fix (its ``finish_if_empty``
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

from collections.abc import Sequence
from dataclasses import dataclass, field

from remora.agents.definition import SUBMIT_RESULT, SubagentDefinition
from remora.conversation import ToolCall
from remora.runner.dispatcher import CallOutcome

__all__ = ["RetryRecord", "asks_for_a_fix", "changed_nothing"]


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
