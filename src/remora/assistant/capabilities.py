"""The seven inspection capabilities over a live Python namespace (docs/architecture.md).

Each capability returns its ``result`` payload; :meth:`Capabilities.call`
wraps it in the envelope, validates arguments against the declared schema and
maps every failure to an error code. Exceptions raised by the user's code
(an expression, a ``__repr__``, a ``__dir__``) become ``python_exception``
results the model can read; they never escape into the console.
"""

from __future__ import annotations

import builtins
import contextlib
import inspect
import io
import sys
from collections.abc import Callable, Container, MutableMapping
from dataclasses import dataclass, field
from typing import Any

import jsonschema

from remora.assistant.capability_result import (
    INTERNAL,
    INVALID_ARGS,
    UNKNOWN_FUNCTION,
    CapabilityError,
    error,
    exception_details,
    ok,
    python_exception,
)
from remora.assistant.specs import CAPABILITY_SPECS, DEFAULT_LIMITS, spec_for

__all__ = ["Capabilities", "default_last_exception"]


def default_last_exception() -> BaseException | None:
    """The exception the interactive interpreter last reported (``sys.last_value``)."""
    exc = getattr(sys, "last_exc", None) or getattr(sys, "last_value", None)
    return exc if isinstance(exc, BaseException) else None


def _cut(text: str, limit: int) -> tuple[str, bool]:
    return (text, False) if len(text) <= limit else (text[:limit], True)


def _is_private(name: str) -> bool:
    return name.startswith("_")


