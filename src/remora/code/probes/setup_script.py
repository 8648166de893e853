"""A ``setup.py``'s ``setup(...)`` keywords, read with :mod:`ast`, never run.

A keyword counts when its value is a literal, or is made of literals and names the
script binds once at its top to a literal (``tests_require = ["nose"]`` then
``setup(tests_require=tests_require, extras_require={"tests": tests_require})``): how
setuptools projects commonly share one list between keywords. Anything else (a call, a
name bound twice or in a branch, arithmetic on lists) is left out: reading it would mean
running the script.
"""

from __future__ import annotations

import ast
import copy
from typing import Any

from remora import python_ast

__all__ = ["setup_keywords"]


def _bound_literals(tree: ast.Module) -> dict[str, ast.expr]:
    """Names the module's top binds exactly once, to a literal: their value's tree."""
    values: dict[str, ast.expr] = {}
    seen: set[str] = set()
    for statement in tree.body:
        if not isinstance(statement, ast.Assign | ast.AnnAssign):
            continue
        targets = statement.targets if isinstance(statement, ast.Assign) else [statement.target]
        for target in targets:
            if not isinstance(target, ast.Name):
                continue
            if target.id in seen:
                values.pop(target.id, None)  # bound twice: which value holds is a run's
                continue
            seen.add(target.id)
            if statement.value is not None and _is_literal(statement.value):
                values[target.id] = statement.value
    return values


def _is_literal(node: ast.expr) -> bool:
    try:
        python_ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, RecursionError):
        return False
    return True


class _Substitute(ast.NodeTransformer):
    def __init__(self, bound: dict[str, ast.expr]) -> None:
        self.bound = bound

    def visit_Name(self, node: ast.Name) -> ast.AST:
        found = self.bound.get(node.id)
        return copy.deepcopy(found) if found is not None else node


def _setup_call(tree: ast.Module) -> ast.Call | None:
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
            if name == "setup":
                return node
    return None


def setup_keywords(text: str | bytes) -> dict[str, Any]:
    """The keywords of the script's ``setup(...)`` call whose values read as literals
    (names bound once to a literal at the top replaced by it); ``{}`` when the script
    does not parse or calls no ``setup``."""
    try:
        tree = python_ast.parse(text)
    except (SyntaxError, ValueError):
        return {}
    call = _setup_call(tree)
    if call is None:
        return {}
    substitute = _Substitute(_bound_literals(tree))
    found: dict[str, Any] = {}
    for keyword in call.keywords:
        if keyword.arg is None:
            continue
        value = substitute.visit(copy.deepcopy(keyword.value))
        try:
            found[keyword.arg] = python_ast.literal_eval(value)
        except (ValueError, TypeError, SyntaxError, RecursionError):
            continue
    return found
