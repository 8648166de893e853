"""Tool calls for models without native tools: schemas in the prompt, output
constrained by a JSON schema, parsed back into ToolCalls (docs/agents.md, "Strict schemas").

Each turn the output must match the union over the tools allowed this turn,
``oneOf [{name: const, arguments: <tool schema>}, ...]``. The system prompt lists
*every* tool of the request (not just the allowed ones) so it stays byte-identical
across turns and the prompt cache keeps serving it. The prompt describes the reply
format but holds no worked example: tiny models copy examples verbatim.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from remora.conversation import (
    FinishReason,
    Message,
    ModelRequest,
    ModelTurn,
    Part,
    Text,
    ToolCall,
    ToolSpec,
    Usage,
)
from remora.profiles import ModelProfile

__all__ = [
    "RAW_KEY",
    "CallPlan",
    "ParsedCalls",
    "call_alternatives",
    "parse_calls",
    "plan_turn",
    "prompted_turn",
    "render_messages",
    "render_tools_prompt",
    "tool_union_schema",
]

# Key under ToolCall.provider_data that keeps the model's exact output, so the
# next prompt repeats it token for token and the prompt cache covers it.
RAW_KEY = "raw_output"


@dataclass(frozen=True, slots=True)
class CallPlan:
    """What one prompted turn may produce.

    ``tools`` is empty for a plain-text turn (no response_format). ``text_name`` is
    the pseudo-tool that carries a text answer when text is allowed alongside tools.
    """

    tools: tuple[ToolSpec, ...]
    text_name: str | None
    max_calls: int

    @property
    def constrained(self) -> bool:
        return bool(self.tools)

    def response_format(self) -> dict[str, Any] | None:
        if not self.tools:
            return None
        schema = tool_union_schema(self.tools, text_name=self.text_name, max_calls=self.max_calls)
        return {"type": "json_schema", "json_schema": {"name": "tool_call", "schema": schema}}


def _text_name(tools: Sequence[ToolSpec]) -> str:
    names = {t.name for t in tools}
    return "reply" if "reply" not in names else "__reply__"


def plan_turn(request: ModelRequest, profile: ModelProfile) -> CallPlan:
    """The tools allowed this turn, from ``tool_choice`` and the profile.

    "none" or no tools → plain text; a tool's name → only that tool; "required" →
    any tool; "auto" → any tool, plus a text reply unless the profile requires calls.
    """
    many = profile.supports_parallel_tool_calls and profile.max_tool_calls_per_turn != 1
    max_calls = (profile.max_tool_calls_per_turn or 0) if many else 1
    choice = request.tool_choice
    if not request.tools or choice == "none":
        return CallPlan((), None, max_calls)
    if choice in ("auto", "required"):
        text = choice == "auto" and not profile.requires_tool_calls
        return CallPlan(request.tools, _text_name(request.tools) if text else None, max_calls)
    forced = tuple(t for t in request.tools if t.name == choice)
    if not forced:
        known = ", ".join(t.name for t in request.tools)
        raise ValueError(f"tool_choice {choice!r} names no tool of the request ({known})")
    return CallPlan(forced, None, 1)


def _arguments_schema(tool: ToolSpec) -> dict[str, Any]:
    params = dict(tool.parameters) if tool.parameters else {}
    params.setdefault("type", "object")
    return params


def _call_schema(name: str, arguments: dict[str, Any]) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": {"name": {"const": name}, "arguments": arguments},
        "required": ["name", "arguments"],
        "additionalProperties": False,
    }


_TEXT_ARGUMENTS: dict[str, Any] = {
    "type": "object",
    "properties": {"text": {"type": "string"}},
    "required": ["text"],
    "additionalProperties": False,
}


def _alternatives(
    tools: Sequence[ToolSpec], text_name: str | None
) -> list[tuple[str, dict[str, Any]]]:
    found = [(t.name, _arguments_schema(t)) for t in tools]
    if text_name:
        found.append((text_name, _TEXT_ARGUMENTS))
    return found


def call_alternatives(plan: CallPlan) -> list[tuple[str, dict[str, Any]]]:
    """Each name the model may call this turn with its arguments' schema (the text
    reply's pseudo-tool last)."""
    return _alternatives(plan.tools, plan.text_name)


def tool_union_schema(
    tools: Sequence[ToolSpec], *, text_name: str | None = None, max_calls: int = 1
) -> dict[str, Any]:
    """``oneOf`` over ``{name: const, arguments: schema}``; an array of them when
    ``max_calls`` is not 1 (0 = unbounded)."""
    options = [_call_schema(name, arguments) for name, arguments in _alternatives(tools, text_name)]
    one = options[0] if len(options) == 1 else {"oneOf": options}
    if max_calls == 1:
        return one
    array: dict[str, Any] = {"type": "array", "items": one, "minItems": 1}
    if max_calls > 1:
        array["maxItems"] = max_calls
    return array


