"""A summary that calls a function a decorator, held to the code.

"Decorator to register a plugin." on a function that returns a class it names, or
"Decorator that returns the base class." on one that returns ``object``: a reader will
write ``@name`` above a function and get something that is not one. A function is a
decorator (or makes one) when its code shows it: it returns a function or a lambda it
defines, or hands back a parameter as it is (``def register(func): …; return func``),
or its own module applies it with ``@``. Otherwise the claim is refused, and the model
is asked to say what the function returns.
"""

from __future__ import annotations

import ast

from remora.code.docstring.behaviour import body_facts, node_definition
from remora.code.docstring.facts import word_tokens
from remora.code.parsing import SourceNode, ast_tree

__all__ = ["unshown_decorator"]

_CLAIMS = frozenset({"decorator", "decorators", "decorate", "decorates", "decorating"})
_Function = ast.FunctionDef | ast.AsyncFunctionDef


def _shows_decorator(definition: _Function, returned: tuple[ast.expr, ...]) -> bool:
    nested = {item.name for item in definition.body if isinstance(item, _Function)}
    parameters = {a.arg for a in (*definition.args.posonlyargs, *definition.args.args)}
    for value in returned:
        if isinstance(value, ast.Lambda):
            return True
        if isinstance(value, ast.Name) and (value.id in nested or value.id in parameters):
            return True
    return False


def _applied_in_module(text: str, name: str) -> bool:
    """Whether the module puts ``@name`` or ``@name(...)`` above some definition."""
    tree = ast_tree(text)
    if tree is None:
        return False
    for item in ast.walk(tree):
        if isinstance(item, _Function | ast.ClassDef):
            for decorator in item.decorator_list:
                target = decorator.func if isinstance(decorator, ast.Call) else decorator
                if isinstance(target, ast.Name | ast.Attribute) and (
                    getattr(target, "id", None) == name or getattr(target, "attr", None) == name
                ):
                    return True
    return False


def unshown_decorator(node: SourceNode, summary: str) -> str:
    """Why ``summary`` may not call the node a decorator ('' when it does not, or may)."""
    if not _CLAIMS.intersection(word_tokens(summary)):
        return ""
    definition = node_definition(node)
    if definition is None:
        return ""
    shown = _shows_decorator(definition, body_facts(node).returned)
    if shown or _applied_in_module(node.file.text, definition.name):
        return ""
    return (
        f"it calls {definition.name} a decorator, but it returns no function it defines nor "
        "an argument it was given, and nothing applies it with '@'; say what it returns"
    )
