"""Translation between the neutral conversation and Gemini's wire types (docs/providers.md).

Kept apart from the client so the protocol contract can be read, and tested, in
one place:

- the request: ``systemInstruction``, ``contents`` (user / model turns), one tool
  holding every ``functionDeclaration``, ``toolConfig.functionCallingConfig.mode``
- model turns go back unchanged: every ``functionCall`` part in order, with its
  ``id`` when Gemini gave one and its ``thoughtSignature`` byte for byte
- all results of one turn go back in ONE content (role ``user``), one
  ``functionResponse`` part each, echoing the call's id when it had one
- candidate selection: the first candidate with usable content wins; blocked or
  malformed ones are skipped; none usable is ``blocked`` or ``invalid``
"""

from __future__ import annotations

import base64
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from google.genai import types

from remora.conversation import (
    FinishReason,
    Message,
    ModelTurn,
    Part,
    Text,
    ToolCall,
    ToolResult,
    ToolSpec,
    Usage,
)

__all__ = [
    "BLOCKED_FINISH_REASONS",
    "GeminiRequest",
    "build_request",
    "response_to_turn",
    "tool_config",
]

# Finish reasons that mean the output was withheld for policy reasons.
BLOCKED_FINISH_REASONS = frozenset(
    {
        "SAFETY",
        "RECITATION",
        "BLOCKLIST",
        "PROHIBITED_CONTENT",
        "SPII",
        "IMAGE_SAFETY",
        "IMAGE_PROHIBITED_CONTENT",
        "IMAGE_RECITATION",
        "LANGUAGE",
        "MODEL_ARMOR",
    }
)
# Finish reasons whose content can be used as it is.
_USABLE_FINISH_REASONS = frozenset({"", "STOP", "MAX_TOKENS", "FINISH_REASON_UNSPECIFIED"})
_KEY = "gemini"  # the key of our data inside ToolCall.provider_data


@dataclass(frozen=True, slots=True)
class GeminiRequest:
    """What one generateContent call sends."""

    contents: list[types.Content]
    config: types.GenerateContentConfig


def _enum_value(value: Any) -> str:
    if value is None:
        return ""
    return str(getattr(value, "value", value))


# ------------------------------------------------------------------ request


def _call_part(call: ToolCall) -> types.Part:
    data = (call.provider_data or {}).get(_KEY, {})
    signature = data.get("thought_signature")
    return types.Part(
        function_call=types.FunctionCall(
            # Only an id Gemini gave is echoed; ours are local bookkeeping.
            id=data.get("id"),
            name=call.name,
            args=dict(call.arguments),
        ),
        thought_signature=base64.b64decode(signature) if signature else None,
    )


def _contents(messages: Sequence[Message]) -> tuple[str | None, list[types.Content]]:
    system: list[str] = []
    contents: list[types.Content] = []
    wire_ids: dict[str, str | None] = {}
    for message in messages:
        if message.role == "system":
            system.append(message.text)
            continue
        parts: list[types.Part] = []
        for part in message.parts:
            if isinstance(part, Text):
                if part.text:
                    parts.append(types.Part(text=part.text))
            elif isinstance(part, ToolCall):
                wire_ids[part.id] = (part.provider_data or {}).get(_KEY, {}).get("id")
                parts.append(_call_part(part))
            elif isinstance(part, ToolResult):
                parts.append(
                    types.Part(
                        function_response=types.FunctionResponse(
                            id=wire_ids.get(part.call_id),
                            name=part.name,
                            response=dict(part.payload),
                        )
                    )
                )
        if not parts:
            continue
        # Tool results travel as role "user": what the REST API accepts.
        role = "model" if message.role == "assistant" else "user"
        contents.append(types.Content(role=role, parts=parts))
    return ("\n\n".join(s for s in system if s) or None), contents


def tool_config(tool_choice: str, tools: Sequence[ToolSpec]) -> types.ToolConfig:
    """auto → AUTO, none → NONE, required → ANY, a tool's name → ANY limited to it."""
    mode = {"auto": "AUTO", "none": "NONE", "required": "ANY"}.get(tool_choice)
    if mode is not None:
        config = types.FunctionCallingConfig(mode=types.FunctionCallingConfigMode(mode))
    elif tool_choice in {t.name for t in tools}:
        config = types.FunctionCallingConfig(
            mode=types.FunctionCallingConfigMode.ANY, allowed_function_names=[tool_choice]
        )
    else:
        raise ValueError(f"tool_choice {tool_choice!r} is neither a mode nor a tool name")
    return types.ToolConfig(function_calling_config=config)


