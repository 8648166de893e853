"""The openai provider against a real llama.cpp HTTP server (``llama_server_url``)."""

from __future__ import annotations

import jsonschema
import pytest
from providers_local_support import QUESTION, SUBMIT, WEATHER

from remora.config import ModelConfig
from remora.conversation import Message, ModelRequest, ToolResult
from remora.providers.factory import create_provider
from remora.providers.model_store import DEFAULT_MODEL
from remora.providers.openai_compat import OpenAIProvider

pytestmark = [pytest.mark.integration, pytest.mark.model]

MODEL = DEFAULT_MODEL  # what the llama_server_url fixture serves


def _provider(url: str, model_id: str = MODEL, profile: str | None = None) -> OpenAIProvider:
    provider = create_provider(ModelConfig(provider="openai", id=model_id, base_url=url), profile)
    assert isinstance(provider, OpenAIProvider)
    return provider


async def test_check_finds_the_served_model(llama_server_url: str) -> None:
    provider = _provider(llama_server_url)
    assert provider.profile.name == "qwen_small"  # resolved from the model id
    availability = await provider.check()
    assert availability.ok, availability
    other = _provider(llama_server_url, "qwen2.5:7b")
    wrong = await other.check()
    assert not wrong.ok and MODEL in wrong.reason
    for p in (provider, other):
        await p.aclose()


async def test_tool_exchange_over_http(llama_server_url: str) -> None:
    provider = _provider(llama_server_url)
    messages = list(QUESTION)
    first = await provider.complete(
        ModelRequest(tuple(messages), (WEATHER, SUBMIT), tool_choice="get_weather", max_tokens=96)
    )
    assert first.finish == "tool_calls", first.error
    (call,) = first.message.tool_calls
    assert call.name == "get_weather"
    jsonschema.validate(call.arguments, WEATHER.parameters)
    messages += [
        first.message,
        Message.tool_results(
            (ToolResult(call.id, call.name, {"ok": True, "result": {"temp_c": 18}}),)
        ),
    ]
    second = await provider.complete(
        ModelRequest(tuple(messages), (WEATHER, SUBMIT), max_tokens=96)
    )
    assert second.finish == "tool_calls", second.error
    (call,) = second.message.tool_calls
    assert call.name in ("get_weather", "submit_result")
    jsonschema.validate(
        call.arguments, (WEATHER if call.name == "get_weather" else SUBMIT).parameters
    )
    assert second.usage.cached_tokens > 0
    await provider.aclose()


async def test_native_tools_profile_completes_without_error(llama_server_url: str) -> None:
    # Native tools through the server's chat template: a call or text are both valid turns.
    provider = _provider(llama_server_url, profile="default")
    turn = await provider.complete(ModelRequest(QUESTION, (WEATHER,), max_tokens=16))
    assert turn.finish in ("stop", "length", "tool_calls")
    assert turn.error is None
    await provider.aclose()
