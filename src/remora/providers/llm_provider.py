"""Any model of Simon Willison's ``llm`` library (docs/providers.md).

``llm.get_async_model(id)`` (else the sync model, run in a thread) serves the
request. When the model supports tools (and the profile wants native tools) our
ToolSpecs go over as ``llm.Tool`` objects and the calls come back from
``response.tool_calls()``; llm never runs them, since we call ``prompt`` rather
than ``chain``, so the loop keeps executing tools itself. Otherwise, when the model
supports schemas (``supports_schema``; ``supports_schema: true`` in
extra-openai-models.yaml, every llm-ollama chat model), the tool schemas go into
the system prompt and the reply is constrained by the union over the tools allowed
this turn (``schema_calls``), as the embedded and openai providers do for small
models. Failing both, the calls are parsed out of free text (``text_calls``).

The whole history is passed as llm ``messages=`` (system / user / assistant with
tool-call parts / tool with tool-result parts), so each request is stateless on
our side and plugins translate it to their own wire format.
"""

from __future__ import annotations

import asyncio
import json
import os
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

import httpx
import llm
import openai
from llm.parts import Message as LLMMessage

from remora.config import ModelConfig
from remora.conversation import Completion, CompletionRequest, ModelRequest, ModelTurn
from remora.errors import ConfigValueError, InvalidModelOutputError, ModelUnavailableError
from remora.profiles import ModelProfile
from remora.providers import text_calls
from remora.providers.base import Availability
from remora.providers.completion_prompt import complete_by_chat
from remora.providers.functiongemma import STOP_SEQUENCES
from remora.providers.llm_messages import (
    Reply,
    llm_tools,
    native_messages,
    reply_to_turn,
    schema_for,
    schema_messages,
    schema_turn,
    text_messages,
)
from remora.providers.schema_calls import CallPlan, plan_turn

__all__ = ["LLMProvider", "Mode", "operational_errors"]

# How tool calls travel: llm's native tools, a JSON-schema-constrained reply, or text.
Mode = Literal["native", "schema", "text"]

UNKNOWN_MODEL_HINT = (
    "run `llm models` to list the models llm knows; install the plugin that serves it "
    "(e.g. `llm install llm-ollama`) or add it to extra-openai-models.yaml in llm's "
    'config directory (`dirname "$(llm logs path)"`)'
)


def operational_errors() -> tuple[type[BaseException], ...]:
    """Exceptions that mean "the model could not be reached or refused", by type.

    Plugins raise their own client's errors; the common ones are listed here so a
    failure becomes a result while a programming error still propagates.
    """
    found: list[type[BaseException]] = [
        ConnectionError,
        TimeoutError,
        httpx.HTTPError,
        openai.APIError,
        llm.ModelError,
    ]
    try:
        import ollama
    except ImportError:  # llm-ollama not installed: nothing of it can be raised
        pass
    else:
        found.append(ollama.ResponseError)
    return tuple(found)


@dataclass(frozen=True, slots=True)
class _Resolved:
    model: Any  # llm.AsyncModel | llm.Model
    is_async: bool


