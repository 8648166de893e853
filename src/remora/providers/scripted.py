"""Scripted providers: real Provider objects whose turns are written in advance.

``ScriptedProvider`` answers from a queue of turns (like llm's MockModel);
``FunctionProvider`` computes each turn from the request (like pydantic-ai's
FunctionModel). Both record every request, so tests can assert what the loop
sent. ``provider: scripted`` in remora.yaml reads the turns from ``model.path``
(YAML or JSON), so demos and subprocess tests can script a model too.
"""

from __future__ import annotations

import asyncio
import inspect
import itertools
from collections import deque
from collections.abc import Awaitable, Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

import yaml

from remora.config import ModelConfig
from remora.conversation import (
    Completion,
    CompletionRequest,
    FinishReason,
    Message,
    ModelRequest,
    ModelTurn,
    TokenLogprob,
    ToolCall,
    Usage,
)
from remora.errors import ConfigValueError, ModelUnavailableError
from remora.profiles import BUILTIN_PROFILES, ModelProfile
from remora.providers.base import Availability

__all__ = [
    "CompletionAnswer",
    "FunctionProvider",
    "ScriptedProvider",
    "call",
    "load_turns",
    "text_turn",
    "tool_turn",
    "turn_from_dict",
]

_ids = itertools.count(1)
_FINISH: dict[str, FinishReason] = {
    "stop": "stop",
    "tool_calls": "tool_calls",
    "length": "length",
    "blocked": "blocked",
    "invalid": "invalid",
}


def call(
    name: str, arguments: Mapping[str, Any] | None = None, *, id: str | None = None
) -> ToolCall:
    """A tool call with a fresh id."""
    return ToolCall(id=id or f"call_{next(_ids)}", name=name, arguments=dict(arguments or {}))


def tool_turn(
    *calls: ToolCall | tuple[str, Mapping[str, Any]], text: str = "", usage: Usage | None = None
) -> ModelTurn:
    """A turn that calls tools, in order."""
    made = tuple(c if isinstance(c, ToolCall) else call(c[0], c[1]) for c in calls)
    return ModelTurn(Message.assistant(text, made), "tool_calls", usage or Usage())


def text_turn(
    text: str,
    *,
    finish: FinishReason = "stop",
    usage: Usage | None = None,
    error: str | None = None,
) -> ModelTurn:
    """A turn with text only (empty text makes an empty response)."""
    return ModelTurn(Message.assistant(text), finish, usage or Usage(), error=error)


def turn_from_dict(data: Mapping[str, Any], where: str = "turn") -> ModelTurn:
    """A turn from ``{text?, calls?: [{name, arguments?, id?}], finish?, usage?, error?}``."""
    unknown = set(data) - {"text", "calls", "finish", "usage", "error", "delay_s"}
    if unknown:
        raise ValueError(f"{where}: unknown keys {sorted(unknown)}")
    calls = []
    for i, item in enumerate(data.get("calls") or []):
        if not isinstance(item, Mapping) or not isinstance(item.get("name"), str):
            raise ValueError(f"{where}.calls[{i}]: expected {{name, arguments}}")
        arguments = item.get("arguments") or {}
        if not isinstance(arguments, Mapping):
            raise ValueError(f"{where}.calls[{i}].arguments: expected a mapping")
        calls.append(call(item["name"], arguments, id=item.get("id")))
    usage = Usage(**(data.get("usage") or {}))
    finish = _FINISH.get(data.get("finish") or ("tool_calls" if calls else "stop"))
    if finish is None:
        raise ValueError(f"{where}.finish: unknown finish reason {data.get('finish')!r}")
    return ModelTurn(
        Message.assistant(str(data.get("text") or ""), tuple(calls)),
        finish,
        usage,
        error=data.get("error"),
    )


def load_turns(path: Path) -> list[tuple[ModelTurn, float]]:
    """(turn, delay in seconds) for each entry of a YAML/JSON list of turns."""
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        raise ConfigValueError(
            f"cannot read scripted turns {path}: {exc}",
            "model.path must name a YAML or JSON list of turns",
        ) from exc
    if not isinstance(data, list):
        raise ConfigValueError(
            f"{path}: expected a list of turns",
            "each turn: {text: ..., calls: [{name: ..., arguments: {...}}]}",
        )
    turns = []
    for i, item in enumerate(data):
        if not isinstance(item, Mapping):
            raise ConfigValueError(f"{path}: turn {i} is not a mapping")
        try:
            turns.append(
                (turn_from_dict(item, f"{path}: turn {i}"), float(item.get("delay_s") or 0.0))
            )
        except (ValueError, TypeError) as exc:
            raise ConfigValueError(
                str(exc), "each turn: {text: ..., calls: [{name, arguments}]}"
            ) from exc
    return turns


