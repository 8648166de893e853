"""The fields of a ``collections.namedtuple(...)`` call, read from its syntax tree.

``class Span(namedtuple("SpanBase", ["start", "stop"])):`` takes what the generated
class's ``__new__`` takes: the fields, positional or keyword, in order, the last
``len(defaults)`` of them with the ``defaults=`` keyword's values. Field names come as
a list or tuple of strings or as one string split on commas and white space, as
``namedtuple`` itself splits them. Nothing is imported or run.
"""

from __future__ import annotations

import ast

from remora.code.values.annotations import dotted_name
from remora.code.values.parameters import Parameter

__all__ = ["namedtuple_fields"]

_NAMEDTUPLE_FACTORIES = {"namedtuple", "collections.namedtuple"}


def _field_names(node: ast.expr) -> list[str] | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value.replace(",", " ").split()
    if isinstance(node, ast.List | ast.Tuple):
        names = [e.value for e in node.elts if isinstance(e, ast.Constant)]
        if len(names) == len(node.elts) and all(isinstance(n, str) for n in names):
            return [str(n) for n in names]
    return None


def namedtuple_fields(base: ast.expr) -> tuple[tuple[Parameter, ...], bool] | None:
    """(the generated constructor's parameters, exact) of a ``namedtuple(...)`` base; None
    when ``base`` is no such call. Not exact: the names or defaults are not literals, or
    ``rename=`` may change them."""
    if not isinstance(base, ast.Call) or dotted_name(base.func) not in _NAMEDTUPLE_FACTORIES:
        return None
    keywords = {k.arg: k.value for k in base.keywords if k.arg is not None}
    spec = base.args[1] if len(base.args) > 1 else keywords.get("field_names")
    names = _field_names(spec) if spec is not None else None
    if names is None:
        return (), False
    exact = "rename" not in keywords and not any(k.arg is None for k in base.keywords)
    defaults: list[str] = []
    given = keywords.get("defaults")
    if isinstance(given, ast.List | ast.Tuple):
        defaults = [ast.unparse(e) for e in given.elts]
    elif given is not None and not (isinstance(given, ast.Constant) and given.value is None):
        exact = False
    first_default = len(names) - len(defaults)
    return (
        tuple(
            Parameter(
                name,
                "positional_or_keyword",
                None,
                defaults[i - first_default] if i >= first_default else None,
            )
            for i, name in enumerate(names)
        ),
        exact,
    )
