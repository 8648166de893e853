"""No lint fix makes a line longer than the project keeps its lines.

A fix that folds two branches into one condition (ruff's own SIM114 fix among them) can
leave a line of 85 or 122 columns in a file of 79: blind reviewers sent both back ("breaks
the line limit"), though the behaviour was the same. The limit is the one the project's
ruff, black or flake8 settings state (:func:`remora.code.line_length.stated_line_length`);
where none states one, the file's own practice: the column its code reaches on its
longest line (comments and a docstring's inner lines aside: parsimonious's one 205-column
line is a comment, and a fix's 125-column f-string was sent back), and never less than
PEP 8's 79. A line the file already had (the same text) is not counted against the fix.
"""

from __future__ import annotations

import tokenize
from collections import Counter

from remora.code.context import CodeContext
from remora.code.line_length import PEP8_LINE_LENGTH, stated_line_length
from remora.code.parsing import python_tokens

__all__ = ["line_limit", "long_line_refusal"]

_NOT_CODE = frozenset({tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.ENDMARKER})


def line_limit(context: CodeContext, old_text: str) -> int:
    """The longest line a fix of ``old_text`` (the file before it) may write."""
    stated = stated_line_length(context)
    if stated is not None:
        return stated
    return max(PEP8_LINE_LENGTH, _longest_code(old_text))


def _longest_code(text: str) -> int:
    """The column the file's code reaches on its longest line: where the last token that
    is no comment ends (a docstring's inner lines and a comment after the code do not
    count: a URL in a comment is no practice of the code's lines). The longest line
    where the text does not tokenize."""
    tokens = python_tokens(text)
    if not tokens:
        return max((len(line) for line in text.splitlines()), default=0)
    return max((t.end[1] for t in tokens if t.type not in _NOT_CODE), default=0)


def long_line_refusal(old_text: str, new_text: str, limit: int) -> str:
    """Why the fix that turns ``old_text`` into ``new_text`` is refused for its line
    length ('' when it is not): a line over ``limit`` the file did not have before."""
    before = Counter(old_text.splitlines())
    added = Counter(new_text.splitlines()) - before
    longest = max((len(line) for line in added.elements() if len(line) > limit), default=0)
    if not longest:
        return ""
    return (
        f"the fix writes a line of {longest} columns where the project keeps to {limit}: "
        "wrap it, or leave the finding"
    )
