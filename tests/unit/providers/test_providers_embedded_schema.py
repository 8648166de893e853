"""schema_calls: the per-turn union schema, prompt rendering, and parsing output back."""

from __future__ import annotations

import json
from typing import Any

import jsonschema
import pytest

from remora.conversation import Message, ModelRequest, Text, ToolCall, ToolResult, ToolSpec, Usage
from remora.profiles import BUILTIN_PROFILES
from remora.providers.schema_calls import (
    RAW_KEY,
    CallPlan,
    parse_calls,
    plan_turn,
    prompted_turn,
    render_messages,
    render_tools_prompt,
    tool_union_schema,
)

SMOLLM = BUILTIN_PROFILES["smollm"]
DEFAULT = BUILTIN_PROFILES["default"]

FIX = ToolSpec(
    "apply_fix",
    "Apply ruff's fix for one rule.",
    {
        "type": "object",
        "properties": {"issue_code": {"type": "string"}},
        "required": ["issue_code"],
        "additionalProperties": False,
    },
)
LINT = ToolSpec(
    "run_linter", "Run ruff.", {"type": "object", "properties": {}, "additionalProperties": False}
)
SUBMIT = ToolSpec(
    "submit_result",
    "Finish.",
    {"type": "object", "properties": {"summary": {"type": "string"}}, "required": ["summary"]},
)
TOOLS = (LINT, FIX, SUBMIT)


def _request(choice: str = "auto", tools: tuple[ToolSpec, ...] = TOOLS) -> ModelRequest:
    return ModelRequest((Message.system("sys"), Message.user("go")), tools, tool_choice=choice)


def _valid(schema: dict[str, Any], value: Any) -> bool:
    return jsonschema.Draft202012Validator(schema).is_valid(value)


def test_smollm_auto_is_constrained_to_a_single_call() -> None:
    plan = plan_turn(_request("auto"), SMOLLM)
    assert [t.name for t in plan.tools] == ["run_linter", "apply_fix", "submit_result"]
    assert plan.text_name is None  # smollm requires tool calls
    assert plan.max_calls == 1
    fmt = plan.response_format()
    assert fmt is not None and fmt["type"] == "json_schema"
    schema = fmt["json_schema"]["schema"]
    assert _valid(schema, {"name": "apply_fix", "arguments": {"issue_code": "F401"}})
    assert _valid(schema, {"name": "run_linter", "arguments": {}})
    assert not _valid(schema, {"name": "apply_fix", "arguments": {}})  # missing required
    assert not _valid(schema, {"name": "run_linter", "arguments": {"x": 1}})  # extra key
    assert not _valid(schema, {"name": "delete_all", "arguments": {}})
    assert not _valid(schema, [{"name": "run_linter", "arguments": {}}])


def test_forced_tool_name_allows_only_that_tool() -> None:
    plan = plan_turn(_request("submit_result"), SMOLLM)
    assert [t.name for t in plan.tools] == ["submit_result"]
    fmt = plan.response_format()
    assert fmt is not None
    schema = fmt["json_schema"]["schema"]
    assert _valid(schema, {"name": "submit_result", "arguments": {"summary": "ok"}})
    assert not _valid(schema, {"name": "run_linter", "arguments": {}})


def test_unknown_forced_tool_is_a_programming_error() -> None:
    with pytest.raises(ValueError, match="names no tool"):
        plan_turn(_request("nope"), SMOLLM)


def test_none_and_no_tools_give_plain_text() -> None:
    assert plan_turn(_request("none"), SMOLLM).response_format() is None
    assert plan_turn(_request("auto", ()), SMOLLM).response_format() is None


def test_auto_without_required_calls_offers_a_text_reply() -> None:
    plan = plan_turn(_request("auto"), DEFAULT)
    assert plan.text_name == "reply"
    assert plan.max_calls == 0  # default profile: parallel calls, unbounded
    fmt = plan.response_format()
    assert fmt is not None
    schema = fmt["json_schema"]["schema"]
    assert schema["type"] == "array"
    assert _valid(schema, [{"name": "reply", "arguments": {"text": "hi"}}])
    assert _valid(
        schema,
        [
            {"name": "run_linter", "arguments": {}},
            {"name": "apply_fix", "arguments": {"issue_code": "E1"}},
        ],
    )
    assert not _valid(schema, [])
    assert plan_turn(_request("required"), DEFAULT).text_name is None


def test_text_name_avoids_a_tool_called_reply() -> None:
    reply = ToolSpec("reply", "A real tool.", {"type": "object"})
    assert plan_turn(_request("auto", (reply,)), DEFAULT).text_name == "__reply__"


def test_bounded_parallel_calls_set_max_items() -> None:
    schema = tool_union_schema(TOOLS, max_calls=2)
    assert schema["maxItems"] == 2
    assert not _valid(schema, [{"name": "run_linter", "arguments": {}}] * 3)


