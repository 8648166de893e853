"""A text's Python tokens, read with :mod:`tokenize`: what the ``ast`` drops (comments) or
folds (a string literal's spelling)."""

from __future__ import annotations

import io
import tokenize

__all__ = ["python_tokens"]


def python_tokens(text: str) -> tuple[tokenize.TokenInfo, ...]:
    """The tokens of ``text``; none when it does not tokenize (an unclosed bracket or
    string): a text the parser refuses has no comment or literal Remora can read."""
    try:
        return tuple(tokenize.generate_tokens(io.StringIO(text).readline))
    except (tokenize.TokenError, SyntaxError):
        return ()