@dataclass
class Capabilities:
    """The capabilities bound to one namespace.

    ``namespace`` is the live globals mapping (not a copy: the assistant sees
    what the user defines after it was created). ``hidden`` names are never
    listed (IPython's ``In``/``Out``/``get_ipython``); ``last_exception``
    tells where the session keeps its last error.
    """

    namespace: MutableMapping[str, Any]
    last_exception: Callable[[], BaseException | None] = default_last_exception
    hidden: Container[str] = frozenset()
    limits: dict[str, int] = field(default_factory=lambda: dict(DEFAULT_LIMITS))

    # ------------------------------------------------------------ dispatch

    def call(self, name: str, arguments: Any) -> dict[str, Any]:
        """Run one capability and answer with the seed-004 envelope."""
        spec = spec_for(name)
        if spec is None:
            known = ", ".join(spec.name for spec in CAPABILITY_SPECS)
            return error(
                UNKNOWN_FUNCTION,
                f"unknown function {name!r}; known: {known}",
                {"name": name, "known": [s.name for s in CAPABILITY_SPECS]},
            )
        if arguments is None:
            arguments = {}
        if not isinstance(arguments, dict):
            return error(
                INVALID_ARGS,
                f"{name}: arguments must be a JSON object, got {type(arguments).__name__}",
                {"arguments": repr(arguments)[:200]},
            )
        problem = _schema_problem(spec.parameters, arguments)
        if problem is not None:
            return error(INVALID_ARGS, f"{name}: {problem[0]}", problem[1])
        try:
            result: dict[str, Any] = getattr(self, f"_{name}")(**arguments)
        except CapabilityError as exc:
            return exc.envelope()
        return ok(result)

    # --------------------------------------------------------- evaluation

    def _compile(self, expr: str) -> Any:
        try:
            return compile(expr, "<assistant>", "eval")
        except SyntaxError as exc:
            raise CapabilityError(
                INVALID_ARGS,
                f"not a single Python expression: {exc.msg} ({expr!r})",
                {
                    "expr": expr,
                    "exc_type": "SyntaxError",
                    "message": str(exc.msg),
                    "offset": exc.offset,
                },
            ) from None

    def _user(self, fn: Callable[[], Any]) -> Any:
        """Run user code; its exceptions (SystemExit too: ``exit()``) become results."""
        try:
            return fn()
        except (Exception, SystemExit) as exc:
            raise python_exception(exc) from None

    def _value(self, expr: str) -> Any:
        code = self._compile(expr)
        namespace = self.namespace
        if isinstance(namespace, dict):
            return self._user(lambda: eval(code, namespace))
        # eval() wants a real dict for globals; any other mapping serves as locals.
        return self._user(lambda: eval(code, {"__builtins__": builtins}, namespace))

    def _repr(self, value: Any) -> str:
        text: str = self._user(lambda: repr(value))
        return text

    # ------------------------------------------------------- capabilities

    def _list_globals(self, include_private: bool = False) -> dict[str, Any]:
        entries = [
            {"name": name, "type_name": type(value).__name__}
            for name, value in sorted(self.namespace.items(), key=lambda item: item[0])
            if isinstance(name, str)
            and name not in self.hidden
            and not (name.startswith("__") and name.endswith("__"))
            and (include_private or not _is_private(name))
        ]
        cap = self.limits["globals"]
        return {
            "globals": entries[:cap],
            "truncated": len(entries) > cap,
            "original_len": len(entries),
        }

    def _get_type(self, expr: str) -> dict[str, Any]:
        kind = type(self._value(expr))
        module = getattr(kind, "__module__", None) or "builtins"
        name = getattr(kind, "__qualname__", kind.__name__)
        return {"name": kind.__name__, "module": module, "qualified": f"{module}.{name}"}

    def _get_repr(self, expr: str, max_chars: int | None = None) -> dict[str, Any]:
        text = self._repr(self._value(expr))
        shown, truncated = _cut(text, max_chars or self.limits["repr_chars"])
        return {"repr": shown, "truncated": truncated, "original_len": len(text)}

    def _get_dir(self, expr: str, include_private: bool = False) -> dict[str, Any]:
        value = self._value(expr)
        names: list[str] = self._user(lambda: sorted(dir(value)))
        members = [n for n in names if include_private or not _is_private(n)]
        cap = self.limits["dir_members"]
        return {
            "members": members[:cap],
            "truncated": len(members) > cap,
            "original_len": len(members),
        }

    def _get_doc(self, expr: str) -> dict[str, Any]:
        value = self._value(expr)
        doc: str | None = self._user(lambda: inspect.getdoc(value))
        if doc is None:
            return {"doc": None, "truncated": False, "original_len": 0}
        shown, truncated = _cut(doc, self.limits["doc_chars"])
        return {"doc": shown, "truncated": truncated, "original_len": len(doc)}

    def _eval_expr(self, expr: str) -> dict[str, Any]:
        out, err = io.StringIO(), io.StringIO()
        # What the expression prints belongs in the result, not on the user's screen.
        try:
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                text = self._repr(self._value(expr))
        except CapabilityError as exc:
            # What ran before the failure printed something worth seeing.
            exc.details.setdefault("stdout", _mark_cut(out.getvalue(), self.limits["stream_chars"]))
            exc.details.setdefault("stderr", _mark_cut(err.getvalue(), self.limits["stream_chars"]))
            raise
        limit = self.limits["repr_chars"]
        return {
            "value_repr": _mark_cut(text, limit),
            "stdout": _mark_cut(out.getvalue(), self.limits["stream_chars"]),
            "stderr": _mark_cut(err.getvalue(), self.limits["stream_chars"]),
        }

    def _get_last_exception(self) -> dict[str, Any]:
        try:
            exc = self.last_exception()
        except Exception as failure:  # the host's hook, not user code: report, don't crash
            raise CapabilityError(
                INTERNAL,
                f"cannot read the last exception: {failure}",
                {"exc_type": type(failure).__name__},
            ) from failure
        return {"exception": None if exc is None else exception_details(exc)}


def _mark_cut(text: str, limit: int) -> str:
    """eval_expr's schema has no truncation flag, so the cut is said in the text."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]}…[truncated {len(text) - limit} of {len(text)} chars]"


def _schema_problem(
    schema: dict[str, Any], arguments: dict[str, Any]
) -> tuple[str, dict[str, Any]] | None:
    validator = jsonschema.Draft202012Validator(schema)
    errors = sorted(validator.iter_errors(arguments), key=lambda e: list(e.path))
    if not errors:
        return None
    first = errors[0]
    where = ".".join(str(p) for p in first.path) or "arguments"
    return (
        f"{where}: {first.message}",
        {
            "errors": [
                {"path": ".".join(str(p) for p in e.path) or "arguments", "message": e.message}
                for e in errors
            ],
            "schema": schema,
        },
    )
