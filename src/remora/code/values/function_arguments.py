"""A function the test defines, for a parameter that takes one and keeps it for later.

``connect(receiver)``, ``on(event, f)``: a parameter annotated as a callable
(``Callable[..., Any]``, a ``TypeVar`` bound to one, once the module's aliases are put in)
that the node does not call itself is kept, for other code to call (``send`` calls each
receiver ``connect`` stored). Neither a text nor a builtin stands in for it (a blind
reviewer: "registering strings as handlers is nonsensical"); the test defines a function
that records each call made of it::

    receiver_calls = []

    def receiver(*args, **kwargs):
        receiver_calls.append((args, kwargs))

and asserts the calls it recorded. Its value is ``{"__function__": NAME}``: built by the
probe (:mod:`remora.code.probes.programs.call_arguments`), written by
:class:`~remora.code.values.call_render.CallRender`. Read with :mod:`ast`; nothing runs.
"""

from __future__ import annotations

import builtins
import keyword
from collections.abc import Iterable, Mapping
from typing import Any

from remora.code.values.annotations import head_name, parsed_annotation, union_parts
from remora.code.values.parameters import Parameter

__all__ = [
    "FUNCTION_MARKER",
    "contains_function",
    "function_arguments",
    "function_definition",
    "function_value",
    "hands_a_function",
    "is_function",
    "takes_a_function",
]

FUNCTION_MARKER = "__function__"
# A parameter's name too short to say what the function is for names it thus.
_PLAIN_NAME = "handler"


def is_function(value: Any) -> bool:
    return isinstance(value, dict) and set(value) == {FUNCTION_MARKER}


def contains_function(value: Any) -> bool:
    """Whether a set's value is, or holds, a function the test defines."""
    if is_function(value):
        return True
    if isinstance(value, dict):
        return any(contains_function(v) for v in value.values())
    return isinstance(value, list | tuple) and any(contains_function(v) for v in value)


def hands_a_function(call: Mapping[str, Any]) -> bool:
    """Whether a call of a filling method passes a function the test defines
    (``connect(receiver)``): ``{"args": [...], "keywords": {...}}``."""
    return contains_function([*call["args"], *call["keywords"].values()])


def function_value(parameter: str) -> dict[str, str]:
    """The test's function for ``parameter``: named as it (``receiver``), unless that is
    too short to read (``f``) or a builtin's or keyword's name."""
    name = parameter.strip("_")
    plain = len(name) < 3 or keyword.iskeyword(name) or hasattr(builtins, name)
    return {FUNCTION_MARKER: _PLAIN_NAME if plain or not name.isidentifier() else name}


def function_definition(name: str, recording: bool) -> list[str]:
    """The lines that define the function ``name`` in a test, before its use: one that
    records its calls where the test asserts them (``recording``), else one that does
    nothing (a list no assert reads is noise)."""
    if not recording:
        return [f"def {name}(*args, **kwargs):", "    return None", ""]
    return [
        f"{name}_calls = []",
        "",
        f"def {name}(*args, **kwargs):",
        f"    {name}_calls.append((args, kwargs))",
        "",
    ]


def takes_a_function(annotation: str | None) -> bool:
    """Whether every alternative of the annotation but None is a ``Callable``."""
    tree = parsed_annotation(annotation)
    if tree is None:
        return False
    parts = [p for p in union_parts(tree) if head_name(p) != "None"]
    return bool(parts) and all(head_name(p) == "Callable" for p in parts)


def function_arguments(params: Iterable[Parameter], called: Iterable[str]) -> dict[str, Any]:
    """A recording function for each parameter annotated as a callable that the node does
    not call itself (``called``: those it calls, which get values that answer)."""
    skipped = set(called)
    return {
        p.name: function_value(p.name)
        for p in params
        if p.name not in skipped and takes_a_function(p.annotation)
    }
