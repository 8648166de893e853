"""A change as rows for the page: hunks with highlighted lines, unified or side by side.

Each file's old and new text is highlighted whole with Pygments (so a line
inside a triple-quoted string is coloured as a string), then cut into lines
that match the hunks' line numbers exactly.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import zip_longest

from markupsafe import Markup, escape
from pygments.lexer import Lexer
from pygments.lexers import TextLexer, get_lexer_for_filename
from pygments.token import STANDARD_TYPES, _TokenType
from pygments.util import ClassNotFound

from remora.workspace.diff import FileChange, split_lines
from remora.workspace.hunks import Hunk, HunkLine, change_hunks

__all__ = ["FileView", "HunkView", "Row", "SideRow", "file_views", "highlight_lines"]


@dataclass(frozen=True, slots=True)
class Row:
    kind: str  # context, removed, added
    old_number: int | None
    new_number: int | None
    html: Markup
    newline: bool


@dataclass(frozen=True, slots=True)
class SideRow:
    left: Row | None
    right: Row | None


@dataclass(frozen=True, slots=True)
class HunkView:
    number: int
    header: str
    whole_file: bool
    additions: int
    deletions: int
    rows: tuple[Row, ...]

    @property
    def side_rows(self) -> list[SideRow]:
        """Context on both sides; a run of removed lines beside the added run after it."""
        out: list[SideRow] = []
        removed: list[Row] = []
        added: list[Row] = []

        def flush() -> None:
            out.extend(SideRow(a, b) for a, b in zip_longest(removed, added))
            removed.clear()
            added.clear()

        for row in self.rows:
            if row.kind == "removed":
                if added:
                    flush()
                removed.append(row)
            elif row.kind == "added":
                added.append(row)
            else:
                flush()
                out.append(SideRow(row, row))
        flush()
        return out


@dataclass(frozen=True, slots=True)
class FileView:
    path: str
    status: str
    binary: bool
    additions: int
    deletions: int
    hunks: tuple[HunkView, ...]


def _css_class(token_type: _TokenType) -> str:
    current: _TokenType | None = token_type
    while current is not None and current not in STANDARD_TYPES:
        current = current.parent
    return "" if current is None else STANDARD_TYPES[current]


def _lexer(path: str) -> Lexer:
    try:
        lexer: Lexer = get_lexer_for_filename(path, stripnl=False, ensurenl=False)
        return lexer
    except ClassNotFound:
        plain: Lexer = TextLexer(stripnl=False, ensurenl=False)
        return plain


def highlight_lines(path: str, data: bytes | None) -> list[Markup]:
    """One HTML fragment per line (lines end at ``\\n`` only, as the hunks count them)."""
    if not data:
        return []
    lines = [
        line.removesuffix("\n").removesuffix("\r") for line in split_lines(data.decode("utf-8"))
    ]
    out: list[list[str]] = [[]]
    for token_type, value in _lexer(path).get_tokens("\n".join(lines)):
        css = _css_class(token_type)
        for index, part in enumerate(value.split("\n")):
            if index:
                out.append([])
            if part:
                text = str(escape(part))
                out[-1].append(f'<span class="{css}">{text}</span>' if css else text)
    if len(out) != len(lines):  # a lexer that changed the text: show it plain
        return [Markup(escape(line)) for line in lines]
    return [Markup("".join(parts)) for parts in out]


def _row(line: HunkLine, old: Sequence[Markup], new: Sequence[Markup]) -> Row:
    if line.kind == "added" and line.new_number is not None:
        html = new[line.new_number - 1]
    elif line.old_number is not None:
        html = old[line.old_number - 1]
    else:
        html = Markup(escape(line.text))
    return Row(line.kind, line.old_number, line.new_number, html, line.newline)


def _hunk_view(hunk: Hunk, old: Sequence[Markup], new: Sequence[Markup]) -> HunkView:
    return HunkView(
        hunk.number,
        hunk.header,
        hunk.whole_file,
        hunk.additions,
        hunk.deletions,
        tuple(_row(line, old, new) for line in hunk.lines),
    )


def file_views(changes: Sequence[FileChange]) -> list[FileView]:
    """Every file of a change with its numbered, highlighted hunks."""
    hunks = change_hunks(changes)
    views: list[FileView] = []
    for change in changes:
        old = [] if change.binary else highlight_lines(change.path, change.old)
        new = [] if change.binary else highlight_lines(change.path, change.new)
        own = [_hunk_view(h, old, new) for h in hunks if h.path == change.path]
        additions, deletions = change.line_counts()
        views.append(
            FileView(change.path, change.status, change.binary, additions, deletions, tuple(own))
        )
    return views
