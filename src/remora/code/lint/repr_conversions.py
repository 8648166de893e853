"""The values a rewrite stops formatting with ``repr``: ``%r`` turned into a plain ``{x}``.

UP031 asks for ``"%s[%r]" % (name, value)`` as an f-string, and a rewrite that writes
``f"{name}[{value}]"`` formats ``value`` with ``str`` where the code used ``repr``: the
same text only while ``value``'s class defines no ``__str__`` (a tree node's ``__repr__``
in a selector parser, whose calls compared equal before and after, and which the parser
compares with a literal), quotes lost for a string. :func:`lost_reprs` counts the
conversions a text makes with ``repr`` (or ``ascii``): ``%r`` and ``%a`` in a ``%``
format, ``!r`` and ``!a`` in an f-string or a ``str.format`` field, ``repr(...)`` and
``ascii(...)`` calls; a rewrite that makes fewer is refused, whatever its calls answer.
Read with :mod:`ast`; a ``%`` format's conversions with the printf grammar, a
``str.format`` field's with :class:`string.Formatter`.
"""

from __future__ import annotations

import ast
import re
import string

from remora import python_ast

__all__ = ["lost_reprs"]

# One conversion of a printf-style format: %[(name)][flags][width][.precision][length]type.
_PRINTF = re.compile(r"%(?:\([^)]*\))?[#0\- +]*(?:\*|\d+)?(?:\.(?:\*|\d+))?[hlL]?([a-zA-Z%])")
_REPR_CONVERSIONS = frozenset({ord("r"), ord("a")})


def _printf_reprs(text: str) -> int:
    return sum(kind in "ra" for kind in _PRINTF.findall(text))


def _format_reprs(text: str) -> int:
    try:
        fields = list(string.Formatter().parse(text))
    except ValueError:
        return 0
    return sum(conversion in ("r", "a") for _text, _name, _spec, conversion in fields)


def _reprs(text: str) -> int:
    """How many values ``text`` formats with ``repr`` or ``ascii``."""
    count = 0
    for item in ast.walk(python_ast.parse(text)):
        if isinstance(item, ast.FormattedValue) and item.conversion in _REPR_CONVERSIONS:
            count += 1
        elif isinstance(item, ast.BinOp) and isinstance(item.op, ast.Mod):
            left = item.left
            if isinstance(left, ast.Constant) and isinstance(left.value, str):
                count += _printf_reprs(left.value)
        elif isinstance(item, ast.Call):
            func = item.func
            if isinstance(func, ast.Name) and func.id in ("repr", "ascii"):
                count += 1
            elif (
                isinstance(func, ast.Attribute)
                and func.attr == "format"
                and isinstance(func.value, ast.Constant)
                and isinstance(func.value.value, str)
            ):
                count += _format_reprs(func.value.value)
    return count


def lost_reprs(before: str, after: str) -> str:
    """Why ``after`` formats a value with ``str`` that ``before`` formatted with ``repr``
    ('' when it keeps every ``repr`` conversion)."""
    was, now = _reprs(before), _reprs(after)
    if now >= was:
        return ""
    return (
        f"the replacement formats {was - now} value(s) with str() that the code formatted "
        "with repr() (%r): write {value!r} in the f-string"
    )
