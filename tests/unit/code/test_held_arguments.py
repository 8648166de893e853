"""A parameter looked for in a text another holds gets a part of it: the found side."""

from __future__ import annotations

import ast
from typing import Any

import pytest

from remora.code.values.held_arguments import held_arguments


def _held(source: str, base: dict[str, Any]) -> list[tuple[str, Any, str]]:
    function = ast.parse(source).body[0]
    assert isinstance(function, ast.FunctionDef)
    return held_arguments(function, base)


@pytest.mark.parametrize(
    ("body", "found"),
    [
        ("return needle in hay", ("needle", "world", "needle_in_hay")),
        ("return needle not in hay", ("needle", "world", "needle_in_hay")),
        ("return hay.startswith(needle)", ("needle", "hello", "hay_starts_with_needle")),
        ("return hay.endswith(needle)", ("needle", "world", "hay_ends_with_needle")),
    ],
)
def test_the_sought_parameter_gets_the_part_of_the_other_where_the_code_looks(
    body: str, found: tuple[str, Any, str]
) -> None:
    source = f"def f(hay, needle):\n    {body}\n"
    base = {"hay": "hello world", "needle": "sample needle"}
    assert _held(source, base) == [found]


def test_a_one_word_text_gives_half_of_it() -> None:
    assert _held("def f(s, p):\n    return s.startswith(p)\n", {"s": "abcd", "p": "x"}) == [
        ("p", "ab", "s_starts_with_p")
    ]
    assert _held("def f(s, p):\n    return s.endswith(p)\n", {"s": "abcd", "p": "x"}) == [
        ("p", "cd", "s_ends_with_p")
    ]


def test_found_already_gives_a_text_the_other_does_not_hold() -> None:
    (parameter, value, words), *_ = _held(
        "def f(s, p):\n    return p in s\n", {"s": "abc", "p": "b"}
    )
    assert (parameter, words) == ("p", "p_not_in_s") and value not in "abc"


def test_nothing_for_constants_one_parameter_an_empty_text_or_a_collection() -> None:
    base = {"s": "", "p": "x", "q": "y"}
    assert _held("def f(s, p):\n    return 'a' in s or s.endswith('b')\n", base) == []
    assert _held("def f(s, p):\n    return p in p\n", base) == []
    assert _held("def f(s, p):\n    return p in s\n", base) == []  # nothing to take a part of
    # A key of a dict, an item of a list: collection_arguments' keys, not a part of a text.
    assert _held("def f(s, p):\n    return p in s\n", {"s": {"a": 1}, "p": "x"}) == []
    assert _held("def f(s, p):\n    return p in s\n", {"s": ["a"], "p": "x"}) == []
