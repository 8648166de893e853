"""``remora_code.complete``: a tool asks the run's model for plain text.

Code models write best when asked as code: fill in the middle of a file, or a
reply whose start is already written. A tool builds that prompt from facts
(the toolkit's other functions) and checks what comes back; the model's words
never reach a file unchecked. A model that cannot be reached is a result the
script reads (``error``), never an exception it has to guess at.
"""

from __future__ import annotations

import math
from typing import TypedDict

from remora.code.context import CodeContext
from remora.code.host_function import host_function
from remora.conversation import CompletionRequest
from remora.errors import ModelError

__all__ = ["MAX_CANDIDATES", "MAX_COMPLETION_TOKENS", "CompletionReply", "TokenRow"]

MAX_COMPLETION_TOKENS = 512
MAX_CANDIDATES = 4


class TokenRow(TypedDict):
    """One generated token and the natural log of its probability."""

    text: str
    logprob: float


class CompletionReply(TypedDict):
    """The model's texts, one per candidate; ``shape``: fim, chat or prefix ('' with an
    ``error``, which says why ``texts`` is empty); ``tokens``: per candidate, its tokens
    when asked for (``logprobs``) and given by the backend, else empty lists."""

    texts: list[str]
    shape: str
    error: str | None
    tokens: list[list[TokenRow]]


@host_function
async def complete(
    context: CodeContext,
    prefix: str,
    suffix: str | None = None,
    instruction: str | None = None,
    stop: list[str] | None = None,
    max_tokens: int = 64,
    n: int = 1,
    logprobs: bool = False,
) -> CompletionReply:
    """Ask the run's model to continue ``prefix`` (to fill up to ``suffix``, or to reply
    to ``instruction`` starting with ``prefix``).

    Returns ``{"texts": [...], "shape": "fim" | "chat" | "prefix", "error": None,
    "tokens": [...]}``,
    one text per candidate (the first greedy, the others sampled), each without the
    prefix; ``texts`` is empty and ``error`` says why when the model could not answer
    (or no model is bound: ``remora tool run``). With ``logprobs`` each candidate's
    tokens come back too, where the backend gives them (llama.cpp, embedded or served,
    and OpenAI-compatible completions; not ``llm`` or Gemini).
    """
    if context.completer is None:
        unbound = "no model is bound to this tool run"
        return {"texts": [], "shape": "", "error": unbound, "tokens": []}
    if not 1 <= max_tokens <= MAX_COMPLETION_TOKENS:
        raise ValueError(f"max_tokens must be 1..{MAX_COMPLETION_TOKENS}, got {max_tokens}")
    if not 1 <= n <= MAX_CANDIDATES:
        raise ValueError(f"n must be 1..{MAX_CANDIDATES}, got {n}")
    request = CompletionRequest(
        prefix=prefix,
        suffix=suffix,
        instruction=instruction,
        stop=tuple(stop or ()),
        max_tokens=max_tokens,
        n=n,
        logprobs=logprobs,
    )
    try:
        completion = await context.completer.complete_text(request)
    except ModelError as exc:
        return {"texts": [], "shape": "", "error": exc.message, "tokens": []}
    given = list(completion.logprobs) or [() for _ in completion.texts]
    tokens: list[list[TokenRow]] = [
        [{"text": t.text, "logprob": t.logprob} for t in candidate] for candidate in given
    ]
    texts = list(completion.texts)
    return {"texts": texts, "shape": completion.shape, "error": None, "tokens": tokens}


@host_function
def sureness(context: CodeContext, text: str, tokens: list[TokenRow]) -> float | None:
    """How sure the model was of ``text``, a part of the completion ``tokens`` spell:
    the geometric mean of the probabilities of the tokens that overlap it (between 0
    and 1). A server leaves out the token that held a stop string, so the longest start
    of ``text`` the tokens spell counts, if it is most of it. None when the tokens are
    unknown or do not spell it."""
    spelled = "".join(row["text"] for row in tokens)
    covered = next((n for n in range(len(text), len(text) // 2, -1) if text[:n] in spelled), 0)
    if not covered:
        return None
    start = spelled.index(text[:covered])
    end = start + covered
    at = 0
    overlapping: list[float] = []
    for row in tokens:
        if at < end and at + len(row["text"]) > start:
            overlapping.append(row["logprob"])
        at += len(row["text"])
    return round(math.exp(sum(overlapping) / len(overlapping)), 4)
