"""The project modules a module imports from, and the constants it imports by name.

unidiff's ``Line.is_added`` is ``self.line_type == LINE_TYPE_ADDED``, a name its module
binds by ``from unidiff.constants import LINE_TYPE_ADDED``: the value the search must
try (``"+"``) lies in another file of the project. :func:`imported_constants` gives such
a name its constant under the name the module binds it to (``as`` aside), read from the
project file the import names (a relative import, or one of the module's own top-level
package); :func:`imported_modules` gives those files' trees for a caller that reads them
whole (their dict tables, their constants by default). Read with :mod:`ast`; nothing is
imported.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterator
from typing import Any

from remora.code.context import CodeContext
from remora.code.parsing import ast_tree
from remora.code.values.input_sources import module_constants

__all__ = ["imported_constants", "imported_modules", "project_reader"]

_MAX_IMPORTED_MODULES = 8

Reader = Callable[[str], str | None]


def project_reader(context: CodeContext) -> Reader:
    """A project file's text by its path in the run's workspace (None where there is none)."""
    return lambda path: context.read_text(path) if context.workspace.exists(path) else None


def _paths_of(statement: ast.ImportFrom, file_path: str) -> list[str]:
    """The project files ``from X import …`` may name: relative, or of the module's own
    top-level package ([] for any other module)."""
    if statement.module is None:
        return []
    package = file_path.removesuffix(".py").split("/")[:-1]
    root, top = (package[:-1], package[-1]) if package else ([], "")
    if statement.level:
        base = package[: len(package) - (statement.level - 1)] if statement.level > 1 else package
        target = [*base, *statement.module.split(".")]
    elif top and statement.module.split(".")[0] == top:
        target = [*root, *statement.module.split(".")]
    else:
        return []
    return ["/".join(target) + ".py", "/".join(target) + "/__init__.py"]


def _project_imports(module: ast.Module, file_path: str) -> list[tuple[ast.ImportFrom, list[str]]]:
    """The module's ``from X import …`` of project modules, each with the files X may be
    (the first few)."""
    found = [(s, _paths_of(s, file_path)) for s in module.body if isinstance(s, ast.ImportFrom)]
    return [(s, paths) for s, paths in found if paths][:_MAX_IMPORTED_MODULES]


def _tree(paths: list[str], read: Reader) -> ast.Module | None:
    for path in paths:
        text = read(path)
        if text is not None:
            return ast_tree(text)  # parsed once for every node that imports from it
    return None


def imported_modules(module: ast.Module, file_path: str, read: Reader) -> Iterator[ast.Module]:
    """The trees of the project modules ``module`` (the file ``file_path``) imports from."""
    for _statement, paths in _project_imports(module, file_path):
        tree = _tree(paths, read)
        if tree is not None:
            yield tree


def imported_constants(module: ast.Module, file_path: str, read: Reader) -> dict[str, Any]:
    """``{bound name: value}`` for each name ``module`` imports from a project module that
    binds it once to a constant there."""
    found: dict[str, Any] = {}
    for statement, paths in _project_imports(module, file_path):
        tree = _tree(paths, read)
        constants = module_constants(tree) if tree is not None else {}
        for alias in statement.names:
            if alias.name in constants:
                found[alias.asname or alias.name] = constants[alias.name]
    return found
