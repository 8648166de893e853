"""A node that reads its caller's frame does what the calling module says: no test pins it.

ply's ``lex()`` and ``yacc()``, given no ``module``, collect the token and grammar rules of
the module that calls them (``get_caller_module_dict`` reads ``sys._getframe(2).f_globals``).
Called from a test, they reflect over the test module's own globals: the test passes or
fails by what the test file defines, and breaks once it gains a name. A blind reviewer
rejected both such tests ("fails only because it reflects over the test module's
globals"). :func:`caller_frame_reason` says why such a node gets no test: it, or a
function or method of its module that it calls (through others too), reads a frame
(``sys._getframe``, ``inspect.currentframe``, ``inspect.stack``, ``frame.f_back``,
``f_globals``, ``f_locals``). Read with :mod:`ast`.
"""

from __future__ import annotations

import ast

from remora.code.parsing import ast_tree
from remora.code.values.private_helpers import called_names, qualified_functions

__all__ = ["caller_frame_reason"]

Function = ast.FunctionDef | ast.AsyncFunctionDef

_FRAME_CALLS = frozenset({"_getframe", "currentframe", "getouterframes", "getframeinfo"})
_FRAME_ATTRIBUTES = frozenset({"f_back", "f_globals", "f_locals"})


def _reads_a_frame(function: Function) -> bool:
    for node in ast.walk(function):
        if not isinstance(node, ast.Attribute):
            continue
        if node.attr in _FRAME_CALLS | _FRAME_ATTRIBUTES:
            return True
        if node.attr == "stack" and isinstance(node.value, ast.Name) and node.value.id == "inspect":
            return True
    return False


def caller_frame_reason(module_text: str, qualname: str) -> str | None:
    """Why the node ``qualname`` gets no test: it reads a frame, or reaches a function or
    method of its module that does (by name, as :func:`called_names` reads calls); None
    when it does not or the text does not parse."""
    tree = ast_tree(module_text)
    if tree is None:
        return None
    functions = qualified_functions(tree)
    by_short: dict[str, list[str]] = {}
    for name in functions:
        by_short.setdefault(name.rsplit(".", 1)[-1], []).append(name)
    seen: set[str] = set()
    todo = [qualname] if qualname in functions else []
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        function = functions[name]
        if _reads_a_frame(function):
            reader = "it reads" if name == qualname else f"it calls {name}, which reads"
            return (
                f"{reader} its caller's frame (sys._getframe, inspect): what it does depends "
                "on the module that calls it, in a test the test module"
            )
        todo += [q for called in called_names(function) for q in by_short.get(called, [])]
    return None
