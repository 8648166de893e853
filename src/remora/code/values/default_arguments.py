"""Arguments equal to their parameter's default are left out of a written call.

A test or a sample set that passes ``parse_float=float`` or ``limit=10`` where ``10`` is
the default says nothing the call without it does not say. An argument is left out
when its value is the default's literal value (``derived_sets.literal_default``) or
the builtin the default names (``float``, as ``{"__callable__": "float"}``). A
positional-only argument goes only with every later positional-only one, and with a
``*args`` list given none before it goes: a call cannot skip a position.

A set whose every argument is a falsy value standing in for a falsy default of another
type (``start=""`` for ``start=None``, ``strict=None`` for ``strict=False``) is the
defaults in other clothes wherever the code asks only ``if start:``
(:func:`falsy_stand_ins`), and reads as a misfit where it asks more.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from remora.code.values.derived_sets import literal_default
from remora.code.values.parameters import CallParameter

__all__ = ["falsy_stand_ins", "without_defaults"]


def _is_default(value: Any, source: str | None) -> bool:
    if isinstance(value, dict) and set(value) == {"__callable__"}:
        return source is not None and value["__callable__"] == source
    known, default = literal_default(source)
    return known and type(default) is type(value) and default == value


def without_defaults(args: dict[str, Any], parameters: Sequence[CallParameter]) -> dict[str, Any]:
    """``args`` less those equal to their parameter's default (``parameters``: a call
    target's rows, ``{name, kind, default}``)."""
    left_out: set[str] = set()
    positional = [p for p in parameters if p["kind"] == "positional_only"]
    for row in reversed(positional):  # the last position first: none may be skipped
        name = str(row["name"])
        if name in args and not _is_default(args[name], row.get("default")):
            break
        left_out.add(name)
    # With ``*args`` given, the parameters before it are written by position too.
    spread = any(p["kind"] == "var_positional" and p["name"] in args for p in parameters)
    kinds = ("keyword_only",) if spread else ("positional_or_keyword", "keyword_only")
    for row in parameters:
        name = str(row["name"])
        if row["kind"] in kinds and name in args and _is_default(args[name], row.get("default")):
            left_out.add(name)
    return {name: value for name, value in args.items() if name not in left_out}


def falsy_stand_ins(args: dict[str, Any], parameters: Sequence[CallParameter]) -> bool:
    """Whether every argument of ``args`` (one at least) is falsy where its parameter's
    literal default is falsy too and of another type (see the module's docstring)."""
    defaults = {str(p["name"]): p.get("default") for p in parameters}
    if not args or not set(args) <= set(defaults):
        return False
    for name, value in args.items():
        known, default = literal_default(defaults[name])
        if value or not known or default or type(default) is type(value):
            return False
    return True
