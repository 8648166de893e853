"""The tool result envelope (docs/agents.md) and the values that may go in it.

Every tool run ends in one JSON-able dict: ``{"ok": true, "result": ..., "prints": "..."}``
or ``{"ok": false, "error": {"code", "message", "details"}}``. The model sees it as
the tool's answer, so nothing here may raise on odd values.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any, Final

__all__ = [
    "ERROR_CODES",
    "ExternalRefused",
    "ToolEnvelope",
    "to_jsonable",
]

ERROR_CODES: Final = frozenset(
    {
        "syntax_error",
        "runtime_error",
        "time_limit",
        "memory_limit",
        "recursion_limit",
        "suspension_limit",
        "worker_crash",
        "timeout",
        "invalid_inputs",
        "external_error",
    }
)

# Strings longer than this are cut in results and prints: a tool answer goes
# into a small model's context, and a runaway print must not fill memory.
MAX_TEXT_CHARS: Final = 100_000


class ExternalRefused(PermissionError):
    """An external said no: a path outside the project, a command not allowed, ...

    A PermissionError so a script sees (and may catch) a familiar type; when it
    is not caught the envelope says ``external_error`` rather than ``runtime_error``.
    """


class ToolEnvelope:
    """Builders for the two envelope shapes; the envelope itself is a plain dict."""

    @staticmethod
    def success(result: Any, prints: str = "") -> dict[str, Any]:
        return {"ok": True, "result": to_jsonable(result), "prints": _cut(prints)}

    @staticmethod
    def failure(code: str, message: str, **details: Any) -> dict[str, Any]:
        if code not in ERROR_CODES:
            # Other layers (the runner) add their own codes; they are still strings.
            code = str(code)
        return {
            "ok": False,
            "error": {"code": code, "message": message, "details": to_jsonable(details)},
        }

    @staticmethod
    def is_error(envelope: Mapping[str, Any]) -> bool:
        return not envelope.get("ok", False)


def _cut(text: str) -> str:
    if len(text) <= MAX_TEXT_CHARS:
        return text
    return f"{text[:MAX_TEXT_CHARS]}…[truncated {len(text) - MAX_TEXT_CHARS} chars]"


def to_jsonable(value: Any, _depth: int = 0) -> Any:
    """A JSON-serialisable copy: tuples and sets become lists, bytes text, the rest repr."""
    if _depth > 50:
        return "…[nested too deep]"
    if value is None or isinstance(value, bool | int):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else repr(value)
    if isinstance(value, str):
        return _cut(value)
    if isinstance(value, bytes | bytearray):
        return _cut(bytes(value).decode("utf-8", errors="replace"))
    if isinstance(value, Mapping):
        return {str(k): to_jsonable(v, _depth + 1) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [to_jsonable(v, _depth + 1) for v in value]
    if isinstance(value, set | frozenset):
        items = [to_jsonable(v, _depth + 1) for v in value]
        try:
            return sorted(items)
        except TypeError:
            return items
    attributes = getattr(value, "attributes", None)  # Monty class proxies
    if isinstance(attributes, Mapping):
        return {str(k): to_jsonable(v, _depth + 1) for k, v in attributes.items()}
    return _cut(repr(value))
