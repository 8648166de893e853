"""A parameter as a caller sees it: its name, kind, annotation and default's source text.

Read from a ``def``'s ``ast`` arguments (:func:`function_parameters`), or from a row of a
call target (:func:`parameter_of`); the value search, the probes and the agents' tests
all speak of parameters this way.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import Literal, NotRequired, TypedDict, cast

from remora.code.parsing.positional_only import conventional_positional_only

__all__ = [
    "CallParameter",
    "Kind",
    "Parameter",
    "function_parameters",
    "parameter_names",
    "parameter_of",
]

Kind = Literal[
    "positional_only", "positional_or_keyword", "var_positional", "keyword_only", "var_keyword"
]


class CallParameter(TypedDict):
    """A parameter a call passes (:meth:`Parameter.row`, or a signature's row with
    ``required``): ``kind`` a :data:`Kind`; ``annotation`` and ``default`` as written;
    ``implicit`` (a function's or method's only) is false here: ``self``/``cls`` are left
    out."""

    name: str
    kind: str
    annotation: str | None
    default: str | None
    required: bool
    implicit: NotRequired[bool]


@dataclass(frozen=True)
class Parameter:
    """One parameter as a caller sees it; ``default`` is the default's source text."""

    name: str
    kind: Kind
    annotation: str | None = None
    default: str | None = None

    @property
    def required(self) -> bool:
        return self.default is None and self.kind not in ("var_positional", "var_keyword")

    def row(self) -> CallParameter:
        return {
            "name": self.name,
            "kind": self.kind,
            "annotation": self.annotation,
            "default": self.default,
            "required": self.required,
        }


def parameter_of(row: CallParameter) -> Parameter:
    """A parameter from its row of a call target (``{name, kind, annotation, default}``)."""
    # Every row's kind is a Kind: written from a Parameter or a signature's parameter.
    kind = cast("Kind", row["kind"])
    return Parameter(row["name"], kind, row.get("annotation"), row.get("default"))


def function_parameters(args: ast.arguments, *, drop_first: bool = False) -> list[Parameter]:
    """The parameters of a ``def`` in order; ``drop_first`` leaves out ``self``/``cls``."""
    positional = [*args.posonlyargs, *args.args]
    defaults: list[ast.expr | None] = [None] * (len(positional) - len(args.defaults))
    defaults += list(args.defaults)
    names = [arg.arg for arg in args.args]
    by_name = 0 if args.posonlyargs else conventional_positional_only(names, skip_first=drop_first)
    found: list[Parameter] = []
    for index, (arg, default) in enumerate(zip(positional, defaults, strict=True)):
        only = index < len(args.posonlyargs) + by_name
        kind: Kind = "positional_only" if only else "positional_or_keyword"
        found.append(_parameter(arg, kind, default))
    if args.vararg is not None:
        found.append(_parameter(args.vararg, "var_positional", None))
    for arg, kw_default in zip(args.kwonlyargs, args.kw_defaults, strict=True):
        found.append(_parameter(arg, "keyword_only", kw_default))
    if args.kwarg is not None:
        found.append(_parameter(args.kwarg, "var_keyword", None))
    if drop_first and positional:
        found.pop(0)
    return found


def _parameter(arg: ast.arg, kind: Kind, default: ast.expr | None) -> Parameter:
    annotation = ast.unparse(arg.annotation) if arg.annotation is not None else None
    return Parameter(arg.arg, kind, annotation, ast.unparse(default) if default else None)


def parameter_names(function: ast.FunctionDef | ast.AsyncFunctionDef) -> set[str]:
    """The names of a ``def``'s parameters a caller names one value for (no ``*args``,
    no ``**kwargs``)."""
    stars = ("var_positional", "var_keyword")
    return {p.name for p in function_parameters(function.args) if p.kind not in stars}
