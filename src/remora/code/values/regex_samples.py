"""Strings a regular expression matches, and one it does not, made from its parse tree.

The pattern is parsed by the ``re`` module's own parser (``re._parser``, what
``re.compile`` uses); a sample takes the first alternative of each choice and
each repeat once, another the last alternative and each repeat its fewest
times. Every sample is checked against the compiled pattern before it is
given, so a construct the walk does not follow (a look-around, ``\\b``) costs a
sample, never a wrong one. The string it does not match is a near miss where one
is: a matching sample a character short or long (32 hex digits matched, 31 not), which
shows a reader where the pattern's edge lies; else a character no pattern of the
kind takes.
"""

from __future__ import annotations

import ast
import importlib
import re
from dataclasses import dataclass
from typing import Any

from remora.code.values.value_asserts import MAX_COUNTED

__all__ = ["Pattern", "pattern_samples", "regex_flags"]

# The ``re`` module's parser has no stub; it is the real parser ``re.compile`` uses.
_REGEX_PARSER: Any = importlib.import_module("re._parser")
_MAX_SAMPLE = 200
_UNMATCHED_TRIES = ("~", " ", "0", "a", "A", "-", "_", "")  # "" last: often falsy anyway
_CATEGORY_CHARS = {
    "CATEGORY_DIGIT": "0",
    "CATEGORY_NOT_DIGIT": "a",
    "CATEGORY_SPACE": " ",
    "CATEGORY_NOT_SPACE": "a",
    "CATEGORY_WORD": "a",
    "CATEGORY_NOT_WORD": "-",
}
_SET_TRIES = "a0 -_~A.Z9z/"


@dataclass(frozen=True)
class Pattern:
    """A regular expression the module compiles from a literal."""

    text: str
    flags: int


def regex_flags(node: ast.expr) -> int | None:
    """``re.I | re.VERBOSE`` as its value; None for anything else."""
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
        flag = getattr(re, node.attr, None) if node.value.id == "re" else None
        return int(flag) if isinstance(flag, re.RegexFlag) else None
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        left, right = regex_flags(node.left), regex_flags(node.right)
        return None if left is None or right is None else left | right
    return None


def _in_set(char: str, items: list[tuple[Any, Any]]) -> bool:
    """Whether ``char`` is in a parsed character set (``[a-z\\d]``), NEGATE aside."""
    code = ord(char)
    for op, value in items:
        kind = op.name
        if (kind == "LITERAL" and value == code) or (
            kind == "RANGE" and value[0] <= code <= value[1]
        ):
            return True
        if kind == "CATEGORY" and re.fullmatch(_category_class(value.name), char):
            return True
    return False


def _category_class(name: str) -> str:
    return {
        "CATEGORY_DIGIT": r"\d",
        "CATEGORY_NOT_DIGIT": r"\D",
        "CATEGORY_SPACE": r"\s",
        "CATEGORY_NOT_SPACE": r"\S",
        "CATEGORY_WORD": r"\w",
        "CATEGORY_NOT_WORD": r"\W",
    }.get(name, r"[^\s\S]")


def _set_char(items: list[tuple[Any, Any]], last: bool) -> str | None:
    if items and items[0][0].name == "NEGATE":
        return next((c for c in _SET_TRIES if not _in_set(c, items[1:])), None)
    op, value = items[-1] if last else items[0]
    if op.name == "LITERAL":
        return chr(value)
    if op.name == "RANGE":
        return chr(value[1] if last else value[0])
    if op.name == "CATEGORY":
        return _CATEGORY_CHARS.get(value.name)
    return None


def _sample(parsed: Any, last: bool, groups: dict[int, str]) -> str | None:
    """A string the parsed pattern matches: the first alternative and each repeat once,
    or (``last``) the last alternative and each repeat its fewest times."""
    text = ""
    for op, value in parsed:
        kind = op.name
        part: str | None = ""
        if kind == "LITERAL":
            part = chr(value)
        elif kind in ("NOT_LITERAL", "ANY"):
            part = next(c for c in _SET_TRIES if ord(c) != value)
        elif kind == "IN":
            part = _set_char(value, last)
        elif kind == "BRANCH":
            part = _sample(value[1][-1] if last else value[1][0], last, groups)
        elif kind == "SUBPATTERN":
            part = _sample(value[3], last, groups)
            if part is not None and value[0] is not None:
                groups[value[0]] = part
        elif kind == "ATOMIC_GROUP":
            part = _sample(value, last, groups)
        elif kind in ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT"):
            low, high, inner = value
            count = low if last else min(max(low, 1), high)
            if count > MAX_COUNTED:  # ``a{70000}``: no text a test writes out
                return None
            one = _sample(inner, last, groups) if count else ""
            part = None if one is None else one * count
        elif kind == "GROUPREF":
            part = groups.get(value, "")
        elif kind == "GROUPREF_EXISTS":
            part = _sample(value[1], last, groups)
        elif kind not in ("AT", "ASSERT", "ASSERT_NOT"):  # anchors and look-arounds: nothing
            return None
        if part is None:
            return None
        text += part
        if len(text) > _MAX_SAMPLE:
            return None
    return text


def pattern_samples(pattern: Pattern, how: str = "search") -> tuple[list[str], str | None]:
    """Strings the pattern matches (up to two) and one it does not, each checked with
    ``re`` (``how``: search, match or fullmatch); empty where none could be made."""
    try:
        compiled = re.compile(pattern.text, pattern.flags)
        parsed = _REGEX_PARSER.parse(pattern.text, pattern.flags)
    except (re.error, RecursionError, OverflowError):
        return [], None
    test = getattr(compiled, how if how in ("match", "fullmatch") else "search")
    matching: list[str] = []
    for last in (False, True):
        made = _sample(parsed, last, {})
        if made is not None and made not in matching and test(made):
            matching.append(made)
    near = [m[:-1] for m in matching] + [m + m[-1] for m in matching if m]
    tries = [t for t in near if t] + list(_UNMATCHED_TRIES)
    unmatched = next((t for t in tries if not test(t)), None)
    return matching, unmatched
