"""The fixed words of a raised message: what ``pytest.raises(..., match=...)`` looks for.

A message the code formats from its inputs (``"Cannot apply token %r to %s" % (part,
type(doc))``) compared whole breaks on a harmless rewording or another Python's
``repr``; blind reviewers edit such tests to match "a key fragment" (issue 56). The
``raise`` statement the probe stopped at (its frame's line, in the node's file)
says which words are the code's own: its string constants, split at their format
fields (``%s``, ``{}``, an f-string's values). The longest such fragment the
message holds, cut at its first clause break (a stop, or an aside's opening bracket), is
the one matched; a field between two of them
whose value is words the code passed (``"expected %s for %s, got %r" % (kind, "path
segment", value)``: "str", "path segment"), not the call's own values, joins them: the
match is "expected str for path segment", never the bare "expected" a reviewer finds
too loose to tell this error from the module's others; on a project that supports
Python 2 (:mod:`remora.code.python_floor`) no field joins them, since what the code fills
in may differ there (hyperlink's ``"unicode" if PY2 else "str"``: "expected unicode for
path segment" under 2.7, where a reviewer ran the test). A message that is
one constant as a whole (``raise ValueError("negative")``) is still compared whole:
nothing in it comes from the call. A message handed on from the exception an
``except ... as error`` caught (``raise ParseError(error)``) is another code's words (the
standard library's "year 0 is out of range"), so it is not compared at all: only the
class is the code's. Read with :mod:`ast`; nothing runs here.
"""

from __future__ import annotations

import ast
import re
from typing import Any

from remora.code.parsing import ast_tree
from remora.code.probes import in_file

__all__ = ["borrowed_message", "fixed_words", "match_pattern", "with_fixed_words"]

# printf-style fields and str.format fields, where a formatted value goes.
_FIELDS = re.compile(r"%[-#0 +]*(?:\d+|\*)?(?:\.\d+)?[sdrifgGxXoeEca%]|\{[^{}]*\}")
# A clause ends at a stop, or where an aside opens: "Signal cannot be None (receiver=%r)"
# is matched as "Signal cannot be None" (a blind reviewer: the "(receiver=" after it ties
# the test to how the message is laid out).
_CLAUSE = re.compile(r"[,;:.]\s|\s\(")
_ENDS = " '\"`:,.;"
_MIN_CHARS = 6
_SPECIAL = frozenset(".^$*+?{}[]\\|()")


def _raise_at(tree: ast.AST, line: int) -> ast.Raise | None:
    for node in ast.walk(tree):
        inside = isinstance(node, ast.Raise) and node.lineno <= line <= (node.end_lineno or 0)
        if inside and isinstance(node, ast.Raise) and node.exc is not None:
            return node
    return None


def _caught_names(tree: ast.AST, raised: ast.Raise) -> set[str]:
    """The names the ``except ... as name`` handlers around ``raised`` bind."""
    return {
        handler.name
        for handler in ast.walk(tree)
        if isinstance(handler, ast.ExceptHandler)
        and handler.name
        and handler.lineno <= raised.lineno <= (handler.end_lineno or 0)
    }


def borrowed_message(source: str, line: int) -> bool:
    """The ``raise`` at ``line`` builds its exception from a caught one alone
    (``raise ParseError(error)``, ``raise ParseError(str(error))``): the message is that
    exception's, not words of this code."""
    tree = ast_tree(source)
    raised = _raise_at(tree, line) if tree is not None else None
    if tree is None or raised is None or not isinstance(raised.exc, ast.Call):
        return False
    arguments = [*raised.exc.args, *(k.value for k in raised.exc.keywords)]
    inside = [n for a in arguments for n in ast.walk(a)]
    if any(isinstance(n, ast.Constant) and isinstance(n.value, str) for n in inside):
        return False  # words of its own beside the caught one's
    names = {n.id for n in inside if isinstance(n, ast.Name)}
    return bool(names & _caught_names(tree, raised))


def _fragments(raised: ast.Raise) -> list[str]:
    found: list[str] = []
    for node in ast.walk(raised):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            found += [part.strip(_ENDS) for part in _FIELDS.split(node.value)]
    return [part for part in found if len(part) >= _MIN_CHARS]


