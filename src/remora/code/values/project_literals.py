"""A literal the project's own calls pass for one parameter, the others computed.

``self.hour(parts[2], "Hour")``: the project calls ``hour`` with a computed expression and
the literal ``"Hour"``; a test that passes ``prefix="Hour"`` reads as the project's own
usage, where the search would make ``"sample prefix"`` up (blind reviewers: "the prefix
should be the real 'Hour'"). Only calls surely of this code count: a function's by its
bare name, a method's on ``self``/``cls``/its class in its own file
(:func:`remora.code.values.call_sites.literal_arguments`).

A method of a family, its class's methods with the same parameters (cssselect's
``xpath_attrib_exists(self, xpath, name, value)`` and its eleven siblings, called through
``getattr(self, "xpath_attrib_%s" % operator)``), takes what the project passes to a
sibling, after its own calls: ``self.xpath_attrib_includes(xpath, "@class", ...)`` gives
``name="@class"``, where the search made ``"Alice"`` up (blind reviewer: "callers pass an
XPath attribute such as '@lang'"). Read with :mod:`ast`.
"""

from __future__ import annotations

import ast
import functools
from typing import Any

from remora.code.context import CodeContext
from remora.code.parsing import ast_tree
from remora.code.values.call_sites import literal_arguments
from remora.code.values.call_target import CallTarget
from remora.code.values.parameters import function_parameters
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
    names = [name]
    if method:
        names += _siblings(context.read_text(paths[0]), owner, name)
    found: dict[str, Any] = {}
    for called in names:
        for path in paths:
            text = context.read_text(path)
            if called not in text:  # a cheap filter before parsing
                continue
            for where, value in _literals_in(text, called, owner):
                if not _carried(value):
                    continue
                if isinstance(where, int):
                    parameter = passed[where]["name"] if where < len(passed) else None
                else:
                    parameter = where if where in keywords else None
                if parameter is not None:
                    found.setdefault(parameter, value)
    return found


@functools.lru_cache(maxsize=256)
def _siblings(text: str, owner: str | None, name: str) -> tuple[str, ...]:
    """The other methods of class ``owner`` whose parameters (``self`` aside) are the same,
    by name and kind and in order, as method ``name``'s: a family of one role."""
    tree = ast_tree(text)  # the parse every reader of the text shares
    if tree is None:
        return ()
    methods = {
        item.name: [(p.name, p.kind) for p in function_parameters(item.args, drop_first=True)]
        for node in ast.walk(tree)
        if isinstance(node, ast.ClassDef) and node.name == owner
        for item in node.body
        if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef)
    }
    own = methods.get(name)
    if not own:
        return ()
    return tuple(other for other, shape in methods.items() if other != name and shape == own)


def _carried(value: object) -> bool:
    """Whether a literal goes into a probe request as it is (no tuple, set, bytes, None)."""
    if isinstance(value, list):
        return all(_carried(v) for v in value)
    if isinstance(value, dict):
        return all(isinstance(k, str) and _carried(v) for k, v in value.items())
    return isinstance(value, str | int | float | bool)
