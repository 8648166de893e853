"""A parameter of one or two letters is worded in a test name by what the code does with it."""

from __future__ import annotations

import pytest
from ast_support import first_function

from remora.code.testgen.parameter_words import in_words, parameter_words

GET = """def get(self, k, d=None):
    if k not in self.data:
        return d
    return self.data[k]
"""

FALLBACK = """def pop(self, k, d=None):
    return self._items.pop(k, d)
"""

SET = """def __setitem__(self, k, v):
    self.data[k] = v
"""


@pytest.mark.parametrize(
    ("source", "args", "words"),
    [
        (GET, {"k": "a", "d": "b"}, {"k": "key", "d": "default"}),
        (FALLBACK, {"k": "a"}, {"k": "key", "d": "default"}),
        (SET, {"k": "a", "v": 1}, {"k": "key", "v": "value"}),
    ],
)
def test_a_short_parameter_is_worded_by_its_use(
    source: str, args: dict[str, object], words: dict[str, str]
) -> None:
    assert parameter_words(first_function(source), args) == words


@pytest.mark.parametrize(
    "source",
    [
        # Returned, but no key is looked up: a bound, not a fallback.
        "def clamp(v, lo=0, hi=9):\n    if v < lo:\n        return lo\n    return v\n",
        # Tested by isinstance only: nothing says more than its letter.
        "def fmt(self, x):\n    if isinstance(x, bool):\n        return str(x)\n    return x\n",
        # A longer name says what it is already.
        "def get(self, key, default=None):\n    if key in self:\n        return self[key]\n"
        "    return default\n",
        # Two looked up alike: "key" would not tell them apart.
        "def swap(self, a, b):\n    self[a], self[b] = self[b], self[a]\n",
        # The word is another parameter's name.
        "def get(self, k, key=None):\n    return self.data.get(k, key)\n",
    ],
)
def test_a_parameter_without_a_telling_use_keeps_its_name(source: str) -> None:
    assert parameter_words(first_function(source), {}) == {}


def test_a_membership_test_on_another_argument_says_nothing() -> None:
    # ``c in chars``: chars is no instance or attribute of one, and c may be a letter.
    function = first_function("def has(chars, c):\n    return c in chars\n")
    assert parameter_words(function, {"chars": "abc", "c": "a"}) == {}


def test_a_condition_s_subjects_and_compared_sides_take_the_words() -> None:
    renamed = {"k": "key", "d": "default", "a": "key"}
    assert in_words("k_is_missing_and_d_is_none", renamed) == "key_is_missing_and_default_is_none"
    assert in_words("n_above_k", renamed) == "n_above_key"
    # A word inside a clause is no subject: "has_a_keyword" keeps its "a".
    assert in_words("kwargs_has_a_keyword", renamed) == "kwargs_has_a_keyword"
    assert in_words("k_is_b", {}) == "k_is_b"