def render_tools_prompt(tools: Sequence[ToolSpec], *, parallel: bool = False) -> str:
    """The tool list and reply format for the system prompt (no examples)."""
    lines = ["You can call these tools:"]
    for tool in tools:
        schema = json.dumps(_arguments_schema(tool), separators=(",", ":"))
        lines.append(f"- {tool.name}: {tool.description.strip()}\n  arguments schema: {schema}")
    shape = 'a JSON object {"name": <tool name>, "arguments": <object matching its schema>}'
    if parallel:
        lines.append(f"Reply with a JSON array of calls, each {shape}.")
    else:
        lines.append(f"Reply with exactly one call as {shape}.")
    lines.append('Each tool result comes back in a message starting with "Result of".')
    return "\n".join(lines)


def _assistant_content(message: Message) -> str:
    calls = message.tool_calls
    for call in calls:
        if call.provider_data and isinstance(call.provider_data.get(RAW_KEY), str):
            return str(call.provider_data[RAW_KEY])
    if not calls:
        return message.text
    rendered = [{"name": c.name, "arguments": c.arguments} for c in calls]
    return json.dumps(rendered[0] if len(rendered) == 1 else rendered)


def _message_content(message: Message) -> str:
    if message.role == "assistant":
        return _assistant_content(message)
    chunks: list[str] = []
    for part in message.parts:
        if isinstance(part, Text):
            chunks.append(part.text)
        elif isinstance(part, ToolCall):  # a call outside an assistant message
            chunks.append(json.dumps({"name": part.name, "arguments": part.arguments}))
        else:
            chunks.append(part.as_text())
    return "\n".join(chunks)


def render_messages(messages: Sequence[Message], tools_prompt: str = "") -> list[dict[str, str]]:
    """Plain chat messages any chat template understands.

    Tool results become user messages (small models' templates know no tool role);
    consecutive messages of one role are merged because many templates insist on
    alternation.
    """
    out: list[dict[str, str]] = []
    for message in messages:
        role = "user" if message.role == "tool" else message.role
        content = _message_content(message)
        if out and out[-1]["role"] == role:
            out[-1]["content"] += "\n\n" + content
        else:
            out.append({"role": role, "content": content})
    if tools_prompt:
        if out and out[0]["role"] == "system":
            out[0]["content"] = f"{out[0]['content'].rstrip()}\n\n{tools_prompt}"
        else:
            out.insert(0, {"role": "system", "content": tools_prompt})
    return out


@dataclass(frozen=True, slots=True)
class ParsedCalls:
    message: Message
    error: str | None


def _strip_fence(content: str) -> str:
    # Servers that ignore response_format may still fence the JSON.
    text = content.strip()
    if text.startswith("```"):
        text = text.split("\n", 1)[1] if "\n" in text else ""
        text = text.rsplit("```", 1)[0]
    return text.strip()


def parse_calls(content: str, plan: CallPlan) -> ParsedCalls:
    """Constrained output → an assistant message with ToolCalls (or text)."""
    empty = Message.assistant(content)
    try:
        data = json.loads(_strip_fence(content))
    except json.JSONDecodeError as exc:
        return ParsedCalls(empty, f"model output is not JSON ({exc.msg} at char {exc.pos})")
    items = data if isinstance(data, list) else [data]
    allowed = {t.name for t in plan.tools}
    parts: list[Part] = []
    for item in items:
        if not isinstance(item, dict) or not isinstance(item.get("name"), str):
            return ParsedCalls(empty, 'each call must be an object with a "name" string')
        name, arguments = item["name"], item.get("arguments", {})
        if not isinstance(arguments, dict):
            return ParsedCalls(empty, f"arguments of {name!r} must be a JSON object")
        if name == plan.text_name:
            parts.append(Text(str(arguments.get("text", ""))))
        elif name in allowed:
            parts.append(ToolCall(f"call_{uuid.uuid4().hex[:12]}", name, arguments))
        else:
            names = ", ".join(sorted(allowed))
            return ParsedCalls(empty, f"model called {name!r}; allowed: {names}")
    if not parts:
        return ParsedCalls(empty, "model returned no call")
    calls = [p for p in parts if isinstance(p, ToolCall)]
    if calls:
        # The first call keeps the exact output for the next prompt (see RAW_KEY).
        calls[0] = ToolCall(calls[0].id, calls[0].name, calls[0].arguments, {RAW_KEY: content})
    text = "".join(p.text for p in parts if isinstance(p, Text))
    return ParsedCalls(Message.assistant(text, tuple(calls)), None)


def prompted_turn(
    content: str, finish_reason: str | None, plan: CallPlan, usage: Usage, raw: Any, max_tokens: int
) -> ModelTurn:
    """A ModelTurn from the text a prompted (non-native) turn produced."""
    if not plan.constrained:
        finish: FinishReason = "length" if finish_reason == "length" else "stop"
        return ModelTurn(Message.assistant(content), finish, usage, raw)
    parsed = parse_calls(content, plan)
    if parsed.error is not None:
        error = parsed.error
        if finish_reason == "length":
            # Said so the corrective turn asks for less, not for the same reply again (a
            # test run's cases for pyjwt's HMACAlgorithm.sign were cut twice at 512).
            error = (
                f"output cut off at max_tokens={max_tokens}: {error}; the reply must be "
                "shorter: fewer or shorter arguments"
            )
        return ModelTurn(parsed.message, "invalid", usage, raw, error=error)
    finish = "tool_calls" if parsed.message.tool_calls else "stop"
    return ModelTurn(parsed.message, finish, usage, raw)
