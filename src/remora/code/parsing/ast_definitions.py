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
    "alternative_definitions",
    "ast_definitions",
    "decorator_name",
    "is_stub",
    "located_definition",
    "module_names",
    "overridden_stub",
    "overrides",
    "sole_function",
    "stub_owner",
]

Defined = ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef


# Once per text: every run's prompt looks its node up among the file's definitions, a walk
# of the whole file each time (2.7% of a docstring run on click).
@per_text()
def ast_definitions(text: str) -> tuple[Defined, ...]:
    tree = ast_tree(text)
    return () if tree is None else tuple(n for n in ast.walk(tree) if isinstance(n, Defined))


def _bound_names(statements: list[ast.stmt]) -> dict[str, list[int]]:
    """The names the statements bind (definitions, assignments, imports; an ``elif``'s
    too), each with the lines of its definitions among them."""
    bound: dict[str, list[int]] = {}
    for statement in statements:
        if isinstance(statement, Defined):
            bound.setdefault(statement.name, []).append(statement.lineno)
        elif isinstance(statement, ast.Assign | ast.AnnAssign):
            targets = statement.targets if isinstance(statement, ast.Assign) else [statement.target]
            for target in targets:
                if isinstance(target, ast.Name):
                    bound.setdefault(target.id, [])
        elif isinstance(statement, ast.Import | ast.ImportFrom):
            for alias in statement.names:
                bound.setdefault((alias.asname or alias.name).split(".")[0], [])
        elif isinstance(statement, ast.If):  # an ``elif`` is an ``If`` in the ``orelse``
            for name, lines in _bound_names(statement.body + statement.orelse).items():
                bound.setdefault(name, []).extend(lines)
    return bound


@per_text()
def alternative_definitions(text: str) -> frozenset[int]:
    """The ``def``/``class`` lines of definitions that one branch of an ``if`` or a ``try``
    makes and another branch of it binds the same name in (``if sys.version < '3': def
    u(x): ...`` ``else: def u(x): ...``; ``try: from os import fspath`` ``except
    ImportError: def fspath(p): ...``): which of them runs is chosen at import."""
    tree = ast_tree(text)
    if tree is None:
        return frozenset()
    lines: set[int] = set()
    for item in ast.walk(tree):
        if isinstance(item, ast.If):
            branches = [item.body, item.orelse]
        elif isinstance(item, ast.Try | ast.TryStar):
            branches = [item.body + item.orelse, *(h.body for h in item.handlers)]
        else:
            continue
        bound = [_bound_names(branch) for branch in branches]
        for at, names in enumerate(bound):
            others = set().union(*(set(b) for i, b in enumerate(bound) if i != at))
            lines.update(line for name in names.keys() & others for line in names[name])
    return frozenset(lines)


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


def _returns_none(statement: ast.stmt) -> bool:
    """``return`` or ``return None``."""
    if not isinstance(statement, ast.Return):
        return False
    value = statement.value
    return value is None or (isinstance(value, ast.Constant) and value.value is None)


def is_stub(definition: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) -> bool:
    """A body of nothing but ``pass``/``...`` (and, for a function, ``raise
    NotImplementedError`` or ``return None``: a hook a subclass fills in, pyjwt's
    ``check_key_length``), its docstring aside."""
    body = python_ast.body_statements(definition)
    if isinstance(definition, ast.ClassDef):
        return bool(body) and all(_nothing(s) for s in body)
    return bool(body) and all(_nothing(s) or _not_implemented(s) or _returns_none(s) for s in body)


def stub_owner(text: str, function: ast.FunctionDef | ast.AsyncFunctionDef) -> ast.ClassDef | None:
    """The class whose stub method (:func:`is_stub`) ``function`` is, or None."""
    tree = ast_tree(text)
    if tree is None or not is_stub(function):
        return None
    key = (function.name, function.lineno)
    return next(
        (
            c
            for c in ast.walk(tree)
            if isinstance(c, ast.ClassDef)
            and any((getattr(i, "name", ""), i.lineno) == key for i in c.body)
        ),
        None,
    )


def overrides(tree: ast.AST, base: str, method: str, imported: bool = False) -> bool:
    """Whether a class of ``tree`` derives from the class named ``base`` and defines
    ``method`` again; with ``imported``, a base written as a bare name counts only where
    the module imports that name (``from .string_distance import StringDistance``)."""
    named = not imported or any(
        isinstance(n, ast.ImportFrom) and any(a.name == base for a in n.names)
        for n in ast.walk(tree)
    )
    return any(
        isinstance(c, ast.ClassDef)
        and any(
            (isinstance(b, ast.Name) and b.id == base and named)
            or (isinstance(b, ast.Attribute) and b.attr == base)
            for b in c.bases
        )
        and any(
            isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef) and item.name == method
            for item in c.body
        )
        for c in ast.walk(tree)
    )


def overridden_stub(text: str, function: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """Whether ``function`` is a stub method (:func:`is_stub`) that a subclass in the same
    module defines again."""
    owner = stub_owner(text, function)
    tree = ast_tree(text)
    return owner is not None and tree is not None and overrides(tree, owner.name, function.name)
