"""The ``openai`` provider: any OpenAI-compatible server (vLLM, llama.cpp, Ollama /v1).

Credentials and the base URL live here; the dialect lives in ``openai_wire``
(native tools) and ``schema_calls`` (prompted tools with a JSON-schema
constraint, for profiles whose models have no native tool format).
Retries cover connection errors and timeouts only, with exponential backoff from
``model.retry``; an HTTP error answer is not retried: it will not change.
"""

from __future__ import annotations

import asyncio
import json
import os
from typing import Any

import openai

from remora.config import ModelConfig
from remora.conversation import Completion, CompletionRequest, ModelRequest, ModelTurn, Usage
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

__all__ = ["NO_KEY", "OpenAIProvider"]

NO_KEY = "sk-no-key"  # local servers want some key and ignore its value
_CHECK_TIMEOUT_S = 10.0


def _body_summary(exc: openai.APIStatusError) -> str:
    body = exc.body
    if isinstance(body, dict):
        error = body.get("error", body)
        text = error.get("message", json.dumps(error)) if isinstance(error, dict) else str(error)
    elif body is not None:
        text = str(body)
    else:
        text = exc.response.text
    text = " ".join(text.split())
    return text[:300] + ("…" if len(text) > 300 else "")


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
        self.client = openai.AsyncOpenAI(
            base_url=model.base_url, api_key=api_key, max_retries=0, timeout=model.timeout
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

    async def _create(self, kwargs: dict[str, Any], timeout_s: float, *, text: bool = False) -> Any:
        """A chat completion (or, with ``text``, a plain ``/completions`` call)."""
        retry = self.model.retry
        endpoint: Any = self.client.completions if text else self.client.chat.completions
        for attempt in range(1, retry.max_attempts + 1):
            try:
                return await endpoint.create(**kwargs, timeout=timeout_s)
            except openai.APIConnectionError as exc:  # APITimeoutError is a subclass
                if attempt == retry.max_attempts:
                    what = "timed out" if isinstance(exc, openai.APITimeoutError) else "unreachable"
                    raise ModelUnavailableError(
                        f"openai server {self.base_url} {what} after {attempt} attempt(s) "
                        f"({str(exc).rstrip('.')}); check that it runs (e.g. `remora models "
                        f"serve`) and model.base_url",
                        retryable=True,
                    ) from exc
                await asyncio.sleep(retry.backoff_s * 2 ** (attempt - 1))
            except openai.APIStatusError as exc:
                raise ModelUnavailableError(
                    f"openai server {self.base_url} answered HTTP {exc.status_code} for model "
                    f"{self.model.id!r}: {_body_summary(exc)}",
                ) from exc
            except (openai.APIResponseValidationError, json.JSONDecodeError) as exc:
                # The SDK lets a body that is not JSON escape as a bare JSONDecodeError.
                raise self._malformed(str(exc)) from exc
        raise AssertionError("unreachable: max_attempts >= 1")

    def _malformed(self, what: str) -> InvalidModelOutputError:
        return InvalidModelOutputError(
            f"openai server {self.base_url} sent a malformed response: {what}; "
            f"is model.base_url an OpenAI-compatible endpoint (often .../v1)?",
        )

    async def complete(self, request: ModelRequest) -> ModelTurn:
        if self._key_error:
            raise ModelUnavailableError(self._key_error)
        kwargs, plan = self.build_request(request)
        response = await self._create(kwargs, request.timeout_s or self.model.timeout)
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
                response = await self._create({**kwargs, "prompt": prompt}, limit_s, text=True)
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
            {**kwargs, "messages": chat_messages(request), "extra_body": extra}, limit_s
        )
        message, _finish, usage = _response_parts(response)
        return (str(message.content or "") if message is not None else ""), usage

    async def check(self) -> Availability:
        """Reachable, key accepted, and the model listed at ``/models``."""
        model = self.model.id

        def down(reason: str, hint: str) -> Availability:
            return Availability(False, model, self.name, reason, hint)

        if self._key_error:
            return down(self._key_error, f"export {self.model.api_key_env}=<your key>")
        try:
            page = await self.client.models.list(timeout=min(self.model.timeout, _CHECK_TIMEOUT_S))
        except openai.APIConnectionError as exc:
            return down(
                f"cannot reach {self.base_url} ({str(exc).rstrip('.')})",
                "start the server (e.g. `remora models serve`) or fix model.base_url",
            )
        except openai.APIStatusError as exc:
            if exc.status_code in (401, 403):
                return down(
                    f"{self.base_url} refused the API key (HTTP {exc.status_code})",
                    "set model.api_key_env to the variable that holds a valid key",
                )
            if exc.status_code == 404:  # some servers have no /models; requests may still work
                return Availability(True, model, self.name, f"{self.base_url} does not list models")
            return down(
                f"{self.base_url}/models answered HTTP {exc.status_code}: {_body_summary(exc)}",
                "check the server's logs",
            )
        except openai.APIResponseValidationError as exc:
            return down(
                f"{self.base_url}/models sent a malformed response: {exc}",
                "is model.base_url an OpenAI-compatible endpoint (often ending in /v1)?",
            )
        served = [m.id for m in (page.data or [])]
        if served and model not in served and f"{model}:latest" not in served:
            return down(
                f"{self.base_url} does not serve model {model!r} "
                f"(it serves: {', '.join(served[:10])})",
                "set model.id to one of the served models",
            )
        return Availability(True, model, self.name)

    async def aclose(self) -> None:
        await self.client.close()
