"""The llm provider through the real llm-ollama plugin, against a local fake Ollama.

The fake implements what llm-ollama 0.19 calls (``/api/tags``, ``/api/show`` for
capabilities, ``/api/chat``), so these tests run llm's model registry, the
plugin's message conversion and the ollama client for real, and check both what
goes over the wire and what comes back as a ModelTurn.
"""

from __future__ import annotations

import asyncio
import json
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from providers_http_doubles import FakeOllama

from remora.config import ModelConfig
from remora.conversation import Message, ModelRequest, ToolCall, ToolResult, ToolSpec
from remora.errors import AGENT_MODEL_UNAVAILABLE, CONFIG_INVALID_VALUE, RemoraError
from remora.profiles import BUILTIN_PROFILES, ModelProfile
from remora.providers.base import ProviderError
from remora.providers.factory import create_provider
from remora.providers.llm_provider import LLMProvider
from remora.providers.schema_calls import render_tools_prompt, tool_union_schema

TOOLS = (
    ToolSpec(
        "run_linter",
        "Run ruff and list the issues.",
        {"type": "object", "properties": {}, "additionalProperties": False},
    ),
    ToolSpec(
        "apply_fix",
        "Apply ruff's fix for one rule code.",
        {
            "type": "object",
            "properties": {"issue_code": {"type": "string", "description": "e.g. F401"}},
            "required": ["issue_code"],
            "additionalProperties": False,
        },
    ),
)
SYSTEM = "You fix Python lint issues."
NODE = "function f in a.py:\n```python\nimport os\ndef f(): pass\n```"


@pytest.fixture
def ollama(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeOllama]:
    server = FakeOllama(
        models={
            "qwen3:4b": ["completion", "tools"],
            "smollm2:135m": ["completion"],
            "functiongemma:270m": ["completion", "tools"],
        },
        digest_salt=uuid.uuid4().hex[:12],
    ).start()
    # llm's config (and llm-ollama's capability cache) live in the test's tmp dir.
    monkeypatch.setenv("LLM_USER_PATH", str(tmp_path / "llm"))
    monkeypatch.setenv("OLLAMA_HOST", server.url)
    monkeypatch.delenv("OLLAMA_API_KEY", raising=False)
    from llm_ollama import registry  # type: ignore[import-untyped]

    previous = registry.cache.cache_dir
    registry.cache.set_dir(tmp_path / "llm-ollama-cache")
    try:
        yield server
    finally:
        registry.cache.cache_dir = previous
        server.close()


def _provider(model_id: str, profile: ModelProfile | None = None) -> LLMProvider:
    return LLMProvider(model_id=model_id, profile=profile or BUILTIN_PROFILES["default"])


def _request(*extra: Message, tool_choice: str = "auto") -> ModelRequest:
    messages = (Message.system(SYSTEM), Message.user(NODE), *extra)
    return ModelRequest(messages, TOOLS, tool_choice, max_tokens=200, temperature=0.0)


def _call(name: str, arguments: dict[str, Any]) -> dict[str, Any]:
    return {"function": {"name": name, "arguments": arguments}}


async def test_native_calls_come_back_in_order(ollama: FakeOllama) -> None:
    ollama.reply(
        {"tool_calls": [_call("run_linter", {}), _call("apply_fix", {"issue_code": "F401"})]}
    )
    turn = await _provider("ollama/qwen3:4b").complete(_request())

    assert turn.finish == "tool_calls"
    assert [(c.name, c.arguments) for c in turn.message.tool_calls] == [
        ("run_linter", {}),
        ("apply_fix", {"issue_code": "F401"}),
    ]
    ids = [c.id for c in turn.message.tool_calls]
    assert len(set(ids)) == 2 and all(ids)
    assert (turn.usage.prompt_tokens, turn.usage.completion_tokens) == (31, 7)

    sent = ollama.chats[0]
    assert sent["model"] == "qwen3:4b" and sent["stream"] is False
    assert sent["messages"] == [
        {"role": "system", "content": SYSTEM},
        {"role": "user", "content": NODE},
    ]
    assert [t["function"]["name"] for t in sent["tools"]] == ["run_linter", "apply_fix"]
    fix = sent["tools"][1]["function"]
    assert fix["description"] == "Apply ruff's fix for one rule code."
    assert fix["parameters"]["required"] == ["issue_code"]
    assert fix["parameters"]["properties"]["issue_code"]["type"] == "string"
    assert sent["options"] == {"temperature": 0.0, "num_predict": 200}


