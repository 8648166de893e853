"""The one-call grammar: forced text goes into the prompt or is filled in by the host."""

from __future__ import annotations

import json

from remora.conversation import ToolSpec
from remora.providers.call_grammar import call_grammar
from remora.providers.schema_calls import CallPlan, parse_calls

FIX = ToolSpec(
    "edit_node",
    "Fix one finding.",
    {
        "type": "object",
        "properties": {"issue_code": {"type": "string"}, "replacement": {"type": "string"}},
        "required": ["issue_code", "replacement"],
        "additionalProperties": False,
    },
)
SUBMIT = ToolSpec(
    "submit_result",
    "Finish.",
    {"type": "object", "properties": {}, "additionalProperties": False},
)
# No "additionalProperties": false, so the model may still give arguments.
OPEN = ToolSpec("note", "Note something.", {"type": "object"})


def test_the_opening_is_prefilled_and_the_grammar_starts_at_the_name() -> None:
    call = call_grammar(CallPlan((FIX, SUBMIT), None, 1))
    assert call is not None
    assert call.prefill == '{"name": "'
    header, start, *rules = call.grammar.splitlines()
    assert header == "%llguidance {}"
    assert start == ('start: "edit_node\\", \\"arguments\\": " args_0 "}" | "submit_result"')
    (rule,) = rules
    name, schema = rule.split(": %json ", 1)
    assert name == "args_0"
    arguments = json.loads(schema)
    assert list(arguments["properties"]) == ["issue_code", "replacement"]  # declared order
    assert arguments["x-guidance"]["whitespace_flexible"] is False


def test_an_argumentless_call_is_completed_as_the_full_grammar_would_write_it() -> None:
    plan = CallPlan((FIX, SUBMIT), None, 1)
    call = call_grammar(plan)
    assert call is not None
    text = call.output("submit_result")
    assert text == '{"name": "submit_result", "arguments": {}}'
    parsed = parse_calls(text, plan)
    assert parsed.error is None
    (tool_call,) = parsed.message.tool_calls
    assert (tool_call.name, tool_call.arguments) == ("submit_result", {})


def test_a_call_with_arguments_is_the_prefill_and_what_the_model_wrote() -> None:
    plan = CallPlan((FIX, SUBMIT), None, 1)
    call = call_grammar(plan)
    assert call is not None
    generated = 'edit_node", "arguments": {"issue_code": "E711", "replacement": "x is None"}}'
    parsed = parse_calls(call.output(generated), plan)
    assert parsed.error is None
    (tool_call,) = parsed.message.tool_calls
    assert tool_call.arguments == {"issue_code": "E711", "replacement": "x is None"}


def test_an_open_schema_and_the_text_reply_keep_their_arguments() -> None:
    call = call_grammar(CallPlan((OPEN,), "reply", 1))
    assert call is not None
    assert call.argumentless == frozenset()
    assert '"note\\", \\"arguments\\": " args_0' in call.grammar
    assert '"reply\\", \\"arguments\\": " args_1' in call.grammar
    assert call.output("note") == '{"name": "note'  # not completed: an error to report


def test_plain_text_and_several_calls_keep_the_schema_grammar() -> None:
    assert call_grammar(CallPlan((), None, 1)) is None
    assert call_grammar(CallPlan((FIX, SUBMIT), None, 3)) is None
