"""Which nodes are predicates: every value they return is a boolean."""

from __future__ import annotations

import pytest
from ast_support import first_function

from remora.code.testgen.boolean_results import returns_booleans


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