async def test_history_goes_over_as_tool_messages(ollama: FakeOllama) -> None:
    ollama.reply({"content": "Fixed F401."})
    calls = (ToolCall("c1", "run_linter", {}), ToolCall("c2", "apply_fix", {"issue_code": "F401"}))
    results = (
        ToolResult("c1", "run_linter", {"ok": True, "result": {"issues": ["F401"]}}),
        ToolResult("c2", "apply_fix", {"ok": True, "result": {"fixed": 1}}),
    )
    turn = await _provider("ollama/qwen3:4b").complete(
        _request(Message.assistant("", calls), Message.tool_results(results))
    )
    assert turn.finish == "stop"
    assert turn.message.text == "Fixed F401."
    messages = ollama.chats[0]["messages"]
    assert messages[2]["role"] == "assistant"
    assert messages[2]["tool_calls"] == [
        _call("run_linter", {}),
        _call("apply_fix", {"issue_code": "F401"}),
    ]
    assert not messages[2].get("content")
    assert messages[3:] == [
        {"role": "tool", "content": json.dumps(results[0].payload), "tool_name": "run_linter"},
        {"role": "tool", "content": json.dumps(results[1].payload), "tool_name": "apply_fix"},
    ]


async def test_tool_choice_none_and_named(ollama: FakeOllama) -> None:
    ollama.reply({"content": "ok"})
    ollama.reply({"tool_calls": [_call("apply_fix", {"issue_code": "E501"})]})
    provider = _provider("ollama/qwen3:4b")
    await provider.complete(_request(tool_choice="none"))
    await provider.complete(_request(tool_choice="apply_fix"))
    assert not ollama.chats[0]["tools"]  # the ollama client always sends the key
    assert [t["function"]["name"] for t in ollama.chats[1]["tools"]] == ["apply_fix"]


async def test_model_without_tools_gets_a_schema_as_format(ollama: FakeOllama) -> None:
    # llm-ollama supports schemas on every chat model and sends them as `format`.
    ollama.reply({"content": '[{"name": "apply_fix", "arguments": {"issue_code": "F401"}}]'})
    turn = await _provider("ollama/smollm2:135m").complete(_request(tool_choice="required"))

    assert turn.finish == "tool_calls"
    assert [(c.name, c.arguments) for c in turn.message.tool_calls] == [
        ("apply_fix", {"issue_code": "F401"})
    ]
    sent = ollama.chats[0]
    assert not sent["tools"]
    # "required" under the default profile: one or more calls, no text reply.
    assert sent["format"] == tool_union_schema(TOOLS, max_calls=0)
    system = sent["messages"][0]
    assert system["role"] == "system"
    assert system["content"] == f"{SYSTEM}\n\n{render_tools_prompt(TOOLS, parallel=True)}"


async def test_schema_history_for_model_without_tools(ollama: FakeOllama) -> None:
    ollama.reply({"content": '[{"name": "reply", "arguments": {"text": "All clean."}}]'})
    call = ToolCall("c1", "run_linter", {})
    result = ToolResult("c1", "run_linter", {"ok": True, "result": {"issues": []}})
    turn = await _provider("ollama/smollm2:135m").complete(
        _request(Message.assistant("", (call,)), Message.tool_results((result,)))
    )
    assert turn.finish == "stop" and turn.message.text == "All clean."
    messages = ollama.chats[0]["messages"]
    assert messages[2] == {
        "role": "assistant",
        "content": '{"name": "run_linter", "arguments": {}}',
    }
    assert messages[3] == {
        "role": "user",
        "content": 'Result of run_linter: {"issues": []}',
    }


FG_TEXT = BUILTIN_PROFILES["functiongemma_text"]  # model.profile: functiongemma_text


async def test_functiongemma_tags_in_text_mode(ollama: FakeOllama) -> None:
    ollama.reply(
        {
            "content": "<start_function_call>call:apply_fix{issue_code:<escape>F401"
            "<escape>}<end_function_call>"
        }
    )
    config = ModelConfig(provider="llm", id="ollama/functiongemma:270m", profile=FG_TEXT.name)
    turn = await create_provider(config).complete(_request())
    assert [(c.name, c.arguments) for c in turn.message.tool_calls] == [
        ("apply_fix", {"issue_code": "F401"})
    ]
    sent = ollama.chats[0]
    assert not sent["tools"]  # the profile asks for text even though Ollama has tools
    assert (
        "You are a model that can do function calling with the following functions"
        "<start_function_declaration>declaration:run_linter{" in sent["messages"][0]["content"]
    )
    assert sent["options"]["stop"] == ["<start_function_response>"]


