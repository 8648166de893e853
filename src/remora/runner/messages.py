"""The conversation of one run, built in the provider-neutral form.

Order matters to the wire formats: an assistant message with tool calls is
followed directly by its results, so host notes (``[Context]`` output,
corrections, the final-turn instruction) always come after the results.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from remora.conversation import Message, ToolResult

__all__ = ["CONTEXT_PREFIX", "Transcript", "format_context"]

CONTEXT_PREFIX = "[Context] "


def format_context(output: Any) -> str:
    """A context provider's output as text (JSON for structured values)."""
    if isinstance(output, str):
        return output
    return json.dumps(output, ensure_ascii=False, sort_keys=True, default=str)


class Transcript:
    """The messages of one run; append-only."""

    def __init__(self, system_prompt: str, first_user_message: str) -> None:
        self._messages: list[Message] = [
            Message.system(system_prompt),
            Message.user(first_user_message),
        ]
        self._snapshot: tuple[Message, ...] | None = None
        self._contexts: set[str] = set()

    @property
    def messages(self) -> tuple[Message, ...]:
        """An immutable view; rebuilt only after something was appended."""
        if self._snapshot is None:
            self._snapshot = tuple(self._messages)
        return self._snapshot

    def _append(self, message: Message) -> None:
        self._messages.append(message)
        self._snapshot = None

    def assistant(self, message: Message) -> None:
        self._append(message)

    def assistant_text(self, text: str) -> None:
        """Keep what an unusable reply said, without calls that will get no results."""
        if text.strip():
            self._append(Message.assistant(text))

    def tool_results(self, results: Sequence[ToolResult]) -> None:
        if results:
            self._append(Message.tool_results(tuple(results)))

    def context(self, output: str) -> bool:
        """Inject ``[Context] output`` once per distinct output; False if already there."""
        if output in self._contexts:
            return False
        self._contexts.add(output)
        self._append(Message.user(CONTEXT_PREFIX + output))
        return True

    def host_note(self, text: str) -> None:
        """A correction or instruction from the host, as a user message."""
        self._append(Message.user(text))

    def corrective(self, problem: str, tool_names: Sequence[str], *, text_allowed: bool) -> None:
        choices = ", ".join(tool_names)
        if text_allowed:
            ask = f"Reply with a call to one of these tools: {choices}, or a short final answer."
        else:
            ask = f"Reply with exactly one call to one of these tools: {choices}."
        self.host_note(f"[Host] Your last reply could not be used ({problem}). {ask}")
