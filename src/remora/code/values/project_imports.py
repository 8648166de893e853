"""What a project module imports, and a project module's text by its dotted name: where a
name the node's module uses was defined (``from shop.models import Product``). Read with
:mod:`ast`; nothing is imported.
"""

from __future__ import annotations

import ast
from collections.abc import Callable

from remora.code.context import CodeContext
from remora.code.import_paths import module_files, package_of
from remora.code.parsing import ast_tree

__all__ = ["imported_class", "imported_names", "plain_imports", "project_module_text"]


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


def project_module_text(context: CodeContext, module: str) -> str | None:
    """The text of the project's file of the dotted ``module`` (the first of its candidate
    paths that exists), or None when the project has none."""
    for path in module_files(context, module):
        if context.workspace.exists(path):
            return context.read_text(path)
    return None


def imported_class(context: CodeContext) -> Callable[[str], tuple[str, str] | None]:
    """``name -> (the text of the project file that defines it, its name there)`` for what
    the node's module imports by ``from X import name`` from another file of the project
    (None for anything else: a name it defines, a library's)."""
    node = context.bound_node()
    tree = ast_tree(context.node_file_text())
    names = imported_names(tree, package_of(context, node.file_path)) if tree else {}

    def find(name: str) -> tuple[str, str] | None:
        if name not in names:
            return None
        module, original = names[name]
        text = project_module_text(context, module)
        return (text, original) if text is not None else None

    return find
