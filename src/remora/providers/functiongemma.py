"""FunctionGemma's text protocol: render declarations, calls and responses; parse calls.

The format follows Google's "FunctionGemma formatting and best practices" page and
the chat template the model ships with:

    <start_function_declaration>declaration:NAME{description:<escape>...<escape>,
        parameters:{properties:{...},required:[...],type:<escape>OBJECT<escape>}}<end_function_declaration>
    <start_function_call>call:NAME{key:<escape>value<escape>,n:42}<end_function_call>
    <start_function_response>response:NAME{key:value}<end_function_response>

Every string value is wrapped in ``<escape>``; keys are bare; numbers, booleans and
null are bare; objects and lists nest. Keys are rendered in sorted order, as the
template does (``dictsort``), so a rendered history matches what the model was
trained on. The parser is lenient where a model's output may be (whitespace,
escaped keys, bare strings) and strict where the structure is broken: an
unterminated call is an error, never a guess.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from remora.conversation import ToolSpec
from remora.providers.functiongemma_parser import (
    CALL_END,
    CALL_START,
    ESCAPE,
    RESPONSE_END,
    RESPONSE_START,
    ParsedCall,
    ParseResult,
    parse_calls,
)

__all__ = [
    "CALL_END",
    "CALL_START",
    "DECLARATION_END",
    "DECLARATION_START",
    "DEVELOPER_PROMPT",
    "ESCAPE",
    "FUNCTIONGEMMA_GBNF",
    "RESPONSE_END",
    "RESPONSE_START",
    "STOP_SEQUENCES",
    "ParseResult",
    "ParsedCall",
    "build_grammar",
    "parse_calls",
    "render_call",
    "render_declaration",
    "render_declarations",
    "render_response",
    "render_value",
]

DECLARATION_START = "<start_function_declaration>"
DECLARATION_END = "<end_function_declaration>"
# Google: this phrase switches the model from conversation to tool use.
DEVELOPER_PROMPT = "You are a model that can do function calling with the following functions"
# Google: <start_function_response> is an additional stop sequence for the engine,
# so the model does not invent the tool's answer after its call.
STOP_SEQUENCES: tuple[str, ...] = (RESPONSE_START,)


# ---------------------------------------------------------------- rendering


def render_value(value: Any) -> str:
    """One value in call/response syntax: strings escaped, keys bare and sorted."""
    if isinstance(value, str):
        return f"{ESCAPE}{value}{ESCAPE}"
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    if isinstance(value, int | float):
        return json.dumps(value)
    if isinstance(value, Mapping):
        inner = ",".join(f"{k}:{render_value(v)}" for k, v in sorted(value.items()))
        return "{" + inner + "}"
    if isinstance(value, list | tuple):
        return "[" + ",".join(render_value(v) for v in value) + "]"
    raise TypeError(f"cannot render {type(value).__name__} in FunctionGemma syntax")


def _fields(arguments: Mapping[str, Any]) -> str:
    return ",".join(f"{k}:{render_value(v)}" for k, v in sorted(arguments.items()))


def render_call(name: str, arguments: Mapping[str, Any]) -> str:
    """``<start_function_call>call:NAME{...}<end_function_call>``."""
    return f"{CALL_START}call:{name}{{{_fields(arguments)}}}{CALL_END}"


def render_response(name: str, payload: Any) -> str:
    """``<start_function_response>response:NAME{...}<end_function_response>``.

    A non-mapping payload is wrapped as ``{value:...}``, as the template does.
    """
    body = _fields(payload) if isinstance(payload, Mapping) else f"value:{render_value(payload)}"
    return f"{RESPONSE_START}response:{name}{{{body}}}{RESPONSE_END}"


def _type_name(schema: Mapping[str, Any]) -> tuple[str, bool]:
    """The upper-case type of a JSON schema and whether it allows null."""
    raw = schema.get("type", "string")
    if isinstance(raw, list):
        kinds = [str(t) for t in raw if t != "null"]
        return (kinds[0] if kinds else "string").upper(), "null" in raw
    return str(raw).upper(), False


def _required(items: Iterable[Any]) -> str:
    return "required:[" + ",".join(f"{ESCAPE}{r}{ESCAPE}" for r in items) + "]"


def _properties(properties: Mapping[str, Any]) -> str:
    return ",".join(f"{k}:{_property(v)}" for k, v in sorted(properties.items()))


def _property(schema: Mapping[str, Any]) -> str:
    """One property, fields in the template's (alphabetical) order."""
    kind, nullable = _type_name(schema)
    parts: list[str] = []
    if schema.get("description"):
        parts.append(f"description:{ESCAPE}{schema['description']}{ESCAPE}")
    if kind == "STRING" and schema.get("enum"):
        parts.append(f"enum:{render_value(list(schema['enum']))}")
    items = schema.get("items")
    if kind == "ARRAY" and isinstance(items, Mapping) and items:
        parts.append(f"items:{_items(items)}")
    if nullable or schema.get("nullable"):
        parts.append("nullable:true")
    if kind == "OBJECT":
        parts.extend(_object_fields(schema))
    parts.append(f"type:{ESCAPE}{kind}{ESCAPE}")
    return "{" + ",".join(parts) + "}"


