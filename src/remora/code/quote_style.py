"""Strings a change wrote, quoted the way the file quotes its strings.

A drafted rewrite comes back in the model's habit, double quotes, and in a file
whose strings are all single-quoted a blind reviewer turned down the one line that
differed (``return f"{type(self).__name__}(...)"`` among ``'%s(%s)'`` calls) as
less consistent for no gain. So the short strings on the lines a change wrote take
the file's quote (:func:`file_quote`: the one its short strings use at least three
times as often as the other) where the swap means the same: the string holds
neither quote character nor a backslash. Strings are found by :mod:`tokenize`, not
by scanning the text.
"""

from __future__ import annotations

import io
import tokenize
from collections import Counter
from collections.abc import Iterator

__all__ = ["file_quote", "requoted"]

_QUOTES = ("'", '"')


def _short_strings(text: str) -> Iterator[tuple[tokenize.TokenInfo, str, str]]:
    """Each one-line, not triple-quoted string token of ``text`` with its prefix and
    quote; nothing where ``text`` does not tokenize."""
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(text).readline))
    except (tokenize.TokenError, SyntaxError):
        return
    for token in tokens:
        if token.type != tokenize.STRING or token.start[0] != token.end[0]:
            continue
        prefix = token.string[: len(token.string) - len(token.string.lstrip("rRbBuUfF"))]
        body = token.string[len(prefix) :]
        quote = body[0]
        if body.startswith(quote * 3):
            continue
        yield token, prefix, quote


def _swappable(token: tokenize.TokenInfo, prefix: str) -> bool:
    inner = token.string[len(prefix) + 1 : -1]
    return not any(character in inner for character in ("'", '"', "\\"))


def file_quote(text: str) -> str | None:
    """The quote ``text``'s short strings use at least three times as often as the other
    (and three times at least), counting only strings free to take either; None where
    neither leads so."""
    counts = Counter(
        quote for token, prefix, quote in _short_strings(text) if _swappable(token, prefix)
    )
    for quote, other in (_QUOTES, _QUOTES[::-1]):
        if counts[quote] >= 3 and counts[quote] >= 3 * counts[other]:
            return quote
    return None


def requoted(original: str, text: str, ranges: list[tuple[int, int]]) -> str:
    """``text`` (``original`` changed) with the swappable short strings on the lines
    ``ranges`` (1-based, inclusive: what the change wrote) in ``original``'s quote
    (:func:`file_quote`); ``text`` as it is where the file has no clear quote."""
    quote = file_quote(original)
    if quote is None:
        return text
    written = {line for first, last in ranges for line in range(first, last + 1)}
    lines = text.splitlines(keepends=True)
    # A swap keeps the string's length, so the columns of later tokens stay valid.
    for token, prefix, found in _short_strings(text):
        row, start = token.start
        if row not in written or found == quote or not _swappable(token, prefix):
            continue
        line = lines[row - 1]
        end = token.end[1]
        swapped = prefix + quote + token.string[len(prefix) + 1 : -1] + quote
        lines[row - 1] = line[:start] + swapped + line[end:]
    return "".join(lines)
