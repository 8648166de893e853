"""Tool calls read out of free text, for backends without native tool calling.

Small models asked to call tools in text answer in several shapes; this module
accepts the common ones and nothing looser (smolagents' ``get_tool_call_from_text``
is the model):

- FunctionGemma tags: ``<start_function_call>call:NAME{...}<end_function_call>``
- fenced blocks: ```` ```json {"name": ..., "arguments": {...}} ``` ```` (also
  ```` ```tool_call ````, ```` ```tool_code ```` or no language), one object or a list
- raw JSON: the whole reply, or objects embedded in prose

A JSON object is a call when it has a string ``name`` (or ``tool``/``function``)
and an object (or JSON-string) ``arguments`` (or ``parameters``/``args``/``input``);
OpenAI's ``{"function": {"name", "arguments"}}`` nesting is unwrapped. A fenced
block that does not parse is reported in ``errors`` rather than ignored.

The same module renders the other direction for such backends: the tool list as
system-prompt text, and earlier calls and results as plain text.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any, Literal

from remora.conversation import ToolCall, ToolResult, ToolSpec
from remora.providers import functiongemma as fg
from remora.providers.functiongemma import ParsedCall, ParseResult

__all__ = [
    "ParseResult",
    "ParsedCall",
    "TextStyle",
    "parse_tool_calls",
    "render_call_text",
    "render_result_text",
    "tools_system_prompt",
]

TextStyle = Literal["json", "functiongemma"]

_FENCE = re.compile(r"```[ \t]*([A-Za-z_\-]*)[ \t]*\n?(.*?)```", re.DOTALL)
_CALL_FENCE_LANGS = {"", "json", "tool_call", "tool_code", "tool", "function_call"}
_NAME_KEYS = ("name", "tool", "tool_name", "function")
_ARG_KEYS = ("arguments", "parameters", "args", "input")


def _as_call(obj: Any) -> ParsedCall | None:
    """The call an object stands for, or None when it is not shaped like one."""
    if not isinstance(obj, dict):
        return None
    nested = obj.get("function")
    if isinstance(nested, dict) and "name" in nested:
        # OpenAI's {"type": "function", "function": {"name", "arguments"}}
        return _as_call(nested)
    name = next((obj[k] for k in _NAME_KEYS if isinstance(obj.get(k), str)), None)
    if not name:
        return None
    present = [k for k in _ARG_KEYS if k in obj]
    if not present:
        # {"name": "x"} alone is too weak a signal in prose; a bare object with
        # only a name is accepted when it is all there is (see _from_json).
        return None
    raw = obj[present[0]]
    if isinstance(raw, str):
        try:
            raw = json.loads(raw) if raw.strip() else {}
        except json.JSONDecodeError:
            return None
    if raw is None:
        raw = {}
    if not isinstance(raw, dict):
        return None
    return ParsedCall(name=name, arguments=raw)


def _from_json(value: Any, *, whole: bool) -> list[ParsedCall] | None:
    """Calls in a decoded JSON value; None when it holds none."""
    items = value if isinstance(value, list) else [value]
    calls: list[ParsedCall] = []
    for item in items:
        call = _as_call(item)
        if call is None and whole and isinstance(item, dict) and set(item) == {"name"}:
            call = ParsedCall(name=str(item["name"]), arguments={})
        if call is None:
            return None
        calls.append(call)
    return calls or None


def _embedded_objects(text: str) -> tuple[list[ParsedCall], list[tuple[int, int]]]:
    """JSON calls embedded in prose, with the spans they occupied."""
    decoder = json.JSONDecoder()
    calls: list[ParsedCall] = []
    spans: list[tuple[int, int]] = []
    pos = 0
    while True:
        start = min((i for i in (text.find("{", pos), text.find("[", pos)) if i >= 0), default=-1)
        if start < 0:
            return calls, spans
        try:
            value, end = decoder.raw_decode(text, start)
        except json.JSONDecodeError:
            pos = start + 1
            continue
        found = _from_json(value, whole=False)
        if found:
            calls.extend(found)
            spans.append((start, end))
            pos = end
        else:
            pos = start + 1


def _cut(text: str, spans: Sequence[tuple[int, int]]) -> str:
    kept: list[str] = []
    pos = 0
    for start, end in spans:
        kept.append(text[pos:start])
        pos = end
    kept.append(text[pos:])
    return "".join(kept).strip()


def parse_tool_calls(text: str) -> ParseResult:
    """Every tool call in ``text``, in order, with the remaining prose.

    FunctionGemma tags win when present; then fenced blocks; then JSON (the whole
    reply, else objects embedded in prose). ``errors`` lists call-like parts that
    were broken, so a caller can tell "no call" from "a call it could not read".
    """
    if fg.CALL_START in text:
        return fg.parse_calls(text)

    fences = [m for m in _FENCE.finditer(text) if m.group(1).lower() in _CALL_FENCE_LANGS]
    if fences:
        calls: list[ParsedCall] = []
        errors: list[str] = []
        spans: list[tuple[int, int]] = []
        for match in fences:
            body = match.group(2).strip()
            try:
                value = json.loads(body)
            except json.JSONDecodeError as exc:
                if match.group(1).lower() != "" or body.startswith(("{", "[")):
                    errors.append(f"fenced block is not valid JSON ({exc.msg}): {body[:60]!r}")
                continue
            found = _from_json(value, whole=True)
            if found:
                calls.extend(found)
                spans.append(match.span())
        if calls or errors:
            return ParseResult(calls=calls, text=_cut(text, spans), errors=errors)

    stripped = text.strip()
    broken: str | None = None
    if stripped.startswith(("{", "[")):
        try:
            value, end = json.JSONDecoder().raw_decode(stripped)
        except json.JSONDecodeError as exc:
            value, end = None, 0
            if '"name"' in stripped:
                broken = f"reply looks like a JSON tool call but is not valid JSON ({exc.msg})"
        if end != len(stripped):
            value = None  # JSON followed by prose: handled as embedded below
        if value is not None:
            found = _from_json(value, whole=True)
            if found:
                return ParseResult(calls=found, text="")

    embedded, spans = _embedded_objects(text)
    if not embedded and broken is not None:
        return ParseResult(calls=[], text=text.strip(), errors=[broken])
    return ParseResult(calls=embedded, text=_cut(text, spans))


# ---------------------------------------------------------------- rendering


def tools_system_prompt(
    tools: Sequence[ToolSpec], style: TextStyle = "json", *, must_call: str | None = None
) -> str:
    """The tool list and calling convention, for a system prompt.

    No worked example is included on purpose: tiny models copy examples verbatim
    (docs/architecture.md, "Providers"). ``must_call`` names a tool the model is
    asked to call now, or ``"any"`` for any tool.
    """
    if style == "functiongemma":
        head = fg.DEVELOPER_PROMPT + fg.render_declarations(tools)
    else:
        listing = json.dumps(
            [
                {"name": t.name, "description": t.description, "parameters": t.parameters}
                for t in tools
            ],
            indent=1,
        )
        head = (
            "You can call these tools:\n"
            f"{listing}\n"
            'To call a tool, reply with only a JSON object with the keys "name" (the '
            'tool\'s name) and "arguments" (an object matching its parameters). '
            "To call several, reply with a JSON list of such objects."
        )
    if must_call == "any":
        head += "\nYou must call one of the tools now."
    elif must_call:
        head += f"\nYou must call the tool {must_call} now."
    return head


def render_call_text(call: ToolCall, style: TextStyle = "json") -> str:
    """An earlier call, as the model would have written it."""
    if style == "functiongemma":
        return fg.render_call(call.name, call.arguments)
    return json.dumps({"name": call.name, "arguments": call.arguments})


def render_result_text(result: ToolResult, style: TextStyle = "json") -> str:
    """An earlier tool result, as text the model reads in the next turn."""
    if style == "functiongemma":
        return fg.render_response(result.name, result.payload)
    return f"Tool result for {result.name}: {json.dumps(result.text_payload())}"
