"""How sure the model was of the words a tool took from its completion."""

from __future__ import annotations

import math
from typing import cast

import pytest

from remora.code import CodeContext
from remora.code.completion import TokenRow, sureness

NO_CONTEXT = cast(CodeContext, None)  # sureness reads only its arguments


def _rows(*pieces: tuple[str, float]) -> list[TokenRow]:
    return [{"text": text, "logprob": math.log(p)} for text, p in pieces]


# A completion as the draft gets it: a stray quote before the words, the closing quotes'
# token after them.
DRAFT = _rows(('"', 0.01), ("Add", 0.5), (" two", 0.8), (" numbers", 0.8), ('."""', 0.9))


def test_only_the_tokens_that_spell_the_words_count() -> None:
    # Neither the stray quote (0.01) nor a token past the words' end.
    assert sureness(NO_CONTEXT, "Add two", DRAFT) == round(math.sqrt(0.5 * 0.8), 4)
    # A token that holds the words' last character and more counts.
    expected = round((0.5 * 0.8 * 0.8 * 0.9) ** 0.25, 4)
    assert sureness(NO_CONTEXT, "Add two numbers.", DRAFT) == expected


def test_a_server_that_left_out_the_stop_strings_token_still_spells_most_of_the_words() -> None:
    served = DRAFT[:-1]  # llama.cpp's server: no token for '."""'
    assert sureness(NO_CONTEXT, "Add two numbers.", served) == round(
        (0.5 * 0.8 * 0.8) ** (1 / 3), 4
    )


@pytest.mark.parametrize(
    ("text", "tokens"),
    [
        ("Add two numbers.", []),  # the backend gave none: unknown, not improbable
        ("Subtract two numbers.", DRAFT),  # words the tokens do not spell
        ("Add three numbers together.", DRAFT),  # less than half of them spelled
        ("", DRAFT),
    ],
)
def test_words_the_tokens_do_not_spell_have_no_sureness(text: str, tokens: list[TokenRow]) -> None:
    assert sureness(NO_CONTEXT, text, tokens) is None
