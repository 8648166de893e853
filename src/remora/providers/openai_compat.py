"""The ``openai`` provider: any OpenAI-compatible server (vLLM, llama.cpp, Ollama /v1).

Credentials and the base URL live here; the dialect lives in ``openai_wire``
(native tools) and ``schema_calls`` (prompted tools with a JSON-schema
constraint, for profiles whose models have no native tool format).
Requests go through a :class:`~remora.providers.server_pool.ServerRouter` over the
servers ``model.base_url`` lists (one or more): it retries connection errors,
timeouts and HTTP 500/502/504 on another server (or, with none, after
``model.retry``'s backoff) and waits out back-pressure (HTTP 429/503); any other
HTTP error answer is not retried: it will not change.
"""

from __future__ import annotations

import json
import os
from typing import Any

import openai
from openai import RequestOptions
from openai.types import Completion as TextCompletion
from openai.types.chat import ChatCompletion as Chat

from remora.config import ModelConfig
from remora.conversation import (
    Completion,
    CompletionRequest,
    ModelRequest,
    ModelTurn,
    Usage,
    WorkClock,
)
from remora.errors import InvalidModelOutputError, ModelUnavailableError
from remora.profiles import ModelProfile
from remora.providers.base import Availability
from remora.providers.completion_prompt import SAMPLED_TEMPERATURE, chat_messages, raw_prompt
from remora.providers.gguf_vocab import PromptTokens
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
    body_summary,
    connection_failure,
)

__all__ = ["NO_KEY", "OpenAIProvider"]

NO_KEY = "sk-no-key"  # local servers want some key and ignore its value
_CHECK_TIMEOUT_S = 10.0
RETRIED_STATUSES = BACK_PRESSURE_STATUSES | SERVER_TROUBLE_STATUSES


def _http_client() -> openai.DefaultAsyncHttpxClient:
    """The SDK's aiohttp transport when ``aiohttp`` is installed (the ``openai`` extra
    installs it), else its httpx one. httpx's pool probes every kept connection's socket on
    each request: with 16 connections 1.6 vs 0.9 CPU ms per request against the stand-in,
    with 64 2.4 vs 1.1 (``benchmarks/scale.py``'s server; client and server together)."""
    try:
        return openai.DefaultAioHttpClient()
    except RuntimeError:  # the SDK's "install the aiohttp extra"
        return openai.DefaultAsyncHttpxClient()


class OpenAIProvider:
    """Chat completions through ``AsyncOpenAI`` (SDK retries off: ours are typed)."""

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
        urls: list[str | None] = [*model.server_urls()] or [None]  # None: the SDK's default
        clients = [self._client(url, api_key) for url in urls]
        servers = [Server(str(c.base_url).rstrip("/"), c, model.max_in_flight) for c in clients]
        self.router = ServerRouter(
            servers,
            cooldown_s=model.cooldown_s,
            max_attempts=model.retry.max_attempts,
            backoff_s=model.retry.backoff_s,
            back_pressure_budget_s=model.timeout,
        )
        self.client = servers[0].client

    def _client(self, url: str | None, api_key: str) -> openai.AsyncOpenAI:
        return openai.AsyncOpenAI(
            base_url=url,
            api_key=api_key,
            max_retries=0,
            timeout=self.model.timeout,
            http_client=_http_client(),
        )

    @classmethod
    def from_config(cls, model: ModelConfig, profile: ModelProfile) -> OpenAIProvider:
        return cls(model, profile)

    @property
    def base_url(self) -> str:
        return str(self.client.base_url).rstrip("/")

    def build_request(self, request: ModelRequest) -> tuple[dict[str, Any], Any]:
        """Keyword arguments for ``chat.completions.create`` and the call plan (or None)."""
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
        extra = body.pop("extra_body", None)
        path, shape = ("/completions", TextCompletion) if text else ("/chat/completions", Chat)
        options: RequestOptions = {"timeout": timeout_s}
        if extra:
            options["extra_json"] = extra

        async def send(server: Server) -> Any:
            try:
                # The client's post, as the SDK's create() ends in: create() first walked the
                # whole body (messages, tool schemas) for TypedDict fields ours never have,
                # 1.8 of its 3.2 CPU ms per request on a small chat.
                return await server.client.post(path, body=body, cast_to=shape, options=options)
            except openai.APIStatusError as exc:
                if exc.status_code in RETRIED_STATUSES:
                    raise  # the router's to retry; it raises it when it cannot
                raise self._http_error(server.url, exc) from exc
            except (openai.APIResponseValidationError, json.JSONDecodeError) as exc:
                # The SDK lets a body that is not JSON escape as a bare JSONDecodeError.
                raise self._malformed(str(exc), server.url) from exc

        try:
            return await self.router.call(send, clock)
        except openai.APIStatusError as exc:  # server trouble with no other server to try
            asked = str(exc.request.url)
            url = next((s.url for s in self.router.servers if asked.startswith(s.url)), asked)
            raise self._http_error(url, exc) from exc

    def _http_error(self, url: str, exc: openai.APIStatusError) -> ModelUnavailableError:
        return ModelUnavailableError(
            f"openai server {url} answered HTTP {exc.status_code} for model "
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
        if not hasattr(response, "choices"):  # e.g. an HTML page sent as text
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
            text, turn_usage = await self._complete_one(kwargs, prompt, request, timeout)
            texts.append(text)
            usage = usage + turn_usage
        return Completion(tuple(texts), usage, shape)

    async def _complete_one(
        self, kwargs: dict[str, Any], prompt: str | None, request: CompletionRequest, limit_s: float
    ) -> tuple[str, Usage]:
        if prompt is not None:
            try:
                response = await self._create(
                    {**kwargs, "prompt": prompt}, limit_s, text=True, clock=request.clock
                )
            except ModelUnavailableError as exc:
                if not isinstance(exc.__cause__, openai.NotFoundError):
                    raise
            else:
                choices = getattr(response, "choices", None) or []
                text = str(getattr(choices[0], "text", "") or "") if choices else ""
                return text, usage_of(getattr(response, "usage", None))
        # vLLM continues the last assistant message only when asked; llama.cpp does anyway.
        extra = {"continue_final_message": True, "add_generation_prompt": False}
        response = await self._create(
            {**kwargs, "messages": chat_messages(request), "extra_body": extra},
            limit_s,
            clock=request.clock,
        )
        message, _finish, usage = _response_parts(response)
        return (str(message.content or "") if message is not None else ""), usage

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
            page = await server.client.models.list(
                timeout=min(self.model.timeout, _CHECK_TIMEOUT_S)
            )
        except openai.APIConnectionError as exc:
            return down(
                f"cannot reach {server.url} ({connection_failure(exc)[1]})",
                "start the server (e.g. `remora models serve`) or fix model.base_url",
            )
        except openai.APIStatusError as exc:
            if exc.status_code in (401, 403):
                return down(
                    f"{server.url} refused the API key (HTTP {exc.status_code})",
                    "set model.api_key_env to the variable that holds a valid key",
                )
            if exc.status_code == 404:  # some servers have no /models; requests may still work
                return Availability(True, model, self.name, f"{server.url} does not list models")
            return down(
                f"{server.url}/models answered HTTP {exc.status_code}: {body_summary(exc)}",
                "check the server's logs",
            )
        except openai.APIResponseValidationError as exc:
            return down(
                f"{server.url}/models sent a malformed response: {exc}",
                "is model.base_url an OpenAI-compatible endpoint (often ending in /v1)?",
            )
        served = [m.id for m in (page.data or [])]
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
