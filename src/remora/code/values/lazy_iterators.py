"""A function that returns a lazy iterator is drained as a generator function is.

``return map(f, items)``, ``filter(...)``, ``zip(...)`` or an ``itertools`` one
(``zip_longest``, ``chain.from_iterable``) hands back an object whose ``repr`` shows
nothing of its items and whose body has not run yet: a test of the bare call pins
nothing, and the code the iterator runs (a ``lambda`` handed to ``filter``) is not
covered. Drained into a list, as a generator function's call is (``list(node(...))``:
``CallTarget.is_generator``), it is a value with a literal form. Read from the syntax
tree: every ``return`` of the function's own body that gives a value gives a call of
such a builtin (not rebound by the module) or of a name the module imports from
``itertools``, or a generator expression.
"""

from __future__ import annotations

import ast

from remora.code.values.input_sources import top_level_bindings

__all__ = ["returns_lazy_iterator"]

Function = ast.FunctionDef | ast.AsyncFunctionDef
_LAZY_BUILTINS = frozenset({"map", "filter", "zip", "iter", "reversed", "enumerate"})


def _own_returns(function: Function) -> list[ast.Return]:
    """The ``return`` statements of the function's own body, not of a nested one."""
    found: list[ast.Return] = []
    stack: list[ast.AST] = list(function.body)
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Return):
            found.append(node)
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef | ast.Lambda):
            stack.extend(ast.iter_child_nodes(node))
    return found


def _itertools_names(module: ast.Module) -> tuple[set[str], set[str]]:
    """(names imported from ``itertools``, names ``itertools`` itself is bound to)."""
    members: set[str] = set()
    modules: set[str] = set()
    for statement in module.body:
        if isinstance(statement, ast.ImportFrom) and statement.module == "itertools":
            members |= {a.asname or a.name for a in statement.names}
        elif isinstance(statement, ast.Import):
            modules |= {a.asname or a.name for a in statement.names if a.name == "itertools"}
    return members, modules


def _rebound(module: ast.Module) -> set[str]:
    """The names the module binds at its top level (a ``def map``, an imported ``filter``)."""
    names = {name for name, _value in top_level_bindings(module)}
    for statement in module.body:
        if isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(statement.name)
        elif isinstance(statement, ast.Import | ast.ImportFrom):
            names |= {(a.asname or a.name).split(".")[0] for a in statement.names}
    return names


def _is_lazy(value: ast.expr, members: set[str], modules: set[str], rebound: set[str]) -> bool:
    if isinstance(value, ast.GeneratorExp):
        return True
    if not isinstance(value, ast.Call):
        return False
    func = value.func
    while isinstance(func, ast.Attribute) and not (
        isinstance(func.value, ast.Name) and func.value.id in modules
    ):
        func = func.value  # ``chain.from_iterable``: the class it is called on
    if isinstance(func, ast.Attribute):  # ``itertools.islice``
        return True
    if not isinstance(func, ast.Name):
        return False
    return func.id in members or (func.id in _LAZY_BUILTINS and func.id not in rebound)


def returns_lazy_iterator(function: Function, module: ast.Module) -> bool:
    """Whether every ``return`` of ``function`` that gives a value gives a lazy iterator
    (and one does)."""
    returned = [r.value for r in _own_returns(function) if r.value is not None]
    if not returned:
        return False
    members, modules = _itertools_names(module)
    rebound = _rebound(module) - members
    return all(_is_lazy(v, members, modules, rebound) for v in returned)
