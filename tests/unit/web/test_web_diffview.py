"""Highlighted hunks: one fragment per diff line, removed beside added in the split view."""

from __future__ import annotations

from remora.web.diffview import file_views, highlight_lines
from remora.workspace import FileChange
from remora.workspace.diff import split_lines


def test_highlighting_keeps_one_fragment_per_line_even_inside_a_string() -> None:
    source = b'def f():\r\n    """Doc\r\n    more."""\r\n    return 1\x0c\n'
    lines = highlight_lines("m.py", source)
    # lines end at \n only, as the hunks and `review show` count them: \x0c stays in line 4
    assert len(lines) == len(split_lines(source.decode())) == 4
    assert 'class="sd"' in lines[2]  # the docstring's second line is still a string
    assert "&lt;" in highlight_lines("notes.txt", b"a <b>\n")[0]  # escaped, never markup


def test_split_rows_pair_removed_with_added_and_keep_context_on_both_sides() -> None:
    old = b"a = 1\nb = 2\nc = 3\n"
    new = b"a = 1\nB = 2\nB2 = 2\nc = 3\n"
    (view,) = file_views([FileChange("m.py", "modified", old, new, False)])
    (hunk,) = view.hunks
    pairs = [
        (p.left.kind if p.left else None, p.right.kind if p.right else None) for p in hunk.side_rows
    ]
    assert pairs == [
        ("context", "context"),
        ("removed", "added"),
        (None, "added"),
        ("context", "context"),
    ]
    numbers = [(r.old_number, r.new_number) for r in hunk.rows]
    assert numbers == [(1, 1), (2, None), (None, 2), (None, 3), (3, 4)]
    assert (view.additions, view.deletions) == (2, 1)
