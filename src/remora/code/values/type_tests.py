"""A test of a parameter's type asks for a value of each type it names, and one of none.

``isinstance(x, int)``, ``type(x) is int`` and a comparison of the type's *name*,
``type(val).__name__ == "NoneType"`` or ``val.__class__.__name__ in ("str", "unicode")``,
all branch on what kind of value ``x`` is. Each gives a value of every builtin type it
names (``None`` for ``NoneType``) and one of none of them, for the other side. The name
compared is not itself a value of the parameter: taken as one, dicttoxml's
``get_xml_type("NoneType") == "str"`` passed the type's name as a string and never
reached the ``None`` branch (its blind reviewer: "looks like a test for None, but the
real None case is never tested"). A name that is no builtin type (``"unicode"``,
a class of the project) gives nothing. Read with :mod:`ast`; nothing runs here.
"""

from __future__ import annotations

import ast
from typing import Any

from remora.code.values.annotations import sole_argument
from remora.code.values.input_sources import Scope, substitute
from remora.code.values.kind_samples import MOMENT_KINDS, TYPICAL, moment, sample

__all__ = ["kind_values", "type_name_argument", "type_name_subject", "type_test_values"]

_NAME_ATTRIBUTES = frozenset({"__name__", "__qualname__"})


def kind_values(name: str, kinds: list[ast.expr]) -> list[tuple[str, Any, str]]:
    """A value of each builtin type asked about, and one of none of them; a value of each
    ``datetime`` class asked about (``isinstance(unit, timedelta)``)."""
    named = [k.id if isinstance(k, ast.Name) else getattr(k, "attr", "") for k in kinds]
    moments = [(name, moment(k), f"{name}_is_{k}") for k in named if k in MOMENT_KINDS]
    found = [k.id for k in kinds if isinstance(k, ast.Name) and k.id in TYPICAL]
    if not found:
        return moments
    same = [(name, sample(k), f"{name}_is_{_kind_word(k)}") for k in found]
    return [*same, *moments, _other_type(name, found)]


def _kind_word(kind: str) -> str:
    return "none" if kind == "NoneType" else kind.lower()


def _other_type(name: str, found: list[str]) -> tuple[str, Any, str]:
    """A value of none of the types asked about, for its other side."""
    other = 1 if "str" in found else "a"
    return (name, other, f"{name}_is_not_{'_or_'.join(_kind_word(k) for k in found)}")


def type_name_subject(node: ast.expr, scope: Scope) -> str | None:
    """The parameter whose type's name ``node`` reads (``type(p).__name__``,
    ``p.__class__.__name__``, or a local assigned one of them); None for any other."""
    argument = type_name_argument(substitute(node, scope.derived))
    return None if argument is None else scope.parameter_in(argument)


def type_name_argument(node: ast.expr) -> ast.Name | None:
    """``x`` of ``type(x).__name__`` or ``x.__class__.__name__``; None for anything else."""
    if not isinstance(node, ast.Attribute) or node.attr not in _NAME_ATTRIBUTES:
        return None
    inner = node.value
    if isinstance(inner, ast.Attribute) and inner.attr == "__class__":
        return inner.value if isinstance(inner.value, ast.Name) else None
    return _type_argument(inner)


def type_test_values(node: ast.Compare, scope: Scope) -> list[tuple[str, Any, str]]:
    """``(parameter, value, words)`` for a comparison of a parameter's type: ``type(x) is
    int`` (``is not``, ``==``, ``!=``) as ``isinstance(x, int)``, and its type's name with
    a string or a tuple of strings (``==``, ``!=``, ``in``, ``not in``)."""
    out: list[tuple[str, Any, str]] = []
    operands = [node.left, *node.comparators]
    for op, left, right in zip(node.ops, operands, operands[1:], strict=False):
        for subject, other in ((left, right), (right, left)):
            argument = _type_argument(subject)
            if isinstance(op, ast.Is | ast.IsNot | ast.Eq | ast.NotEq) and argument is not None:
                if (name := scope.parameter_in(argument)) is not None:
                    out += kind_values(name, [other])
            elif (name := type_name_subject(subject, scope)) is not None:
                out += kind_values(name, [ast.Name(id=kind) for kind in _names(op, other)])
    return out


def _type_argument(node: ast.expr) -> ast.Name | None:
    """``x`` of ``type(x)`` where ``x`` is a name; None for anything else."""
    argument = sole_argument(node, "type")
    return argument if isinstance(argument, ast.Name) else None


def _names(op: ast.cmpop, other: ast.expr) -> list[str]:
    """The type names a comparison's other side holds: a string for ``==``/``!=``, a tuple,
    list or set of strings for ``in``/``not in``."""
    if isinstance(op, ast.Eq | ast.NotEq):
        items = [other]
    elif isinstance(op, ast.In | ast.NotIn) and isinstance(other, ast.Tuple | ast.List | ast.Set):
        items = list(other.elts)
    else:
        return []
    return [i.value for i in items if isinstance(i, ast.Constant) and isinstance(i.value, str)]
