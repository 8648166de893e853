"""The functions a probed set defines for the test, and the calls made of them.

Sent ahead of :mod:`remora.code.probes.programs.call_probe`, in one program text
(:data:`remora.code.probes.sandboxed.PROGRAM_PARTS`). A set's value ``{"__function__":
NAME}`` (:mod:`remora.code.values.function_arguments`) is a function that takes anything
and notes each call, as the test's ``def NAME(*args, **kwargs)`` does; after the node's
call the probe reports what each was called with, with the set's functions written by
name where they are among the arguments (``(('event', handler), {})``), and the value the
call returned written the same way (``[(receiver, None)]``). A function called from another
thread (a pool's worker) is reported as such, not its calls: when they come is the
threads' choice (a blind reviewer measured such a test failing 56 times in 2,000 runs).
"""

from __future__ import annotations

import threading
from typing import Any

from remora.code.probes.programs.returned_values import observed_value

__all__ = [
    "calls_seen",
    "forget_functions",
    "function_calls",
    "function_name",
    "function_repr",
    "observed_with_functions",
    "recording_function",
]

# The functions a set defines (``{"__function__": NAME}``), by name, each with the calls
# made of it: one object however often the set names it (an instance's filling call and the
# node's own call), as in its test. Emptied before each set (:func:`forget_functions`).
_FUNCTIONS: dict[str, tuple[Any, list[tuple[Any, Any]]]] = {}


# The functions called from another thread than the probe's (a thread pool's worker): when
# such a call happens depends on the threads, so a test cannot assert it.
_OFF_THREAD: set[str] = set()


def recording_function(name: str) -> Any:
    """The set's recording function ``name``: it takes anything and notes each call."""
    if name not in _FUNCTIONS:
        calls: list[tuple[Any, Any]] = []
        probe_thread = threading.get_ident()

        def function(*args: Any, **kwargs: Any) -> None:
            if threading.get_ident() != probe_thread:
                _OFF_THREAD.add(name)
            calls.append((args, kwargs))

        function.__name__ = function.__qualname__ = name
        _FUNCTIONS[name] = (function, calls)
    return _FUNCTIONS[name][0]


def forget_functions() -> None:
    """Start a set with no function defined."""
    _FUNCTIONS.clear()
    _OFF_THREAD.clear()


def function_name(value: Any) -> str | None:
    """The name of the set's function ``value`` is (None for any other value)."""
    return next((name for name, (f, _calls) in _FUNCTIONS.items() if f is value), None)


class _NotWritten(Exception):
    """A value without a literal form, nor one of the set's functions."""


_PLAIN = (type(None), bool, int, str, bytes)
_MAX_WRITTEN = 500  # characters of a value written with the set's functions


def function_repr(value: Any) -> str | None:
    """``value`` written with the set's functions by their names (``[(receiver, None)]``),
    where it holds one and the rest is plain values in lists, tuples and dicts; None
    otherwise."""
    names = {id(f): name for name, (f, _calls) in _FUNCTIONS.items()}
    named: list[str] = []

    def written(item: Any) -> str:
        if id(item) in names:
            named.append(names[id(item)])
            return names[id(item)]
        if type(item) is int and item in names:  # a function's id() (a key kept by it)
            raise _NotWritten
        if isinstance(item, list):
            return "[" + ", ".join(written(i) for i in item) + "]"
        if type(item) is tuple:
            parts = [written(i) for i in item]
            return "(" + ", ".join(parts) + ("," if len(parts) == 1 else "") + ")"
        if type(item) is dict:
            return "{" + ", ".join(f"{written(k)}: {written(v)}" for k, v in item.items()) + "}"
        if type(item) in _PLAIN:
            return repr(item)
        raise _NotWritten

    try:
        text = written(value)
    except (_NotWritten, RecursionError):
        return None
    return text if named and len(text) <= _MAX_WRITTEN else None


def observed_with_functions(value: Any) -> dict[str, Any]:
    """What :func:`observed_value` sees, with the value written with the set's functions by
    name (``with_functions``) where it has no literal form but that."""
    seen = observed_value(value)
    if not seen["literal"] and (written := function_repr(value)) is not None:
        seen["with_functions"] = written
    return seen


def function_calls() -> dict[str, list[tuple[Any, Any]]]:
    """Each function the set defined, and the ``(args, kwargs)`` of each call made of it."""
    return {name: list(calls) for name, (_f, calls) in _FUNCTIONS.items()}


def calls_seen(made: dict[str, int]) -> dict[str, dict[str, Any]]:
    """The calls made of each function the set defined, building its instance or in the
    node's call (``made``: how many the building made): ``{"calls": [repr((args, kwargs)),
    ...]}`` where each has a literal form (the set's functions written by name), else their
    ``count``; ``by_call``: how many the node's call made; ``{"off_thread": True}`` alone for
    one another thread called."""
    found: dict[str, dict[str, Any]] = {}
    for name, calls in function_calls().items():
        if name in _OFF_THREAD:  # a worker thread's call: when it comes is the threads' choice
            found[name] = {"off_thread": True}
            continue
        written = [repr(c) if observed_value(c)["literal"] else function_repr(c) for c in calls]
        if all(text is not None for text in written):  # the functions by name: (('e', f), {})
            found[name] = {"calls": written}
        else:
            found[name] = {"count": len(calls)}
        found[name]["by_call"] = len(calls) - made.get(name, 0)
    return found
