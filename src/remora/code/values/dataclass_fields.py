"""A dataclass field's declaration read: ``field(init=False)``, ``default=``, ``kw_only=``.

What the ``__init__`` a dataclass generates takes from one field (its right side: a
default, or a ``field(...)`` call's ``init``, ``default``/``default_factory`` and
``kw_only``), and the literal flags of a decorator's call (``@dataclass(kw_only=True)``).
Read with :mod:`ast`; :mod:`.constructor` puts the fields in their order.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

from remora.code.values.annotations import dotted_name

__all__ = ["DataclassField", "field_spec", "keyword_flag"]


def keyword_flag(call: ast.expr, name: str) -> bool | None:
    """The literal value of keyword ``name`` in a call (``kw_only=True``); None when absent."""
    if not isinstance(call, ast.Call):
        return None
    for keyword in call.keywords:
        if keyword.arg == name and isinstance(keyword.value, ast.Constant):
            return bool(keyword.value.value)
    return None


@dataclass
class DataclassField:
    """A field as the generated ``__init__`` takes it: its annotation, default and whether
    it is keyword-only."""

    name: str
    annotation: str
    default: str | None
    kw_only: bool


def field_spec(value: ast.expr | None) -> tuple[bool, str | None, bool | None]:
    """(in __init__, default source, kw_only override) of a dataclass field's right side."""
    if value is None:
        return True, None, None
    if isinstance(value, ast.Call) and dotted_name(value.func) in {"field", "dataclasses.field"}:
        init = keyword_flag(value, "init")
        default: str | None = None
        for keyword in value.keywords:
            if keyword.arg == "default":
                default = ast.unparse(keyword.value)
            elif keyword.arg == "default_factory":
                default = f"{ast.unparse(keyword.value)}()"
        return init is not False, default, keyword_flag(value, "kw_only")
    return True, ast.unparse(value), None
