"""FunctionGemma's text protocol: Google's documented examples byte for byte, then
the parser's edges (nesting, types, several calls, broken and unterminated calls).

The expected strings marked GOOGLE are copied from Google's page "FunctionGemma
formatting and best practices"
(https://ai.google.dev/gemma/docs/functiongemma/formatting-and-best-practices):
the Turn 1 declaration of ``get_current_weather``, the Turn 3 call, the Turn 4
response, and the "is it cold in Paris" call of the Semantic Nuances section.
"""

from __future__ import annotations

from typing import Any

import pytest

from remora.conversation import ToolSpec
from remora.providers import functiongemma as fg
from remora.providers.functiongemma import ParsedCall

# GOOGLE, "Turn 1: Tool Definition (Developer)"
GOOGLE_DECLARATION = (
    "<start_function_declaration>declaration:get_current_weather{description:<escape>Gets the "
    "current weather in a given location.<escape>,parameters:{properties:{location:{description:"
    '<escape>The city and state, e.g. "San Francisco, CA" or "Tokyo, JP"<escape>,type:<escape>'
    "STRING<escape>},unit:{description:<escape>The unit to return the temperature in.<escape>,"
    "enum:[<escape>celsius<escape>,<escape>fahrenheit<escape>],type:<escape>STRING<escape>}},"
    "required:[<escape>location<escape>],type:<escape>OBJECT<escape>}}<end_function_declaration>"
)
# GOOGLE, "Turn 3: Model Issues Function Call (Model)"
GOOGLE_CALL = (
    "<start_function_call>call:get_current_weather{location:<escape>Tokyo, Japan<escape>}"
    "<end_function_call>"
)
# GOOGLE, "Turn 4: Application Provides Function Response (Developer)"
GOOGLE_RESPONSE = (
    "<start_function_response>response:get_current_weather{temperature:15,weather:<escape>"
    "sunny<escape>}<end_function_response>"
)
# GOOGLE, "Semantic Nuances", Scenario B
GOOGLE_PARIS_CALL = (
    "<start_function_call>call:get_current_temperature{location:<escape>Paris<escape>,unit:"
    "<escape>celsius<escape>}<end_function_call>"
)
# GOOGLE, the developer turn's trigger phrase
GOOGLE_DEVELOPER_PROMPT = (
    "You are a model that can do function calling with the following functions"
)

# The JSON schema the declaration above is rendered from (the page's function).
WEATHER = ToolSpec(
    name="get_current_weather",
    description="Gets the current weather in a given location.",
    parameters={
        "type": "object",
        "properties": {
            "location": {
                "type": "string",
                "description": 'The city and state, e.g. "San Francisco, CA" or "Tokyo, JP"',
            },
            "unit": {
                "type": "string",
                "enum": ["celsius", "fahrenheit"],
                "description": "The unit to return the temperature in.",
            },
        },
        "required": ["location"],
        "additionalProperties": False,
    },
)


def test_google_declaration_byte_for_byte() -> None:
    assert fg.render_declaration(WEATHER) == GOOGLE_DECLARATION
    assert fg.DEVELOPER_PROMPT == GOOGLE_DEVELOPER_PROMPT


def test_google_call_and_response_byte_for_byte() -> None:
    assert fg.render_call("get_current_weather", {"location": "Tokyo, Japan"}) == GOOGLE_CALL
    assert (
        fg.render_call("get_current_temperature", {"unit": "celsius", "location": "Paris"})
        == GOOGLE_PARIS_CALL
    )
    payload = {"weather": "sunny", "temperature": 15}
    assert fg.render_response("get_current_weather", payload) == GOOGLE_RESPONSE


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (GOOGLE_CALL, ParsedCall("get_current_weather", {"location": "Tokyo, Japan"})),
        (
            GOOGLE_PARIS_CALL,
            ParsedCall("get_current_temperature", {"location": "Paris", "unit": "celsius"}),
        ),
    ],
)
def test_google_calls_parse(text: str, expected: ParsedCall) -> None:
    result = fg.parse_calls(text)
    assert result.calls == [expected]
    assert result.errors == [] and result.text == ""


def test_declaration_of_nested_objects_arrays_and_nullable() -> None:
    tool = ToolSpec(
        "submit_result",
        "Finish.",
        {
            "type": "object",
            "properties": {
                "summary": {"type": "string"},
                "files": {"type": "array", "items": {"type": "string"}},
                "stats": {
                    "type": "object",
                    "properties": {"fixed": {"type": "integer"}, "ratio": {"type": "number"}},
                    "required": ["fixed"],
                },
                "note": {"type": ["string", "null"], "description": "Optional"},
            },
            "required": ["summary"],
        },
    )
    assert fg.render_declaration(tool) == (
        "<start_function_declaration>declaration:submit_result{description:<escape>Finish."
        "<escape>,parameters:{properties:{files:{items:{type:<escape>STRING<escape>},type:"
        "<escape>ARRAY<escape>},note:{description:<escape>Optional<escape>,nullable:true,type:"
        "<escape>STRING<escape>},stats:{properties:{fixed:{type:<escape>INTEGER<escape>},ratio:"
        "{type:<escape>NUMBER<escape>}},required:[<escape>fixed<escape>],type:<escape>OBJECT"
        "<escape>},summary:{type:<escape>STRING<escape>}},required:[<escape>summary<escape>],"
        "type:<escape>OBJECT<escape>}}<end_function_declaration>"
    )


