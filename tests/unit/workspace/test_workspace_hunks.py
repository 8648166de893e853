"""Hunks: numbered as the printed diff, applied one by one byte for byte."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from workspace_kit import snapshot

from remora.errors import UsageError
from remora.workspace import FileChange, WorkspaceStore, render_diff
from remora.workspace.hunks import (
    change_hunks,
    change_signature,
    chosen_contents,
    parse_hunk_numbers,
)

OLD = b"".join(f"line {i}\n".encode() for i in range(1, 40))
# Three edits far enough apart to be three hunks: a replacement, an insertion, a deletion.
NEW = (
    OLD.replace(b"line 2\n", b"LINE 2\n")
    .replace(b"line 20\n", b"line 20\nextra\n")
    .replace(b"line 38\n", b"")
)


def modified(old: bytes = OLD, new: bytes = NEW, path: str = "a.py") -> FileChange:
    return FileChange(path, "modified", old, new, False)


def test_hunks_are_the_printed_diffs_hunks_in_order() -> None:
    change = modified()
    printed = re.findall(r"^@@ .* @@$", render_diff([change]), flags=re.MULTILINE)
    hunks = change_hunks([change])
    assert (
        [h.header for h in hunks]
        == printed
        == [
            "@@ -1,5 +1,5 @@",
            "@@ -18,6 +18,7 @@",
            "@@ -35,5 +36,4 @@",
        ]
    )
    assert [h.number for h in hunks] == [1, 2, 3]
    assert [(h.additions, h.deletions) for h in hunks] == [(1, 1), (1, 0), (0, 1)]
    assert change.line_counts() == (2, 2)


@pytest.mark.parametrize(
    ("chosen", "expected"),
    [
        ([1, 2, 3], NEW),
        ([], OLD),
        ([1, 3], OLD.replace(b"line 2\n", b"LINE 2\n").replace(b"line 38\n", b"")),
        ([2], OLD.replace(b"line 20\n", b"line 20\nextra\n")),
    ],
)
def test_chosen_hunks_give_exactly_those_edits(chosen: list[int], expected: bytes) -> None:
    assert chosen_contents([modified()], chosen) == {"a.py": expected}


def test_line_endings_and_a_missing_final_newline_are_kept() -> None:
    old = b"a\r\nb\r\n" + b"x\r\n" * 10 + b"end"
    new = b"a\r\nB\r\n" + b"x\r\n" * 10 + b"END"
    hunks = change_hunks([modified(old, new)])
    assert len(hunks) == 2
    assert hunks[1].lines[-1].text == "END" and not hunks[1].lines[-1].newline
    assert chosen_contents([modified(old, new)], [2])["a.py"] == old.replace(b"end", b"END")
    assert chosen_contents([modified(old, new)], [1])["a.py"] == old.replace(b"b\r\n", b"B\r\n")


def test_added_deleted_and_binary_files_are_one_hunk_each_numbered_across_files() -> None:
    changes = [
        FileChange("a.py", "modified", OLD, NEW, False),
        FileChange("b.py", "added", None, b"NEW = 1\nTWO = 2\n", False),
        FileChange("c.py", "deleted", b"gone\n", None, False),
        FileChange("d.bin", "modified", b"\0old", b"\0new", True),
    ]
    hunks = change_hunks(changes)
    assert [(h.number, h.path, h.whole_file) for h in hunks[3:]] == [
        (4, "b.py", True),
        (5, "c.py", True),
        (6, "d.bin", True),
    ]
    assert hunks[3].additions == 2 and hunks[4].deletions == 1
    none = chosen_contents(changes, [])
    assert none == {"a.py": OLD, "b.py": None, "c.py": b"gone\n", "d.bin": b"\0old"}
    every = chosen_contents(changes, range(1, 7))
    assert every == {"a.py": NEW, "b.py": b"NEW = 1\nTWO = 2\n", "c.py": None, "d.bin": b"\0new"}


def test_an_unknown_hunk_number_is_refused_with_the_range() -> None:
    with pytest.raises(UsageError, match=r"lint-x has 3 hunk\(s\); no hunk 4"):
        chosen_contents([modified()], [1, 4], workspace_id="lint-x")


def test_hunk_numbers_parse_lists_and_ranges() -> None:
    assert parse_hunk_numbers("3,1") == [1, 3]
    assert parse_hunk_numbers(" 2-4, 7 ") == [2, 3, 4, 7]
    for bad in ("", "a", "0", "3-1", "1,,x"):
        with pytest.raises(UsageError):
            parse_hunk_numbers(bad)


def test_the_signature_ignores_where_the_same_edit_lands() -> None:
    shifted_old = b"header\n" * 5 + OLD
    shifted_new = b"header\n" * 5 + NEW
    same = change_signature([modified(shifted_old, shifted_new)])
    assert same == change_signature([modified()])
    assert change_signature([modified(OLD, NEW.replace(b"extra", b"other"))]) != same


def test_accept_with_contents_writes_only_the_chosen_hunks(tmp_path: Path) -> None:
    root = tmp_path / "proj"
    root.mkdir()
    (root / "a.py").write_bytes(OLD)
    (root / "keep.py").write_bytes(b"KEEP = 1\n")
    store = WorkspaceStore(root)
    ws = store.create("lint", "n1")
    ws.write("a.py", NEW)
    ws.write("added.py", b"ADDED = 1\n")
    ws.write("keep.py", b"KEEP = 2\n")
    contents = chosen_contents(ws.changes(), [1, 3, 4])  # a.py 1 and 3, added.py
    ws.close()
    report = store.accept("lint-n1", contents)
    assert report.accepted and sorted(report.written) == ["a.py", "added.py"]
    assert snapshot(root) == {
        "a.py": OLD.replace(b"line 2\n", b"LINE 2\n").replace(b"line 38\n", b""),
        "added.py": b"ADDED = 1\n",
        "keep.py": b"KEEP = 1\n",
    }
    assert not store.exists("lint-n1")  # the unchosen hunks went with the workspace
