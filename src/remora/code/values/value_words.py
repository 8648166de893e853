"""Words for a value in a test's name: ``-1`` is ``minus_1``, ``"-"`` ``dash``, a list of
two items ``2_items``. The test search names each candidate by what it exercises
(``n_below_10``, ``sep_is_dash``); these are the words for the value in it.
"""

from __future__ import annotations

from typing import Any

from remora.code.values.call_render import snake_name
from remora.code.values.kind_samples import CALLABLE_SAMPLE
from remora.code.values.unspelled_values import TUPLE_MARKER, TYPE_MARKER, is_tuple, is_type

__all__ = ["label"]

_WORDS = {
    "-": "dash",
    "+": "plus",
    ".": "dot",
    " ": "space",
    "_": "underscore",
    "/": "slash",
    "#": "hash",
    "%": "percent",  # a text's "%" is a percent sign, not an operator
    "*": "star",
    "'": "quote",
    '"': "double_quote",
    "\\": "backslash",
    "|": "pipe",
    "=": "equals",
    "!": "bang",
    "?": "question_mark",
    "~": "tilde",
    "^": "caret",
    "$": "dollar",
    "&": "ampersand",
    "<": "less_than",
    ">": "greater_than",
    "\n": "newline",
    "\t": "tab",
    ",": "comma",
    ":": "colon",
    "@": "at",
}


# A text's words are spelled whole: all of them where they fit in _MOST_WORDS characters,
# else those that fit in _FEW_WORDS, never a word cut short.
_MOST_READ = 40
_MOST_WORDS = 32
_FEW_WORDS = 20


def _text_words(text: str) -> list[str]:
    """Its runs of letters and digits, lower case, and its symbols as words; a space, an
    underscore or a hyphen between two words only parts them (``known_flags``, not
    ``known_space_flags``; a key ``dictionary_name``, not ``dictionary_underscore_name``;
    ``"x-user-defined"`` is ``x_user_defined``, not ``x_dash_user_dash_defined``); a
    hyphen that starts a number is its sign (``"-5"`` is ``minus_5``, as ``-5`` is, not
    ``dash_5``)."""
    parts: list[str] = []
    word = ""
    for at, char in enumerate(text):
        if char.isascii() and char.isalnum():
            word += char.lower()
            continue
        between = char in " _-" and word and text[at + 1 : at + 2].isalnum()
        sign = char == "-" and not word and text[at + 1 : at + 2].isdigit()
        if word:
            parts.append(word)
            word = ""
        if sign:
            parts.append("minus")
        elif char in _WORDS and not between:
            parts.append(_WORDS[char])
    return [*parts, word] if word else parts


def _whole_words(parts: list[str]) -> str:
    """The words joined, or as many whole ones as fit, not ending on a symbol's word."""
    if len("_".join(parts)) <= _MOST_WORDS:
        return "_".join(parts)
    kept: list[str] = []
    for part in parts:
        if len("_".join([*kept, part])) > _FEW_WORDS:
            break
        kept.append(part)
    symbols = set(_WORDS.values())
    while kept and kept[-1] in symbols:
        kept.pop()
    return "_".join(kept) or parts[0][:_FEW_WORDS]


def label(value: Any) -> str:
    """Words for a value in a test name: ``-1`` -> ``minus_1``, ``"-"`` -> ``dash``."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, int | float):
        text = ("minus_" if value < 0 else "") + str(abs(value)).replace(".", "_")
        return text
    if isinstance(value, str):
        parts = _text_words(value[:_MOST_READ])
        cut = value[_MOST_READ - 1 : _MOST_READ + 1]
        if len(parts) > 1 and len(cut) == 2 and all(c.isascii() and c.isalnum() for c in cut):
            parts = parts[:-1]  # the word the reading stopped in the middle of
        if len(parts) == 1 and len(parts[0]) == 1 and parts[0].isalpha():
            return f"letter_{parts[0]}"  # ``info_is_a`` reads as the start of a phrase
        return _whole_words(parts) or ("empty" if value == "" else "text")
    if value == CALLABLE_SAMPLE:
        return str(CALLABLE_SAMPLE["__callable__"])
    if is_type(value):
        return snake_name(str(value[TYPE_MARKER]))  # a class: its name
    if is_tuple(value):
        value = value[TUPLE_MARKER]
    if isinstance(value, list | dict):
        return {0: "empty", 1: "one_item"}.get(len(value), f"{len(value)}_items")
    return "value"
