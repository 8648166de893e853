"""The test search writes a node's same-shaped rejections as one parametrized test.

Made-up module: a grade parser that rejects bad text in three places with one exception
class. The host search (sandbox, probe, pytest, mutation check; no model) keeps several
rejections; they are written as one ``@pytest.mark.parametrize`` test, run again as such,
and the search's result names it (testgen/parametrized_tests.merged_cases).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from bundled_agents_support import search_tests_on

pytestmark = pytest.mark.integration

GRADES = '''\
class GradeError(ValueError):
    def __init__(self, text: str) -> None:
        super().__init__(f"not a grade: {text!r}")


def parse_grade(text: str) -> int:
    """Parse a grade such as ``"B+"``.

    >>> parse_grade("B+")
    8
    """
    if not text:
        raise GradeError(text)
    letter, sign = text[0], text[1:]
    if letter not in "ABCDF":
        raise GradeError(text)
    if sign not in ("", "+", "-"):
        raise GradeError(text)
    base = {"A": 10, "B": 7, "C": 4, "D": 1, "F": 0}[letter]
    return base + {"": 0, "+": 1, "-": -1}[sign]
'''


async def test_rejections_of_one_node_are_one_parametrized_test(tmp_path: Path) -> None:
    files = {"grades/__init__.py": GRADES, "pyproject.toml": "[tool.pytest.ini_options]\n"}
    found, data = await search_tests_on(
        tmp_path, files, "grades/__init__.py", "parse_grade", "tests/test_grades.py"
    )
    text = (data or b"").decode()
    tests = {
        node.name: node
        for node in ast.parse(text).body
        if isinstance(node, ast.FunctionDef) and node.name.startswith("test_")
    }
    merged = tests.get("test_parse_grade_raises_grade_error")
    assert merged is not None and merged.decorator_list, text
    assert [a.arg for a in merged.args.args] == ["text", "message"], text
    # Each raise's own name is gone; the kept list names the merged test and the plain one.
    assert not any("when_text" in name and "raises" in name for name in tests), text
    assert "test_parse_grade_raises_grade_error" in found["kept"], found
    assert any(n.startswith("test_parse_grade") and "raises" not in n for n in found["kept"])
