"""No test passes a string where the code wants a type, a record or a collection of items.

An invented kit (issue 56): ``checked`` hands each item of its signature to
``isinstance`` as a class after a length check two strings fail, ``titles`` reads each
item's ``"title"`` (records) after a check an empty string passes, ``longest`` walks its
items whole with ``max``: a string's characters make each call finish, and its test pin
them. Blind reviewers rejected ``supercedes("sample a", "")`` ("strings stand in for
type signatures") and ``groupby(str, "sample seq")`` (it counted the string's
characters). A placeholder the code reads as text (``len``) gives no test either: it
shows a made-up value (testgen/unread_arguments.without_made_up). The
sandbox, the probe, pytest and the mutation check are real; no
model.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import pytest
from bundled_agents_support import search_tests_on

pytestmark = pytest.mark.integration

KIT = '''\
def checked(row, signature):
    """Whether each field of ``row`` is an instance of the class at its place in ``signature``."""
    if len(row) != len(signature):
        raise ValueError("one class for each field")
    return [isinstance(field, kind) for field, kind in zip(row, signature)]


def titles(entries):
    """Each entry's title, or one "untitled" where there is no entry."""
    if len(entries) == 0:
        return ["untitled"]
    return [entry["title"] for entry in entries]


def longest(arg):
    """The largest of ``arg``'s items, or None for none."""
    if not arg:
        return None
    return max(arg)


def width(arg):
    """How many items or characters ``arg`` holds, twice."""
    return len(arg) * 2
'''

FILES = {"kit/__init__.py": "", "kit/shapes.py": KIT}


async def _search(tmp_path: Path, node: str) -> tuple[dict[str, Any], str]:
    found, data = await search_tests_on(
        tmp_path, FILES, "kit/shapes.py", node, "tests/test_shapes.py"
    )
    return found, (data or b"").decode()


def _arguments(written: str, node: str, parameter: str | None = None) -> list[Any]:
    """Every literal argument the written tests pass to ``node`` (for ``parameter`` only:
    by keyword)."""
    found: list[Any] = []
    for call in ast.walk(ast.parse(written or "\n")):
        if isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id == node:
            keywords = [k.value for k in call.keywords if parameter in (None, k.arg)]
            for value in [*(call.args if parameter is None else []), *keywords]:
                try:
                    found.append(ast.literal_eval(value))
                except ValueError:
                    found.append(ast.unparse(value))
    return found


@pytest.mark.parametrize(("node", "parameter"), [("checked", "signature"), ("titles", "entries")])
async def test_no_string_stands_for_types_or_records(
    tmp_path: Path, node: str, parameter: str
) -> None:
    found, written = await _search(tmp_path, node)
    passed = _arguments(written, node, parameter)
    assert not any(isinstance(value, str) for value in passed), (found, written)
    # Nor a list of strings: each item is a class or a record.
    assert not any(
        isinstance(value, list) and any(isinstance(item, str) for item in value) for value in passed
    ), written


async def test_a_walked_collection_gets_a_list_not_its_made_up_string(tmp_path: Path) -> None:
    found, written = await _search(tmp_path, "longest")
    passed = _arguments(written, "longest")
    assert "sample arg" not in passed, written
    # The list of made-up items it was given is read (max of placeholders): no test pins it.
    assert ["sample arg", "other arg"] not in passed, written
    assert any("shows made-up arg" in d for d in found["dropped"]), found


async def test_text_code_read_as_text_gives_no_test_of_a_placeholder(tmp_path: Path) -> None:
    found, written = await _search(tmp_path, "width")
    assert written == "" and found["kept"] == [], (found, written)
    assert "typical_arguments: shows made-up arg" in found["dropped"], found
