"""A raise whose name says no condition takes the one its message states.

``test_decode_raises_value_error`` does not say which of the node's errors it checks
(blind reviewers: "its name doesn't say which error it checks", "which of the function's
many ValueErrors"). Where the code's own words for the error (the fixed words
:mod:`.message_words` matches, or a whole constant message) are a verdict on a thing,
``invalid digit``, ``unknown algorithm``, ``missing key``, they are the condition:
``when_digit_is_invalid``, ``when_algorithm_is_unknown``; so is what a thing is not,
``Not an otpauth URI``: ``when_not_an_otpauth_uri`` (pyotp's ``parse_uri``, whose reviewer
asked which error ``test_parse_uri_raises_value_error`` checks). Any other message (a sentence,
a value, a number) says nothing here: the name stays as it is. Nothing runs here.
"""

from __future__ import annotations

import re
from typing import Any

__all__ = ["message_condition"]

# The words that open a message judging the thing after them.
_VERDICTS = frozenset(
    {
        "invalid",
        "unknown",
        "unsupported",
        "unexpected",
        "illegal",
        "malformed",
        "missing",
        "duplicate",
        "bad",
        "empty",
        "negative",
    }
)
# The thing judged: one or two plain words.
_THING = re.compile(r"[a-z]+(?: [a-z]+)?")
_EDGES = " '\"`:,.;!"
# A message that says what the thing is not: "not an otpauth uri", "not a number".
_NOT_A = re.compile(r"not (an?) ([a-z]+(?: [a-z]+)?)")


def message_condition(row: dict[str, Any]) -> str:
    """``when_<thing>_is_<verdict>`` from the call's raised message; '' where it says none.

    The fixed words where the message is formatted (``raised["match"]``), else the
    message where the code stated it whole (``stated`` with no values in it)."""
    raised = row.get("raised") or {}
    words = str(raised.get("match") or "")
    if not words and raised.get("stated"):
        words = str(raised.get("message") or "")
    said = words.strip(_EDGES).lower()
    if (kind := _NOT_A.fullmatch(said)) is not None:  # "Not an otpauth URI"
        return f"when_not_{kind.group(1)}_{kind.group(2).replace(' ', '_')}"
    verdict, _, thing = said.partition(" ")
    if verdict not in _VERDICTS or _THING.fullmatch(thing) is None:
        return ""
    return f"when_{thing.replace(' ', '_')}_is_{verdict}"
