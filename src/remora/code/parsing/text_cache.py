"""A cache for work done once per source text, bounded by the texts' size as well as their count.

``functools.lru_cache(maxsize=64)`` of a function returning a file's ``ast`` tree
holds up to 64 trees whatever their size: ~64 bytes of tree per byte of source,
so 64 texts of a large module (SQLAlchemy's compiler.py, 275 KB: 17 MB each; a
run's every change is a new text) came to a gigabyte. Here the entries are the
most recently used ones whose texts (the first argument) add up to at most
``max_chars``, and at most ``max_entries`` of them; the newest always stays.
Safe from several threads (host functions also run on the sandbox's threads).
"""

from __future__ import annotations

import ast
import functools
import threading
import weakref
from collections import OrderedDict
from collections.abc import Callable
from typing import Any, Concatenate, Generic, ParamSpec, TypeVar

from remora import python_ast

__all__ = ["TextCached", "ast_tree", "per_node", "per_text"]

P = ParamSpec("P")
R = TypeVar("R")


class TextCached(Generic[P, R]):
    """``function`` with its results kept per arguments (see the module's docstring)."""

    def __init__(
        self, function: Callable[Concatenate[str, P], R], max_chars: int, max_entries: int
    ) -> None:
        self._function = function
        self._max_chars = max_chars
        self._max_entries = max_entries
        self._kept: OrderedDict[tuple[object, ...], tuple[int, R]] = OrderedDict()
        self._chars = 0
        self._lock = threading.Lock()
        functools.update_wrapper(self, function)

    def __call__(self, text: str, *args: P.args, **kwargs: P.kwargs) -> R:
        key = (text, *args, *sorted(kwargs.items()))
        with self._lock:
            hit = self._kept.get(key)
            if hit is not None:
                self._kept.move_to_end(key)
                return hit[1]
        value = self._function(text, *args, **kwargs)  # outside the lock: others may work
        with self._lock:
            if key in self._kept:  # another thread's, made meanwhile: one result per key
                return self._kept[key][1]
            self._kept[key] = (len(text), value)
            self._chars += len(text)
            while len(self._kept) > 1 and (
                self._chars > self._max_chars or len(self._kept) > self._max_entries
            ):
                self._chars -= self._kept.popitem(last=False)[1][0]
        return value

    def cache_clear(self) -> None:
        with self._lock:
            self._kept.clear()
            self._chars = 0


def per_text(
    max_chars: int = 2_000_000, max_entries: int = 64
) -> Callable[[Callable[Concatenate[str, P], R]], TextCached[P, R]]:
    """Decorator: keep results per text within ``max_chars`` of text and ``max_entries``."""

    def wrap(function: Callable[Concatenate[str, P], R]) -> TextCached[P, R]:
        return TextCached(function, max_chars, max_entries)

    return wrap


K = TypeVar("K")
_MISSING = object()


def per_node(function: Callable[[K], R]) -> Callable[[K], R]:
    """Decorator: ``function``'s result kept while its argument (a located node) lives: a run
    keeps its node until it writes, and a cache of a bounded number of them held as many
    files' trees alive (a located node holds its file)."""
    kept: weakref.WeakKeyDictionary[Any, R] = weakref.WeakKeyDictionary()
    lock = threading.Lock()

    @functools.wraps(function)
    def cached(node: K) -> R:
        with lock:
            found = kept.get(node, _MISSING)
        if found is not _MISSING:
            return found  # type: ignore[return-value]
        value = function(node)
        with lock:
            kept[node] = value
        return value

    return cached


@per_text()
def ast_tree(text: str) -> ast.Module | None:
    """``text``'s ``ast`` tree, None when it does not parse: one tree per text for every
    reader (the docstring drafts, the project's values, the constructors). Shared: read it,
    never change it."""
    try:
        return python_ast.parse(text)
    except SyntaxError:
        return None
