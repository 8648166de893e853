"""Whether a decorator may stand between a function's ``return`` and its caller.

``@staticmethod``, ``@property`` or ``@functools.lru_cache`` hand the body's value to the
caller as it is; a decorator of the project's own, or any other Python does not define,
may not: validators' ``@validator`` turns any true value the body returns into ``True``
and a false one into a ``ValidationError``. What a test sees is then the decorator's
answer, and a mutant of the body may change nothing it can see. Read with :mod:`ast`.
"""

from __future__ import annotations

import ast

from remora.code.parsing import decorator_name

__all__ = ["value_changing"]

# Decorators that hand the body's value to the caller as it is.
_PASS_THROUGH = frozenset(
    {"staticmethod", "classmethod", "property", "cached_property", "setter", "getter"}
    | {"abstractmethod", "override", "overload", "cache", "lru_cache", "wraps"}
)


def value_changing(function: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """Whether a decorator that may change the returned value wraps ``function``."""
    return any(decorator_name(d) not in _PASS_THROUGH for d in function.decorator_list)
