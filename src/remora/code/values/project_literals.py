"""A literal the project's own calls pass for one parameter, the others computed.

``self.hour(parts[2], "Hour")``: the project calls ``hour`` with a computed expression and
the literal ``"Hour"``; a test that passes ``prefix="Hour"`` reads as the project's own
usage, where the search would make ``"sample prefix"`` up (blind reviewers: "the prefix
should be the real 'Hour'"). Only calls surely of this code count: a function's by its
bare name, a method's on ``self``/``cls``/its class in its own file
(:func:`remora.code.values.call_sites.literal_arguments`). Read with :mod:`ast`.
"""

from __future__ import annotations

import functools
from typing import Any

from remora.code.context import CodeContext
from remora.code.values.call_sites import literal_arguments
from remora.code.values.call_target import CallTarget
from remora.code.values.project_values import python_files

__all__ = ["project_literals"]


@functools.lru_cache(maxsize=512)
def _literals_in(text: str, name: str, owner: str | None) -> tuple[tuple[int | str, object], ...]:
    return tuple(literal_arguments(text, name, owner))


def project_literals(context: CodeContext, target: CallTarget) -> dict[str, Any]:
    """A value for each parameter the project's own code passes a literal for in some call
    of the node, the first found (``self.hour(parts[2], "Hour")``: ``prefix="Hour"``),
    where the other arguments of those calls are computed: how the project calls it, for a
    parameter the search would otherwise make a value up for. Only values a probe request
    carries (JSON's: text, numbers, booleans, lists and dicts of them)."""
    method = target["kind"] == "method"
    name = target["name"] if target["kind"] != "class" else target["qualname"].split(".")[-1]
    owner = target["owner"] if method else None
    # A method is called on ``self`` in its own class's file; a function from anywhere.
    paths = [context.bound_node().file_path] if method else python_files(context)
    passed = [
        p for p in target["parameters"] if p["kind"] in ("positional_only", "positional_or_keyword")
    ]
    keywords = {p["name"] for p in target["parameters"] if p["kind"] != "var_keyword"}
    found: dict[str, Any] = {}
    for path in paths:
        text = context.read_text(path)
        if name not in text:  # a cheap filter before parsing
            continue
        for where, value in _literals_in(text, name, owner):
            if not _carried(value):
                continue
            if isinstance(where, int):
                parameter = passed[where]["name"] if where < len(passed) else None
            else:
                parameter = where if where in keywords else None
            if parameter is not None:
                found.setdefault(parameter, value)
    return found


def _carried(value: object) -> bool:
    """Whether a literal goes into a probe request as it is (no tuple, set, bytes, None)."""
    if isinstance(value, list):
        return all(_carried(v) for v in value)
    if isinstance(value, dict):
        return all(isinstance(k, str) and _carried(v) for k, v in value.items())
    return isinstance(value, str | int | float | bool)
