"""Gemini through google-genai's native function calling (docs/providers.md).

The wire translation lives in ``gemini_wire``; this module owns the client: the
key (from ``model.api_key_env``, else GEMINI_API_KEY / GOOGLE_API_KEY), the base
URL and API version, timeouts, retries on connection errors and timeouts only,
and turning the SDK's failures into typed ``ModelError``s.
"""

from __future__ import annotations

import asyncio
import json
import os
from typing import Any
from urllib.parse import urlparse

import httpx2
import pydantic
from google import genai
from google.genai import errors as genai_errors
from google.genai import types

from remora.config import ModelConfig, RequestRetryConfig
from remora.conversation import Completion, CompletionRequest, ModelRequest, ModelTurn
from remora.errors import InvalidModelOutputError, ModelError, ModelUnavailableError
from remora.profiles import ModelProfile
from remora.providers.base import Availability
from remora.providers.completion_prompt import complete_by_chat
from remora.providers.gemini_wire import build_request, response_to_turn

__all__ = ["DEFAULT_KEY_ENVS", "GeminiProvider"]

DEFAULT_KEY_ENVS = ("GEMINI_API_KEY", "GOOGLE_API_KEY")
DEFAULT_API_VERSION = "v1beta"
_API_VERSIONS = ("v1", "v1beta", "v1alpha")
_LOCAL_HOSTS = {"127.0.0.1", "localhost", "::1"}
# Set by the test suite: requests to a non-local Gemini endpoint are refused.
NO_NETWORK_ENV = "REMORA_NO_NETWORK_MODELS"


def _error_reasons(exc: genai_errors.APIError) -> set[str]:
    """The ``google.rpc.ErrorInfo`` reasons of an error body (e.g. API_KEY_INVALID)."""
    body = exc.details if isinstance(exc.details, dict) else {}
    error = body.get("error") if isinstance(body.get("error"), dict) else {}
    details = error.get("details") if isinstance(error, dict) else None
    return {str(d.get("reason")) for d in details or [] if isinstance(d, dict) and "reason" in d}


def _split_base_url(base_url: str | None) -> tuple[str | None, str]:
    """``http://host/v1beta`` → (``http://host``, ``v1beta``); the version defaults."""
    if not base_url:
        return None, DEFAULT_API_VERSION
    trimmed = base_url.rstrip("/")
    head, _, last = trimmed.rpartition("/")
    if last in _API_VERSIONS and "://" in head:
        return head, last
    return trimmed, DEFAULT_API_VERSION


