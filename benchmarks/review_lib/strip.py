"""Every docstring of a module removed by its ``ast`` position, nothing else changed.

The review corpus is analysed as an undocumented project: the module's, every
class's and every function's docstring (nested ones too) goes. A docstring that
stands alone on its lines is removed with its lines (and the blank lines right
after it, as an undocumented project would be written); one that is the whole
body becomes ``pass``; one that shares its line with other statements goes with
the ``;`` after it. The result is checked: its tree must equal the original's with
the docstrings taken out (``pass`` where a body would be empty).
"""

from __future__ import annotations

import ast
import copy
from dataclasses import dataclass

from competence_lib.checks import docstring_stmt

_Scope = ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef


class StripError(Exception):
    """A file whose docstrings cannot be removed without changing its code."""


@dataclass(frozen=True, slots=True)
class _Span:
    """One docstring statement: 1-based lines, byte columns, and whether it is the body."""

    first: int
    last: int
    start_col: int
    end_col: int
    whole_body: bool


def _spans(tree: ast.Module) -> list[_Span]:
    found: list[_Span] = []
    for scope in ast.walk(tree):
        if not isinstance(scope, _Scope):
            continue
        stmt = docstring_stmt(scope)
        if stmt is None:
            continue
        found.append(
            _Span(
                stmt.lineno,
                int(stmt.end_lineno or stmt.lineno),
                stmt.col_offset,
                int(stmt.end_col_offset or 0),
                len(scope.body) == 1,
            )
        )
    return sorted(found, key=lambda s: (s.first, s.start_col), reverse=True)


def _without_docstrings(tree: ast.Module) -> ast.Module:
    """The tree the stripped text must parse to: no docstring, ``pass`` for an emptied body."""
    clone = copy.deepcopy(tree)
    for scope in ast.walk(clone):
        if isinstance(scope, _Scope) and docstring_stmt(scope) is not None:
            scope.body = scope.body[1:] or [ast.Pass()]
    return clone


def _remove(lines: list[bytes], span: _Span) -> None:
    """Take ``span`` out of ``lines`` (each a line of bytes with its end), in place."""
    head = lines[span.first - 1][: span.start_col]
    tail = lines[span.last - 1][span.end_col :]
    alone = not head.strip() and (not tail.strip() or tail.strip().startswith(b"#"))
    if not alone and not span.whole_body:
        # `def f(): "doc"; return 1`: the grammar puts the `;` right after the expression
        # statement (whitespace aside), so it goes with the docstring.
        rest = tail.lstrip(b" \t")
        if rest.startswith(b";"):
            lines[span.first - 1 : span.last] = [head + rest[1:].lstrip(b" \t")]
            return
    if not alone or span.whole_body:
        lines[span.first - 1 : span.last] = [head + b"pass" + tail]
        return
    end = span.last
    while end < len(lines) and not lines[end].strip():
        end += 1  # the blank lines that separated the docstring from the code
    del lines[span.first - 1 : end]


def strip_docstrings(text: str, path: str = "<text>") -> str:
    """``text`` without any docstring; raises StripError naming ``path`` when it cannot."""
    try:
        tree = ast.parse(text)
    except SyntaxError as error:
        raise StripError(f"{path}:{error.lineno}: does not parse: {error.msg}") from error
    lines = text.encode("utf-8").splitlines(keepends=True)
    for span in _spans(tree):
        _remove(lines, span)
    stripped = b"".join(lines).decode("utf-8")
    expected = _without_docstrings(tree)
    try:
        got = ast.parse(stripped)
    except SyntaxError as error:
        raise StripError(
            f"{path}: removing its docstrings broke line {error.lineno} ({error.msg}); "
            "report the file so strip.py learns its shape"
        ) from error
    if ast.dump(got) != ast.dump(expected):
        raise StripError(f"{path}: removing its docstrings changed other code; report the file")
    return stripped


__all__ = ["StripError", "strip_docstrings"]
