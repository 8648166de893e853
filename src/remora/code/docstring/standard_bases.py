"""The standard library's docstring a method inherits: ``help()`` shows it for an override.

``inspect.getdoc`` (so ``help()``) and Sphinx's autodoc give a method without a docstring
the docstring of the first class along the method resolution order that has one. A
mapping class's ``clear``, ``popitem``, ``keys`` or ``fromkeys`` overriding
``MutableMapping``'s or ``OrderedDict``'s already reads "Remove all items from D." there;
blind reviewers rejected the drafted words on such overrides as restating the code
("Clear the cache and the order.") or as false about what the interface promises
("Return an iterator over the items" of a view). :func:`standard_base_doc` finds, for a
method of a class of the module, a base outside the module that the standard library or
the builtins define and whose method of that name has a docstring. The bases are read
with :mod:`ast` from the class and its ancestors in the module, and resolved through the
module's imports (``from collections.abc import MutableMapping``, ``import collections``
then ``collections.OrderedDict``) or the builtins, and, where the caller can read the
project, through a base imported from another of its files, read there (a time zone
class whose base, in the next file, subclasses ``datetime.tzinfo``: its ``utcoffset``);
only standard library modules are imported, never the project's.
"""

from __future__ import annotations

import ast
import builtins
import importlib
import sys
import warnings

from remora.code.docstring.overrides import ImportedClass
from remora.code.parsing import ast_tree
from remora.code.values.method_state import ancestors, classes_by_name

__all__ = ["standard_base_doc"]

# Standard library modules whose import does something beyond defining names.
_ACTING_MODULES = frozenset({"antigravity", "this", "__main__"})


def standard_base_doc(text: str, full_name: str, imported: ImportedClass | None = None) -> str:
    """The dotted name of the standard (or builtin) class whose docstring ``help()`` shows
    for the method ``Class.name`` of the module's ``text`` ('' when there is none: the node
    is no method of a class of the module, or no standard base documents the name). With
    ``imported``, a base imported from another file of the project is read there."""
    owner, dot, name = full_name.partition(".")
    tree = ast_tree(text)
    classes = classes_by_name(text)
    if tree is None or not dot or "." in name or owner not in classes:
        return ""
    imports = _imports(tree)
    for resolved in _standard_bases(classes[owner], imports, classes, {owner}):
        for klass in resolved.__mro__:
            method = vars(klass).get(name)
            if klass is not object and getattr(method, "__doc__", None):
                return f"{klass.__module__}.{klass.__qualname__}"
    if imported is None:
        return ""
    for cls in [classes[owner], *ancestors(classes[owner], classes)]:
        for base in cls.bases:
            if isinstance(base, ast.Name) and base.id not in classes:
                there = imported(base.id)  # read in its own file, one file deep
                found = standard_base_doc(there[0], f"{there[1]}.{name}") if there else ""
                if found:
                    return found
    return ""


def _standard_bases(
    cls: ast.ClassDef, imports: dict[str, str], classes: dict[str, ast.ClassDef], seen: set[str]
) -> list[type]:
    """The standard classes among the bases of ``cls`` and of its ancestors in the module,
    in the order Python looks a name up in them (depth first, bases in order: enough
    without a diamond)."""
    found: list[type] = []
    for base in cls.bases:
        if isinstance(base, ast.Name) and base.id in classes:
            if base.id not in seen:
                seen.add(base.id)
                found += _standard_bases(classes[base.id], imports, classes, seen)
        elif (standard := _standard_class(base, imports, classes)) is not None:
            found.append(standard)
    return found


def _imports(tree: ast.Module) -> dict[str, str]:
    """``name -> dotted path`` for what the module imports as it loads: ``import a.b`` binds
    ``a`` to ``a``, ``import a.b as c`` binds ``c`` to ``a.b``, ``from a import b`` binds
    ``b`` to ``a.b`` (relative imports are the project's: left out)."""
    found: dict[str, str] = {}
    for stmt in _module_level(tree.body):
        if isinstance(stmt, ast.Import):
            for alias in stmt.names:
                head = alias.name.split(".")[0]
                found.setdefault(alias.asname or head, alias.name if alias.asname else head)
        elif isinstance(stmt, ast.ImportFrom) and not stmt.level and stmt.module:
            for alias in stmt.names:
                found.setdefault(alias.asname or alias.name, f"{stmt.module}.{alias.name}")
    return found


def _module_level(body: list[ast.stmt]) -> list[ast.stmt]:
    """The statements run at import, those under a top-level ``try`` or ``if`` too, in order
    (the first import of a name is the one a current Python takes: ``try: from
    collections.abc import MutableMapping`` before its ``except ImportError`` fallback)."""
    found: list[ast.stmt] = []
    for stmt in body:
        found.append(stmt)
        if isinstance(stmt, ast.Try):
            inner = [*stmt.body, *(s for h in stmt.handlers for s in h.body), *stmt.orelse]
            found += _module_level(inner)
        elif isinstance(stmt, ast.If):
            found += _module_level([*stmt.body, *stmt.orelse])
    return found


def _standard_class(
    base: ast.expr, imports: dict[str, str], classes: dict[str, ast.ClassDef]
) -> type | None:
    """The class a base expression names when the standard library or the builtins define
    it (None for the module's own classes, the project's and anything else); a generic
    one subscripted (``Dict[str, int]``, ``MutableMapping[str, V]``) is its origin."""
    if isinstance(base, ast.Subscript):
        base = base.value
    parts: list[str] = []
    while isinstance(base, ast.Attribute):
        parts.insert(0, base.attr)
        base = base.value
    if not isinstance(base, ast.Name) or base.id in classes:
        return None
    if base.id in imports:
        path = [*imports[base.id].split("."), *parts]
    elif not parts and isinstance(getattr(builtins, base.id, None), type):
        return getattr(builtins, base.id)  # type: ignore[no-any-return]
    else:
        return None
    return _find(path)


def _find(path: list[str]) -> type | None:
    """The standard library class at the dotted ``path`` (the longest importable module
    prefix, then attributes), or None."""
    if path[0] not in sys.stdlib_module_names or path[0] in _ACTING_MODULES:
        return None
    for cut in range(len(path) - 1, 0, -1):
        try:
            with warnings.catch_warnings():  # a deprecated module (asynchat) warns on import
                warnings.simplefilter("ignore")
                found: object = importlib.import_module(".".join(path[:cut]))
        except ImportError:
            continue
        for attribute in path[cut:]:
            found = getattr(found, attribute, None)
        found = getattr(found, "__origin__", found)  # typing.Dict is dict
        return found if isinstance(found, type) else None
    return None
