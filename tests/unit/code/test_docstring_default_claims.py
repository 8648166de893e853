"""A summary states an off-by-default flag's effect only as the caller's choice (issue 57).

A blind reviewer marked "Count the number of unique emojis in a string." of
``emoji_count(string, unique=False)`` false: only ``unique=True`` counts unique ones. The
snippets are invented.
"""

from __future__ import annotations

import pytest
from summary_support import summary_refusal

SOURCE = """\
def tally(text, distinct=False, skip_blank=False):
    items = text.split()
    if skip_blank:
        items = [i for i in items if i.strip()]
    return len(set(items)) if distinct else len(items)


def distinct_words(text, distinct=False):
    return sorted(set(text.split()))


def shout(text, loud=True):
    return text.upper() if loud else text
"""


def _refusal(name: str, summary: str) -> str:
    return summary_refusal(SOURCE, "pkg/words.py", "function", name, summary)


@pytest.mark.parametrize(
    "summary",
    [
        "Count the distinct words in a text.",
        "Count the words of a text, skipping blank ones.",  # skip_blank as "skipping blank"
    ],
)
def test_a_flag_s_effect_said_as_always_done_is_refused(summary: str) -> None:
    assert "False unless the caller sets it" in _refusal("tally", summary)


@pytest.mark.parametrize(
    ("name", "summary"),
    [
        ("tally", "Count the words of a text, optionally only the distinct ones."),
        ("tally", "Count the words of a text; distinct ones if asked."),
        ("tally", "Count the words of a text."),
        ("distinct_words", "Return the distinct words of a text, sorted."),  # its name's word
        ("shout", "Return the text in loud upper case."),  # on by default
    ],
)
def test_a_conditional_a_name_s_own_word_or_a_flag_on_by_default_stands(
    name: str, summary: str
) -> None:
    assert "False unless" not in _refusal(name, summary)
