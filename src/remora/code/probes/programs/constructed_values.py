"""A returned value whose repr is the call that builds it: ``Fraction(1, 2)``, ``date(...)``.

Sent ahead of :mod:`remora.code.probes.programs.returned_values`, in one program text
(:data:`remora.code.probes.sandboxed.PROGRAM_PARTS`). A value without a literal form
may still have a repr a test can compare with: ``RomanNumeral(16)``, a dataclass's
``Point(x=1, y=2)``, ``datetime.date(2024, 1, 1)``, a list of them. A maintainer writes
``assert result == Point(x=1, y=2)``, not the attributes one by one nor ``len(result)``.

:func:`constructed` reports such a repr when it holds only literals, displays and
calls of classes named as the value's own types are (``Name`` or ``module.Name``, each
the class of the value or of a value in it, reachable by that name in its module), and
evaluating it gives a value of the same type that equals the returned one while not
equalling an unrelated object (an ``__eq__`` true of anything compares nothing). It says
what the test imports for each name: ``from module import Name``, or ``import module``.
An enum member's repr (``<Platform.LINUX: 'linux'>``) builds nothing; its class's name
and its own (``Platform.LINUX``) do, where the class is reachable by that name
(:func:`enum_member`): the value a maintainer compares with. A dict, list or tuple holding
classes (a schema library's ``{"q": str, "page": int}``) has a repr that names none
(``<class 'str'>``); written with each class by its name (:func:`class_display`), it is
the whole value a maintainer compares with, not its length.
"""

from __future__ import annotations

import ast
import builtins
import enum
import math
import sys
from typing import Any

MAX_NESTED_VALUES = 200  # values walked to find the classes a repr may name


def _named(node: ast.expr) -> list[str] | None:
    """``Name`` or ``module.Name`` as its parts; None for any other callee."""
    if isinstance(node, ast.Name):
        return [node.id]
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
        return [node.value.id, node.attr]
    return None


def _callees(node: ast.expr, found: list[list[str]]) -> bool:
    """Whether ``node`` is built of literals, displays and calls of named classes only;
    the callees' names are added to ``found``."""
    if isinstance(node, ast.Constant):
        return True
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.UAdd):
        return isinstance(node.operand, ast.Constant)
    if isinstance(node, ast.List | ast.Tuple | ast.Set):
        return all(_callees(item, found) for item in node.elts)
    if isinstance(node, ast.Dict):
        keys = [key for key in node.keys if key is not None]
        return len(keys) == len(node.keys) and all(
            _callees(item, found) for item in [*keys, *node.values]
        )
    if isinstance(node, ast.Call):
        name = _named(node.func)
        if name is None or any(isinstance(a, ast.Starred) for a in node.args):
            return False
        found.append(name)
        arguments = [*node.args, *(k.value for k in node.keywords)]
        return all(k.arg is not None for k in node.keywords) and all(
            _callees(argument, found) for argument in arguments
        )
    return False


def _own_types(value: Any) -> list[type]:
    """The types of ``value`` and of the values in its displays (breadth first, bounded)."""
    seen: list[type] = []
    queue = [value]
    walked = 0
    while queue and walked < MAX_NESTED_VALUES:
        current = queue.pop(0)
        walked += 1
        if type(current) not in seen:
            seen.append(type(current))
        if isinstance(current, dict):
            queue += [*current.keys(), *current.values()]
        elif isinstance(current, list | tuple | set | frozenset):
            queue += list(current)
    return seen


def _resolved(name: list[str], kinds: list[type]) -> tuple[Any, list[str]] | None:
    """What ``name`` stands for in the test (a class, or for ``module.Name`` the module)
    and its import (``[module, Name]`` or ``[module]``); None where no type of the value
    is reachable by that name."""
    for kind in kinds:
        module = sys.modules.get(kind.__module__)
        if module is None or getattr(kind, "__qualname__", "") != kind.__name__:
            continue
        if name == [kind.__name__] and getattr(module, kind.__name__, None) is kind:
            return kind, [kind.__module__, kind.__name__]
        if name == [kind.__module__, kind.__name__] and getattr(module, name[1], None) is kind:
            return module, [kind.__module__]
    return None