async def test_unterminated_functiongemma_call_is_an_invalid_turn(ollama: FakeOllama) -> None:
    ollama.reply({"content": "<start_function_call>call:apply_fix{issue_code:<escape>F4"})
    turn = await _provider("ollama/functiongemma:270m", FG_TEXT).complete(_request())
    assert turn.finish == "invalid"
    assert turn.error is not None and "unterminated" in turn.error
    assert turn.message.tool_calls == []


async def test_native_model_that_writes_a_call_as_text(ollama: FakeOllama) -> None:
    ollama.reply({"content": '{"name": "run_linter", "arguments": {}}'})
    ollama.reply({"content": '{"name": "rm_rf", "arguments": {}}'})
    provider = _provider("ollama/qwen3:4b")
    turn = await provider.complete(_request())
    assert [c.name for c in turn.message.tool_calls] == ["run_linter"]
    assert turn.message.text == ""
    # Natively, text naming no tool of ours stays text.
    other = await provider.complete(_request())
    assert other.finish == "stop" and other.message.tool_calls == []


async def test_empty_reply_is_invalid(ollama: FakeOllama) -> None:
    ollama.reply({"content": ""})
    turn = await _provider("ollama/qwen3:4b").complete(_request())
    assert turn.finish == "invalid"
    assert turn.error == "the model returned nothing"


async def test_length_finish(ollama: FakeOllama) -> None:
    ollama.reply({"content": "The function imports os but"}, done_reason="length")
    turn = await _provider("ollama/qwen3:4b").complete(_request())
    assert turn.finish == "length"


async def test_unknown_model_is_agent_002_naming_it(ollama: FakeOllama) -> None:
    provider = _provider("ollama/no-such-model:1b")
    with pytest.raises(ProviderError) as caught:
        await provider.complete(_request())
    assert caught.value.code == AGENT_MODEL_UNAVAILABLE
    assert "'ollama/no-such-model:1b'" in caught.value.message
    assert "llm models" in caught.value.message
    availability = await provider.check()
    assert not availability.ok
    assert "no-such-model" in availability.reason and "llm install" in availability.hint


async def test_server_error_is_agent_002(ollama: FakeOllama) -> None:
    ollama.replies.append((500, {"error": "model runner has unexpectedly stopped"}))
    with pytest.raises(ProviderError) as caught:
        await _provider("ollama/qwen3:4b").complete(_request())
    assert caught.value.code == AGENT_MODEL_UNAVAILABLE
    assert "unexpectedly stopped" in caught.value.message


async def test_check_ok_and_factory_profile(ollama: FakeOllama) -> None:
    provider = create_provider(ModelConfig(provider="llm", id="ollama/functiongemma:270m"))
    assert isinstance(provider, LLMProvider)
    assert provider.profile.name == "functiongemma"
    assert (await provider.check()).ok
    await provider.aclose()


async def test_missing_key_env_is_agent_002(
    ollama: FakeOllama, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("REMORA_TEST_LLM_KEY", raising=False)
    config = ModelConfig(provider="llm", id="ollama/qwen3:4b", api_key_env="REMORA_TEST_LLM_KEY")
    provider = create_provider(config)
    with pytest.raises(ProviderError) as caught:
        await provider.complete(_request())
    assert "REMORA_TEST_LLM_KEY is not set" in caught.value.message
    availability = await provider.check()
    assert not availability.ok
    assert availability.hint.startswith("export REMORA_TEST_LLM_KEY=")


def test_base_url_is_a_config_error() -> None:
    config = ModelConfig(provider="llm", id="gpt-4o-mini", base_url="http://127.0.0.1:1/v1")
    with pytest.raises(RemoraError) as caught:
        create_provider(config)
    assert caught.value.code == CONFIG_INVALID_VALUE


async def test_concurrent_agents_share_one_resolution(ollama: FakeOllama) -> None:
    for index in range(4):
        ollama.reply({"content": f"answer {index}"})
    provider = _provider("ollama/qwen3:4b")
    turns = await asyncio.gather(*(provider.complete(_request()) for _ in range(4)))
    assert sorted(t.message.text for t in turns) == [f"answer {i}" for i in range(4)]
    assert ollama.server is not None
    tags = [r for r in ollama.server.requests if r.path == "/api/tags"]
    assert len(tags) == 1  # the model list was read once for all four
