"""The assistant's tools for the agent loop: in-process capabilities, not .pym scripts.

:class:`CapabilityExecutor` implements the runner's ToolExecutor surface
(``call`` and ``context``) over a :class:`Capabilities` table and keeps a
record of every call, which the degraded answers quote as confirmed findings.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from remora.agents.definition import ToolDefinition
from remora.assistant.capabilities import Capabilities

__all__ = ["CallRecord", "CapabilityExecutor", "describe_call"]


@dataclass(frozen=True, slots=True)
class CallRecord:
    """One capability call of a question and what it answered."""

    name: str
    arguments: dict[str, Any]
    envelope: dict[str, Any]
    # "host": made before the first model step, for the facts of the first message.
    by: Literal["host", "model"] = "model"

    @property
    def ok(self) -> bool:
        return bool(self.envelope.get("ok"))

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "arguments": self.arguments,
            "envelope": self.envelope,
            "by": self.by,
        }


def describe_call(name: str, arguments: Any) -> str:
    """``get_type(expr='x')``: how a call is shown to a person."""
    if not isinstance(arguments, dict):
        return f"{name}({arguments!r})"
    inner = ", ".join(f"{key}={value!r}" for key, value in arguments.items())
    return f"{name}({inner})"


@dataclass
class CapabilityExecutor:
    """ToolExecutor over the capabilities; ``on_call`` sees each call before it runs."""

    capabilities: Capabilities
    on_call: Callable[[str, dict[str, Any]], None] | None = None
    records: list[CallRecord] = field(default_factory=list)
    # The host's own calls for the question's facts (see host_call).
    facts: list[CallRecord] = field(default_factory=list)

    async def call(self, tool: ToolDefinition, arguments: dict[str, Any]) -> dict[str, Any]:
        if self.on_call is not None:
            self.on_call(tool.name, arguments)
        # Capabilities run on the loop's thread, one at a time, in the order the
        # model gave them: they share one live session.
        envelope = self.capabilities.call(tool.name, arguments)
        self.records.append(CallRecord(tool.name, dict(arguments or {}), envelope))
        return envelope

    def host_call(self, name: str, arguments: dict[str, Any]) -> CallRecord:
        """A capability the host calls itself (the question's facts); recorded like the
        model's calls, so what it returned counts as a capability result."""
        if self.on_call is not None:  # shown like the model's: it may run the user's code
            self.on_call(name, arguments)
        envelope = self.capabilities.call(name, arguments)
        record = CallRecord(name, dict(arguments), envelope, by="host")
        self.facts.append(record)
        return record

    def all_records(self) -> list[CallRecord]:
        """The host's calls, then the model's: everything a capability returned."""
        return [*self.facts, *self.records]

    async def context(self, provider_script: Path) -> str:
        # Capabilities declare no context providers; a request for one is a wiring bug.
        raise LookupError(f"the assistant's tools have no context provider {provider_script}")

    def findings(self, max_chars: int = 300) -> list[str]:
        """What the model's successful calls confirmed, one line each, for a degraded
        answer (the host's facts are shown as the first message gave them)."""
        lines: list[str] = []
        for record in self.records:
            if not record.ok:
                continue
            text = json.dumps(record.envelope["result"], ensure_ascii=False, default=str)
            if len(text) > max_chars:
                text = text[:max_chars] + "…"
            line = f"{describe_call(record.name, record.arguments)} -> {text}"
            if line not in lines:
                lines.append(line)
        return lines

    def failures(self, max_chars: int = 200) -> list[str]:
        """The calls that failed, each distinct one once: what did not work is news too."""
        lines: list[str] = []
        for record in self.records:
            if record.ok:
                continue
            error = record.envelope.get("error") or {}
            message = str(error.get("message", ""))
            if len(message) > max_chars:
                message = message[:max_chars] + "…"
            line = (
                f"{describe_call(record.name, record.arguments)} -> "
                f"{error.get('code', 'error')}: {message}"
            )
            if line not in lines:
                lines.append(line)
        return lines