def test_declaration_without_parameters() -> None:
    tool = ToolSpec("list_globals", "List globals.", {"type": "object", "properties": {}})
    assert fg.render_declaration(tool) == (
        "<start_function_declaration>declaration:list_globals{description:<escape>List "
        "globals.<escape>,parameters:{type:<escape>OBJECT<escape>}}<end_function_declaration>"
    )
    assert fg.render_declarations([tool, tool]).count(fg.DECLARATION_START) == 2


ROUND_TRIP: list[dict[str, Any]] = [
    {},
    {"s": 'a, {b}: [c] "quoted" <tag>'},
    {"n": 42, "neg": -7, "f": 2.5, "e": 1e-05, "t": True, "no": False, "nothing": None},
    {"nested": {"list": [1, "two", [3, {"four": 4}]], "empty": {}, "none": []}},
    {"unicode": "naïve — 東京", "multiline": "line 1\nline 2"},
]


@pytest.mark.parametrize("arguments", ROUND_TRIP)
def test_render_then_parse_round_trips(arguments: dict[str, Any]) -> None:
    text = fg.render_call("tool_x", arguments)
    assert fg.parse_calls(text).calls == [ParsedCall("tool_x", arguments)]


def test_several_calls_and_prose_around_them() -> None:
    text = (
        "Checking both.\n"
        + fg.render_call("get_weather", {"city": "Tokyo"})
        + fg.render_call("get_stock_price", {"ticker": "GOOG"})
        + "<start_function_response>"  # the engine's stop sequence, left in the text
    )
    result = fg.parse_calls(text)
    assert result.calls == [
        ParsedCall("get_weather", {"city": "Tokyo"}),
        ParsedCall("get_stock_price", {"ticker": "GOOG"}),
    ]
    assert result.text == "Checking both."
    assert result.errors == []


def test_lenient_forms_models_produce() -> None:
    text = (
        "<start_function_call>call:f{ <escape>key<escape> : <escape>v<escape> , "
        'n : 3 , word:hello, "q":"json"}'  # end tag stripped by the stop sequence
    )
    assert fg.parse_calls(text).calls == [
        ParsedCall("f", {"key": "v", "n": 3, "word": "hello", "q": "json"})
    ]


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("<start_function_call>call:f{a:<escape>unterminated", "unterminated <escape> string"),
        ("<start_function_call>call:f{a:1,b:{c:2}", "expected '}'"),
        ("<start_function_call>call:f{a:1} and then prose", "expected '<end_function_call>'"),
        ("<start_function_call>call:{a:1}<end_function_call>", "expected a function name"),
        ("<start_function_call>f{a:1}<end_function_call>", "expected 'call:'"),
        ("<start_function_call>call:f{a:}<end_function_call>", "expected a value"),
    ],
)
def test_broken_calls_are_errors_not_crashes(text: str, reason: str) -> None:
    result = fg.parse_calls(text)
    assert result.calls == []
    assert len(result.errors) == 1
    assert reason in result.errors[0]


def test_calls_before_a_broken_one_are_kept() -> None:
    text = fg.render_call("ok", {"x": 1}) + "<start_function_call>call:bad{x:<escape>oops"
    result = fg.parse_calls(text)
    assert result.calls == [ParsedCall("ok", {"x": 1})]
    assert len(result.errors) == 1


def test_text_without_calls() -> None:
    result = fg.parse_calls("The weather in Tokyo is sunny.")
    assert result.calls == [] and result.errors == []
    assert result.text == "The weather in Tokyo is sunny."


def test_render_value_rejects_unrenderable() -> None:
    with pytest.raises(TypeError):
        fg.render_value(object())


def test_grammar_names_tools_and_their_keys() -> None:
    grammar = fg.build_grammar([WEATHER], max_calls=2)
    lines = grammar.splitlines()
    assert lines[0] == "root ::= call ( ws call )?"
    assert 'key0 ::= "location" | "unit"' in lines
    assert '"<start_function_call>call:" named "<end_function_call>"' in grammar
    assert 'named ::= ( "get_current_weather" "{" ( pair0 ( "," pair0 )* )? "}" )' in lines
    assert fg.build_grammar().splitlines()[0] == "root ::= call ( ws call )*"
    assert fg.build_grammar(max_calls=1).splitlines()[0] == "root ::= call"
    # Every rule referenced is defined.
    defined = {line.split(" ::= ")[0] for line in fg.FUNCTIONGEMMA_GBNF.splitlines() if line}
    assert {"root", "call", "named", "value", "string", "object", "array"} <= defined
