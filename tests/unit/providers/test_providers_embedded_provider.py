"""EmbeddedProvider without loading a model: availability, request building, errors."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from remora.config import ModelConfig
from remora.conversation import Message, ModelRequest, ToolCall, ToolSpec
from remora.errors import AGENT_MODEL_UNAVAILABLE
from remora.providers.base import Provider, ProviderError
from remora.providers.embedded import (
    EmbeddedProvider,
    timings_from_response,
    usage_from_response,
)
from remora.providers.factory import create_provider

TOOL = ToolSpec(
    "lookup",
    "Look a word up.",
    {"type": "object", "properties": {"word": {"type": "string"}}, "required": ["word"]},
)


@pytest.fixture
def empty_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    cache = tmp_path / "cache"
    monkeypatch.setenv("REMORA_MODEL_CACHE", str(cache))
    return cache


def test_factory_builds_it_with_the_profile_from_the_model_name() -> None:
    provider = create_provider(ModelConfig())
    assert isinstance(provider, EmbeddedProvider)
    assert isinstance(provider, Provider)
    # The default Qwen2.5-Coder-0.5B: one JSON-schema-constrained call per turn.
    assert provider.profile.name == "qwen_small"
    assert provider.profile.output_format == "json_schema"
    assert provider.profile.max_tool_calls_per_turn == 1
    assert provider.profile.requires_tool_calls and not provider.profile.native_tools
    for name in ("qwen2.5-coder-1.5b", "smollm2-135m", "SmolLM2-135M-Instruct"):
        profile = create_provider(ModelConfig(id=name)).profile
        assert (profile.output_format, profile.max_tool_calls_per_turn) == ("json_schema", 1)


async def test_check_missing_file_names_the_path(tmp_path: Path) -> None:
    missing = tmp_path / "nowhere.gguf"
    availability = await EmbeddedProvider.from_config(
        ModelConfig(path=missing), create_provider(ModelConfig()).profile
    ).check()
    assert not availability.ok
    assert str(missing) in availability.reason and "model.path" in availability.hint


async def test_check_non_gguf_file(tmp_path: Path) -> None:
    bogus = tmp_path / "model.bin"
    bogus.write_bytes(b"\x00" * 64)
    availability = await create_provider(ModelConfig(path=bogus)).check()
    assert not availability.ok and "not a GGUF" in availability.reason


async def test_check_unknown_model_id(empty_cache: Path) -> None:
    availability = await create_provider(ModelConfig(id="tinyllama-9000")).check()
    assert not availability.ok
    assert "tinyllama-9000" in availability.reason
    assert "qwen2.5-coder-0.5b" in availability.hint and "smollm2-135m" in availability.hint


async def test_check_known_model_not_yet_fetched_is_available_with_a_note(
    empty_cache: Path,
) -> None:
    availability = await create_provider(ModelConfig()).check()
    assert availability.ok
    assert "first use" in availability.reason and "models pull" in availability.hint


async def test_complete_with_missing_model_file_is_agent_002(tmp_path: Path) -> None:
    provider = create_provider(ModelConfig(path=tmp_path / "gone.gguf"))
    with pytest.raises(ProviderError) as info:
        await provider.complete(ModelRequest((Message.user("hi"),)))
    assert info.value.code == AGENT_MODEL_UNAVAILABLE
    assert "gone.gguf" in info.value.message
    await provider.aclose()


def test_build_request_constrains_tool_turns_and_prompts_the_schemas() -> None:
    provider = create_provider(ModelConfig())
    assert isinstance(provider, EmbeddedProvider)
    history = (
        Message.system("Be brief."),
        Message.user("define cat"),
        Message.assistant(calls=(ToolCall("c1", "lookup", {"word": "cat"}),)),
    )
    body, turn = provider.build_request(ModelRequest(history, (TOOL,), max_tokens=99))
    assert body["max_tokens"] == 99 and body["cache_prompt"] is True
    assert body["messages"][0]["role"] == "system"
    assert "- lookup: Look a word up." in body["messages"][0]["content"]
    # The reply's forced opening is read with the prompt; the grammar takes the rest.
    assert body["messages"][-1] == {"role": "assistant", "content": '{"name": "'}
    assert body["grammar"].startswith("%llguidance")
    assert '"lookup\\", \\"arguments\\": "' in body["grammar"]
    assert "response_format" not in body
    assert [t.name for t in turn.plan.tools] == ["lookup"]
    plain, _ = provider.build_request(ModelRequest(history, (TOOL,), tool_choice="none"))
    assert "grammar" not in plain


def test_grammar_and_prompt_keep_the_declared_key_order() -> None:
    """The model names the tool first, then gives the arguments in the order the tool
    declares them (the required summary before the optional description), as the
    prompt shows them."""
    tool = ToolSpec(
        "write_docstring",
        "Write a docstring.",
        {
            "type": "object",
            "properties": {"summary": {"type": "string"}, "description": {"type": "string"}},
            "required": ["summary"],
        },
    )
    provider = create_provider(ModelConfig())
    assert isinstance(provider, EmbeddedProvider)
    body, _ = provider.build_request(ModelRequest((Message.user("document f"),), (tool,)))
    assert body["messages"][-1]["content"] == '{"name": "'  # the name comes first
    grammar = body["grammar"]
    assert grammar.index('"summary"') < grammar.index('"description"')
    system = body["messages"][0]["content"]
    assert system.index('"summary"') < system.index('"description"')


def test_timings_are_llama_cpps_own_in_seconds() -> None:
    response = {"timings": {"prompt_ms": 120.0, "predicted_ms": 305.5, "prompt_n": 9}}
    assert timings_from_response(response) == {"prompt_s": 0.12, "generation_s": 0.3055}
    assert timings_from_response({"timings": {}}) == {}
    assert timings_from_response({}) == {}


def test_usage_reads_cached_tokens() -> None:
    usage = usage_from_response(
        {
            "usage": {
                "prompt_tokens": 120,
                "completion_tokens": 7,
                "prompt_tokens_details": {"cached_tokens": 100},
            }
        }
    )
    assert (usage.prompt_tokens, usage.completion_tokens, usage.cached_tokens, usage.requests) == (
        120,
        7,
        100,
        1,
    )
    assert usage_from_response({}).prompt_tokens == 0


def test_one_slot_keeps_every_state_in_the_configured_cache(tmp_path: Path) -> None:
    from remora.providers.llama_engine import EngineKey, build_params

    params = build_params(EngineKey.create(tmp_path / "m.gguf", 1, 4096, 2, prompt_cache_mib=96))
    assert params.cache_ram_mib == 96
    # One slot saves what it held before any new request, however alike the prompts;
    # with more, llama.cpp picks the slot whose prompt is most alike.
    assert params.slot_prompt_similarity == 0.0
    several = build_params(EngineKey.create(tmp_path / "m.gguf", 2, 4096, 2))
    assert several.slot_prompt_similarity == pytest.approx(0.1)


def _libgomp_spin_count(env: dict[str, str]) -> str:
    """GOMP_SPINCOUNT as libgomp itself reports it when xllamacpp loads it."""
    code = "from remora.providers.llama_engine import import_xllamacpp; import_xllamacpp()"
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("GOMP_", "OMP_"))}
    done = subprocess.run(
        [sys.executable, "-c", code],
        env={**clean, **env, "OMP_DISPLAY_ENV": "VERBOSE"},
        capture_output=True,
        text=True,
        check=True,
    )
    (line,) = [x for x in done.stderr.splitlines() if "GOMP_SPINCOUNT" in x]
    return line.split("=", 1)[1].strip().strip("'")


def test_libgomp_spins_briefly_unless_the_user_chose() -> None:
    assert _libgomp_spin_count({}) == "30000"
    assert _libgomp_spin_count({"GOMP_SPINCOUNT": "500"}) == "500"
    assert _libgomp_spin_count({"OMP_WAIT_POLICY": "PASSIVE"}) == "0"
