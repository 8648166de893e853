"""Typed events, an emitter protocol, and the JSONL sink.

Every layer reports what it does through an :class:`EventEmitter`; the CLI
chooses the sink from the ``events`` config section. When events are off the
:class:`NullEmitter` costs one method call.
"""

from __future__ import annotations

import json
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, Literal, Protocol

__all__ = [
    "Event",
    "EventEmitter",
    "EventKind",
    "JsonlSink",
    "NullEmitter",
    "RecordingEmitter",
    "build_emitter",
    "truncate_payload",
]

EventKind = Literal[
    "run_start",
    "model_request",
    "model_response",
    "tool_call",
    "tool_result",
    "context_injected",
    "run_end",
    "discovery_warning",
    "discovery_done",
    "workspace_accept",
    "workspace_reject",
    "coordinator_start",
    "coordinator_end",
    "watch_change",
    "warning",
    "tool_log",
]


@dataclass(frozen=True, slots=True)
class Event:
    """One thing that happened. ``data`` holds kind-specific JSON-able fields."""

    kind: EventKind
    data: dict[str, Any] = field(default_factory=dict)
    run_id: str | None = None
    ts: float = field(default_factory=time.time)

    def to_json(self, max_chars: int | None = None) -> str:
        data = self.data if max_chars is None else truncate_payload(self.data, max_chars)
        record = {"ts": round(self.ts, 6), "kind": self.kind, "run_id": self.run_id, **data}
        return json.dumps(record, ensure_ascii=False, default=str)


def truncate_payload(value: Any, max_chars: int) -> Any:
    """Cut every string longer than ``max_chars``, saying how long it was."""
    if isinstance(value, str):
        if len(value) <= max_chars:
            return value
        return f"{value[:max_chars]}…[truncated {len(value) - max_chars} of {len(value)} chars]"
    if isinstance(value, dict):
        return {k: truncate_payload(v, max_chars) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [truncate_payload(v, max_chars) for v in value]
    return value


class EventEmitter(Protocol):
    def emit(self, event: Event) -> None: ...

    def close(self) -> None: ...


class NullEmitter:
    """Events switched off."""

    def emit(self, event: Event) -> None:
        return None

    def close(self) -> None:
        return None


class RecordingEmitter:
    """Keeps events in memory, in order (the tests read what a run reported)."""

    def __init__(self) -> None:
        self.events: list[Event] = []

    def emit(self, event: Event) -> None:
        self.events.append(event)

    def kinds(self) -> list[str]:
        return [e.kind for e in self.events]

    def close(self) -> None:
        return None


class JsonlSink:
    """Writes one JSON object per line to a file (appending) or to stdout."""

    def __init__(self, target: Path | Literal["-"], max_payload_chars: int = 2000) -> None:
        self._max = max_payload_chars
        self._lock = threading.Lock()
        self._owned = target != "-"
        if target == "-":
            self._stream: IO[str] = sys.stdout
        else:
            path = Path(target)
            path.parent.mkdir(parents=True, exist_ok=True)
            self._stream = path.open("a", encoding="utf-8")

    def emit(self, event: Event) -> None:
        line = event.to_json(self._max)
        with self._lock:
            self._stream.write(line + "\n")
            self._stream.flush()

    def close(self) -> None:
        if self._owned:
            self._stream.close()


def build_emitter(enabled: bool, output: str, max_payload_chars: int) -> EventEmitter:
    """The emitter the ``events`` config section asks for."""
    if not enabled:
        return NullEmitter()
    return JsonlSink("-" if output == "-" else Path(output), max_payload_chars)
