"""Where a project file imports from: its import root and its dotted module name.

The root is the nearest folder above the file that is not a package (holds no
``__init__.py``), the folder pytest's default ``prepend`` import mode puts on
``sys.path`` for a file: ``""`` (the project's own folder) for
``shop/models.py`` when ``shop`` is a package, ``src`` for a src layout, ``lib``
for SQLAlchemy's ``lib/sqlalchemy/...``. Naming the module from the project's
folder instead (``lib.sqlalchemy.orm``) imports the package twice under two
names, and its own absolute imports (``import sqlalchemy``) fail.
"""

from __future__ import annotations

import posixpath

from remora.code.context import CodeContext

__all__ = ["import_root", "module_files", "module_name", "package_of", "root_paths"]


def import_root(context: CodeContext, file_path: str) -> str:
    """The folder holding ``file_path``'s top package, from the project (``""``: its root)."""

    def find() -> str:
        folder = posixpath.dirname(file_path)
        while folder and context.workspace.exists(f"{folder}/__init__.py"):
            folder = posixpath.dirname(folder)
        return folder

    return context.kept(("import_root", file_path), find)


def module_name(context: CodeContext, file_path: str) -> str:
    """``lib/pkg/mod.py`` -> ``pkg.mod`` (see :func:`import_root`); a package's
    ``__init__.py`` is the package."""
    root = import_root(context, file_path)
    path = file_path.removeprefix(f"{root}/" if root else "").removesuffix(".py")
    return path.removesuffix("/__init__").replace("/", ".")


def package_of(context: CodeContext, file_path: str) -> list[str]:
    """The package ``file_path``'s relative imports start from (its own, for an ``__init__.py``)."""
    parts = module_name(context, file_path).split(".")
    return parts if posixpath.basename(file_path) == "__init__.py" else parts[:-1]


def root_paths(context: CodeContext) -> list[str]:
    """``sys.path`` entries that make the run's node's module import: its root, unless that
    is the project's folder (a program's working folder is on ``sys.path`` already)."""
    root = import_root(context, context.bound_node().file_path)
    return [root] if root else []


def module_files(context: CodeContext, module: str) -> list[str]:
    """Where ``module``, imported by the run's node's file, may be in the project: beside
    the node's top package first, then at the project's root."""
    stem = module.replace(".", "/")
    root = import_root(context, context.bound_node().file_path)
    folders = [root, ""] if root else [""]
    return [
        posixpath.join(folder, name)
        for folder in folders
        for name in (f"{stem}.py", f"{stem}/__init__.py")
    ]
