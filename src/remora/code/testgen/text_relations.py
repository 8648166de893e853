"""What a text result is of the text the call was given, in a test name: ``reverses_text``.

A blind reviewer asked ``test_reverse_returns_string`` to "say that it reverses the
characters", ``test_kebabize_returns_string`` to say it "converts snake case": the result's
type says nothing a reader can check. Where the result is one of a few plain transforms
(reversed, upper- or lower-cased, capitalised, stripped, its spaces or underscores
replaced) of exactly one text the call (or its instance) was given, that transform is what
the test pins, and the name says it. Each is computed on the values the probe saw, so the
words are true of the call the test makes; a transform that leaves the text as it was is
no transform (the result equals the argument: :mod:`.outcome_words` names that). A number
is never read as one (a count of words equal to the result may be chance). Nothing runs
here but ``str`` methods on the observed values.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from remora.code.values import snake_name

__all__ = ["text_relation_words"]

# Each transform with its words, the word for the text appended (``reverses_text``).
_TRANSFORMS: tuple[tuple[str, Callable[[str], str]], ...] = (
    ("reverses", lambda text: text[::-1]),
    ("uppercases", str.upper),
    ("lowercases", str.lower),
    ("capitalizes", str.capitalize),
    ("title_cases", str.title),
    ("strips", str.strip),
)
# A separator replaced by another, with no other change: (from, to, words).
_REPLACED = (
    (" ", "-", "joins_words_with_hyphens"),
    (" ", "_", "joins_words_with_underscores"),
    ("_", "-", "replaces_underscores_with_hyphens"),
    ("-", "_", "replaces_hyphens_with_underscores"),
    ("_", " ", "replaces_underscores_with_spaces"),
)


def _texts(args: dict[str, Any], owner_args: dict[str, Any]) -> list[tuple[str, str]]:
    """The texts the call was given (each parameter's name, its value): its arguments',
    else its instance's."""
    for given in (args, owner_args):
        texts = [(name, value) for name, value in given.items() if isinstance(value, str)]
        if texts:
            return texts
    return []


def _relation(value: str, name: str, text: str, renamed: dict[str, str]) -> str | None:
    if value == text or not text.strip():
        return None
    word = renamed.get(name, snake_name(name))
    for verb, transform in _TRANSFORMS:
        if transform(text) == value:
            return f"{verb}_{word}"
    for old, new, words in _REPLACED:
        if old in text and text.replace(old, new) == value:
            return words
    return None


def text_relation_words(
    value: Any, args: dict[str, Any], owner_args: dict[str, Any], renamed: dict[str, str]
) -> str | None:
    """``reverses_text``, ``joins_words_with_hyphens``: what ``value`` (the call's result)
    is of the one text it was given that it is a transform of (``slugify(text,
    separator="-")``: of ``text``); None where it is none of these, or of two.
    ``renamed``: a parameter's words where its own name is not spelled (``s``: ``text``)."""
    if not isinstance(value, str):
        return None
    found = {
        words
        for name, text in _texts(args, owner_args)
        if (words := _relation(value, name, text, renamed)) is not None
    }
    return found.pop() if len(found) == 1 else None