def _object_fields(schema: Mapping[str, Any]) -> list[str]:
    """An object schema's ``properties`` then ``required``, as the template renders
    them both for a tool's parameters and for a nested object property."""
    parts: list[str] = []
    props = schema.get("properties")
    if isinstance(props, Mapping) and props:
        parts.append("properties:{" + _properties(props) + "}")
    if schema.get("required"):
        parts.append(_required(schema["required"]))
    return parts


def _items(items: Mapping[str, Any]) -> str:
    parts: list[str] = []
    for key, value in sorted(items.items()):
        if value is None:
            continue
        if key == "properties" and isinstance(value, Mapping):
            parts.append("properties:{" + _properties(value) + "}")
        elif key == "required":
            parts.append(_required(value))
        elif key == "type":
            upper = [str(v).upper() for v in value] if isinstance(value, list) else None
            parts.append(f"type:{render_value(upper or str(value).upper())}")
        else:
            parts.append(f"{key}:{render_value(value)}")
    return "{" + ",".join(parts) + "}"


def render_declaration(tool: ToolSpec) -> str:
    """One tool as ``<start_function_declaration>...<end_function_declaration>``.

    Schema keywords FunctionGemma was not trained on (``additionalProperties``,
    ``default``, ``minimum``...) are left out, as the template leaves them out.
    """
    params = tool.parameters or {}
    body = f"description:{ESCAPE}{tool.description}{ESCAPE}"
    if params:
        inner = _object_fields(params)
        inner.append(f"type:{ESCAPE}{str(params.get('type', 'object')).upper()}{ESCAPE}")
        body += ",parameters:{" + ",".join(inner) + "}"
    return f"{DECLARATION_START}declaration:{tool.name}{{{body}}}{DECLARATION_END}"


def render_declarations(tools: Sequence[ToolSpec]) -> str:
    """All tools, one declaration block each, back to back."""
    return "".join(render_declaration(t) for t in tools)


# ------------------------------------------------------------------ grammar

_GRAMMAR_COMMON = r"""
ws ::= [ \t\n]?
pair ::= key ":" value
key ::= [A-Za-z_] [A-Za-z0-9_]*
value ::= string | number | object | array | "true" | "false" | "null"
object ::= "{" ( pair ( "," pair )* )? "}"
array ::= "[" ( value ( "," value )* )? "]"
number ::= "-"? ( "0" | [1-9] [0-9]* ) ( "." [0-9]+ )? ( [eE] [-+]? [0-9]+ )?
string ::= "<escape>" s0
s0 ::= [^<] s0 | "<" s1
s1 ::= "e" s2 | "<" s1 | [^e<] s0
s2 ::= "s" s3 | "<" s1 | [^s<] s0
s3 ::= "c" s4 | "<" s1 | [^c<] s0
s4 ::= "a" s5 | "<" s1 | [^a<] s0
s5 ::= "p" s6 | "<" s1 | [^p<] s0
s6 ::= "e" s7 | "<" s1 | [^e<] s0
s7 ::= ">" | "<" s1 | [^><] s0
"""


def _gbnf_literal(text: str) -> str:
    return json.dumps(text)


def build_grammar(tools: Sequence[ToolSpec] = (), *, max_calls: int | None = None) -> str:
    """A GBNF grammar (llama.cpp) that admits only FunctionGemma calls.

    With ``tools``, names are limited to those tools and each call's keys to that
    tool's parameters; without, any name and key. Strings follow the ``<escape>``
    rule: any text up to the next ``<escape>`` (the ``s0``..``s7`` states spell
    out "does not contain <escape>", since GBNF has no negative lookahead).
    ``max_calls`` bounds how many calls one turn may hold.
    """
    rules: list[str] = []
    if tools:
        alternatives = []
        for index, tool in enumerate(tools):
            props = (tool.parameters or {}).get("properties") or {}
            keys = " | ".join(_gbnf_literal(k) for k in sorted(props)) or '"_"'
            rules.append(f"key{index} ::= {keys}")
            rules.append(f'pair{index} ::= key{index} ":" value')
            body = f'( pair{index} ( "," pair{index} )* )?' if props else ""
            alternatives.append(f'{_gbnf_literal(tool.name)} "{{" {body} "}}"')
        rules.append("named ::= " + " | ".join(f"( {a} )" for a in alternatives))
    else:
        rules.append("named ::= [A-Za-z_] [A-Za-z0-9_]* object")
    rules.append(f"call ::= {_gbnf_literal(CALL_START + 'call:')} named {_gbnf_literal(CALL_END)}")
    if max_calls is None:
        rules.insert(0, "root ::= call ( ws call )*")
    else:
        more = " ".join(["( ws call" for _ in range(max_calls - 1)])
        closing = " )?" * (max_calls - 1)
        rules.insert(0, f"root ::= call {more}{closing}".rstrip())
    return "\n".join(rules) + "\n" + _GRAMMAR_COMMON.lstrip("\n")


FUNCTIONGEMMA_GBNF = build_grammar()
