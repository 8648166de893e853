"""A call whose value is what a builtin reading of one argument gives: the input held
nothing for the node to work on.

``split(".") == ["."]`` and ``clean_terminal_output("plain") == ["plain"]`` are the
text alone in a list; ``label(None) == "None"`` is ``str`` of the value. Each passes
against the builtin as well: the delimiter, the carriage returns the node exists for
were not in the input. Blind reviewers of humanfriendly rejected each such
test as pinning nothing (issue 56); the mutation check keeps them, since a mutant that
breaks the node's plain path fails them. :func:`plain_reading` says which reading a
probed call's value is, where no ``return`` of the node gives that reading itself
(``return [text]``, ``return str(value)``: then it is the node's work). A number equal
to a text's length is not taken for one: ``Path(name).write_text(text)`` returns it
whatever the text (``ansi_width("hello world") == 11`` too, which reviewers rejected, is
left to the other checks). Read with :mod:`ast`; only ``str`` runs on the observed
values.
"""

from __future__ import annotations

import ast
from collections.abc import Mapping
from typing import Any

from remora import python_ast
from remora.code.values import parameter_names

__all__ = ["plain_reading"]

Function = ast.FunctionDef | ast.AsyncFunctionDef


def _readings(value: Any) -> list[tuple[str, Any]]:
    """(how it reads, what it gives) for the builtin readings of one argument."""
    if isinstance(value, str):
        return [("the text alone in a list", [value])]
    if value is None or isinstance(value, int | float | bool):
        return [("str() of it", str(value))]
    return []


def _returns_reading(function: Function) -> bool:
    """Whether a ``return`` of the node gives a builtin reading of a parameter itself:
    ``[name]``, ``str(name)``."""
    names = parameter_names(function)
    for node in ast.walk(function):
        if not isinstance(node, ast.Return) or node.value is None:
            continue
        value = node.value
        if isinstance(value, ast.List) and any(
            isinstance(item, ast.Name) and item.id in names for item in value.elts
        ):
            return True
        if (
            isinstance(value, ast.Call)
            and isinstance(value.func, ast.Name)
            and value.func.id == "str"
            and any(isinstance(a, ast.Name) and a.id in names for a in value.args)
        ):
            return True
    return False


def plain_reading(row: Mapping[str, Any], function: Function) -> str:
    """How the probed call's returned value reads as a builtin reading of one of its
    arguments ("str() of it (value)"); '' when it is none, raised, or the node returns that
    reading itself."""
    returned = row.get("returned") or {}
    if row.get("raised") or not returned.get("literal") or _returns_reading(function):
        return ""
    value = python_ast.literal_eval(str(returned["repr"]))
    for name, given in (row.get("args") or {}).items():
        for how, reading in _readings(given):
            if type(reading) is type(value) and reading == value:
                return f"{how} ({name})"
    return ""
