"""``remora_code.complete``: a tool asks the run's model for plain text.

Code models write best when asked as code: fill in the middle of a file, or a
reply whose start is already written. A tool builds that prompt from facts
(the toolkit's other functions) and checks what comes back; the model's words
never reach a file unchecked. A model that cannot be reached is a result the
script reads (``error``), never an exception it has to guess at.
"""

from __future__ import annotations

from typing import TypedDict

from remora.code.context import CodeContext
from remora.code.host_function import host_function
from remora.conversation import CompletionRequest
from remora.errors import ModelError

__all__ = ["MAX_CANDIDATES", "MAX_COMPLETION_TOKENS", "CompletionReply"]

MAX_COMPLETION_TOKENS = 512
MAX_CANDIDATES = 4


class CompletionReply(TypedDict):
    """The model's texts, one per candidate; ``shape``: fim, chat or prefix ('' with an
    ``error``, which says why ``texts`` is empty)."""

    texts: list[str]
    shape: str
    error: str | None


@host_function
async def complete(
    context: CodeContext,
    prefix: str,
    suffix: str | None = None,
    instruction: str | None = None,
    stop: list[str] | None = None,
    max_tokens: int = 64,
    n: int = 1,
) -> CompletionReply:
    """Ask the run's model to continue ``prefix`` (to fill up to ``suffix``, or to reply
    to ``instruction`` starting with ``prefix``).

    Returns ``{"texts": [...], "shape": "fim" | "chat" | "prefix", "error": None}``,
    one text per candidate (the first greedy, the others sampled), each without the
    prefix; ``texts`` is empty and ``error`` says why when the model could not answer
    (or no model is bound: ``remora tool run``).
    """
    if context.completer is None:
        return {"texts": [], "shape": "", "error": "no model is bound to this tool run"}
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
    )
    try:
        completion = await context.completer.complete_text(request)
    except ModelError as exc:
        return {"texts": [], "shape": "", "error": exc.message}
    return {"texts": list(completion.texts), "shape": completion.shape, "error": None}
