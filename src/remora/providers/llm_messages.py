"""Conversions between the neutral conversation and the ``llm`` library's messages.

Native mode: llm ``Message`` objects with tool-call and tool-result parts, and our
ToolSpecs as ``llm.Tool``. Schema mode (no native tools, but ``supports_schema``):
the same plain chat the openai and embedded providers send for prompted tools
(``schema_calls``), the reply constrained by the tool-union schema and parsed as
JSON. Text mode (neither): the tool list in the system prompt and earlier calls and
results rendered as text (``text_calls``).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import llm
from llm.parts import Message as LLMMessage
from llm.parts import TextPart, ToolCallPart, ToolResultPart

from remora.conversation import (
    FinishReason,
    Message,
    ModelRequest,
    ModelTurn,
    Part,
    Text,
    ToolCall,
    ToolResult,
    ToolSpec,
    Usage,
)
from remora.providers import text_calls
from remora.providers.schema_calls import (
    CallPlan,
    prompted_turn,
    render_messages,
    render_tools_prompt,
    tool_union_schema,
)

__all__ = [
    "Reply",
    "llm_tools",
    "native_messages",
    "reply_to_turn",
    "schema_for",
    "schema_messages",
    "schema_turn",
    "text_messages",
]


@dataclass(frozen=True, slots=True)
class Reply:
    text: str
    calls: list[Any]  # llm.ToolCall
    input_tokens: int
    output_tokens: int
    details: dict[str, Any]
    raw: Any


def _never_called(**arguments: object) -> str:
    """Stands in for a tool's implementation: llm-ollama needs a callable to build
    its tool description, but we only ``prompt`` and never ``chain``, so llm
    never executes it (the loop runs tools itself)."""
    raise RuntimeError("Remora tools are executed by the agent loop, not by llm")


def llm_tools(tools: Sequence[ToolSpec], tool_choice: str) -> list[llm.Tool]:
    # llm has no tool_choice; a named choice is honoured by offering only that tool.
    chosen = [t for t in tools if t.name == tool_choice] or list(tools)
    return [
        llm.Tool(
            name=t.name,
            description=t.description,
            input_schema=dict(t.parameters),
            implementation=_never_called,
        )
        for t in chosen
    ]


def native_messages(messages: Sequence[Message]) -> list[LLMMessage]:
    out: list[LLMMessage] = []
    for message in messages:
        parts: list[Any] = []
        for part in message.parts:
            if isinstance(part, Text):
                parts.append(TextPart(text=part.text))
            elif isinstance(part, ToolCall):
                parts.append(
                    ToolCallPart(
                        name=part.name, arguments=dict(part.arguments), tool_call_id=part.id
                    )
                )
            else:
                parts.append(
                    ToolResultPart(
                        name=part.name, output=json.dumps(part.payload), tool_call_id=part.call_id
                    )
                )
        out.append(LLMMessage(role=message.role, parts=parts))
    return out


def text_messages(
    request: ModelRequest, style: text_calls.TextStyle, offer_tools: bool
) -> list[LLMMessage]:
    """The history for a model without native tools: calls and results as text."""
    out: list[LLMMessage] = []
    system = "\n\n".join(m.text for m in request.messages if m.role == "system" and m.text)
    if offer_tools:
        must = {"auto": None, "required": "any"}.get(request.tool_choice, request.tool_choice)
        tools_text = text_calls.tools_system_prompt(request.tools, style, must_call=must)
        system = f"{system}\n\n{tools_text}" if system else tools_text
    if system:
        out.append(LLMMessage(role="system", parts=[TextPart(text=system)]))
    for message in request.messages:
        if message.role == "system":
            continue
        chunks: list[str] = []
        for part in message.parts:
            if isinstance(part, Text):
                chunks.append(part.text)
            elif isinstance(part, ToolCall):
                chunks.append(text_calls.render_call_text(part, style))
            elif isinstance(part, ToolResult):
                chunks.append(text_calls.render_result_text(part, style))
        role = "assistant" if message.role == "assistant" else "user"
        out.append(LLMMessage(role=role, parts=[TextPart(text="\n".join(chunks))]))
    return out


def schema_messages(request: ModelRequest, plan: CallPlan) -> list[LLMMessage]:
    """The history for a schema-constrained turn, as plain system/user/assistant text.

    Earlier calls are repeated as the model wrote them (``schema_calls.RAW_KEY``) and
    results come back as user messages, so small models' templates (which know no
    tool role) accept it and a server's prompt cache keeps matching.
    """
    tools_prompt = (
        render_tools_prompt(request.tools, parallel=plan.max_calls != 1) if request.tools else ""
    )
    return [
        LLMMessage(role=m["role"], parts=[TextPart(text=m["content"])])
        for m in render_messages(request.messages, tools_prompt)
    ]


def schema_for(plan: CallPlan) -> dict[str, Any] | None:
    """The JSON schema a turn's reply must match; None for a plain-text turn."""
    if not plan.constrained:
        return None
    return tool_union_schema(plan.tools, text_name=plan.text_name, max_calls=plan.max_calls)


def schema_turn(reply: Reply, plan: CallPlan, max_tokens: int) -> ModelTurn:
    """A schema-constrained reply parsed into ToolCalls (or text), as the other
    prompted providers do."""
    finish = _finish_reason(reply.raw) or None
    return prompted_turn(reply.text, finish, plan, _usage(reply), reply.raw, max_tokens)


def _usage(reply: Reply) -> Usage:
    prompt_details = reply.details.get("prompt_tokens_details") or {}
    cached = prompt_details.get("cached_tokens", 0) if isinstance(prompt_details, dict) else 0
    return Usage(reply.input_tokens, reply.output_tokens, int(cached or 0), requests=1)


def _finish_reason(raw: Any) -> str:
    if not isinstance(raw, dict):
        return ""
    choices = raw.get("choices")
    if isinstance(choices, list) and choices and isinstance(choices[0], dict):
        return str(choices[0].get("finish_reason") or "")
    return str(raw.get("done_reason") or "")  # Ollama


def reply_to_turn(
    reply: Reply, turn_index: int, *, native: bool, tools: Sequence[ToolSpec]
) -> ModelTurn:
    usage = _usage(reply)
    parts: list[Part] = []
    calls: list[ToolCall] = [
        ToolCall(c.tool_call_id or f"llm-{turn_index}-{i}", c.name, dict(c.arguments or {}))
        for i, c in enumerate(reply.calls)
    ]
    text = reply.text
    error: str | None = None
    if not calls and tools:
        parsed = text_calls.parse_tool_calls(text)
        known = {t.name for t in tools}
        # Natively a model may still write a call as text (small models do); take
        # it only when it names one of our tools, so prose JSON is left alone.
        found = [c for c in parsed.calls if not native or c.name in known]
        calls = [
            ToolCall(f"llm-{turn_index}-{i}", c.name, c.arguments) for i, c in enumerate(found)
        ]
        if found:
            text = parsed.text
        elif parsed.errors:
            error = "; ".join(parsed.errors)
    if text.strip():
        parts.append(Text(text))
    parts.extend(calls)
    message = Message("assistant", tuple(parts))
    finish: FinishReason
    if calls:
        finish = "tool_calls"
    elif error is not None:
        return ModelTurn(message, "invalid", usage, reply.raw, error)
    elif not text.strip():
        return ModelTurn(message, "invalid", usage, reply.raw, "the model returned nothing")
    elif _finish_reason(reply.raw) == "length":
        finish = "length"
    else:
        finish = "stop"
    return ModelTurn(message, finish, usage, reply.raw)
