"""A file's ``ast`` definitions, once per text, and the one a node names (by name and line).

The ``ast`` view of a node, beside LibCST's (:mod:`.source`): what the probes and
checks that read the standard tree ask for.
"""

from __future__ import annotations

import ast

from remora import python_ast
from remora.code.parsing.text_cache import ast_tree, per_text

__all__ = [
    "Defined",
    "ast_definitions",
    "decorator_name",
    "is_stub",
    "located_definition",
    "module_names",
    "sole_function",
]

Defined = ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef


# Once per text: every run's prompt looks its node up among the file's definitions, a walk
# of the whole file each time (2.7% of a docstring run on click).
@per_text()
def ast_definitions(text: str) -> tuple[Defined, ...]:
    tree = ast_tree(text)
    return () if tree is None else tuple(n for n in ast.walk(tree) if isinstance(n, Defined))


def decorator_name(decorator: ast.expr) -> str:
    """The name a decorator (or a call) is known by: ``command`` for ``@click.command()``,
    ``setter`` for ``@x.setter``, ``validator`` for ``@validator``; "" for anything else."""
    target = decorator.func if isinstance(decorator, ast.Call) else decorator
    if isinstance(target, ast.Attribute):
        return target.attr
    return target.id if isinstance(target, ast.Name) else ""


def located_definition(text: str, full_name: str, line: int) -> Defined | None:
    """The ``ast`` definition of ``full_name`` whose decorator or ``def``/``class`` line is
    ``line`` (None when the text does not parse or has no such definition)."""
    short = full_name.rsplit(".", 1)[-1]
    for node in ast_definitions(text):
        start = node.decorator_list[0].lineno if node.decorator_list else node.lineno
        if node.name == short and line in (start, node.lineno):
            return node
    return None


def module_names(text: str) -> set[str]:
    """Names bound at the top of the module: its classes, functions and imports (none for a
    text that does not parse)."""
    try:
        tree = python_ast.parse(text)
    except SyntaxError:
        return set()
    names: set[str] = set()
    for stmt in tree.body:
        if isinstance(stmt, ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            names.add(stmt.name)
        elif isinstance(stmt, ast.Import | ast.ImportFrom):
            names.update((a.asname or a.name).split(".")[0] for a in stmt.names)
    return names


def sole_function(source: str) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
    """The one function ``source`` defines and nothing else (a test, an example); None
    where it does not parse or holds anything more."""
    try:
        body = python_ast.parse(source).body
    except SyntaxError:
        return None
    only = body[0] if len(body) == 1 else None
    return only if isinstance(only, ast.FunctionDef | ast.AsyncFunctionDef) else None


def _nothing(statement: ast.stmt) -> bool:
    """``pass`` or ``...``."""
    if isinstance(statement, ast.Pass):
        return True
    value = statement.value if isinstance(statement, ast.Expr) else None
    return isinstance(value, ast.Constant) and value.value is Ellipsis


def _not_implemented(statement: ast.stmt) -> bool:
    """``raise NotImplementedError`` (called or not, with a message or not)."""
    if not isinstance(statement, ast.Raise) or statement.exc is None:
        return False
    raised = statement.exc.func if isinstance(statement.exc, ast.Call) else statement.exc
    return isinstance(raised, ast.Name) and raised.id == "NotImplementedError"


def is_stub(definition: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) -> bool:
    """A body of nothing but ``pass``/``...`` (and, for a function, ``raise
    NotImplementedError``), its docstring aside."""
    body = python_ast.body_statements(definition)
    if isinstance(definition, ast.ClassDef):
        return bool(body) and all(_nothing(s) for s in body)
    return bool(body) and all(_nothing(s) or _not_implemented(s) for s in body)
