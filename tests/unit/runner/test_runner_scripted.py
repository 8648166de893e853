"""The scripted providers, the conversation types and the result helpers."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from remora.config import ModelConfig
from remora.conversation import Message, ModelRequest, ModelTurn, ToolCall, ToolResult, Usage
from remora.errors import RemoraError
from remora.profiles import BUILTIN_PROFILES
from remora.providers.base import Provider, ProviderError
from remora.providers.factory import create_provider
from remora.providers.scripted import (
    FunctionProvider,
    ScriptedProvider,
    call,
    load_turns,
    text_turn,
    tool_turn,
    turn_from_dict,
)
from remora.runner.messages import Transcript, format_context
from remora.runner.submission import established, submission_result

REQUEST = ModelRequest(messages=(Message.user("hi"),))


async def test_scripted_provider_answers_in_order_and_records_requests() -> None:
    provider = ScriptedProvider([text_turn("one"), tool_turn(("a", {"x": 1}))])
    assert isinstance(provider, Provider)
    first = await provider.complete(REQUEST)
    second = await provider.complete(REQUEST)
    assert first.message.text == "one" and first.finish == "stop"
    assert second.finish == "tool_calls"
    assert second.message.tool_calls[0].name == "a"
    assert second.message.tool_calls[0].arguments == {"x": 1}
    assert provider.requests == [REQUEST, REQUEST]
    with pytest.raises(ProviderError, match="no turn left after 2 request"):
        await provider.complete(REQUEST)


async def test_enqueue_and_close() -> None:
    provider = ScriptedProvider()
    provider.enqueue(text_turn("later"))
    assert provider.remaining == 1
    assert (await provider.complete(REQUEST)).message.text == "later"
    assert (await provider.check()).ok
    await provider.aclose()
    assert provider.closed


async def test_function_provider_sees_each_request() -> None:
    async def echo(request: ModelRequest) -> ModelTurn:
        return text_turn(f"{len(request.messages)} message(s)")

    provider = FunctionProvider(echo, profile=BUILTIN_PROFILES["qwen"])
    assert (await provider.complete(REQUEST)).message.text == "1 message(s)"
    assert provider.profile.name == "qwen"
    with pytest.raises(TypeError, match="expected ModelTurn"):
        await FunctionProvider(lambda r: "text").complete(REQUEST)  # type: ignore[arg-type,return-value]


def test_call_ids_are_unique() -> None:
    assert call("a").id != call("a").id
    assert call("a", id="x").id == "x"


def test_turn_from_dict_reads_the_file_format() -> None:
    turn = turn_from_dict(
        {
            "text": "thinking",
            "calls": [
                {"name": "run_linter"},
                {"name": "apply_fix", "arguments": {"issue_code": "F401"}, "id": "c9"},
            ],
            "usage": {"prompt_tokens": 5},
        }
    )
    assert turn.finish == "tool_calls" and turn.message.text == "thinking"
    assert [c.name for c in turn.message.tool_calls] == ["run_linter", "apply_fix"]
    assert turn.message.tool_calls[1].id == "c9"
    assert turn.usage.prompt_tokens == 5
    invalid = turn_from_dict({"finish": "invalid", "error": "bad JSON"})
    assert invalid.finish == "invalid" and invalid.error == "bad JSON"
    with pytest.raises(ValueError, match="unknown keys"):
        turn_from_dict({"txt": "x"})
    with pytest.raises(ValueError, match=r"calls\[0\]"):
        turn_from_dict({"calls": ["run_linter"]})
    with pytest.raises(ValueError, match="unknown finish reason"):
        turn_from_dict({"finish": "done"})


async def test_provider_scripted_in_config_reads_turns_from_model_path(tmp_path: Path) -> None:
    script = tmp_path / "turns.json"
    script.write_text(
        json.dumps(
            [
                {"calls": [{"name": "run_linter"}]},
                {"text": "all good", "delay_s": 0},
            ]
        )
    )
    provider = create_provider(ModelConfig(provider="scripted", id="demo", path=script))
    assert isinstance(provider, ScriptedProvider)
    assert (await provider.check()).ok
    assert (await provider.complete(REQUEST)).message.tool_calls[0].name == "run_linter"
    assert (await provider.complete(REQUEST)).message.text == "all good"
    yaml_script = tmp_path / "turns.yaml"
    yaml_script.write_text("- text: hello\n")
    assert load_turns(yaml_script)[0][0].message.text == "hello"


def test_a_bad_turns_file_is_a_config_error(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("text: not a list\n")
    with pytest.raises(RemoraError) as info:
        load_turns(bad)
    assert info.value.code == "CONFIG_002" and "expected a list of turns" in info.value.message
    bad.write_text("- {calls: [{arguments: {}}]}\n")
    with pytest.raises(RemoraError, match=r"turn 0\.calls\[0\]"):
        load_turns(bad)
    with pytest.raises(RemoraError, match="cannot read"):
        load_turns(tmp_path / "missing.yaml")


# ------------------------------------------------------------ conversation and transcript


def test_message_helpers() -> None:
    calls = (ToolCall("1", "a", {}), ToolCall("2", "b", {"x": 1}))
    m = Message.assistant("let me look", calls)
    assert m.text == "let me look" and m.tool_calls == list(calls)
    assert Message.assistant("", calls).parts == calls
    results = Message.tool_results((ToolResult("1", "a", {"ok": True, "result": 1}),))
    assert results.role == "tool" and results.results[0].call_id == "1"
    assert Usage(1, 2, 3, 1) + Usage(10, 20, 30, 1) == Usage(11, 22, 33, 2)


def test_transcript_snapshot_is_rebuilt_only_after_appends() -> None:
    t = Transcript("sys", "node")
    first = t.messages
    assert first is t.messages
    assert [m.role for m in first] == ["system", "user"]
    assert t.context("cfg") and not t.context("cfg")
    assert t.messages is not first and t.messages[-1].text == "[Context] cfg"
    t.assistant_text("   ")
    assert len(t.messages) == 3  # blank text is not kept
    t.corrective("the reply was empty", ["a", "b"], text_allowed=False)
    assert t.messages[-1].text == (
        "[Host] Your last reply could not be used (the reply was "
        "empty). Reply with exactly one call to one of these "
        "tools: a, b."
    )


def test_format_context_keeps_text_and_serialises_the_rest() -> None:
    assert format_context("plain") == "plain"
    assert format_context({"b": 1, "a": [1, 2]}) == '{"a": [1, 2], "b": 1}'


# ------------------------------------------------------------ results


def test_submission_fields_fill_the_result_and_the_rest_goes_to_details() -> None:
    result = submission_result(
        {
            "summary": " Fixed two. ",
            "issues_fixed": 2,
            "details": {"rules": ["F401"]},
            "changed_files": ["a.py"],
        }
    )
    assert result.status == "success" and result.summary == "Fixed two."
    assert result.details == {"rules": ["F401"], "issues_fixed": 2, "changed_files": ["a.py"]}
    assert result.changed_files == []  # filled from the workspace, not the model


def test_a_submission_without_summary_gets_one_from_its_fields() -> None:
    result = submission_result({"issues_fixed": 2, "issues_remaining": 0})
    assert result.summary == "issues_fixed=2, issues_remaining=0"
    assert submission_result({}).summary == "submitted"
    odd = submission_result({"summary": 3})
    assert odd.details == {"reported_summary": 3}


def test_established_summarises_successful_calls_and_counts_failures() -> None:
    text, facts = established(
        [
            ("run_linter", {}, {"ok": True, "result": {"issues": ["F401"]}}),
            ("apply_fix", {"issue_code": "F401"}, {"ok": False, "error": {"code": "x"}}),
            ("read_file", {"path": "a.py"}, {"ok": True, "result": "x" * 1000}),
        ]
    )
    assert text.startswith(
        'Established by tool calls: run_linter() → {"issues": ["F401"]}; read_file(path=a.py) → xxx'
    )
    assert text.endswith("(1 call(s) failed).")
    assert len(facts) == 2 and len(facts[1]["result"]) == 400
    assert established([])[0] == "No tool call completed."
