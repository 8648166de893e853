"""The provider-neutral conversation (docs/architecture.md).

The loop speaks only these types; each provider translates them to its wire
format at the edge and back.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol, runtime_checkable

__all__ = [
    "Completion",
    "CompletionRequest",
    "FinishReason",
    "Message",
    "ModelRequest",
    "ModelTurn",
    "Part",
    "Role",
    "Text",
    "TextCompleter",
    "TokenLogprob",
    "ToolCall",
    "ToolChoice",
    "ToolResult",
    "ToolSpec",
    "Usage",
    "WorkClock",
]

Role = Literal["system", "user", "assistant", "tool"]
FinishReason = Literal["stop", "tool_calls", "length", "blocked", "invalid"]
# "auto" | "none" | "required", or the name of one tool the model must call.
ToolChoice = str


@dataclass(frozen=True, slots=True)
class Text:
    text: str


@dataclass(frozen=True, slots=True)
class ToolCall:
    id: str
    name: str
    arguments: dict[str, Any]
    # Opaque provider data that must travel back unchanged (Gemini thought signatures).
    provider_data: dict[str, Any] | None = None


@dataclass(frozen=True, slots=True)
class ToolResult:
    call_id: str
    name: str
    payload: dict[str, Any]

    def text_payload(self) -> Any:
        """The payload as a model that reads results as text gets it.

        A success that printed nothing is its result alone: the envelope's
        ``"ok": true`` and empty ``"prints"`` are ~14 tokens the engine would read
        for every result. A failure, or a result with prints, keeps the envelope.
        """
        payload = self.payload
        plain = payload.get("ok") is True and not payload.get("prints")
        if plain and set(payload) <= {"ok", "result", "prints"}:
            return payload.get("result")
        return payload

    def as_text(self) -> str:
        """``Result of NAME: <JSON>``: how a text-reading model sees a result, the same
        for a host step's result in the first message and a tool's in a later turn."""
        payload = json.dumps(self.text_payload(), ensure_ascii=False, default=str)
        return f"Result of {self.name}: {payload}"


Part = Text | ToolCall | ToolResult


@dataclass(frozen=True, slots=True)
class Message:
    role: Role
    parts: tuple[Part, ...]

    @classmethod
    def system(cls, text: str) -> Message:
        return cls("system", (Text(text),))

    @classmethod
    def user(cls, text: str) -> Message:
        return cls("user", (Text(text),))

    @classmethod
    def assistant(cls, text: str = "", calls: tuple[ToolCall, ...] = ()) -> Message:
        parts: tuple[Part, ...] = ((Text(text),) if text else ()) + calls
        return cls("assistant", parts)

    @classmethod
    def tool_results(cls, results: tuple[ToolResult, ...]) -> Message:
        return cls("tool", results)

    @property
    def text(self) -> str:
        return "".join(p.text for p in self.parts if isinstance(p, Text))

    @property
    def tool_calls(self) -> list[ToolCall]:
        return [p for p in self.parts if isinstance(p, ToolCall)]

    @property
    def results(self) -> list[ToolResult]:
        return [p for p in self.parts if isinstance(p, ToolResult)]


@dataclass(frozen=True, slots=True)
class ToolSpec:
    """What the model is told about one tool."""

    name: str
    description: str
    parameters: dict[str, Any]


class WorkClock(Protocol):
    """The clock of a turn's time limit, told when the request waits and when work starts.

    A provider that queues requests itself (the embedded engine, whose slots are
    shared by concurrent agents) calls ``queued()`` as the request starts waiting
    and ``started()`` when the engine starts on it, so the limit measures the
    request's own work, not its place in the queue. A provider that calls neither
    is timed from the request.
    """

    def queued(self) -> None: ...

    def started(self) -> None: ...


@dataclass(frozen=True, slots=True)
class ModelRequest:
    messages: tuple[Message, ...]
    tools: tuple[ToolSpec, ...] = ()
    tool_choice: ToolChoice = "auto"
    max_tokens: int = 512
    temperature: float = 0.0
    # Counted from when the model starts on the request (see WorkClock).
    timeout_s: float | None = None
    stop: tuple[str, ...] = ()
    clock: WorkClock | None = field(default=None, compare=False)


@dataclass(frozen=True, slots=True)
class Usage:
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cached_tokens: int = 0
    requests: int = 0

    def __add__(self, other: Usage) -> Usage:
        return Usage(
            self.prompt_tokens + other.prompt_tokens,
            self.completion_tokens + other.completion_tokens,
            self.cached_tokens + other.cached_tokens,
            self.requests + other.requests,
        )

    def to_dict(self) -> dict[str, int]:
        return {
            "prompt_tokens": self.prompt_tokens,
            "completion_tokens": self.completion_tokens,
            "cached_tokens": self.cached_tokens,
            "requests": self.requests,
        }


@dataclass(frozen=True, slots=True)
class ModelTurn:
    """One model response. ``finish == "invalid"`` means the output could not be
    parsed into text or tool calls; ``error`` then says why. ``timings``: the
    engine's own seconds by phase (``prompt_s``, ``generation_s``) when the
    provider knows them, to tell its work apart from waiting for it."""

    message: Message
    finish: FinishReason
    usage: Usage = field(default_factory=Usage)
    raw: Any = None
    error: str | None = None
    timings: dict[str, float] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class CompletionRequest:
    """Plain text completion, the shape a code model writes best (docs/agents.md).

    Three shapes, by what is set: ``prefix`` alone continues that text; with
    ``suffix``, fill in the middle between the two (a model without FIM tokens
    gets the prefix alone); with ``instruction``, a chat whose user turn is the
    instruction and whose reply starts with ``prefix`` (the model continues it).
    ``n`` candidates: the first greedy at ``temperature``, the others sampled
    with seeds ``seed + i`` so a run can be repeated. ``logprobs`` asks for each
    generated token's log-probability where the backend gives them.
    """

    prefix: str
    suffix: str | None = None
    instruction: str | None = None
    system: str | None = None
    stop: tuple[str, ...] = ()
    max_tokens: int = 64
    temperature: float = 0.0
    n: int = 1
    seed: int = 0
    timeout_s: float | None = None
    clock: WorkClock | None = field(default=None, compare=False)
    logprobs: bool = False


@dataclass(frozen=True, slots=True)
class TokenLogprob:
    """One generated token: its text and the natural log of its probability."""

    text: str
    logprob: float


@dataclass(frozen=True, slots=True)
class Completion:
    """The texts a completion request produced (without the prefix), one per candidate."""

    texts: tuple[str, ...]
    usage: Usage = field(default_factory=Usage)
    # How the request reached the model: "fim", "chat" or "prefix" (no FIM tokens).
    shape: str = "prefix"
    timings: dict[str, float] = field(default_factory=dict)
    # Per candidate, its tokens when the request asked for them and the backend gave
    # them; empty otherwise (unknown, not improbable).
    logprobs: tuple[tuple[TokenLogprob, ...], ...] = ()


@runtime_checkable
class TextCompleter(Protocol):
    """What completes plain text: every bundled provider; tools reach it through
    ``remora_code.complete``."""

    async def complete_text(self, request: CompletionRequest) -> Completion: ...
