"""An annotation's head, read one way for the whole value search: ``typing.List`` of
``typing.List[int]``, and the kinds of collection a head names.

Read with :mod:`ast` from the annotation's text; nothing is imported or evaluated.
"""

from __future__ import annotations

import ast

from remora import python_ast

__all__ = [
    "BUILTIN_KINDS",
    "MAPPING_HEADS",
    "SEQUENCE_HEADS",
    "annotation_head",
    "dotted_name",
    "first_head",
    "head_name",
    "parsed_annotation",
]

# Heads (lower case) of annotations that hold several values, and of those keyed by name.
SEQUENCE_HEADS = {"list", "sequence", "iterable", "collection", "set", "frozenset", "tuple"}
SEQUENCE_HEADS |= {"abstractset", "mutablesequence", "iterator"}
MAPPING_HEADS = {"dict", "mapping", "mutablemapping", "defaultdict", "ordereddict"}
# The builtin kinds a parameter's boundaries are read for (input_search's kinds).
BUILTIN_KINDS = ("int", "float", "str", "bool", "list", "dict")


def dotted_name(node: ast.expr) -> str:
    """``a.b.c`` for a name or attribute chain, the call's function for a call, else ""."""
    if isinstance(node, ast.Call):
        return dotted_name(node.func)
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        inner = dotted_name(node.value)
        return f"{inner}.{node.attr}" if inner else ""
    return ""


def annotation_head(tree: ast.expr) -> str:
    """The head of an annotation as written: ``typing.List`` for ``typing.List[int]``,
    ``"None"`` for ``None``, "" for what names no type (a union, a string)."""
    if isinstance(tree, ast.Subscript):
        return annotation_head(tree.value)
    if isinstance(tree, ast.Constant) and tree.value is None:
        return "None"
    return dotted_name(tree)


def head_name(tree: ast.expr) -> str:
    """The last name of the annotation's head: ``List`` for ``typing.List[int]``."""
    return annotation_head(tree).rsplit(".", 1)[-1]


def parsed_annotation(annotation: str | None) -> ast.expr | None:
    """An annotation's text as an expression, a quoted one unquoted (None: no annotation,
    or one that does not parse)."""
    if not annotation:
        return None
    try:
        tree = python_ast.parse_expression(annotation)
    except SyntaxError:
        return None
    if isinstance(tree, ast.Constant) and isinstance(tree.value, str):
        return parsed_annotation(tree.value)  # a quoted annotation
    return tree


def first_head(annotation: str | None) -> str:
    """The lower-case head of the annotation's first alternative that is not None."""
    tree = parsed_annotation(annotation)
    if tree is None:
        return ""
    parts = [tree.left, tree.right] if isinstance(tree, ast.BinOp) else [tree]
    for part in parts:
        name = head_name(part)
        if name and name != "None":
            return name.lower()
    return ""
