"""Typed events, an emitter protocol, and the JSONL sink.

Every layer reports what it does through an :class:`EventEmitter`; the CLI
chooses the sink from the ``events`` config section. When events are off the
:class:`NullEmitter` costs one method call.
"""

from __future__ import annotations

import json
import os
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
    """Writes one JSON object per line to a file (appending) or to stdout.

    A file gets each line in one ``write`` on an ``O_APPEND`` descriptor, so the
    processes of a sharded ``analyze`` appending to one log never interleave
    their lines. (CPython's buffered text file also wrote a flushed line in one
    call, strace shows, but only as a detail of its buffering.)
    """

    def __init__(self, target: Path | Literal["-"], max_payload_chars: int = 2000) -> None:
        self._max = max_payload_chars
        self._lock = threading.Lock()
        self._stream: IO[str] | None = None
        self._fd: int | None = None
        if target == "-":
            self._stream = sys.stdout
        else:
            path = Path(target)
            path.parent.mkdir(parents=True, exist_ok=True)
            self._fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_CLOEXEC, 0o644)

    def emit(self, event: Event) -> None:
        line = event.to_json(self._max) + "\n"
        with self._lock:
            if self._fd is not None:
                data = line.encode("utf-8")
                written = os.write(self._fd, data)
                while written < len(data):  # a short write (a signal, a full disk) goes on
                    written += os.write(self._fd, data[written:])
            elif self._stream is not None:
                self._stream.write(line)
                self._stream.flush()
            else:
                raise ValueError("event log written after close()")

    def close(self) -> None:
        with self._lock:
            fd, self._fd = self._fd, None
            if fd is not None:
                os.close(fd)


def build_emitter(enabled: bool, output: str, max_payload_chars: int) -> EventEmitter:
    """The emitter the ``events`` config section asks for."""
    if not enabled:
        return NullEmitter()
    return JsonlSink("-" if output == "-" else Path(output), max_payload_chars)
