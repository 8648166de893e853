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
    "%": "mod",
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
        parts: list[str] = []
        word = ""
        for char in value[:16]:
            if char.isascii() and char.isalnum():
                word += char.lower()
                continue
            if word:
                parts.append(word)
                word = ""
            if char in _WORDS:
                parts.append(_WORDS[char])
        parts += [word] if word else []
        if len(parts) == 1 and len(parts[0]) == 1 and parts[0].isalpha():
            return f"letter_{parts[0]}"  # ``info_is_a`` reads as the start of a phrase
        return "_".join(parts)[:20].strip("_") or ("empty" if value == "" else "text")
    if value == CALLABLE_SAMPLE:
        return str(CALLABLE_SAMPLE["__callable__"])
    if is_type(value):
        return snake_name(str(value[TYPE_MARKER]))  # a class: its name
    if is_tuple(value):
        value = value[TUPLE_MARKER]
    if isinstance(value, list | dict):
        return {0: "empty", 1: "one_item"}.get(len(value), f"{len(value)}_items")
    return "value"
