"""Where an exception a probed call raised was raised, and whether by a ``raise``.

Sent ahead of :mod:`remora.code.probes.programs.call_probe`, in one program text
(:data:`remora.code.probes.sandboxed.PROGRAM_PARTS`). The host tells the node's own
``raise`` from one in code its set-up called (an empty registry's lookup) by the
innermost frame, and a ``TypeError`` the code states (one of its branches) from an
operation that failed (an argument that misfit) by the instruction that frame stopped at.
The lines the exception left through, each frame's (:func:`left_through`), tell a line
that ran to its end from one that started and raised: coverage.py counts both as run.
An ``AttributeError`` looked up on one of the call's own arguments (:func:`on_argument`)
says the code took it for something it is not; a ``TypeError`` a ``raise`` stated in a
frame that holds one of the call's arguments (:func:`checked_argument`) names the argument
a type check refused (``_textcheck("path segment", value)`` given ``sibling(1)``).
"""

from __future__ import annotations

import dis
import types
from typing import Any

# The instruction of a `raise` statement (any form: bare, with `from`).
_RAISE = dis.opmap["RAISE_VARARGS"]


def _innermost(exc: BaseException, own_file: str) -> types.TracebackType | None:
    """The traceback entry of the frame the exception was raised in; None when that is
    the probe's own frame, in ``own_file`` (the call never reached the project's code)."""
    tb = exc.__traceback__
    while tb is not None and tb.tb_next is not None:
        tb = tb.tb_next
    if tb is None or tb.tb_frame.f_code.co_filename == own_file:
        return None
    return tb


def raised_in(exc: BaseException, own_file: str) -> dict[str, Any] | None:
    """The innermost Python frame the exception left: ``{file, function, line}``
    (``function``: the code's qualified name); None where that is the probe's own."""
    tb = _innermost(exc, own_file)
    if tb is None:
        return None
    code = tb.tb_frame.f_code
    name = getattr(code, "co_qualname", code.co_name)  # 3.11+; the bare name before
    return {"file": code.co_filename, "function": name, "line": tb.tb_lineno}


def left_through(exc: BaseException, own_file: str) -> list[list[Any]]:
    """Each ``[file, line]`` of the project's frames the exception left, outermost first, once
    each (a recursion repeats its lines): the statement each frame was running when it raised."""
    found: list[list[Any]] = []
    tb = exc.__traceback__
    while tb is not None:
        where = [tb.tb_frame.f_code.co_filename, tb.tb_lineno]
        if where[0] != own_file and where not in found:
            found.append(where)
        tb = tb.tb_next
    return found


def stated(exc: BaseException, own_file: str) -> bool:
    """Whether the code raised it with a ``raise`` statement of its own, not an operation
    that failed. Told by the instruction the innermost frame stopped at (RAISE_VARARGS,
    whatever lines the statement spans), not by the source text. An ``assert`` that failed
    is no statement of behaviour: it compiles to the same instruction, after loading
    ``AssertionError`` at the same position, and ``python -O`` removes it."""
    tb = _innermost(exc, own_file)
    if tb is None:
        return False
    code = tb.tb_frame.f_code
    if code.co_code[tb.tb_lasti] != _RAISE:
        return False
    instructions = list(dis.get_instructions(code))
    at = next(i.positions for i in instructions if i.offset == tb.tb_lasti)
    return not any(i.opname == "LOAD_ASSERTION_ERROR" and i.positions == at for i in instructions)


def on_argument(exc: AttributeError, values: list[Any]) -> bool:
    """Whether a failed attribute lookup was on one of the call's own arguments (or an
    item of one): the code took it for something it is not. ``name`` is set only by
    the interpreter's lookup, not by ``raise AttributeError(...)``. None is one object,
    so a None from elsewhere counts when an argument is None: that only leaves a set out."""
    if getattr(exc, "name", None) is None:
        return False
    missing = getattr(exc, "obj", None)
    stack = list(values)
    while stack:
        value = stack.pop()
        if value is missing:
            return True
        if isinstance(value, list | tuple | set | frozenset):
            stack.extend(value)
        elif isinstance(value, dict):
            stack.extend(value.values())
    return False


def checked_argument(
    exc: BaseException, own_file: str, args: dict[str, Any]
) -> dict[str, Any] | None:
    """The one parameter whose argument (or an item of a list or tuple given) the frame
    that stated a ``TypeError`` holds among its locals, by identity, with that value's
    type: ``{"parameter", "type", "item"}``, what a type check refused; None where none or
    several parameters do, for a bool or a ``None`` beside another (one object each), or
    for an exception the code did not raise with a ``raise`` of its own."""
    if not isinstance(exc, TypeError) or not stated(exc, own_file):
        return None
    tb = _innermost(exc, own_file)
    held = list(tb.tb_frame.f_locals.values()) if tb is not None else []
    nones = sum(value is None for value in args.values())
    found = []
    for name, value in args.items():
        items = [value, *value] if isinstance(value, list | tuple) else [value]
        # None is one object: told only where it is the one None the call was given.
        shown = [v for v in items if (v is not None or nones == 1) and not isinstance(v, bool)]
        refused = [v for v in shown if any(v is h for h in held)]
        if refused:
            item = refused[0] is not value
            found.append({"parameter": name, "type": type(refused[0]).__name__, "item": item})
    return found[0] if len(found) == 1 else None


def _machine_cause(exc: BaseException, own_file: str) -> bool:
    """Whether an exception the code stated came of an ``OSError`` no ``raise`` stated (a
    name lookup with no network: ``except URLError: raise LibURLError(...)``), through its
    ``__cause__`` or ``__context__``: the machine's answer, as the bare ``OSError`` is."""
    seen: set[int] = set()
    cause = exc.__cause__ or exc.__context__
    while cause is not None and id(cause) not in seen:
        seen.add(id(cause))
        if isinstance(cause, OSError) and not stated(cause, own_file):
            return True
        cause = cause.__cause__ or cause.__context__
    return False


def where_raised(
    exc: BaseException, own_file: str, arguments: list[Any], args: dict[str, Any]
) -> dict[str, Any]:
    """What the report says of an exception the call raised, beside its type and message:
    the frame it left (``frame``) and the lines it left through (``through``), whether a
    ``raise`` stated it (``stated``) and the argument a type check refused (``checked``),
    or the environment's answer (an ``OSError`` not stated, or one a stated exception came
    of: ``environment``; another machine or folder answers otherwise), an attribute looked
    up on an argument (``on_argument``). ``arguments``: the call's values; ``args``: by
    parameter."""
    report: dict[str, Any] = {}
    if (where := raised_in(exc, own_file)) is not None:
        report |= {"frame": where, "through": left_through(exc, own_file)}
    if stated(exc, own_file):
        report["stated"] = True
        if (checked := checked_argument(exc, own_file, args)) is not None:
            report["checked"] = checked
        if _machine_cause(exc, own_file):
            report["environment"] = True
    elif isinstance(exc, OSError):
        report["environment"] = True
    if isinstance(exc, AttributeError) and on_argument(exc, arguments):
        report["on_argument"] = True
    return report
