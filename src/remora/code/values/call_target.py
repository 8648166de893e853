"""How a caller reaches the run's node: the shape every agent's code reads it in.

:func:`remora.code.probes.calls.node_call_target` builds it (``remora_code.call_target``
gives it to scripts); it is defined here, below the probes, because the value search
reads it too (the node's parameters, a method's owner) and imports no probe.
"""

from __future__ import annotations

from typing import TypedDict

from remora.code.values.parameters import CallParameter

__all__ = ["CallTarget", "is_instance_method"]


class CallTarget(TypedDict):
    """How a caller reaches the node: ``kind`` its node type, ``owner`` a method's class,
    ``method_kind`` instance, staticmethod, classmethod, property or setter;
    ``is_generator`` a ``def`` whose own body yields, or that returns a lazy iterator
    (``return map(...)``: :mod:`remora.code.values.lazy_iterators`): the probe and the tests
    drain it into a list; ``reason`` non-empty when it cannot be called."""

    module: str
    qualname: str
    name: str
    kind: str
    owner: str
    method_kind: str
    is_async: bool
    is_generator: bool
    parameters: list[CallParameter]
    owner_parameters: list[CallParameter]
    reason: str


def is_instance_method(target: CallTarget) -> bool:
    """Whether the target is a method called on an instance, or a property read on one
    (not a class or static method)."""
    return target["kind"] == "method" and target["method_kind"] in ("instance", "property")
