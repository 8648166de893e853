"""Tests pass tuples and classes where the code asks for them (values JSON cannot spell).

An invented kit (issue 56): ``pairs`` takes a list only when each item is a pair
(``isinstance(t, tuple) and len(t) == 2``), ``relation`` compares two classes with
``issubclass`` and names them, ``type_name`` names a class or a tuple of them. Before
tuples and classes had markers the search sent lists and strings: ``pairs`` was only
ever refused and the class nodes got no test (blind reviewers: "lacks the positive case
[('a', 1)]"; ``typename(int)``, ``supercedes((int,), (object,))`` wanted). A pair the
search makes up (``("sample value", "other value")``) is shown to no reader: the positive
case comes from the kit's own call. The sandbox, the probe, pytest and the mutation check
are real; no model.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import pytest
from bundled_agents_support import search_tests_on

pytestmark = pytest.mark.integration

KIT = '''\
def pairs(value):
    """``(True, value)`` when ``value`` is a non-empty list of pairs, else ``(False, None)``."""
    if not value or not all(isinstance(t, tuple) and len(t) == 2 for t in value):
        return False, None
    return True, value


def relation(kind, base):
    """``"int <= object"`` where ``kind`` is ``base`` or its subclass, else ``"str !<= int"``."""
    if issubclass(kind, base):
        return f"{kind.__name__} <= {base.__name__}"
    return f"{kind.__name__} !<= {base.__name__}"


def type_name(kind):
    """The name of a class, or of each class of a tuple of them."""
    try:
        return kind.__name__
    except AttributeError:
        return "(%s)" % ", ".join(map(type_name, kind))


def settings():
    return pairs([("width", 80)])
'''

FILES = {"kit/__init__.py": "", "kit/kinds.py": KIT}


async def _search(tmp_path: Path, node: str) -> tuple[dict[str, Any], str]:
    found, data = await search_tests_on(
        tmp_path, FILES, "kit/kinds.py", node, "tests/test_kinds.py"
    )
    written = (data or b"").decode()
    return found, ast.unparse(ast.parse(written)) if written else ""  # one quote style


def _arguments(written: str, node: str) -> list[str]:
    """Every argument the written tests pass to ``node``, as its source."""
    return [
        ast.unparse(value)
        for call in ast.walk(ast.parse(written or "\n"))
        if isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id == node
        for value in [*call.args, *(k.value for k in call.keywords)]
    ]


async def test_a_list_of_pairs_reaches_the_positive_case(tmp_path: Path) -> None:
    found, written = await _search(tmp_path, "pairs")
    assert "[('width', 80)]" in _arguments(written, "pairs"), (found, written)
    assert "(True, [('width', 80)])" in written, written
    assert "sample value" not in written, written


async def test_classes_compared_with_issubclass_go_both_ways(tmp_path: Path) -> None:
    found, written = await _search(tmp_path, "relation")
    passed = _arguments(written, "relation")
    assert "int" in passed, (found, written)
    assert " <= " in written and " !<= " in written, written  # both branches
    assert not any(arg.startswith(("'", '"')) for arg in passed), written


async def test_a_class_and_a_tuple_of_classes_are_both_named(tmp_path: Path) -> None:
    found, written = await _search(tmp_path, "type_name")
    passed = _arguments(written, "type_name")
    # one call runs both: the tuple's classes are named by the recursion
    assert "(int, float)" in passed and "'(int, float)'" in written, (found, written)