def constructed(value: Any, text: str) -> dict[str, Any] | None:
    """``{"imports": [[module, Name] | [module], ...]}`` where ``text`` (``repr(value)``)
    rebuilds an equal value of the same type from the classes it names; else None."""
    try:
        tree = ast.parse(text, mode="eval")
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return None
    callees: list[list[str]] = []
    if not _callees(tree.body, callees) or not callees:
        return None
    kinds = _own_types(value)
    namespace: dict[str, Any] = {"__builtins__": {}}
    imports: list[list[str]] = []
    for name in callees:
        resolved = _resolved(name, kinds)
        if resolved is None:
            return None
        namespace[name[0]] = resolved[0]
        if resolved[1] not in imports:
            imports.append(resolved[1])
    try:
        rebuilt = eval(compile(tree, "<repr>", "eval"), namespace)
        same = type(rebuilt) is type(value) and bool(rebuilt == value)
        indiscriminate = bool(rebuilt == object())
    except Exception:
        return None
    return {"imports": imports} if same and not indiscriminate else None


def enum_member(value: Any) -> dict[str, Any] | None:
    """``{"imports": [[module, Name]], "text": "Name.MEMBER"}`` for an enum member its
    class gives back by that name, the class reachable as ``Name`` in its module; else None."""
    if not isinstance(value, enum.Enum):
        return None
    kind = type(value)
    resolved = _resolved([kind.__name__], [kind])
    if resolved is None or kind.__members__.get(value.name) is not value:
        return None
    return {"imports": [resolved[1]], "text": f"{kind.__name__}.{value.name}"}


_SCALARS = (int, float, str, bytes, bool, type(None))


class _Display:
    """Writes a value with its classes by name, noting what the text names and imports."""

    def __init__(self) -> None:
        self.imports: list[list[str]] = []
        self.named: dict[str, type] = {}
        self.budget = MAX_NESTED_VALUES

    def _class(self, kind: type) -> str | None:
        """A builtin by its name, else ``Name`` imported from its module; None where the
        class is not reachable by that name."""
        if getattr(builtins, kind.__name__, None) is not kind:
            resolved = _resolved([kind.__name__], [kind])
            if resolved is None:
                return None
            if resolved[1] not in self.imports:
                self.imports.append(resolved[1])
        self.named[kind.__name__] = kind
        return kind.__name__

    def text(self, value: Any) -> str | None:
        """``value`` written with its classes by name; None for one that cannot be."""
        self.budget -= 1
        if self.budget < 0:
            return None
        if isinstance(value, type):
            return self._class(value)
        if type(value) in _SCALARS:
            finite = not isinstance(value, float) or math.isfinite(value)
            return repr(value) if finite else None
        if type(value) is dict:
            pairs = [(self.text(k), self.text(v)) for k, v in value.items()]
            if any(k is None or v is None for k, v in pairs):
                return None
            return "{" + ", ".join(f"{k}: {v}" for k, v in pairs) + "}"
        if type(value) in (list, tuple):
            items = [self.text(item) for item in value]
            if any(item is None for item in items):
                return None
            inner = ", ".join(str(item) for item in items)
            if type(value) is list:
                return f"[{inner}]"
            return f"({inner},)" if len(items) == 1 else f"({inner})"
        if type(value) in (set, frozenset) and value:
            # In the order of their text: a set of classes iterates by their hashes.
            members = [self.text(item) for item in value]
            if any(member is None for member in members):
                return None
            braces = "{" + ", ".join(sorted(str(member) for member in members)) + "}"
            if type(value) is set:
                return braces
            self.named["frozenset"] = frozenset
            return f"frozenset({braces})"
        return None


def class_display(value: Any, limit: int) -> dict[str, Any] | None:
    """``{"imports": [[module, Name], ...], "text": "{'q': str}"}`` for a dict, list,
    tuple or set of literals and classes, holding at least one class, written in at most
    ``limit`` characters with each class by name, where that text rebuilds an equal value
    of the same type; else None."""
    if type(value) not in (dict, list, tuple, set, frozenset):
        return None
    display = _Display()
    text = display.text(value)
    if text is None or not display.named or len(text) > limit:
        return None
    try:
        namespace: dict[str, Any] = {"__builtins__": {}, **display.named}
        rebuilt = eval(compile(text, "<display>", "eval"), namespace)
        same = type(rebuilt) is type(value) and bool(rebuilt == value)
    except Exception:
        return None
    return {"imports": display.imports, "text": text} if same else None
