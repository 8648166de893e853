"""The OpenAI chat-completions dialect: conversation ↔ wire dicts (no I/O here).

Native tools: assistant ``tool_calls`` carry JSON-string arguments, results go
back as ``role: tool`` messages with ``tool_call_id``. Profiles without native
tools use the prompted form from :mod:`remora.providers.schema_calls` instead.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from remora.conversation import (
    FinishReason,
    Message,
    ModelRequest,
    ModelTurn,
    Text,
    ToolCall,
    ToolSpec,
    Usage,
)
from remora.profiles import ModelProfile

__all__ = [
    "native_messages",
    "native_tool_params",
    "native_turn",
    "tool_param",
    "usage_of",
]

_FINISH: dict[str, FinishReason] = {
    "stop": "stop",
    "tool_calls": "tool_calls",
    "function_call": "tool_calls",
    "length": "length",
    "content_filter": "blocked",
}


def tool_param(tool: ToolSpec) -> dict[str, Any]:
    parameters = dict(tool.parameters) if tool.parameters else {}
    parameters.setdefault("type", "object")
    return {
        "type": "function",
        "function": {"name": tool.name, "description": tool.description, "parameters": parameters},
    }


def native_messages(messages: Sequence[Message]) -> list[dict[str, Any]]:
    """Conversation → chat-completions messages with native tool calls and results."""
    out: list[dict[str, Any]] = []
    for message in messages:
        if message.role == "assistant":
            entry: dict[str, Any] = {"role": "assistant", "content": message.text or None}
            calls = message.tool_calls
            if calls:
                entry["tool_calls"] = [
                    {
                        "id": c.id,
                        "type": "function",
                        "function": {"name": c.name, "arguments": json.dumps(c.arguments)},
                    }
                    for c in calls
                ]
            elif entry["content"] is None:
                entry["content"] = ""
            out.append(entry)
        elif message.role == "tool":
            for result in message.results:
                out.append(
                    {
                        "role": "tool",
                        "tool_call_id": result.call_id,
                        "content": json.dumps(result.payload, ensure_ascii=False, default=str),
                    }
                )
            if message.text:  # stray text beside results: keep it, as the user's
                out.append({"role": "user", "content": message.text})
        else:
            out.append({"role": message.role, "content": message.text})
    return out


def native_tool_params(
    request: ModelRequest, profile: ModelProfile, messages: list[dict[str, Any]]
) -> dict[str, Any]:
    """``tools`` / ``tool_choice`` (/ ``parallel_tool_calls``) for the request.

    A tool_choice the profile lacks falls back to ``auto``. Forcing one tool uses
    the function form where the profile supports it; otherwise only that tool is
    offered and the last message says to call it (``prompt_instruction``).
    ``messages`` may get that instruction appended.
    """
    if not request.tools:
        return {}
    choice = request.tool_choice
    tools = request.tools
    wire_choice: Any
    if choice in ("auto", "none", "required"):
        wire_choice = choice if choice in profile.supported_tool_choice else "auto"
    else:
        forced = [t for t in tools if t.name == choice]
        if not forced:
            known = ", ".join(t.name for t in tools)
            raise ValueError(f"tool_choice {choice!r} names no tool of the request ({known})")
        if (
            profile.submit_result_strategy == "tool_choice_force"
            and "required" in profile.supported_tool_choice
        ):
            wire_choice = {"type": "function", "function": {"name": choice}}
        else:
            tools = tuple(forced)
            wire_choice = "auto"
            messages.append({"role": "user", "content": f"Call the tool {choice} now."})
    params: dict[str, Any] = {"tools": [tool_param(t) for t in tools], "tool_choice": wire_choice}
    if not profile.supports_parallel_tool_calls:
        params["parallel_tool_calls"] = False
    return params


def usage_of(usage: Any) -> Usage:
    """The SDK's usage object (chat or plain completion) as :class:`Usage`."""
    if usage is None:
        return Usage(requests=1)
    details = getattr(usage, "prompt_tokens_details", None)
    return Usage(
        prompt_tokens=int(getattr(usage, "prompt_tokens", 0) or 0),
        completion_tokens=int(getattr(usage, "completion_tokens", 0) or 0),
        cached_tokens=int(getattr(details, "cached_tokens", 0) or 0) if details else 0,
        requests=1,
    )


def response_parts(response: Any) -> tuple[Any, str | None, Usage]:
    """(message, finish_reason, usage) of a ChatCompletion; message None when absent."""
    usage = usage_of(getattr(response, "usage", None))
    choices = getattr(response, "choices", None) or []
    if not choices:
        return None, None, usage
    choice = choices[0]
    return getattr(choice, "message", None), getattr(choice, "finish_reason", None), usage


def native_turn(response: Any) -> ModelTurn:
    """A ChatCompletion with native tool calls → ModelTurn; bad arguments → invalid."""
    message, finish_reason, usage = response_parts(response)
    if message is None:
        return ModelTurn(
            Message.assistant(""),
            "invalid",
            usage,
            response,
            error="the server's response has no choices/message",
        )
    text = message.content or ""
    calls: list[ToolCall] = []
    for index, call in enumerate(message.tool_calls or ()):
        function = getattr(call, "function", None)
        name = getattr(function, "name", None)
        if not name:
            return ModelTurn(
                Message.assistant(text),
                "invalid",
                usage,
                response,
                error=f"tool call #{index} has no function name",
            )
        raw_args = getattr(function, "arguments", None) or "{}"
        try:
            arguments = json.loads(raw_args) if isinstance(raw_args, str) else raw_args
        except json.JSONDecodeError as exc:
            return ModelTurn(
                Message.assistant(text),
                "invalid",
                usage,
                response,
                error=f"arguments of tool call {name!r} are not valid JSON "
                f"({exc.msg} at char {exc.pos}): {raw_args[:200]!r}",
            )
        if not isinstance(arguments, dict):
            return ModelTurn(
                Message.assistant(text),
                "invalid",
                usage,
                response,
                error=f"arguments of tool call {name!r} must be a JSON object",
            )
        calls.append(ToolCall(getattr(call, "id", None) or f"call_{index}", name, arguments))
    finish = "tool_calls" if calls else _FINISH.get(finish_reason or "stop", "stop")
    if finish == "tool_calls" and not calls:
        finish = "stop"
    parts = Message.assistant(text, tuple(calls))
    if not parts.parts and finish == "stop":
        parts = Message("assistant", (Text(""),))
    return ModelTurn(parts, finish, usage, response)
