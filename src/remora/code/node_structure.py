"""``remora_code`` functions that say what the run's node is: span, signature, raises, returns.

Each answers for the run's node, found again in the current text of its file, with
the function of :mod:`remora.code.parsing.structure` of the same question.
"""

from __future__ import annotations

from typing import cast

from remora.code.context import CodeContext
from remora.code.host_function import host_function
from remora.code.parsing import (
    NodeReturns,
    NodeSignature,
    NodeSpan,
    RaisedException,
    node_raises,
    node_returns,
    node_signature,
    node_span,
)

__all__ = ["raises", "returns", "signature", "span"]


@host_function
def span(context: CodeContext) -> NodeSpan:
    """The node's exact place in its file (lines, bytes, decorators included), header and text."""
    return node_span(context.located())


@host_function
def signature(context: CodeContext) -> NodeSignature:
    """The node's signature: parameters of every kind with annotation and default as written."""
    # node_signature builds a NodeSignature and returns it as dict[str, Any] for docstring/.
    return cast(NodeSignature, node_signature(context.located()))


@host_function
def raises(context: CodeContext) -> list[RaisedException]:
    """Exceptions the node's own code raises: ``[{"name", "line", "reraise"}]``."""
    return node_raises(context.located())


@host_function
def returns(context: CodeContext) -> NodeReturns:
    """``{"returns_value", "is_generator", "annotation"}`` for the node's own code."""
    # node_returns builds a NodeReturns and returns it as dict[str, Any] for docstring/.
    return cast(NodeReturns, node_returns(context.located()))