class GeminiProvider:
    """One Gemini model. ``complete`` never raises for a bad answer: a blocked or
    malformed response is a ModelTurn with finish ``blocked``/``invalid``."""

    def __init__(
        self,
        *,
        model_id: str,
        profile: ModelProfile,
        key_envs: tuple[str, ...] = DEFAULT_KEY_ENVS,
        base_url: str | None = None,
        timeout_s: float = 60.0,
        retry: RequestRetryConfig | None = None,
    ) -> None:
        self.profile = profile
        self.model_id = model_id
        self.key_envs = key_envs
        self.base_url, self.api_version = _split_base_url(base_url)
        self.timeout_s = timeout_s
        self.retry = retry or RequestRetryConfig()
        self._client: genai.Client | None = None

    @classmethod
    def from_config(cls, model: ModelConfig, profile: ModelProfile) -> GeminiProvider:
        return cls(
            model_id=model.id,
            profile=profile,
            key_envs=(model.api_key_env,) if model.api_key_env else DEFAULT_KEY_ENVS,
            base_url=next(iter(model.server_urls()), None),
            timeout_s=model.timeout,
            retry=model.retry,
        )

    # ------------------------------------------------------------ plumbing

    def _key(self) -> str | None:
        return next((os.environ[e] for e in self.key_envs if os.environ.get(e)), None)

    def _unavailable(self) -> tuple[str, str] | None:
        """Why no request can be made (reason, hint), or None."""
        if self._key() is None:
            names = " or ".join(self.key_envs)
            return (
                f"no API key: {names} is not set",
                f"export {self.key_envs[0]}=<your key> (get one at https://aistudio.google.com), "
                "or point model.api_key_env at the variable that holds it",
            )
        host = urlparse(self.base_url).hostname if self.base_url else None
        if os.environ.get(NO_NETWORK_ENV) and host not in _LOCAL_HOSTS:
            return (
                f"requests to remote models are disabled ({NO_NETWORK_ENV} is set)",
                f"unset {NO_NETWORK_ENV}, or set model.base_url to a local server",
            )
        return None

    def _get_client(self) -> genai.Client:
        problem = self._unavailable()
        if problem is not None:
            reason, hint = problem
            raise ModelUnavailableError(f"gemini model {self.model_id}: {reason}. {hint}")
        if self._client is None:
            self._client = genai.Client(
                api_key=self._key(),
                vertexai=False,
                http_options=types.HttpOptions(
                    base_url=self.base_url,
                    api_version=self.api_version,
                    timeout=int(self.timeout_s * 1000),
                    # httpx even where aiohttp is installed (the openai extra brings it):
                    # the SDK then raises aiohttp's errors, not the httpx ones read here.
                    async_client_args={"transport": httpx2.AsyncHTTPTransport()},
                ),
            )
        return self._client

    def _error(self, exc: Exception, timeout_s: float | None = None) -> ModelError:
        """The ModelError for one SDK failure."""
        what = f"gemini model {self.model_id}"
        if isinstance(exc, genai_errors.APIError):
            status = f"{exc.code} {exc.status or ''}".strip()
            detail = exc.message or ""
            # Gemini answers a bad key with 400 and reason API_KEY_INVALID.
            if exc.code in (401, 403) or "API_KEY_INVALID" in _error_reasons(exc):
                keys = " or ".join(self.key_envs)
                return ModelUnavailableError(
                    f"{what}: the API key was refused ({status}: {detail}); check {keys}",
                )
            if exc.code == 404:
                return ModelUnavailableError(
                    f"{what} was not found ({status}: {detail}); check model.id",
                )
            retryable = exc.code in (408, 429) or exc.code >= 500
            return ModelUnavailableError(
                f"{what}: request failed ({status}: {detail})",
                retryable=retryable,
            )
        if isinstance(exc, httpx2.TimeoutException):
            return ModelUnavailableError(
                f"{what}: timed out after {timeout_s or self.timeout_s:g}s",
                retryable=True,
            )
        if isinstance(exc, httpx2.TransportError):
            where = self.base_url or "the Gemini API"
            return ModelUnavailableError(f"{what}: cannot reach {where} ({exc})", retryable=True)
        # json.JSONDecodeError / pydantic.ValidationError: the body is not Gemini's.
        return InvalidModelOutputError(f"{what}: malformed response ({exc})")

    async def _call(self, request: ModelRequest) -> types.GenerateContentResponse:
        client = self._get_client()
        wire = build_request(
            request.messages,
            request.tools,
            request.tool_choice,
            max_tokens=request.max_tokens,
            temperature=request.temperature,
            stop=request.stop,
            timeout_s=request.timeout_s,
        )
        attempts = self.retry.max_attempts
        for attempt in range(attempts):
            try:
                return await client.aio.models.generate_content(
                    model=self.model_id, contents=wire.contents, config=wire.config
                )
            except httpx2.TransportError as exc:
                # Retry connection errors and timeouts only (typed, never by message).
                if attempt + 1 >= attempts:
                    raise self._error(exc, request.timeout_s) from exc
                await asyncio.sleep(self.retry.backoff_s * 2**attempt)
            except (genai_errors.APIError, json.JSONDecodeError, pydantic.ValidationError) as exc:
                raise self._error(exc) from exc
        raise AssertionError("unreachable: max_attempts >= 1")

    # ------------------------------------------------------------ protocol

    async def complete(self, request: ModelRequest) -> ModelTurn:
        response = await self._call(request)
        turn_index = sum(1 for m in request.messages if m.role == "assistant")
        return response_to_turn(response, turn_index)

    async def complete_text(self, request: CompletionRequest) -> Completion:
        """A plain prompt: Gemini has no fill-in-the-middle call."""
        return await complete_by_chat(self.complete, request)

    async def check(self) -> Availability:
        def result(ok: bool, reason: str = "", hint: str = "") -> Availability:
            return Availability(ok, self.model_id, "gemini", reason, hint)

        problem = self._unavailable()
        if problem is not None:
            return result(False, *problem)
        try:
            info: Any = await self._get_client().aio.models.get(model=self.model_id)
        except (genai_errors.APIError, httpx2.TransportError, json.JSONDecodeError) as exc:
            error = self._error(exc)
            return result(False, error.message, "check model.id, model.base_url and the key")
        actions = info.supported_actions or []
        if actions and "generateContent" not in actions:
            return result(
                False,
                f"{self.model_id} does not support generateContent",
                "choose a Gemini chat model, e.g. gemini-2.5-flash",
            )
        return result(True)

    async def aclose(self) -> None:
        if self._client is not None:
            await self._client.aio.aclose()
            self._client.close()
            self._client = None