class LLMProvider:
    """A model of the ``llm`` library, native tools when it has them."""

    def __init__(
        self,
        *,
        model_id: str,
        profile: ModelProfile,
        key_env: str | None = None,
        timeout_s: float = 60.0,
    ) -> None:
        self.profile = profile
        self.model_id = model_id
        self.key_env = key_env
        self.timeout_s = timeout_s
        self._resolved: _Resolved | None = None
        # Agents share one provider; resolve the model once, not once per agent.
        self._resolving = asyncio.Lock()

    @classmethod
    def from_config(cls, model: ModelConfig, profile: ModelProfile) -> LLMProvider:
        if model.base_url:
            raise ConfigValueError(
                "model.base_url is not used by the llm provider",
                "set the endpoint in llm's own configuration (extra-openai-models.yaml "
                "api_base, or OLLAMA_HOST for llm-ollama), or use provider: openai",
            )
        return cls(
            model_id=model.id, profile=profile, key_env=model.api_key_env, timeout_s=model.timeout
        )

    # ------------------------------------------------------------ resolution

    def _lookup(self) -> _Resolved:
        try:
            return _Resolved(llm.get_async_model(self.model_id), True)
        except llm.UnknownModelError:
            pass
        try:
            return _Resolved(llm.get_model(self.model_id), False)
        except llm.UnknownModelError as exc:
            raise ModelUnavailableError(
                f"llm does not know the model {self.model_id!r}; {UNKNOWN_MODEL_HINT}",
            ) from exc

    async def _model(self) -> _Resolved:
        async with self._resolving:
            if self._resolved is None:
                # Plugins may ask their server which models exist (llm-ollama does).
                self._resolved = await asyncio.to_thread(self._lookup)
            return self._resolved

    def _key(self) -> str | None:
        if self.key_env is None:
            return None
        key = os.environ.get(self.key_env)
        if not key:
            raise ModelUnavailableError(
                f"llm model {self.model_id}: {self.key_env} is not set; export it with the "
                "model's API key (or remove model.api_key_env to use `llm keys`)",
            )
        return key

    # ------------------------------------------------------------ requests

    def _style(self) -> text_calls.TextStyle:
        return "functiongemma" if self.profile.output_format == "functiongemma_tags" else "json"

    def mode(self, model: Any) -> Mode:
        """Native tools when the model and the profile want them; else a schema-
        constrained reply when the model supports schemas (FunctionGemma's tag format
        is text by design); else calls parsed from free text."""
        if getattr(model, "supports_tools", False) and self.profile.native_tools:
            return "native"
        tags = self.profile.output_format == "functiongemma_tags"
        if getattr(model, "supports_schema", False) and not tags:
            return "schema"
        return "text"

    def _options(self, model: Any, request: ModelRequest, stop: Sequence[str]) -> dict[str, Any]:
        """Generation settings under the names this model's Options use."""
        fields = model.Options.model_fields
        options: dict[str, Any] = {}
        if "temperature" in fields:
            options["temperature"] = request.temperature
        for name in ("max_tokens", "num_predict", "max_output_tokens"):
            if name in fields:
                options[name] = request.max_tokens
                break
        if stop and "stop" in fields:
            takes_list = "list" in str(fields["stop"].annotation)
            options["stop"] = list(stop) if takes_list else stop[0]
        return options

    async def _prompt(
        self,
        resolved: _Resolved,
        messages: list[LLMMessage],
        tools: list[llm.Tool],
        options: dict[str, Any],
        schema: dict[str, Any] | None = None,
    ) -> Reply:
        kwargs: dict[str, Any] = {"messages": messages, "stream": False, "options": options}
        if tools:
            kwargs["tools"] = tools
        if schema is not None:
            kwargs["schema"] = schema
        key = self._key()
        if key is not None:
            kwargs["key"] = key
        model = resolved.model
        if resolved.is_async:
            response = model.prompt(**kwargs)
            text = await response.text()
            calls = await response.tool_calls()
        else:

            def run() -> tuple[Any, str, list[Any]]:
                sync_response = model.prompt(**kwargs)
                return sync_response, sync_response.text(), sync_response.tool_calls()

            response, text, calls = await asyncio.to_thread(run)
        return Reply(
            text=text,
            calls=list(calls),
            input_tokens=response.input_tokens or 0,
            output_tokens=response.output_tokens or 0,
            details=dict(response.token_details or {}),
            raw=response.response_json,
        )

    async def complete(self, request: ModelRequest) -> ModelTurn:
        resolved = await self._model()
        mode = self.mode(resolved.model)
        offer_tools = bool(request.tools) and request.tool_choice != "none"
        tools: list[llm.Tool] = []
        plan: CallPlan | None = None
        schema: dict[str, Any] | None = None
        stop = tuple(request.stop)
        if mode == "native":
            messages = native_messages(request.messages)
            tools = llm_tools(request.tools, request.tool_choice) if offer_tools else []
        elif mode == "schema":
            plan = plan_turn(request, self.profile)
            messages = schema_messages(request, plan)
            schema = schema_for(plan)
        else:
            messages = text_messages(request, self._style(), offer_tools)
            if self._style() == "functiongemma" and offer_tools:
                stop += STOP_SEQUENCES
        options = self._options(resolved.model, request, stop)
        timeout = request.timeout_s or self.timeout_s
        what = f"llm model {self.model_id}"
        try:
            reply = await asyncio.wait_for(
                self._prompt(resolved, messages, tools, options, schema), timeout
            )
        except TimeoutError as exc:
            raise ModelUnavailableError(
                f"{what}: timed out after {timeout:g}s", retryable=True
            ) from exc
        except json.JSONDecodeError as exc:
            # e.g. tool-call arguments that are not JSON
            raise InvalidModelOutputError(f"{what}: malformed output ({exc})") from exc
        except operational_errors() as exc:
            raise _provider_error(what, exc) from exc
        if plan is not None:
            return schema_turn(reply, plan, request.max_tokens)
        turn_index = sum(1 for m in request.messages if m.role == "assistant")
        return reply_to_turn(
            reply, turn_index, native=mode == "native", tools=request.tools if offer_tools else ()
        )

    async def complete_text(self, request: CompletionRequest) -> Completion:
        """A plain prompt: the ``llm`` library has no completion call of its own."""
        return await complete_by_chat(self.complete, request)

    async def check(self) -> Availability:
        def down(reason: str, hint: str) -> Availability:
            return Availability(False, self.model_id, "llm", reason, hint)

        try:
            resolved = await self._model()
        except ModelUnavailableError as exc:
            return down(exc.message, UNKNOWN_MODEL_HINT)
        except operational_errors() as exc:
            return down(f"{type(exc).__name__}: {exc}", "is the model's server running?")
        try:
            self._key()
        except ModelUnavailableError as exc:
            return down(exc.message, f"export {self.key_env}=<the model's API key>")
        model = resolved.model
        if self.key_env is None and getattr(model, "needs_key", None):
            try:
                model.get_key()
            except llm.NeedsKeyException as exc:
                return down(str(exc), "set the key with `llm keys set`, or model.api_key_env")
        return Availability(True, self.model_id, "llm")

    async def aclose(self) -> None:
        self._resolved = None


def _provider_error(what: str, exc: BaseException) -> ModelUnavailableError:
    if isinstance(exc, llm.NeedsKeyException):
        return ModelUnavailableError(f"{what}: {exc}")
    if isinstance(exc, openai.APIStatusError):
        retryable = exc.status_code in (408, 429) or exc.status_code >= 500
        return ModelUnavailableError(
            f"{what}: the server answered {exc.status_code} ({exc.message})",
            retryable=retryable,
        )
    retryable = isinstance(exc, ConnectionError | TimeoutError | httpx.TransportError)
    retryable = retryable or isinstance(exc, openai.APIConnectionError)
    return ModelUnavailableError(f"{what}: {type(exc).__name__}: {exc}", retryable=retryable)
