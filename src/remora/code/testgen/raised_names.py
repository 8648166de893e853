"""The exception class a call raised, named in its test as the node's module names it.

A class of another module of the project (``errors.py``) raised by the node was written
``pytest.raises(Exception)``: the test passed whatever the code raised, and blind
reviewers asked for the class (issue 56). The probe reports the class's ``__module__``
and ``__qualname__``; the test names it through the import the node's module has for
it, read with :mod:`ast` (relative imports made absolute):

- ``from kit import errors`` (the class's module imported by name):
  ``from kit import errors``, ``pytest.raises(errors.UnknownCommand)``;
- ``from kit.errors import UnknownCommand`` (or a package that re-exports it, ``from kit
  import UnknownCommand``): that import, ``pytest.raises(UnknownCommand)``;
- ``import kit.errors``: ``import kit.errors``, ``pytest.raises(kit.errors.UnknownCommand)``;
- a builtin by its name, a class of the node's module imported from it;
- else imported from its own module (``from kit.errors import UnknownCommand``), unless a
  part of that module's name is private (``_impl``) or the class is local to a function:
  only then ``Exception``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from remora.code.context import CodeContext
from remora.code.import_paths import module_name, package_of
from remora.code.parsing import ast_tree
from remora.code.values.project_imports import imported_names, plain_imports

__all__ = ["ExceptionName", "NodeImports", "exception_name", "node_imports"]


@dataclass(frozen=True)
class NodeImports:
    """How the node's module (``module``) names what it imports: ``names``, each name its
    ``from`` imports bind with ``(module, name there)``; ``plain``, the modules its
    ``import a.b`` statements name (without ``as``)."""

    module: str
    names: Mapping[str, tuple[str, str]] = field(default_factory=dict)
    plain: frozenset[str] = frozenset()


@dataclass(frozen=True)
class ExceptionName:
    """The class as the test writes it (``errors.UnknownCommand``) and the one import that
    makes it so: a name of the node's module (``own``), ``from module import name``
    (``from_import``) or ``import module`` (``plain``)."""

    expression: str
    own: str = ""
    from_import: tuple[str, str] | None = None
    plain: str = ""


def node_imports(context: CodeContext) -> NodeImports:
    """The run's node's module's imports (none where its text does not parse)."""
    path = context.bound_node().file_path
    module = module_name(context, path)
    tree = ast_tree(context.node_file_text())
    if tree is None:
        return NodeImports(module)
    return NodeImports(module, imported_names(tree, package_of(context, path)), plain_imports(tree))


def exception_name(qualname: str, module: str, imports: NodeImports) -> ExceptionName | None:
    """How a test names the class ``qualname`` of ``module`` (the probe's ``type`` and
    ``module``); None where it cannot be imported by a public name."""
    head = qualname.split(".")[0]
    if "<" in qualname:  # a class defined in a function (``f.<locals>.Error``)
        return None
    if module == "builtins":
        return ExceptionName(qualname)
    if module == imports.module:
        return ExceptionName(qualname, own=head)
    for source, name in imports.names.values():
        if f"{source}.{name}" == module:  # from kit import errors
            return ExceptionName(f"{name}.{qualname}", from_import=(source, name))
        if name == head and (source == module or module.startswith(f"{source}.")):
            return ExceptionName(qualname, from_import=(source, head))
    if module in imports.plain:
        return ExceptionName(f"{module}.{qualname}", plain=module)
    if any(part.startswith("_") for part in module.split(".")):
        return None
    return ExceptionName(qualname, from_import=(module, head))
