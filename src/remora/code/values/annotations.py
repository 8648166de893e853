"""An annotation's head, read one way for the whole value search: ``typing.List`` of
``typing.List[int]``, the alternatives of a union (:func:`union_parts`), and the kinds of
collection a head names.

Read with :mod:`ast` from the annotation's text; nothing is imported or evaluated.
"""

from __future__ import annotations

import ast

from remora import python_ast
from remora.code.parsing import decorator_name

__all__ = [
    "BUILTIN_KINDS",
    "MAPPING_HEADS",
    "SEQUENCE_HEADS",
    "annotation_head",
    "builtin_kind",
    "called_name",
    "dotted_name",
    "first_head",
    "head_name",
    "item_annotations",
    "parsed_annotation",
    "sole_argument",
    "union_parts",
]

# Heads (lower case) of annotations that hold several values, and of those keyed by name.
SEQUENCE_HEADS = {"list", "sequence", "iterable", "collection", "set", "frozenset", "tuple"}
SEQUENCE_HEADS |= {"abstractset", "mutablesequence", "iterator"}
MAPPING_HEADS = {"dict", "mapping", "mutablemapping", "defaultdict", "ordereddict", "typeddict"}
# The builtin kinds a parameter's boundaries are read for (input_search's kinds).
BUILTIN_KINDS = ("int", "float", "str", "bool", "list", "dict")


def called_name(call: ast.Call) -> str:
    """The name a call calls by: ``f`` for ``f(...)``, ``m`` for ``x.m(...)``, else ""."""
    return decorator_name(call)


def sole_argument(node: ast.AST, function: str) -> ast.expr | None:
    """``x`` of ``function(x)``: a call of the plain name ``function`` (a builtin:
    ``len(items)``, ``type(value)``) with one positional argument; None for anything else."""
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == function
        and len(node.args) == 1
        and not node.keywords
    ):
        return node.args[0]
    return None


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


def union_parts(tree: ast.expr) -> list[ast.expr]:
    """The alternatives of ``A | B``, ``Union[A, B]`` and ``Optional[A]`` (its None an
    ``ast.Constant``), nested ones flattened, quoted ones unquoted (``Union["Element",
    "Hash"]``: forward references); ``[tree]`` for any other annotation."""
    if isinstance(tree, ast.Constant) and isinstance(tree.value, str):
        unquoted = parsed_annotation(tree.value)
        return [tree] if unquoted is None else union_parts(unquoted)
    if isinstance(tree, ast.BinOp) and isinstance(tree.op, ast.BitOr):
        return union_parts(tree.left) + union_parts(tree.right)
    if isinstance(tree, ast.Subscript):
        head = head_name(tree.value)
        if head == "Optional":
            return [*union_parts(tree.slice), ast.Constant(None)]
        if head == "Union":
            items = tree.slice.elts if isinstance(tree.slice, ast.Tuple) else [tree.slice]
            return [part for item in items for part in union_parts(item)]
    return [tree]


def first_head(annotation: str | None) -> str:
    """The lower-case head of the annotation's first alternative that is not None
    (``list`` for ``Optional[typing.List[int]]``); "" when there is none."""
    tree = parsed_annotation(annotation)
    if tree is None:
        return ""
    for part in union_parts(tree):
        name = head_name(part)
        if name and name != "None":
            return name.lower()
    return ""


def builtin_kind(annotation: str | None) -> str:
    """The one of :data:`BUILTIN_KINDS` the annotation's first alternative names (``int``
    for ``int | None``, ``list`` for ``List[str]``), else ""."""
    head = first_head(annotation)
    return head if head in BUILTIN_KINDS else ""


def item_annotations(annotation: str | None) -> tuple[str | None, str | None]:
    """(key, item) annotations of a collection's: ``dict[str, Item]`` -> (str, Item),
    ``Optional[list[Item]]`` -> (None, Item); two type arguments are read as (key, item),
    another count as (None, the first); None where it does not say."""
    tree = parsed_annotation(annotation)
    if tree is None:
        return None, None
    # ``X | None``, ``Optional[X]``: the first alternative that is not None (first_head's)
    tree = next((part for part in union_parts(tree) if head_name(part) != "None"), tree)
    if not isinstance(tree, ast.Subscript):
        return None, None
    inner = tree.slice.elts if isinstance(tree.slice, ast.Tuple) else [tree.slice]
    texts = [ast.unparse(part) for part in inner]
    return (texts[0], texts[1]) if len(texts) == 2 else (None, texts[0])
