"""A "Return all …" where every return is a number is refused (docstring/returned_kind.py).

A reviewer rejected "Return all uppercase variations of the given word." as false on a
function that returns 1, 2, or a sum of binomial coefficients: it counts the variations.
The code here is invented.
"""

from __future__ import annotations

import pytest
from summary_support import summary_refusal

SOURCE = """\
def spellings(word):
    if word.islower():
        return 1
    total = 0
    for i in range(len(word)):
        total += i * 2
    return total


def letters(word):
    return len(set(word))


def variants(word):
    if not word:
        return []
    return [word.upper(), word.lower()]


def weight(word):
    return -len(word) / 2.0
"""


def refused_for(name: str, summary: str) -> str:
    return summary_refusal(SOURCE, "pkg/words.py", "function", name, summary)


@pytest.mark.parametrize(
    ("name", "summary"),
    [
        ("spellings", "Return all the spellings of the given word."),
        ("letters", "Return all distinct letters of the word."),
        ("weight", "Get every weight of the word."),
    ],
)
def test_all_of_something_where_a_number_comes_back_is_refused(name: str, summary: str) -> None:
    assert "it says the code returns all of something, but it returns a number" in refused_for(
        name, summary
    )


@pytest.mark.parametrize(
    ("name", "summary"),
    [
        ("spellings", "Return the number of ways the word can be capitalised."),
        ("variants", "Return all case variants of the word."),  # a list comes back
        ("letters", "Return how many distinct letters the word has."),
    ],
)
def test_a_count_said_as_a_count_stands(name: str, summary: str) -> None:
    assert "returns all of something" not in refused_for(name, summary)