def _template(raised: ast.Raise) -> list[str | None] | None:
    """The raise's first formatted text as its pieces in order, each field None (a
    printf or ``str.format`` constant, or an f-string); None where it has none."""
    texts = [
        n
        for n in ast.walk(raised)
        if isinstance(n, ast.JoinedStr)
        or (isinstance(n, ast.Constant) and isinstance(n.value, str))
    ]
    for text in sorted(texts, key=lambda n: (n.lineno, n.col_offset)):
        pieces: list[str | None] = []
        if isinstance(text, ast.JoinedStr):
            for value in text.values:
                constant = value.value if isinstance(value, ast.Constant) else None
                pieces.append(constant if isinstance(constant, str) else None)
        else:
            for number, piece in enumerate(_FIELDS.split(str(text.value))):
                pieces += [None, piece] if number else [piece]
        if None in pieces:
            return pieces
    return None


def _given_texts(given: object) -> set[str]:
    """Every text a given value shows in a message: each leaf's ``str`` and ``repr``."""
    if isinstance(given, dict):
        return {t for value in given.values() for t in _given_texts(value)}
    if isinstance(given, list | tuple):
        return {t for value in given for t in _given_texts(value)}
    return {str(given), repr(given)}


def _joined(raised: ast.Raise, message: str, given: object) -> list[str]:
    """The stretches of ``message`` its template's literal pieces make with the fields
    between them whose values are words the code passed (letters and spaces, none of
    them a value ``given``); a field showing a given value, a number or a repr ends one."""
    pieces = _template(raised)
    if pieces is None:
        return []
    pattern = "".join("(.*?)" if p is None else re.escape(p) for p in pieces)
    found = re.fullmatch(pattern, message, re.DOTALL)
    if found is None:
        return []
    values = iter(found.groups())
    shown = {t for t in _given_texts(given) if t}
    stretches, current = [], ""
    for piece in pieces:
        value = piece if piece is not None else next(values)
        own = piece is not None or (
            re.fullmatch(r"[^\W\d_]+(?: [^\W\d_]+)*", value) is not None
            and not any(t in value for t in shown)
        )
        if own:
            current += value
        else:
            stretches.append(current)
            current = ""
    return [s.strip(_ENDS) for s in [*stretches, current] if s.strip(_ENDS)]


def fixed_words(
    source: str, line: int, message: str, given: object = None, *, joined: bool = True
) -> str:
    """The longest fragment of the ``raise`` at ``line`` of ``source`` that ``message``
    holds (with ``joined``, joined across the fields that show words of the code, not
    values ``given``: the call's arguments), cut at its first clause break; '' where the
    message is one constant whole, or no fragment is in it (nothing fixed to match)."""
    tree = ast_tree(source)  # one parse per text for every row of the file's raises
    raised = _raise_at(tree, line) if tree is not None else None
    if raised is None:
        return ""
    fragments = [f for f in _fragments(raised) if f in message]
    if not fragments or message.strip(_ENDS) in fragments:
        return ""
    whole = message.strip(_ENDS)
    stretches = _joined(raised, message, given) if joined else []
    longest = max([*fragments, *(s for s in stretches if s != whole)], key=len)
    first = _CLAUSE.split(longest)[0].strip(_ENDS)
    return first if len(first) >= _MIN_CHARS and len(first.split()) >= 2 else longest


def with_fixed_words(
    row: dict[str, Any], source: str, file_path: str, *, python2: bool = False
) -> dict[str, Any]:
    """``row`` with its raised message's fixed words (``raised["match"]``) where a ``raise``
    of ``source`` (the file at ``file_path``) stated it; else ``row`` as it is. For a
    project that supports Python 2 (``python2``) only the code's written words count: a
    field it fills may differ there (``"unicode" if PY2 else "str"``)."""
    raised = row.get("raised")
    frame = (raised or {}).get("frame")
    if not raised or not raised.get("stated") or not isinstance(frame, dict):
        return row
    if not in_file(str(frame.get("file", "")), file_path):
        return row
    if borrowed_message(source, int(frame.get("line") or 0)):
        return {**row, "raised": {**raised, "message": "", "match": ""}}
    given = [row.get("args") or {}, row.get("owner_args") or {}]
    message = str(raised.get("message") or "")
    words = fixed_words(source, int(frame.get("line") or 0), message, given, joined=not python2)
    return {**row, "raised": {**raised, "match": words}} if words else row


def match_pattern(words: str) -> str:
    """``words`` as the Python literal of a regular expression that finds them: only the
    characters special to ``re`` escaped (a raw string then), spaces left readable."""
    escaped = "".join(f"\\{c}" if c in _SPECIAL else c for c in words)
    if "\\" in escaped and '"' not in escaped:
        return f'r"{escaped}"'
    return repr(escaped)
