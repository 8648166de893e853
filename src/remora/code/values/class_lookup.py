"""A class's constructor parameters by its name: of the node's module, or of a project
module it imports the class from (``from shop.models import Product``), read the same way
(:mod:`remora.code.values.constructor`); nothing is imported or run.
"""

from __future__ import annotations

import ast
from collections.abc import Callable

from remora.code.context import CodeContext
from remora.code.import_paths import module_files, package_of
from remora.code.values.constructor import parsed_classes
from remora.code.values.parameters import Parameter

__all__ = ["class_lookup", "plain_imports", "project_class_lookup"]


def class_lookup(source: str) -> Callable[[str], list[Parameter] | None]:
    """``name -> constructor parameters`` for the classes of ``source`` (None: not one of them).

    A module ast cannot parse (newer syntax than this Python reads) has no classes to offer.
    """
    try:
        module = parsed_classes(source)
    except ValueError:
        return lambda _name: None

    def lookup(name: str) -> list[Parameter] | None:
        cls = module.classes.get(name)
        return list(module.constructor(cls).parameters) if cls is not None else None

    return lookup


def imported_names(tree: ast.Module, package: list[str]) -> dict[str, tuple[str, str]]:
    """``name -> (module, name there)`` for the ``from X import Y`` of a module of ``package``
    (relative ones too)."""
    found: dict[str, tuple[str, str]] = {}
    for stmt in tree.body:
        if not isinstance(stmt, ast.ImportFrom):
            continue
        if stmt.level:
            base = (
                package[: len(package) - (stmt.level - 1)] if stmt.level - 1 <= len(package) else []
            )
            module = ".".join([*base, *([stmt.module] if stmt.module else [])])
        else:
            module = stmt.module or ""
        for alias in stmt.names:
            found[alias.asname or alias.name] = (module, alias.name)
    return found


def plain_imports(tree: ast.Module) -> frozenset[str]:
    """The modules a module imports at its top by their own dotted names (``import
    shop.models``; not ``import shop.models as m``)."""
    return frozenset(
        alias.name
        for stmt in tree.body
        if isinstance(stmt, ast.Import)
        for alias in stmt.names
        if alias.asname is None
    )


def project_class_lookup(context: CodeContext) -> Callable[[str], list[Parameter] | None]:
    """Like :func:`class_lookup` for the node's file, and also for classes it imports from
    other files of the project (``from shop.models import Product``), or names through a
    module it imports (``shop.models.Product`` after ``import shop.models``), read the
    same way."""
    node = context.bound_node()
    text = context.node_file_text()
    local = class_lookup(text)
    try:
        tree = parsed_classes(text).tree
    except ValueError:
        tree = ast.Module(body=[], type_ignores=[])
    imported = imported_names(tree, package_of(context, node.file_path))
    heads = {module.split(".")[0] for module in plain_imports(tree)}

    def lookup(name: str) -> list[Parameter] | None:
        found = local(name)
        if found is not None:
            return found
        module, _, original = name.rpartition(".")
        if name in imported:
            module, original = imported[name]
        elif module.split(".")[0] not in heads:
            return None
        their_text = project_module_text(context, module)
        return class_lookup(their_text)(original) if their_text is not None else None

    return lookup


def project_module_text(context: CodeContext, module: str) -> str | None:
    """The text of the project's file of the dotted ``module`` (the first of its candidate
    paths that exists), or None when the project has none."""
    for path in module_files(context, module):
        if context.workspace.exists(path):
            return context.read_text(path)
    return None