def test_tools_prompt_lists_every_tool_and_no_example_call() -> None:
    prompt = render_tools_prompt(TOOLS)
    for tool in TOOLS:
        assert f"- {tool.name}: {tool.description}" in prompt
    assert '"issue_code"' in prompt
    assert "F401" not in prompt  # no worked example for the model to copy


def test_render_messages_puts_tools_in_system_and_results_as_user() -> None:
    call = ToolCall("c1", "apply_fix", {"issue_code": "F401"})
    messages = (
        Message.system("You fix lint."),
        Message.user("code here"),
        Message.assistant(calls=(call,)),
        Message.tool_results((ToolResult("c1", "apply_fix", {"ok": True, "result": 1}),)),
        Message.user("[Context] ruff config"),
    )
    out = render_messages(messages, "TOOLS")
    assert [m["role"] for m in out] == ["system", "user", "assistant", "user"]
    assert out[0]["content"] == "You fix lint.\n\nTOOLS"
    assert json.loads(out[2]["content"]) == {
        "name": "apply_fix",
        "arguments": {"issue_code": "F401"},
    }
    # A plain success is its result alone; the envelope's ok and empty prints only cost tokens.
    assert out[3]["content"] == "Result of apply_fix: 1\n\n[Context] ruff config"


def test_a_failure_or_a_result_with_prints_keeps_the_envelope() -> None:
    failure = {"ok": False, "error": {"code": "runtime_error", "message": "boom", "details": {}}}
    printed = {"ok": True, "result": [1], "prints": "checked 3 files\n"}
    plain = {"ok": True, "result": {"issues": []}, "prints": ""}
    results = tuple(
        ToolResult(f"c{i}", "run_linter", payload)
        for i, payload in enumerate((failure, printed, plain))
    )
    (out,) = render_messages((Message.tool_results(results),))
    lines = out["content"].splitlines()
    assert [json.loads(line.split(": ", 1)[1]) for line in lines] == [
        failure,
        printed,
        {"issues": []},
    ]


def test_render_messages_repeats_the_raw_output_exactly() -> None:
    raw = '{\n  "name": "run_linter",\n  "arguments": {}\n}'
    call = ToolCall("c1", "run_linter", {}, {RAW_KEY: raw})
    out = render_messages((Message.user("go"), Message.assistant(calls=(call,))), "T")
    assert out[0] == {"role": "system", "content": "T"}
    assert out[2]["content"] == raw


def test_parse_single_call_keeps_raw_output() -> None:
    plan = plan_turn(_request(), SMOLLM)
    raw = '{"name": "apply_fix", "arguments": {"issue_code": "F401"}}'
    parsed = parse_calls(raw, plan)
    assert parsed.error is None
    (call,) = parsed.message.tool_calls
    assert (call.name, call.arguments) == ("apply_fix", {"issue_code": "F401"})
    assert call.provider_data == {RAW_KEY: raw}
    assert call.id.startswith("call_")


def test_parse_array_with_text_reply() -> None:
    plan = plan_turn(_request(), DEFAULT)
    raw = json.dumps(
        [{"name": "reply", "arguments": {"text": "done"}}, {"name": "run_linter", "arguments": {}}]
    )
    parsed = parse_calls(raw, plan)
    assert parsed.error is None
    assert parsed.message.text == "done"
    assert [c.name for c in parsed.message.tool_calls] == ["run_linter"]


@pytest.mark.parametrize(
    ("raw", "fragment"),
    [
        ("not json", "not JSON"),
        ('{"name": "apply_fix", "arguments": [1]}', "must be a JSON object"),
        ('{"arguments": {}}', '"name"'),
        ('{"name": "rm_rf", "arguments": {}}', "'rm_rf'"),
        ("[]", "no call"),
    ],
)
def test_parse_errors_say_what_was_wrong(raw: str, fragment: str) -> None:
    parsed = parse_calls(raw, plan_turn(_request(), SMOLLM))
    assert parsed.error is not None and fragment in parsed.error
    assert parsed.message.tool_calls == []


def test_parse_accepts_a_fenced_object() -> None:
    raw = '```json\n{"name": "run_linter", "arguments": {}}\n```'
    parsed = parse_calls(raw, plan_turn(_request(), SMOLLM))
    assert parsed.error is None and parsed.message.tool_calls[0].name == "run_linter"


def test_prompted_turn_finishes() -> None:
    plan = plan_turn(_request(), SMOLLM)
    usage = Usage(10, 5, 2, 1)
    ok = prompted_turn('{"name": "run_linter", "arguments": {}}', "stop", plan, usage, None, 64)
    assert ok.finish == "tool_calls" and ok.usage == usage
    cut = prompted_turn('{"name": "apply_fix", "argu', "length", plan, usage, None, 64)
    assert cut.finish == "invalid" and cut.error is not None and "max_tokens=64" in cut.error
    text_plan = CallPlan((), None, 1)
    text = prompted_turn("hello", "length", text_plan, usage, None, 64)
    assert text.finish == "length" and text.message.parts == (Text("hello"),)
