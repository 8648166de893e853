"""Which nodes are predicates: every value they return is a boolean; and which answer by
the truth of an ``and``/``or`` chain."""

from __future__ import annotations

from typing import Any

import pytest
from ast_support import first_function

from remora.code.testgen.boolean_results import answers_by_truth, returns_booleans
from remora.code.values import truth_assert


@pytest.mark.parametrize(
    "source",
    [
        "def f(a, b):\n    return b in a\n",
        "def f(text, end):\n    return text.endswith(end)\n",
        "def f(x):\n    if x is None:\n        return False\n    return not x.closed\n",
        "def f(x):\n    return isinstance(x, int) and x > 0\n",
        "def f(x):\n    return True if x else x == 2\n",
        "def f(x) -> bool:\n    return helper(x)\n",
        "def f(x) -> 'bool':\n    return x.ready\n",
        # A nested function's return is not the node's.
        "def f(x):\n    def key(y):\n        return y\n    return x.isdigit()\n",
    ],
)
def test_a_node_whose_every_return_is_a_boolean_is_a_predicate(source: str) -> None:
    assert returns_booleans(first_function(source))


@pytest.mark.parametrize(
    "source",
    [
        "def f(x):\n    return x\n",
        "def f(x):\n    if x:\n        return\n    return x > 1\n",
        "def f(x):\n    return x > 1 and x.name\n",
        "def f(x):\n    return len(x) > 1 or helper(x)\n",
        "def f(x):\n    x.done = True\n",
        "def f(x):\n    yield x > 1\n    return True\n",
        "def f(x) -> int:\n    return x.count(1)\n",
    ],
)
def test_a_node_returning_anything_else_is_no_predicate(source: str) -> None:
    assert not returns_booleans(first_function(source))


LEAP = "def is_leap(year):\n    return not year % 4 and (year % 100 or not year % 400)\n"


@pytest.mark.parametrize(
    ("source", "answers"),
    [
        # jdcal's is_leap: 24 for 2024, True for 2000, False for 2023.
        (LEAP, True),
        ("def hasKey(d, k):\n    return k in d and d[k]\n", True),
        # A predicate is asserted as one already; a value-or-nothing chain is a value.
        ("def is_set(x):\n    return x is not None and x > 0\n", False),
        ("def group(m):\n    return m is not None and m.group(1)\n", False),
        # A name that asks, but a chain with no boolean in it.
        ("def is_named(x):\n    return x.name or x.title\n", False),
    ],
)
def test_a_node_whose_name_asks_and_whose_chains_mix_booleans_answers_by_truth(
    source: str, answers: bool
) -> None:
    assert answers_by_truth(first_function(source)) is answers


@pytest.mark.parametrize(
    ("returned", "line"),
    [
        ({"repr": "24", "literal": True}, "assert result"),
        ({"repr": "0", "literal": True}, "assert not result"),
        ({"repr": "''", "literal": True}, "assert not result"),
        ({"repr": "True", "literal": True}, None),  # `is True` says it already
        ({"repr": "<Year>", "literal": False}, None),
    ],
)
def test_a_truth_answer_is_asserted_true_or_false(
    returned: dict[str, Any], line: str | None
) -> None:
    assert truth_assert(returned) == line
