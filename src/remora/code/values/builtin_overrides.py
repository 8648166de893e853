"""A method that overrides a builtin base's method is called as the base's callers call it.

``class FrozenDict(dict): def pop(self, k, d=None): ...``: code that holds a dict writes
``d.pop(key)``, since a builtin type's methods take their arguments by position
(``dict.pop(key, default, /)``). The override's parameter names (``k``, ``d``) are no
part of what its callers write, and a test calling ``pop(k=...)`` is tied to a name a
refactor may change (a blind reviewer asked for "a positional key"). So the leading
parameters the builtin takes by position only are positional-only for a test too: all
of them before ``*args`` where the builtin has no signature to read (``dict.pop``,
``set.add``: C methods that take positional arguments), the ones its signature marks so
where it has one (``str.split(sep=None, maxsplit=-1)`` keeps its keywords). Read with
:mod:`ast` and :mod:`inspect`; nothing of the project is imported.
"""

from __future__ import annotations

import ast
import builtins
import inspect

from remora.code.values.constructor import parsed_classes

__all__ = ["builtin_positional_count"]


def _builtin_bases(cls: ast.ClassDef) -> list[type]:
    """The builtin types a class names as its bases (``dict``, ``list``), ``object`` aside."""
    found: list[type] = []
    for base in cls.bases:
        if isinstance(base, ast.Name) and base.id != "object":
            value = getattr(builtins, base.id, None)
            if isinstance(value, type):
                found.append(value)
    return found


def builtin_positional_count(source: str, owner: str, name: str) -> int:
    """How many leading parameters of method ``name`` of class ``owner`` (its qualified
    name in ``source``), ``self`` aside, a builtin base's method of that name takes by
    position only; 0 when no builtin base has it, or the text does not parse."""
    try:
        cls = parsed_classes(source).classes.get(owner)
    except ValueError:
        return 0
    if cls is None or (name.startswith("__") and name.endswith("__")):
        return 0
    for base in _builtin_bases(cls):
        method = getattr(base, name, None)
        if method is None:
            continue
        try:
            parameters = list(inspect.signature(method).parameters.values())[1:]
        except (TypeError, ValueError):  # a C method with no signature: positional
            return len(_own_positional(cls, name))
        only = [p for p in parameters if p.kind is inspect.Parameter.POSITIONAL_ONLY]
        return len(only)
    return 0


def _own_positional(cls: ast.ClassDef, name: str) -> list[str]:
    """The method's own parameters a caller may pass by position, ``self`` aside."""
    for stmt in cls.body:
        if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef) and stmt.name == name:
            return [a.arg for a in [*stmt.args.posonlyargs, *stmt.args.args]][1:]
    return []
