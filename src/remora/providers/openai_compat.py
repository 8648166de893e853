"""The ``openai`` provider: any OpenAI-compatible server (vLLM, llama.cpp, Ollama /v1).

Credentials and the base URL live here; the dialect lives in ``openai_wire``
(native tools) and ``schema_calls`` (prompted tools with a JSON-schema
constraint, for profiles whose models have no native tool format).
Requests are JSON over aiohttp (``openai_http``: the SDK's client cost four times the
CPU per request) through a :class:`~remora.providers.server_pool.ServerRouter` over the
servers ``model.base_url`` lists (one or more): it retries connection errors,
timeouts and HTTP 500/502/504 on another server (or, with none, after
``model.retry``'s backoff) and waits out back-pressure (HTTP 429/503); any other
HTTP error answer is not retried: it will not change.
"""

from __future__ import annotations

import os
from typing import Any

from remora.config import ModelConfig
from remora.conversation import (
    Completion,
    CompletionRequest,
    ModelRequest,
    ModelTurn,
    TokenLogprob,
    Usage,
    WorkClock,
)
from remora.errors import InvalidModelOutputError, ModelUnavailableError
from remora.profiles import ModelProfile
from remora.providers.base import Availability
from remora.providers.completion_prompt import SAMPLED_TEMPERATURE, chat_messages, raw_prompt
from remora.providers.gguf_vocab import PromptTokens
from remora.providers.logprobs import token_logprobs
from remora.providers.openai_http import (
    MalformedAnswer,
    NoAnswer,
    ServerAnswered,
    ServerClient,
    body_summary,
    connection_failure,
)
from remora.providers.openai_wire import (
    native_messages,
    native_tool_params,
    native_turn,
    usage_of,
)
from remora.providers.openai_wire import response_parts as _response_parts
from remora.providers.schema_calls import (
    plan_turn,
    prompted_turn,
    render_messages,
    render_tools_prompt,
)
from remora.providers.server_pool import (
    BACK_PRESSURE_STATUSES,
    SERVER_TROUBLE_STATUSES,
    Server,
    ServerRouter,
)

__all__ = ["NO_KEY", "OpenAIProvider"]

NO_KEY = "sk-no-key"  # local servers want some key and ignore its value
_CHECK_TIMEOUT_S = 10.0
RETRIED_STATUSES = BACK_PRESSURE_STATUSES | SERVER_TROUBLE_STATUSES