# One candidate of a text completion: the text, its tokens with their log-probabilities
# (given back when the request asks for them), or a function of the request.
CompletionAnswer = str | tuple[TokenLogprob, ...] | Callable[[CompletionRequest], str]


class _Recording:
    """Records every request; answers completions from a queue (one answer per candidate)."""

    profile: ModelProfile
    model_name: str

    def __init__(
        self,
        profile: ModelProfile | None,
        model_name: str,
        completions: Iterable[CompletionAnswer] = (),
    ) -> None:
        self.profile = profile or BUILTIN_PROFILES["default"]
        self.model_name = model_name
        self.requests: list[ModelRequest] = []
        self.completion_requests: list[CompletionRequest] = []
        self._completions: deque[CompletionAnswer] = deque(completions)
        self.closed = False

    def enqueue_completion(self, *answers: CompletionAnswer) -> None:
        self._completions.extend(answers)

    async def complete_text(self, request: CompletionRequest) -> Completion:
        self.completion_requests.append(request)
        if not self._completions:
            raise ModelUnavailableError(
                f"scripted provider has no completion queued for request "
                f"{len(self.completion_requests)} (enqueue_completion adds one)"
            )
        texts: list[str] = []
        tokens: list[tuple[TokenLogprob, ...]] = []
        while self._completions and len(texts) < max(1, request.n):
            answer = self._completions.popleft()
            if isinstance(answer, tuple):
                texts.append("".join(token.text for token in answer))
                tokens.append(answer if request.logprobs else ())
            else:
                texts.append(answer(request) if callable(answer) else answer)
                tokens.append(())
        shape = "fim" if request.suffix is not None else "chat" if request.instruction else "prefix"
        return Completion(tuple(texts), Usage(requests=len(texts)), shape, logprobs=tuple(tokens))

    async def check(self) -> Availability:
        return Availability(ok=True, model=self.model_name, provider="scripted")

    async def aclose(self) -> None:
        self.closed = True


class ScriptedProvider(_Recording):
    """Answers each request with the next queued turn; ModelUnavailableError when none is left."""

    def __init__(
        self,
        turns: Iterable[ModelTurn | tuple[ModelTurn, float]] = (),
        *,
        profile: ModelProfile | None = None,
        model_name: str = "scripted",
        unavailable: str | None = None,
        completions: Iterable[CompletionAnswer] = (),
    ) -> None:
        super().__init__(profile, model_name, completions)
        self._queue: deque[tuple[ModelTurn, float]] = deque(
            t if isinstance(t, tuple) else (t, 0.0) for t in turns
        )
        self._unavailable = unavailable

    @classmethod
    def from_config(cls, model: ModelConfig, profile: ModelProfile) -> ScriptedProvider:
        if model.path is None:
            return cls(
                profile=profile,
                model_name=model.id,
                unavailable="no script: set model.path to a YAML/JSON list of turns",
            )
        return cls(load_turns(model.path), profile=profile, model_name=model.id)

    def enqueue(self, *turns: ModelTurn) -> None:
        self._queue.extend((t, 0.0) for t in turns)

    @property
    def remaining(self) -> int:
        return len(self._queue)

    async def check(self) -> Availability:
        if self._unavailable:
            return Availability(
                ok=False,
                model=self.model_name,
                provider="scripted",
                reason=self._unavailable,
                hint="write the turns to a file and point model.path at it",
            )
        return await super().check()

    async def complete(self, request: ModelRequest) -> ModelTurn:
        self.requests.append(request)
        if not self._queue:
            raise ModelUnavailableError(
                self._unavailable
                or f"scripted provider has no turn left after {len(self.requests) - 1} request(s)",
            )
        turn, delay = self._queue.popleft()
        if delay > 0:
            await asyncio.sleep(delay)
        return turn


TurnFunction = Callable[[ModelRequest], "ModelTurn | Awaitable[ModelTurn]"]


class FunctionProvider(_Recording):
    """Each turn is ``fn(request)`` (sync or async); it may raise a ModelError."""

    def __init__(
        self,
        fn: TurnFunction,
        *,
        profile: ModelProfile | None = None,
        model_name: str = "function",
        completions: Iterable[CompletionAnswer] = (),
    ) -> None:
        super().__init__(profile, model_name, completions)
        self._fn = fn

    async def complete(self, request: ModelRequest) -> ModelTurn:
        self.requests.append(request)
        turn = self._fn(request)
        if inspect.isawaitable(turn):
            turn = await turn
        if not isinstance(turn, ModelTurn):
            raise TypeError(f"turn function returned {type(turn).__name__}, expected ModelTurn")
        return turn
