"""Characters a reader cannot see, written in a test's strings as escapes.

``repr`` escapes what Python calls unprintable (a zero-width joiner comes out as
``\\u200d``) but writes a variation selector or a combining mark as it is: a tokenizer's
test reached the review with its one argument, U+FE0E, invisible between two quotes, and
a blind reviewer asked for ``\\ufe0e``; the red heart's U+FE0F likewise.
:func:`visible_escapes` rewrites each such character of a test's string literals (a
variation selector, a combining mark, a format character, a space other than the plain
one) as ``\\uXXXX`` (``\\UXXXXXXXX`` past the Basic Multilingual Plane); the string's
value is the same. Raw strings, byte strings and f-strings are left as they are (an
escape would change a raw string's value), and so is a literal over several lines. The
text is read with :mod:`tokenize`; one it cannot read is returned unchanged.
"""

from __future__ import annotations

import tokenize
import unicodedata

from remora.code.parsing import python_tokens

__all__ = ["visible_escapes"]

_UNSEEN = frozenset({"Mn", "Me", "Cf", "Zs", "Zl", "Zp"})


def _escaped(char: str) -> str:
    if char == " " or unicodedata.category(char) not in _UNSEEN:
        return char
    code = ord(char)
    return f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}"


def _plain_string(token: str) -> bool:
    """A string literal whose prefix allows escapes: no ``r``, ``b`` or ``f``."""
    prefix = token[: len(token) - len(token.lstrip("rRbBuUfF"))]
    return not set(prefix.lower()) & {"r", "b", "f"}


def visible_escapes(source: str) -> str:
    """``source`` with the unseen characters of its plain string literals escaped."""
    if source.isascii():
        return source
    lines = source.splitlines(keepends=True)
    # Rewritten from the last token back, so earlier positions stay where they were.
    for token in reversed(python_tokens(source)):
        if token.type != tokenize.STRING or token.start[0] != token.end[0]:
            continue
        if token.string.isascii() or not _plain_string(token.string):
            continue
        row, (start, end) = token.start[0] - 1, (token.start[1], token.end[1])
        text = "".join(_escaped(char) for char in token.string)
        lines[row] = lines[row][:start] + text + lines[row][end:]
    return "".join(lines)
