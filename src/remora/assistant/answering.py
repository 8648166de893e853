"""The answer step: one plain-text request that answers from the facts gathered.

Small models asked with the function list in front of them keep calling
functions: with Qwen2.5-Coder-0.5B under the constrained call format, every
turn was a call, the answer already in the first message. So the answer is
asked for on its own, without tools: the question, the facts the host's
capability calls returned, and what the model's own calls returned, if it made
any. The host checks the reply against those results before printing it
(:mod:`remora.assistant.grounding`).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass

from remora.assistant.executor import CallRecord, describe_call
from remora.conversation import Message, ModelRequest, Usage
from remora.providers.base import Provider

__all__ = [
    "ANSWER_PROMPT",
    "TextAnswer",
    "answer_from_facts",
    "render_call_results",
    "said_not_found",
]

ANSWER_PROMPT = """\
You answer a question about a live Python session.
Use only the facts in the message: functions returned them from the session.
Give values exactly as the facts show them; do not compute new ones.
Answer in one or two short sentences.
"""

# What one of the model's call results may take of the answer step's prompt.
RESULT_CHARS = 600


@dataclass(frozen=True, slots=True)
class TextAnswer:
    text: str
    usage: Usage


def render_call_results(records: Sequence[CallRecord]) -> str:
    """The model's calls and what each returned, one line each."""
    lines = []
    for record in records:
        if record.ok:
            payload = json.dumps(record.envelope["result"], ensure_ascii=False, default=str)
            said = f"returned {payload}"
        else:
            error = record.envelope.get("error") or {}
            said = f"failed: {error.get('message', '')}"
        if len(said) > RESULT_CHARS:
            said = said[:RESULT_CHARS] + "…"
        line = f"- {describe_call(record.name, record.arguments)} {said}"
        if line not in lines:
            lines.append(line)
    return "\n".join(lines)


def answer_message(question: str, facts: str, calls: Sequence[CallRecord]) -> str:
    parts = []
    if facts:
        parts.append(facts)
    if calls:
        parts.append("More function results:\n" + render_call_results(calls))
    if not facts and not calls:
        parts.append("No function returned anything for this question.")
    # The question last, nearest the answer: small models keep to it better.
    parts.append(f"Question: {question}")
    return "\n\n".join(parts)


async def answer_from_facts(
    provider: Provider,
    question: str,
    facts: str,
    calls: Sequence[CallRecord],
    *,
    max_tokens: int,
    temperature: float,
    timeout_s: float,
) -> TextAnswer:
    """Ask for the answer in plain text (no tools); provider errors propagate."""
    request = ModelRequest(
        messages=(
            Message.system(ANSWER_PROMPT),
            Message.user(answer_message(question, facts, calls)),
        ),
        max_tokens=max_tokens,
        temperature=temperature,
        timeout_s=timeout_s,
    )
    turn = await provider.complete(request)
    return TextAnswer(turn.message.text.strip(), turn.usage)


def said_not_found(text: str) -> bool:
    """Whether the reply is the prompt's "I could not find that out" (in any case,
    with or without the full stop)."""
    return "could not find that out" in " ".join(text.lower().split())
