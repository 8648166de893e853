"""A test's strings show the characters a reader cannot see as escapes (issue 56).

A blind reviewer of an emoji library's tokenizer test asked for the variation selector
its argument held, invisible between the quotes, to be written ``'\\ufe0e'``.
"""

from __future__ import annotations

import ast

import pytest

from remora.code.testgen.visible_strings import visible_escapes

VS15, VS16, ACUTE, NBSP = "\ufe0e", "\ufe0f", "\u0301", "\u00a0"


def test_unseen_characters_of_a_string_literal_become_escapes() -> None:
    source = f"def test_t():\n    assert tokenize('{VS15}', True) == ['a{NBSP}b', '\u2764{VS16}']\n"
    written = visible_escapes(source)
    assert written == (
        "def test_t():\n    assert tokenize('\\ufe0e', True) == ['a\\u00a0b', '\u2764\\ufe0f']\n"
    )
    # The values are the same: only their spelling changed.
    before = ast.literal_eval(source.split("assert tokenize(")[1].split(",")[0])
    after = ast.literal_eval(written.split("assert tokenize(")[1].split(",")[0])
    assert before == after == VS15


@pytest.mark.parametrize(
    "source",
    [
        f"x = r'{VS15}'\n",  # a raw string: an escape would change its value
        f"x = f'{{y}}{VS15}'\n",
        f"x = b'a'  # {VS15} in a comment\n",
        "x = 'caf\u00e9 \U0001f44d'\n",  # visible characters stay as they are
        f"x = '''{VS15}\n'''\n",  # over several lines
        f"x = ('{ACUTE}'\n",  # not Python: left as it was
    ],
)
def test_other_text_is_left_as_it_is(source: str) -> None:
    assert visible_escapes(source) == source
