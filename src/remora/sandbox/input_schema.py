"""JSON schemas from input annotations, read from the ``ast`` (nothing is evaluated)."""

from __future__ import annotations

import ast
from typing import Any

from remora import python_ast

__all__ = ["UnsupportedAnnotation", "annotation_schema"]


class UnsupportedAnnotation(ValueError):
    """An annotation with no JSON counterpart."""


_SIMPLE: dict[str, dict[str, Any]] = {
    "str": {"type": "string"},
    "int": {"type": "integer"},
    "float": {"type": "number"},
    "bool": {"type": "boolean"},
    "None": {"type": "null"},
    "NoneType": {"type": "null"},
    "Any": {},
    "object": {},
    "list": {"type": "array"},
    "List": {"type": "array"},
    "Sequence": {"type": "array"},
    "dict": {"type": "object"},
    "Dict": {"type": "object"},
    "Mapping": {"type": "object"},
}
# A Literal whose values share one of these types says so ({"type": "string", "enum": ...}).
_LITERAL_TYPES: dict[type, str] = {str: "string", int: "integer", bool: "boolean"}
_ARRAYS = {"list", "List", "Sequence"}
_OBJECTS = {"dict", "Dict", "Mapping"}
_SUPPORTED = "str, int, float, bool, None, Any, list[T], dict[str, T], T | None, Literal[...]"


def _base_name(node: ast.expr) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):  # typing.Any, t.Optional
        return node.attr
    return None


def _any_of(options: list[dict[str, Any]]) -> dict[str, Any]:
    return options[0] if len(options) == 1 else {"anyOf": options}


def _union_members(node: ast.expr) -> list[ast.expr]:
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        return [*_union_members(node.left), *_union_members(node.right)]
    return [node]


def annotation_schema(node: ast.expr) -> dict[str, Any]:
    """The JSON schema of an input annotation, or :class:`UnsupportedAnnotation`."""
    if isinstance(node, ast.Constant):
        if node.value is None:
            return {"type": "null"}
        if isinstance(node.value, str):  # a quoted annotation
            try:
                inner = python_ast.parse_expression(node.value)
            except SyntaxError:
                raise UnsupportedAnnotation(f"cannot parse annotation {node.value!r}") from None
            return annotation_schema(inner)
    if isinstance(node, ast.BinOp):
        return _any_of([annotation_schema(m) for m in _union_members(node)])
    name = _base_name(node)
    if name is not None and name in _SIMPLE:
        return dict(_SIMPLE[name])
    if isinstance(node, ast.Subscript):
        base = _base_name(node.value)
        args = list(node.slice.elts) if isinstance(node.slice, ast.Tuple) else [node.slice]
        if base in _ARRAYS and len(args) == 1:
            return {"type": "array", "items": annotation_schema(args[0])}
        if base in _OBJECTS and len(args) == 2:
            key = annotation_schema(args[0])
            if key not in ({"type": "string"}, {}):
                raise UnsupportedAnnotation("dict keys must be str (JSON object keys are)")
            return {"type": "object", "additionalProperties": annotation_schema(args[1])}
        if base == "Optional" and len(args) == 1:
            return _any_of([annotation_schema(args[0]), {"type": "null"}])
        if base == "Union":
            return _any_of([annotation_schema(a) for a in args])
        if base == "Literal":
            values: list[Any] = []
            for arg in args:
                if not isinstance(arg, ast.Constant) or not isinstance(
                    arg.value, str | int | float | bool | None
                ):
                    raise UnsupportedAnnotation("Literal[...] takes constants only")
                values.append(arg.value)
            kinds = {_LITERAL_TYPES.get(type(v)) for v in values}
            kind = kinds.pop() if len(kinds) == 1 else None
            return {"type": kind, "enum": values} if kind else {"enum": values}
    raise UnsupportedAnnotation(
        f"type {ast.unparse(node)} has no JSON schema (supported: {_SUPPORTED})"
    )
