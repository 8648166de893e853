"""A constructor parameter handed on to the base class takes the base's default.

``class Jaccard(ShingleBased): def __init__(self, k): super().__init__(k)`` requires
``k`` and says nothing of it; ``ShingleBased.__init__(self, k=3)`` says it is a number
and which one the project thinks typical. Derived from the name alone, ``k`` was the
made-up string ``"sample k"``: every method that compares or counts with it raised, so
the search found no value test, and the guard test it kept built ``Jaccard(k="")``, a
blind reviewer's "meaningless; use an integer k". Built with the base's own default,
``Jaccard(k=3)`` is how the base would be built.

Read with :mod:`ast` only: the class's own ``__init__``, its ``super().__init__(...)``,
``super(Cls, self).__init__(...)`` or ``Base.__init__(self, ...)`` call, and the base's
constructor parameters through the class lookup (the same module, or a project module
it imports the base from). A parameter passed on as a plain name, positionally or by
keyword, and never bound again on the way, whose base parameter has a literal default
other than ``None``, gets it.
"""

from __future__ import annotations

import ast
from collections.abc import Sequence
from typing import Any

from remora.code.values.annotations import dotted_name
from remora.code.values.constructor import own_init, parsed_classes
from remora.code.values.derived_sets import ClassLookup, literal_default
from remora.code.values.parameters import Parameter

__all__ = ["forwarded_defaults"]


def _base_call(init: ast.FunctionDef, bases: list[str]) -> tuple[str, ast.Call, int] | None:
    """(the base's name, the call of its ``__init__``, how many leading arguments are the
    instance) for the first such call in ``init``; None without one."""
    for node in ast.walk(init):
        if not (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "__init__"
        ):
            continue
        owner = node.func.value
        if isinstance(owner, ast.Call) and dotted_name(owner) == "super" and bases:
            return bases[0], node, 0
        if dotted_name(owner) in bases:
            return dotted_name(owner), node, 1
    return None


def _passed_on(call: ast.Call, skipped: int, base: Sequence[Parameter]) -> dict[str, Parameter]:
    """``{own parameter's name: the base parameter it is passed as}``."""
    positional = [p for p in base if p.kind in ("positional_only", "positional_or_keyword")]
    by_name = {p.name: p for p in base}
    passed: dict[str, Parameter] = {}
    for index, argument in enumerate(call.args[skipped:]):
        if isinstance(argument, ast.Starred):
            break  # the positions after a spread are unknown
        if isinstance(argument, ast.Name) and index < len(positional):
            passed[argument.id] = positional[index]
    for keyword in call.keywords:
        if isinstance(keyword.value, ast.Name) and keyword.arg in by_name:
            passed[keyword.value.id] = by_name[keyword.arg]
    return passed


def forwarded_defaults(
    source: str, class_name: str, own: Sequence[Parameter], classes: ClassLookup
) -> dict[str, Any]:
    """``{parameter: the base's default}`` for each required parameter of ``class_name``'s
    own ``__init__`` (``own``) that it passes on, unchanged, to its base class's
    ``__init__`` where that parameter has a literal default other than ``None``."""
    try:
        init = own_init(source, class_name)
    except ValueError:
        return {}  # a module this Python cannot parse has no constructor to read
    cls = parsed_classes(source).classes.get(class_name)
    if init is None or cls is None:
        return {}
    found = _base_call(init, [dotted_name(base) for base in cls.bases])
    base = classes(found[0]) if found is not None else None
    if found is None or base is None:
        return {}
    passed = _passed_on(found[1], found[2], base)
    rebound = {
        n.id for n in ast.walk(init) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)
    }
    values: dict[str, Any] = {}
    for parameter in own:
        if not parameter.required or parameter.name not in passed or parameter.name in rebound:
            continue
        known, default = literal_default(passed[parameter.name].default)
        if known and default is not None:
            values[parameter.name] = default
    return values
