"""A returned object's attributes are asserted only where the call made them.

Two blind reviewers rejected a translator's tests that asserted ``result.path == ""`` and
``result.element == "*"`` after ``xpath_disabled_pseudo(XPathExpr())``: both the argument's
own values, which the method never touches; the one it sets, a long condition, was not
asserted. The real search (real Monty, real pytest) on a small project of its own.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bundled_agents_support import search_tests_on

from remora.code.probes.programs.returned_values import as_given

EXPRESSIONS = """\
class Expr:
    def __init__(self, path="", condition=""):
        self.path = path
        self.condition = condition

    def add(self, condition):
        self.condition = condition
        return self


class Translator:
    def enabled(self, expr):
        return expr.add("@enabled")

    def disabled(self, expr):
        return expr.add("(" + " or ".join(f"@f{i}" for i in range(120)) + ")")
"""


async def _search(tmp_path: Path, qualname: str) -> tuple[dict[str, Any], str]:
    files = {"expressions.py": EXPRESSIONS}
    found, data = await search_tests_on(
        tmp_path, files, "expressions.py", qualname, "tests/test_expressions.py"
    )
    return found, (data or b"").decode()


async def test_the_attribute_the_call_set_is_asserted_and_the_arguments_own_are_not(
    tmp_path: Path,
) -> None:
    found, text = await _search(tmp_path, "Translator.enabled")
    assert found["kept"], found
    assert 'assert result.condition == "@enabled"' in text, text
    assert "result.path" not in text, text


async def test_a_test_that_could_assert_only_the_arguments_own_values_is_not_kept(
    tmp_path: Path,
) -> None:
    _found, text = await _search(tmp_path, "Translator.disabled")
    # The condition it sets is too long to write; path alone would pin nothing of it.
    assert "result.path" not in text, text


def test_as_given_compares_with_the_object_before_the_call() -> None:
    class Box:
        def __init__(self) -> None:
            self.label = ""
            self.size = 1

    box = Box()
    before = [{"label": {"repr": "''", "literal": True}, "size": {"repr": "1", "literal": True}}]
    box.size = 2  # what the call did to the object it was given and handed back
    assert as_given(box, [box], before) == ["label"]
    assert as_given(box, ["text"], [{}]) == []  # no object of its type given
