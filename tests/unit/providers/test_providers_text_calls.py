"""Tool calls parsed out of free text: the shapes small models really write."""

from __future__ import annotations

import json

import pytest

from remora.conversation import ToolCall, ToolResult, ToolSpec
from remora.providers.text_calls import (
    ParsedCall,
    parse_tool_calls,
    render_call_text,
    render_result_text,
    tools_system_prompt,
)

FIX = ParsedCall("apply_fix", {"issue_code": "F401"})
LINT = ParsedCall("run_linter", {})


@pytest.mark.parametrize(
    ("text", "calls", "rest"),
    [
        # fenced json, with prose around it
        (
            'I will fix it.\n```json\n{"name": "apply_fix", '
            '"arguments": {"issue_code": "F401"}}\n```',
            [FIX],
            "I will fix it.",
        ),
        # fence without a language, and a tool_call fence
        ('```\n{"name": "run_linter", "arguments": {}}\n```', [LINT], ""),
        ('```tool_call\n{"name": "run_linter", "arguments": {}}\n```', [LINT], ""),
        # several fenced blocks
        (
            '```json\n{"name": "run_linter", "arguments": {}}\n```\nthen\n'
            '```json\n{"name": "apply_fix", "arguments": {"issue_code": "F401"}}\n```',
            [LINT, FIX],
            "then",
        ),
        # raw json, one object and a list
        ('{"name": "apply_fix", "arguments": {"issue_code": "F401"}}', [FIX], ""),
        (
            '[{"name": "run_linter", "arguments": {}}, '
            '{"name": "apply_fix", "arguments": {"issue_code": "F401"}}]',
            [LINT, FIX],
            "",
        ),
        # a bare {"name": ...} is a call when it is the whole reply
        ('{"name": "run_linter"}', [LINT], ""),
        # other key spellings, and arguments as a JSON string (OpenAI style)
        ('{"tool": "apply_fix", "parameters": {"issue_code": "F401"}}', [FIX], ""),
        (
            '{"type": "function", "function": {"name": "apply_fix", '
            '"arguments": "{\\"issue_code\\": \\"F401\\"}"}}',
            [FIX],
            "",
        ),
        # objects embedded in prose
        (
            'First {"name": "run_linter", "arguments": {}} and then '
            '{"name": "apply_fix", "args": {"issue_code": "F401"}} done.',
            [LINT, FIX],
            "First  and then  done.",
        ),
        # FunctionGemma tags
        (
            "<start_function_call>call:apply_fix{issue_code:<escape>F401<escape>}"
            "<end_function_call>",
            [FIX],
            "",
        ),
    ],
)
def test_call_shapes(text: str, calls: list[ParsedCall], rest: str) -> None:
    result = parse_tool_calls(text)
    assert result.calls == calls
    assert result.text == rest
    assert result.errors == []


@pytest.mark.parametrize(
    "text",
    [
        "The function looks fine; nothing to change.",
        '{"name": "Alice", "age": 3} is the sample record.',  # prose JSON, no arguments
        "```python\nprint({'name': 'x', 'arguments': {}})\n```",  # code, not a call
        '{"summary": "done", "changed": true}',
    ],
)
def test_no_call_in_plain_text_or_data(text: str) -> None:
    result = parse_tool_calls(text)
    assert result.calls == []
    assert result.errors == []


def test_broken_fenced_json_is_reported() -> None:
    result = parse_tool_calls('```json\n{"name": "apply_fix", "arguments": {"issue_code": \n```')
    assert result.calls == []
    assert len(result.errors) == 1 and "not valid JSON" in result.errors[0]


def test_broken_raw_json_call_is_reported() -> None:
    # What SmolLM2 really wrote once: a call whose arguments are not JSON.
    text = '{"name": "run_linter", "arguments": {\n  "issues": {\n    "F401 unused"\n  }\n}}'
    result = parse_tool_calls(text)
    assert result.calls == []
    assert "not valid JSON" in result.errors[0]


def test_unterminated_functiongemma_call_is_reported() -> None:
    result = parse_tool_calls("<start_function_call>call:apply_fix{issue_code:<escape>F4")
    assert result.calls == []
    assert "unterminated" in result.errors[0]


TOOLS = [
    ToolSpec(
        "apply_fix",
        "Apply ruff's fix for one rule code.",
        {
            "type": "object",
            "properties": {"issue_code": {"type": "string"}},
            "required": ["issue_code"],
        },
    )
]


def test_json_system_prompt_lists_schemas_without_examples() -> None:
    prompt = tools_system_prompt(TOOLS, "json", must_call="apply_fix")
    listing, _ = json.JSONDecoder().raw_decode(prompt, prompt.index("["))
    assert listing == [
        {
            "name": "apply_fix",
            "description": TOOLS[0].description,
            "parameters": TOOLS[0].parameters,
        }
    ]
    assert '"name"' in prompt and '"arguments"' in prompt
    assert "F401" not in prompt  # no worked example for a tiny model to copy
    assert prompt.endswith("You must call the tool apply_fix now.")


def test_functiongemma_system_prompt_is_the_developer_turn() -> None:
    prompt = tools_system_prompt(TOOLS, "functiongemma")
    assert prompt.startswith(
        "You are a model that can do function calling with the following functions"
        "<start_function_declaration>declaration:apply_fix{"
    )


def test_history_renders_back_in_the_same_style() -> None:
    call = ToolCall("c1", "apply_fix", {"issue_code": "F401"})
    result = ToolResult("c1", "apply_fix", {"ok": True, "result": {"fixed": 1}})
    assert parse_tool_calls(render_call_text(call)).calls == [FIX]
    assert parse_tool_calls(render_call_text(call, "functiongemma")).calls == [FIX]
    assert render_result_text(result) == ('Tool result for apply_fix: {"fixed": 1}')
    assert render_result_text(result, "functiongemma") == (
        "<start_function_response>response:apply_fix{ok:true,result:{fixed:1}}"
        "<end_function_response>"
    )
