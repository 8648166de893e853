"""Python's own parser, one thread at a time: every ``ast`` tree Remora builds comes from here.

CPython 3.11 keeps the ast constructor's recursion depth in interpreter-wide
state (python/cpython#106905): when a thread switch lands inside one thread's
tree construction (a collection runs a finaliser, which gives up the GIL) and
another thread parses meanwhile, the first raises ``SystemError: AST
constructor recursion depth mismatch``. Remora parses on the event loop's
thread and on the sandbox's host-function threads at once, so an analysis of a
big project met it in about one run of a thousand. One lock around the
parser, re-entrant for a finaliser that parses on the same thread, closes it;
parsing holds the GIL throughout anyway, so nothing runs slower for it.
``tests/unit/test_python_ast.py`` fails when any other module calls
``ast.parse``, ``ast.literal_eval`` or ``compile(..., PyCF_ONLY_AST)`` itself,
or LibCST's ``evaluated_value`` (which calls ``ast.literal_eval``).
"""

from __future__ import annotations

import ast
import threading
from typing import Any

__all__ = [
    "body_statements",
    "literal_eval",
    "own_nodes",
    "parse",
    "parse_expression",
    "parse_signature_comment",
]

_PARSING = threading.RLock()


def parse(
    source: str | bytes,
    filename: str = "<unknown>",
    *,
    top_level_await: bool = False,
    type_comments: bool = False,
) -> ast.Module:
    """``ast.parse(source, filename)``; ``top_level_await`` lets ``await`` stand at module
    level; ``type_comments`` puts each ``# type:`` comment on its node (``type_comment``)."""
    flags = ast.PyCF_ONLY_AST | (ast.PyCF_ALLOW_TOP_LEVEL_AWAIT if top_level_await else 0)
    flags |= ast.PyCF_TYPE_COMMENTS if type_comments else 0
    with _PARSING:
        tree = compile(source, filename, "exec", flags, dont_inherit=True)
    assert isinstance(tree, ast.Module)
    return tree


def parse_expression(source: str, filename: str = "<unknown>") -> ast.expr:
    """The expression ``source`` is (``ast.parse(source, mode="eval").body``)."""
    with _PARSING:
        tree = compile(source, filename, "eval", ast.PyCF_ONLY_AST, dont_inherit=True)
    assert isinstance(tree, ast.Expression)
    return tree.body


def parse_signature_comment(source: str) -> ast.FunctionType:
    """A function's type comment, ``(int, str) -> bool`` (``ast.parse(source,
    mode="func_type")``)."""
    with _PARSING:
        tree = compile(source, "<type comment>", "func_type", ast.PyCF_ONLY_AST, dont_inherit=True)
    assert isinstance(tree, ast.FunctionType)
    return tree


def literal_eval(value: str | ast.AST) -> Any:
    """``ast.literal_eval``, whose text is parsed here (a tree is evaluated as it is)."""
    if isinstance(value, str):
        value = parse_expression(value.lstrip(" \t"))  # literal_eval's own leading-space rule
    return ast.literal_eval(value)


def body_statements(
    definition: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef,
) -> list[ast.stmt]:
    """A function's or class's own statements, its docstring aside."""
    return definition.body[1:] if ast.get_docstring(definition) is not None else definition.body


_NESTED = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)


def own_nodes(statements: list[ast.stmt]) -> list[ast.AST]:
    """Every node of the statements, not descending into nested definitions or lambdas."""
    found: list[ast.AST] = []
    stack: list[ast.AST] = list(reversed(statements))
    while stack:
        node = stack.pop()
        found.append(node)
        if not isinstance(node, _NESTED):
            stack.extend(reversed(list(ast.iter_child_nodes(node))))
    return found
