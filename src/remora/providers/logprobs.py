"""The generated tokens' log-probabilities, read from a completion's choice.

Two shapes reach Remora: llama.cpp (embedded, or its HTTP server) and the chat API
give ``{"content": [{"token": ..., "logprob": ...}, ...]}``; the legacy completions
API (vLLM, OpenAI) gives ``{"tokens": [...], "token_logprobs": [...]}``. The OpenAI
SDK hands either over as an object whose unknown fields are its ``model_extra``.
A choice without them gives ``()``: unknown, which is not improbable.
"""

from __future__ import annotations

import math
from typing import Any

from remora.conversation import TokenLogprob

__all__ = ["token_logprobs"]


def _plain(value: Any) -> Any:
    """An SDK object as the dict it was parsed from (a dict or None unchanged)."""
    if value is None or isinstance(value, dict | list):
        return value
    dump = getattr(value, "model_dump", None)
    return dump() if callable(dump) else value


def token_logprobs(logprobs: Any) -> tuple[TokenLogprob, ...]:
    """The tokens of a choice's ``logprobs`` field, in order (``()`` when it has none)."""
    found = _plain(logprobs)
    if not isinstance(found, dict):
        return ()
    if isinstance(content := found.get("content"), list):
        pairs = [(_plain(item) or {}) for item in content]
        rows = [(item.get("token"), item.get("logprob")) for item in pairs]
    else:
        rows = list(zip(found.get("tokens") or [], found.get("token_logprobs") or [], strict=False))
    # A server may send null for a token it did not score (the legacy API's first token).
    return tuple(
        TokenLogprob(str(text), float(value))
        for text, value in rows
        if text is not None and isinstance(value, int | float) and math.isfinite(value)
    )
