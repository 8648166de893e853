"""A :class:`CompletionRequest` as the text or messages a backend reads.

Shared by the providers so that every one asks the same way: fill-in-the-middle
with the model's own markers where it has them, a chat whose reply starts with
the prefix when the request carries an instruction, else the prefix alone.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from remora.conversation import (
    Completion,
    CompletionRequest,
    Message,
    ModelRequest,
    ModelTurn,
    Usage,
)
from remora.providers.gguf_vocab import PromptTokens

__all__ = [
    "DEFAULT_SYSTEM",
    "SAMPLED_TEMPERATURE",
    "chat_messages",
    "complete_by_chat",
    "plain_prompt",
    "raw_prompt",
]

DEFAULT_SYSTEM = "You are an expert Python programmer."
# Candidates after the first are sampled: at temperature 0 they would repeat it.
SAMPLED_TEMPERATURE = 0.7


def chat_messages(request: CompletionRequest) -> list[dict[str, Any]]:
    """System, user (the instruction) and the reply begun with the prefix."""
    return [
        {"role": "system", "content": request.system or DEFAULT_SYSTEM},
        {"role": "user", "content": request.instruction or ""},
        {"role": "assistant", "content": request.prefix},
    ]


def raw_prompt(request: CompletionRequest, tokens: PromptTokens) -> tuple[str | None, str]:
    """The raw prompt text and its shape ("fim", "chat", "prefix").

    None for a chat the vocabulary has no known format for: send
    :func:`chat_messages` through the model's own chat template instead.
    """
    if request.instruction is not None:
        if not tokens.chatml:
            return None, "chat"
        system = request.system or DEFAULT_SYSTEM
        return (
            f"<|im_start|>system\n{system}<|im_end|>\n"
            f"<|im_start|>user\n{request.instruction}<|im_end|>\n"
            f"<|im_start|>assistant\n{request.prefix}",
            "chat",
        )
    if request.suffix is not None and tokens.fim is not None:
        before, after, middle = tokens.fim
        return f"{before}{request.prefix}{after}{request.suffix}{middle}", "fim"
    return request.prefix, "prefix"


def plain_prompt(request: CompletionRequest) -> str:
    """One prompt for a backend that only chats (llm, Gemini): say what to continue."""
    parts = [request.instruction] if request.instruction else []
    if request.suffix is not None:
        parts.append(
            "Write only the text that goes between BEFORE and AFTER, nothing else.\n"
            f"BEFORE:\n{request.prefix}\nAFTER:\n{request.suffix}"
        )
    else:
        parts.append(f"Continue this text; write only the continuation:\n{request.prefix}")
    return "\n\n".join(parts)


async def complete_by_chat(
    chat: Callable[[ModelRequest], Awaitable[ModelTurn]], request: CompletionRequest
) -> Completion:
    """A completion through a chat-only backend: :func:`plain_prompt`, no tools."""
    messages = (
        Message.system(request.system or DEFAULT_SYSTEM),
        Message.user(plain_prompt(request)),
    )
    texts: list[str] = []
    usage = Usage()
    for index in range(max(1, request.n)):
        turn = await chat(
            ModelRequest(
                messages,
                tool_choice="none",
                max_tokens=request.max_tokens,
                temperature=request.temperature if index == 0 else SAMPLED_TEMPERATURE,
                timeout_s=request.timeout_s,
                stop=request.stop,
                clock=request.clock,
            )
        )
        texts.append(turn.message.text)
        usage = usage + turn.usage
    return Completion(tuple(texts), usage, "chat")
