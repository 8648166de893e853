"""A context manager's summary says what holds in its ``with`` block, not that it yields.

A generator under ``@contextmanager`` (``@asynccontextmanager``) is used as ``with
f(...):``; a caller never sees what it yields as items. "Connect to the receiver and
yield None when done." describes the mechanism and leaves out what a reader needs: that
the receiver stays connected for the block and is disconnected when it ends (a blind
reviewer: "it gets the context manager backwards"). A summary of such a function that
speaks of yielding or of a generator is refused, and the model is told what to say.
"""

from __future__ import annotations

from remora.code.docstring.behaviour import node_definition
from remora.code.docstring.facts import word_tokens
from remora.code.parsing import SourceNode
from remora.code.values.annotations import head_name

__all__ = ["yielding_context_manager"]

_DECORATORS = frozenset({"contextmanager", "asynccontextmanager"})
_MECHANISM = frozenset({"yield", "yields", "yielding", "generator", "generators"})


def yielding_context_manager(node: SourceNode, summary: str) -> str:
    """Why ``summary`` may not stand for a context manager ('' when it may)."""
    if not _MECHANISM.intersection(word_tokens(summary)):
        return ""
    definition = node_definition(node)
    if definition is None or not any(
        head_name(d) in _DECORATORS for d in definition.decorator_list
    ):
        return ""
    return (
        f"{definition.name} is used in a with block, not iterated; say what holds inside the "
        "block and what is undone when it ends, not what it yields"
    )
