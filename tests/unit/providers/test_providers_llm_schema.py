"""The llm provider's schema mode: a model without native tools (or a profile that
wants none) but with ``supports_schema`` gets each turn constrained by the union
over the tools allowed this turn, and its JSON reply parsed into ToolCalls.

Models are registered through llm's own ``extra-openai-models.yaml`` and served by
a local fake OpenAI-compatible server, so llm's registry, its OpenAI plugin (which
turns ``schema=`` into ``response_format``) and the openai client run for real.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import llm
import pytest
from providers_http_doubles import FakeOpenAIChat

from remora.config import ModelConfig
from remora.conversation import Message, ModelRequest, ToolResult, ToolSpec
from remora.profiles import BUILTIN_PROFILES, ModelProfile
from remora.providers.factory import create_provider
from remora.providers.llm_provider import LLMProvider
from remora.providers.schema_calls import RAW_KEY, render_tools_prompt, tool_union_schema

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
            "properties": {"issue_code": {"type": "string", "maxLength": 12}},
            "required": ["issue_code"],
            "additionalProperties": False,
        },
    ),
)
SYSTEM = "You fix Python lint issues."
NODE = "function f in a.py:\n```python\nimport os\ndef f(): pass\n```"
SMOLLM = BUILTIN_PROFILES["smollm"]  # one call per turn, calls required, no native tools
DEFAULT = BUILTIN_PROFILES["default"]


@pytest.fixture
def server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeOpenAIChat]:
    fake = FakeOpenAIChat().start()
    user_dir = tmp_path / "llm"
    user_dir.mkdir()
    entries = {
        "schema-model": "  supports_schema: true\n",
        "tools-schema-model": "  supports_schema: true\n  supports_tools: true\n",
        "text-model": "",
    }
    (user_dir / "extra-openai-models.yaml").write_text(
        "".join(
            f"- model_id: {model_id}\n  model_name: {fake.model}\n  api_base: {fake.url}\n{extra}"
            for model_id, extra in entries.items()
        )
    )
    monkeypatch.setenv("LLM_USER_PATH", str(user_dir))
    try:
        yield fake
    finally:
        fake.close()


def _provider(model_id: str, profile: ModelProfile = SMOLLM) -> LLMProvider:
    return LLMProvider(model_id=model_id, profile=profile)


def _request(*extra: Message, tool_choice: str = "auto") -> ModelRequest:
    messages = (Message.system(SYSTEM), Message.user(NODE), *extra)
    return ModelRequest(messages, TOOLS, tool_choice, max_tokens=64, temperature=0.0)


def _schema_sent(body: dict[str, object]) -> object:
    response_format = body["response_format"]
    assert isinstance(response_format, dict)
    assert response_format["type"] == "json_schema"
    return response_format["json_schema"]["schema"]


async def test_the_reply_is_constrained_by_the_tool_union(server: FakeOpenAIChat) -> None:
    raw = '{"name": "apply_fix", "arguments": {"issue_code": "F401"}}'
    server.reply(
        raw,
        usage={
            "prompt_tokens": 120,
            "completion_tokens": 14,
            "total_tokens": 134,
            "prompt_tokens_details": {"cached_tokens": 96},
        },
    )
    provider = _provider("schema-model")
    assert provider.mode(llm.get_async_model("schema-model")) == "schema"
    turn = await provider.complete(_request())

    assert turn.finish == "tool_calls" and turn.error is None
    (call,) = turn.message.tool_calls
    assert (call.name, call.arguments) == ("apply_fix", {"issue_code": "F401"})
    # The exact output rides along, so the next prompt repeats it byte for byte.
    assert call.provider_data == {RAW_KEY: raw}
    assert (turn.usage.prompt_tokens, turn.usage.completion_tokens) == (120, 14)
    assert turn.usage.cached_tokens == 96

    (sent,) = server.chats
    assert "tools" not in sent
    assert _schema_sent(sent) == tool_union_schema(TOOLS)  # smollm: one call, no text
    assert sent["messages"] == [
        {"role": "system", "content": f"{SYSTEM}\n\n{render_tools_prompt(TOOLS)}"},
        {"role": "user", "content": NODE},
    ]
    assert sent["max_tokens"] == 64 and sent["temperature"] == 0.0


async def test_history_repeats_the_raw_call_and_results_as_user_text(
    server: FakeOpenAIChat,
) -> None:
    raw = '{"name":"run_linter","arguments":{}}'
    server.reply(raw)
    server.reply('{"name": "apply_fix", "arguments": {"issue_code": "F401"}}')
    provider = _provider("schema-model")
    first = await provider.complete(_request())
    (call,) = first.message.tool_calls
    result = ToolResult(call.id, call.name, {"ok": True, "result": {"issues": ["F401"]}})
    second = await provider.complete(_request(first.message, Message.tool_results((result,))))

    assert [c.name for c in second.message.tool_calls] == ["apply_fix"]
    messages = server.chats[1]["messages"]
    assert messages[2] == {"role": "assistant", "content": raw}
    assert messages[3] == {
        "role": "user",
        "content": 'Result of run_linter: {"issues": ["F401"]}',
    }
    # The system prompt lists every tool on every turn: the prompt cache keeps serving it.
    assert messages[0] == server.chats[0]["messages"][0]


async def test_a_named_tool_choice_allows_only_that_tool(server: FakeOpenAIChat) -> None:
    server.reply('{"name": "apply_fix", "arguments": {"issue_code": "E501"}}')
    turn = await _provider("schema-model").complete(_request(tool_choice="apply_fix"))
    assert [c.name for c in turn.message.tool_calls] == ["apply_fix"]
    assert _schema_sent(server.chats[0]) == tool_union_schema(TOOLS[1:])


async def test_auto_with_parallel_calls_allows_an_array_and_a_text_reply(
    server: FakeOpenAIChat,
) -> None:
    server.reply(
        '[{"name": "run_linter", "arguments": {}}, '
        '{"name": "apply_fix", "arguments": {"issue_code": "F401"}}]'
    )
    server.reply('[{"name": "reply", "arguments": {"text": "Nothing to fix."}}]')
    provider = _provider("schema-model", DEFAULT)
    turn = await provider.complete(_request())
    assert [c.name for c in turn.message.tool_calls] == ["run_linter", "apply_fix"]
    assert _schema_sent(server.chats[0]) == tool_union_schema(TOOLS, text_name="reply", max_calls=0)
    answer = await provider.complete(_request())
    assert answer.finish == "stop" and answer.message.text == "Nothing to fix."
    assert answer.message.tool_calls == []


async def test_tool_choice_none_is_a_plain_text_turn(server: FakeOpenAIChat) -> None:
    server.reply("The import of os is unused.")
    turn = await _provider("schema-model").complete(_request(tool_choice="none"))
    assert turn.finish == "stop" and turn.message.text == "The import of os is unused."
    assert "response_format" not in server.chats[0]


async def test_output_that_is_not_json_is_an_invalid_turn(server: FakeOpenAIChat) -> None:
    server.reply("I will call apply_fix now")
    server.reply('{"name": "apply_fix", "arguments": {"issue_co', finish_reason="length")
    server.reply('{"name": "rm_rf", "arguments": {}}')
    provider = _provider("schema-model")
    prose = await provider.complete(_request())
    assert prose.finish == "invalid" and prose.message.tool_calls == []
    assert prose.error is not None and "not JSON" in prose.error
    cut = await provider.complete(_request())
    assert cut.finish == "invalid"
    assert cut.error is not None and cut.error.startswith("output cut off at max_tokens=64")
    assert cut.error.endswith("the reply must be shorter: fewer or shorter arguments")
    unknown = await provider.complete(_request())
    assert unknown.finish == "invalid"
    assert unknown.error == "model called 'rm_rf'; allowed: apply_fix, run_linter"


async def test_a_profile_without_native_tools_overrides_supports_tools(
    server: FakeOpenAIChat,
) -> None:
    server.reply('{"name": "run_linter", "arguments": {}}')
    server.reply("No issues.")
    schema_turn = await _provider("tools-schema-model", SMOLLM).complete(_request())
    assert [c.name for c in schema_turn.message.tool_calls] == ["run_linter"]
    assert "tools" not in server.chats[0] and "response_format" in server.chats[0]
    # The default profile wants native tools: the same model gets them, no schema.
    await _provider("tools-schema-model", DEFAULT).complete(_request())
    native = server.chats[1]
    assert [t["function"]["name"] for t in native["tools"]] == ["run_linter", "apply_fix"]
    assert "response_format" not in native


async def test_without_schema_support_calls_are_parsed_from_text(server: FakeOpenAIChat) -> None:
    server.reply(
        'Fixing.\n```json\n{"name": "apply_fix", "arguments": {"issue_code": "F401"}}\n```'
    )
    provider = _provider("text-model")
    assert provider.mode(llm.get_async_model("text-model")) == "text"
    turn = await provider.complete(_request(tool_choice="required"))
    assert [(c.name, c.arguments) for c in turn.message.tool_calls] == [
        ("apply_fix", {"issue_code": "F401"})
    ]
    assert turn.message.text == "Fixing."
    sent = server.chats[0]
    assert "response_format" not in sent and "tools" not in sent
    system = sent["messages"][0]["content"]
    assert system.startswith(SYSTEM + "\n\nYou can call these tools:")
    assert system.endswith("You must call one of the tools now.")


async def test_the_factory_picks_schema_mode_for_a_smollm_model_id(
    server: FakeOpenAIChat, tmp_path: Path
) -> None:
    # A model id naming SmolLM selects the smollm profile; an alias keeps it short.
    path = tmp_path / "llm" / "extra-openai-models.yaml"
    path.write_text(
        path.read_text() + f"- model_id: smollm2-remote\n  model_name: {server.model}"
        f"\n  api_base: {server.url}\n  supports_schema: true\n"
    )
    server.reply(json.dumps({"name": "run_linter", "arguments": {}}))
    provider = create_provider(ModelConfig(provider="llm", id="smollm2-remote"))
    assert isinstance(provider, LLMProvider) and provider.profile.name == "smollm"
    assert (await provider.check()).ok
    turn = await provider.complete(_request())
    assert turn.finish == "tool_calls"
    assert _schema_sent(server.chats[0]) == tool_union_schema(TOOLS)
    await provider.aclose()
