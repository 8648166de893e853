"""The one result envelope every capability answers with (docs/architecture.md).

``{"ok": true, "result": {...}}`` or
``{"ok": false, "error": {"code", "message", "details"}}`` with ``code`` one of
invalid_args, unknown_function, python_exception, internal.
"""

from __future__ import annotations

import traceback
from typing import Any, Literal

__all__ = [
    "INTERNAL",
    "INVALID_ARGS",
    "PYTHON_EXCEPTION",
    "UNKNOWN_FUNCTION",
    "CapabilityError",
    "ErrorCode",
    "error",
    "exception_details",
    "format_traceback",
    "ok",
    "python_exception",
]

ErrorCode = Literal["invalid_args", "unknown_function", "python_exception", "internal"]
INVALID_ARGS: ErrorCode = "invalid_args"
UNKNOWN_FUNCTION: ErrorCode = "unknown_function"
PYTHON_EXCEPTION: ErrorCode = "python_exception"
INTERNAL: ErrorCode = "internal"

# Long tracebacks keep their tail: the frame that raised is what matters.
MAX_TRACEBACK_CHARS = 8000


class CapabilityError(Exception):
    """Raised by a capability to answer with an error envelope instead of a result."""

    def __init__(self, code: ErrorCode, message: str, details: dict[str, Any] | None = None):
        super().__init__(message)
        self.code = code
        self.message = message
        self.details = details or {}

    def envelope(self) -> dict[str, Any]:
        return error(self.code, self.message, self.details)


def ok(result: dict[str, Any]) -> dict[str, Any]:
    return {"ok": True, "result": result}


def error(code: ErrorCode, message: str, details: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"ok": False, "error": {"code": code, "message": message, "details": details or {}}}


def _message_of(exc: BaseException) -> str:
    # str() of a user exception runs user code; a broken __str__ must not break us.
    try:
        return str(exc)
    except Exception:  # any failure of user code: describe it instead
        return f"<unprintable {type(exc).__name__}>"


def format_traceback(exc: BaseException) -> str:
    text = "".join(traceback.format_exception(exc))
    if len(text) > MAX_TRACEBACK_CHARS:
        cut = len(text) - MAX_TRACEBACK_CHARS
        text = f"[{cut} earlier characters cut]\n" + text[cut:]
    return text


# The innermost frames are where it was raised; earlier ones are in the traceback text.
MAX_FRAMES = 3


def _frames(exc: BaseException) -> list[dict[str, Any]]:
    """Where ``exc`` was raised, innermost last: file, line, function and source line."""
    summary = traceback.extract_tb(exc.__traceback__)[-MAX_FRAMES:]
    return [
        {"file": f.filename, "line": f.lineno, "function": f.name, "code": (f.line or "").strip()}
        for f in summary
    ]


def exception_details(exc: BaseException) -> dict[str, Any]:
    """``{exc_type, message, traceback, frames}`` the shape of an exception in an envelope."""
    return {
        "exc_type": type(exc).__name__,
        "message": _message_of(exc),
        "traceback": format_traceback(exc),
        "frames": _frames(exc),
    }


def python_exception(exc: BaseException) -> CapabilityError:
    """The error envelope for an exception raised by the user's code."""
    details = exception_details(exc)
    message = (
        f"{details['exc_type']}: {details['message']}"
        if details["message"]
        else (details["exc_type"])
    )
    return CapabilityError(PYTHON_EXCEPTION, message, details)