class OpenAIProvider:
    """Chat and text completions over HTTP, spread and retried by the server router."""

    name = "openai"

    def __init__(self, model: ModelConfig, profile: ModelProfile) -> None:
        self.model = model
        self.profile = profile
        self._key_error: str | None = None
        api_key = NO_KEY
        if model.api_key_env:
            api_key = os.environ.get(model.api_key_env, "")
            if not api_key:
                self._key_error = f"environment variable {model.api_key_env} is not set"
                api_key = NO_KEY
        urls: list[str | None] = [*model.server_urls()] or [None]  # None: OPENAI_BASE_URL's
        clients = [ServerClient(url, api_key) for url in urls]
        servers = [Server(c.base_url, c, model.max_in_flight) for c in clients]
        self.router = ServerRouter(
            servers,
            cooldown_s=model.cooldown_s,
            max_attempts=model.retry.max_attempts,
            backoff_s=model.retry.backoff_s,
            back_pressure_budget_s=model.timeout,
        )
        self.client: ServerClient = servers[0].client

    @classmethod
    def from_config(cls, model: ModelConfig, profile: ModelProfile) -> OpenAIProvider:
        return cls(model, profile)

    @property
    def base_url(self) -> str:
        return self.client.base_url

    def build_request(self, request: ModelRequest) -> tuple[dict[str, Any], Any]:
        """The request's JSON body for ``/chat/completions`` and the call plan (or None)."""
        kwargs: dict[str, Any] = {
            "model": self.model.id,
            "max_tokens": request.max_tokens,
            "temperature": request.temperature,
        }
        if request.stop:
            kwargs["stop"] = list(request.stop)
        if self.profile.native_tools:
            messages = native_messages(request.messages)
            kwargs.update(native_tool_params(request, self.profile, messages))
            kwargs["messages"] = messages
            return kwargs, None
        plan = plan_turn(request, self.profile)
        tools_prompt = (
            render_tools_prompt(request.tools, parallel=plan.max_calls != 1)
            if request.tools
            else ""
        )
        kwargs["messages"] = render_messages(request.messages, tools_prompt)
        response_format = plan.response_format()
        if response_format is not None:
            kwargs["response_format"] = response_format
        return kwargs, plan

    async def _create(
        self,
        kwargs: dict[str, Any],
        timeout_s: float,
        *,
        text: bool = False,
        clock: WorkClock | None = None,
    ) -> Any:
        """A chat completion (or, with ``text``, a plain ``/completions`` call) on the server
        the router chooses."""
        body = dict(kwargs)
        body.update(body.pop("extra_body", None) or {})  # top-level fields, as the SDK sent them
        path = "/completions" if text else "/chat/completions"

        async def send(server: Server) -> Any:
            try:
                return await server.client.post(path, body, timeout_s)
            except ServerAnswered as exc:
                if exc.status in RETRIED_STATUSES:
                    raise  # the router's to retry; it raises it when it cannot
                raise self._http_error(exc) from exc
            except MalformedAnswer as exc:
                raise self._malformed(str(exc), server.url) from exc

        try:
            return await self.router.call(send, clock)
        except ServerAnswered as exc:  # server trouble with no other server to try
            raise self._http_error(exc) from exc

    def _http_error(self, exc: ServerAnswered) -> ModelUnavailableError:
        return ModelUnavailableError(
            f"openai server {exc.url} answered HTTP {exc.status} for model "
            f"{self.model.id!r}: {body_summary(exc)}",
        )

    def _malformed(self, what: str, url: str | None = None) -> InvalidModelOutputError:
        return InvalidModelOutputError(
            f"openai server {url or self.base_url} sent a malformed response: {what}; "
            f"is model.base_url an OpenAI-compatible endpoint (often .../v1)?",
        )

    async def complete(self, request: ModelRequest) -> ModelTurn:
        if self._key_error:
            raise ModelUnavailableError(self._key_error)
        kwargs, plan = self.build_request(request)
        response = await self._create(
            kwargs, request.timeout_s or self.model.timeout, clock=request.clock
        )
        if response.choices is None:  # JSON, but no completion (e.g. an error object)
            raise self._malformed(f"expected a chat completion, got {str(response)[:120]!r}")
        if plan is None:
            return native_turn(response)
        message, finish_reason, usage = _response_parts(response)
        if message is None:
            return ModelTurn(
                native_turn(response).message,
                "invalid",
                usage,
                response,
                error="the server's response has no choices/message",
            )
        return prompted_turn(
            message.content or "", finish_reason, plan, usage, response, request.max_tokens
        )

    async def complete_text(self, request: CompletionRequest) -> Completion:
        """``/v1/completions`` with the profile's FIM or ChatML tokens; a server without
        that endpoint (HTTP 404) gets a chat whose reply starts with the prefix."""
        if self._key_error:
            raise ModelUnavailableError(self._key_error)
        tokens = PromptTokens(self.profile.fim_tokens, self.profile.chat_format == "chatml")
        prompt, shape = raw_prompt(request, tokens)
        texts: list[str] = []
        candidates: list[tuple[TokenLogprob, ...]] = []
        usage = Usage()
        timeout = request.timeout_s or self.model.timeout
        for index in range(max(1, request.n)):
            kwargs: dict[str, Any] = {
                "model": self.model.id,
                "max_tokens": request.max_tokens,
                "temperature": request.temperature if index == 0 else SAMPLED_TEMPERATURE,
                "seed": request.seed + index,
            }
            if request.stop:
                kwargs["stop"] = list(request.stop)
            text, turn_usage, scored = await self._complete_one(kwargs, prompt, request, timeout)
            texts.append(text)
            candidates.append(scored)
            usage = usage + turn_usage
        return Completion(tuple(texts), usage, shape, logprobs=tuple(candidates))

    async def _text_completion(
        self, body: dict[str, Any], limit_s: float, request: CompletionRequest
    ) -> Any:
        """``/v1/completions``; a server that refuses ``logprobs`` (HTTP 400) is asked once
        more without them, its tokens then unknown."""
        try:
            return await self._create(body, limit_s, text=True, clock=request.clock)
        except ModelUnavailableError as exc:
            cause = exc.__cause__
            refused = isinstance(cause, ServerAnswered) and cause.status == 400
            if "logprobs" not in body or not refused:
                raise
        plain = {key: value for key, value in body.items() if key != "logprobs"}
        return await self._create(plain, limit_s, text=True, clock=request.clock)

    async def _complete_one(
        self, kwargs: dict[str, Any], prompt: str | None, request: CompletionRequest, limit_s: float
    ) -> tuple[str, Usage, tuple[TokenLogprob, ...]]:
        """One candidate's text, usage and tokens (``()`` unasked or not given)."""
        if prompt is not None:
            asked = {"logprobs": 1} if request.logprobs else {}
            try:
                response = await self._text_completion(
                    {**kwargs, **asked, "prompt": prompt}, limit_s, request
                )
            except ModelUnavailableError as exc:
                cause = exc.__cause__
                if not (isinstance(cause, ServerAnswered) and cause.status == 404):
                    raise
            else:
                choices = getattr(response, "choices", None) or []
                text = str(getattr(choices[0], "text", "") or "") if choices else ""
                tokens = token_logprobs(getattr(choices[0], "logprobs", None)) if choices else ()
                return text, usage_of(getattr(response, "usage", None)), tokens
        # vLLM continues the last assistant message only when asked; llama.cpp does anyway.
        extra = {"continue_final_message": True, "add_generation_prompt": False}
        response = await self._create(
            {**kwargs, "messages": chat_messages(request), "extra_body": extra},
            limit_s,
            clock=request.clock,
        )
        message, _finish, usage = _response_parts(response)
        # The chat fallback's tokens are not asked for: its servers differ most there.
        return (str(message.content or "") if message is not None else ""), usage, ()

    async def check(self) -> Availability:
        """Reachable, key accepted, and the model listed at ``/models``, on some server.

        With several servers, those that fail the check are taken out of rotation
        (for ``model.cooldown_s``) and the model is available while one passes."""
        checks = [await self.check_server(server) for server in self.router.servers]
        if len(checks) == 1:
            return checks[0]
        down = [(s, c) for s, c in zip(self.router.servers, checks, strict=True) if not c.ok]
        if len(down) == len(checks):
            reasons = "; ".join(c.reason for c in checks)
            return Availability(False, self.model.id, self.name, reasons, checks[0].hint)
        for server, availability in down:
            self.router.mark_down(server.url, availability.reason)
        reason = "; ".join(f"{s.url} out of rotation: {c.reason}" for s, c in down)
        return Availability(True, self.model.id, self.name, reason)

    async def check_server(self, server: Server) -> Availability:
        """The check of one server."""
        model = self.model.id

        def down(reason: str, hint: str) -> Availability:
            return Availability(False, model, self.name, reason, hint)

        if self._key_error:
            return down(self._key_error, f"export {self.model.api_key_env}=<your key>")
        try:
            page = await server.client.get("/models", min(self.model.timeout, _CHECK_TIMEOUT_S))
        except NoAnswer as exc:
            return down(
                f"cannot reach {server.url} ({connection_failure(exc)[1]})",
                "start the server (e.g. `remora models serve`) or fix model.base_url",
            )
        except ServerAnswered as exc:
            if exc.status in (401, 403):
                return down(
                    f"{server.url} refused the API key (HTTP {exc.status})",
                    "set model.api_key_env to the variable that holds a valid key",
                )
            if exc.status == 404:  # some servers have no /models; requests may still work
                return Availability(True, model, self.name, f"{server.url} does not list models")
            return down(
                f"{server.url}/models answered HTTP {exc.status}: {body_summary(exc)}",
                "check the server's logs",
            )
        except MalformedAnswer as exc:
            return down(
                f"{server.url}/models sent a malformed response: {exc}",
                "is model.base_url an OpenAI-compatible endpoint (often ending in /v1)?",
            )
        listed = page.data if isinstance(page.data, list) else []
        served = [str(m["id"]) for m in listed if isinstance(m, dict) and m.get("id")]
        if served and model not in served and f"{model}:latest" not in served:
            return down(
                f"{server.url} does not serve model {model!r} "
                f"(it serves: {', '.join(served[:10])})",
                "set model.id to one of the served models",
            )
        return Availability(True, model, self.name)

    def servers(self) -> list[dict[str, Any]]:
        """Each server's state now (``remora models``, the coordinator's servers file)."""
        return self.router.snapshot()

    async def aclose(self) -> None:
        for server in self.router.servers:
            await server.client.close()