def build_request(
    messages: Sequence[Message],
    tools: Sequence[ToolSpec],
    tool_choice: str,
    *,
    max_tokens: int,
    temperature: float,
    stop: Sequence[str] = (),
    timeout_s: float | None = None,
) -> GeminiRequest:
    system, contents = _contents(messages)
    config = types.GenerateContentConfig(
        system_instruction=system,
        max_output_tokens=max_tokens,
        temperature=temperature,
        stop_sequences=list(stop) or None,
        # The loop runs the tools; the SDK must never call Python functions itself.
        automatic_function_calling=types.AutomaticFunctionCallingConfig(disable=True),
        http_options=types.HttpOptions(timeout=int(timeout_s * 1000)) if timeout_s else None,
    )
    if tools:
        config.tools = [
            types.Tool(
                function_declarations=[
                    # JSON Schema as is (parametersJsonSchema), so strict schemas
                    # keep additionalProperties and the rest.
                    types.FunctionDeclaration(
                        name=t.name, description=t.description, parameters_json_schema=t.parameters
                    )
                    for t in tools
                ]
            )
        ]
        config.tool_config = tool_config(tool_choice, tools)
    return GeminiRequest(contents=contents, config=config)


# ----------------------------------------------------------------- response


def _problem(candidate: types.Candidate) -> tuple[str, str] | None:
    """Why a candidate cannot be used (a code and a detail), or None when it can."""
    reason = _enum_value(candidate.finish_reason)
    if reason not in _USABLE_FINISH_REASONS:
        return reason, candidate.finish_message or ""
    if any(r.blocked for r in candidate.safety_ratings or []):
        return "SAFETY", "a safety rating is marked blocked"
    parts = candidate.content.parts if candidate.content else None
    if not parts and reason == "MAX_TOKENS":
        # Thinking models spend the output budget before writing anything.
        return reason, "the token limit was reached before any output; raise runner.max_tokens"
    if not parts:
        return "EMPTY", "no content parts"
    if not any(p.function_call is not None or (p.text and not p.thought) for p in parts):
        return "EMPTY", "no text and no function call"
    if any(p.function_call is not None and not p.function_call.name for p in parts):
        return "MALFORMED_FUNCTION_CALL", "a function call has no name"
    return None


def _turn_parts(candidate: types.Candidate, turn_index: int) -> tuple[Part, ...]:
    parts: list[Part] = []
    assert candidate.content is not None and candidate.content.parts is not None
    calls = 0
    for part in candidate.content.parts:
        if part.function_call is not None:
            fc = part.function_call
            data: dict[str, Any] = {"id": fc.id}
            if part.thought_signature:
                data["thought_signature"] = base64.b64encode(part.thought_signature).decode()
            # A stable id when Gemini gives none: the turn's place in the
            # conversation and the call's place in the turn.
            call_id = fc.id or f"gemini-{turn_index}-{calls}"
            calls += 1
            parts.append(ToolCall(call_id, fc.name or "", dict(fc.args or {}), {_KEY: data}))
        elif part.text and not part.thought:
            parts.append(Text(part.text))
    return tuple(parts)


def _usage(response: types.GenerateContentResponse) -> Usage:
    meta = response.usage_metadata
    if meta is None:
        return Usage(requests=1)
    return Usage(
        prompt_tokens=meta.prompt_token_count or 0,
        completion_tokens=(meta.candidates_token_count or 0) + (meta.thoughts_token_count or 0),
        cached_tokens=meta.cached_content_token_count or 0,
        requests=1,
    )


def _raw(response: types.GenerateContentResponse) -> dict[str, Any]:
    return response.model_dump(mode="json", exclude_none=True, exclude={"sdk_http_response"})


def response_to_turn(response: types.GenerateContentResponse, turn_index: int) -> ModelTurn:
    """The first usable candidate as a ModelTurn; ``blocked``/``invalid`` when none is.

    ``turn_index`` (how many model turns came before) keeps synthesised call ids
    unique across a conversation.
    """
    usage = _usage(response)
    problems: list[tuple[int, str, str]] = []
    for index, candidate in enumerate(response.candidates or []):
        problem = _problem(candidate)
        if problem is not None:
            problems.append((index, *problem))
            continue
        message = Message("assistant", _turn_parts(candidate, turn_index))
        finish: FinishReason
        if message.tool_calls:
            finish = "tool_calls"
        elif _enum_value(candidate.finish_reason) == "MAX_TOKENS":
            finish = "length"
        else:
            finish = "stop"
        return ModelTurn(message, finish, usage, raw=_raw(response))

    empty = Message("assistant", ())
    feedback = response.prompt_feedback
    if feedback is not None and feedback.block_reason is not None:
        block = _enum_value(feedback.block_reason)
        if feedback.block_reason_message:
            block += f" ({feedback.block_reason_message})"
        return ModelTurn(empty, "blocked", usage, _raw(response), f"prompt blocked: {block}")
    if not problems:
        return ModelTurn(empty, "invalid", usage, _raw(response), "response has no candidates")
    blocked = all(code in BLOCKED_FINISH_REASONS for _, code, _ in problems)
    described = "; ".join(
        f"candidate {i}: {code}" + (f" ({detail})" if detail else "")
        for i, code, detail in problems
    )
    return ModelTurn(
        empty,
        "blocked" if blocked else "invalid",
        usage,
        _raw(response),
        f"no usable candidate: {described}",
    )
