"""Diffs are exact: git applies them and gets the workspace's content back."""

from __future__ import annotations

import random
import shutil
import subprocess
from pathlib import Path

import pytest

from remora.workspace import FileChange, WorkspaceStore, is_binary, render_diff
from remora.workspace.diff import change_stats, grouped_opcodes, split_lines
from remora.workspace.hunks import change_hunks


def test_git_style_headers_and_counts(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("one\ntwo\nthree\n")
    (tmp_path / "gone.py").write_text("bye\n")
    ws = WorkspaceStore(tmp_path).create("lint", "d")
    ws.write("a.py", b"one\n2\nthree\nfour\n")
    ws.write("new.py", b"hello\n")
    ws.delete("gone.py")
    assert ws.diff() == (
        "diff --git a/a.py b/a.py\n"
        "--- a/a.py\n"
        "+++ b/a.py\n"
        "@@ -1,3 +1,4 @@\n"
        " one\n"
        "-two\n"
        "+2\n"
        " three\n"
        "+four\n"
        "diff --git a/gone.py b/gone.py\n"
        "deleted file mode 100644\n"
        "--- a/gone.py\n"
        "+++ /dev/null\n"
        "@@ -1 +0,0 @@\n"
        "-bye\n"
        "diff --git a/new.py b/new.py\n"
        "new file mode 100644\n"
        "--- /dev/null\n"
        "+++ b/new.py\n"
        "@@ -0,0 +1 @@\n"
        "+hello\n"
    )
    assert change_stats(ws.changes()) == {"files": 3, "additions": 3, "deletions": 2}


def test_missing_final_newline_is_marked() -> None:
    change = FileChange("x.py", "modified", b"a\nb", b"a\nc", False)
    assert change.diff().endswith(
        "-b\n\\ No newline at end of file\n+c\n\\ No newline at end of file\n"
    )
    assert change.line_counts() == (1, 1)


def _module(docstring: str) -> bytes:
    """260 lines: blank and ``return y`` lines are frequent enough for difflib's autojunk."""
    functions = [f"def f{i}(x):\n    y = x + {i}\n    return y\n\n" for i in range(64)]
    return "".join([*functions[:32], docstring, *functions[32:]]).encode()


def test_an_edit_in_a_long_file_is_diffed_line_for_line() -> None:
    # Whole-file difflib took the blank line inside the docstring for junk past 200 lines
    # and showed the two edited lines as a three-line replacement (+3 -3).
    before = _module('def g(x):\n    """Add one.\n\n    Returns x plus one.\n    """\n')
    after = _module('def g(x):\n    """Add one to x.\n\n    Returns the sum.\n    """\n')
    change = FileChange("m.py", "modified", before, after, False)
    assert change.line_counts() == (2, 2)
    assert '\n-    """Add one.\n+    """Add one to x.\n \n-    Returns' in change.diff()
    (hunk,) = grouped_opcodes(split_lines(before.decode()), split_lines(after.decode()))
    assert [tag for tag, *_ in hunk] == ["equal", "replace", "equal", "replace", "equal"]


def test_lines_that_look_like_diff_headers_are_counted() -> None:
    # "++x" added prints as "+++x", which the counts once skipped as a file header.
    assert FileChange("x.py", "modified", b"--a\n", b"++x\n", False).line_counts() == (1, 1)


def test_counts_are_the_printed_hunks_counts_over_random_edits() -> None:
    # line_counts matches only what lies between the common ends, cut at line starts from
    # the bytes; the hunks match the whole lines. Both must count the same.
    rng = random.Random(7)
    pieces = ["a\n", "b\n", "\n", "é\n", "x", "\r\n", "  return y\n", "ab"]
    for _ in range(400):
        size = rng.choice((12, 400))  # past the first compared slices (64 bytes, doubled)
        old = "".join(rng.choice(pieces) for _ in range(rng.randint(0, size)))
        new = list(old)
        for _ in range(rng.randint(1, 3)):
            at = rng.randint(0, len(new))
            new[at : at + rng.randint(0, 3)] = rng.choice(pieces)
        change = FileChange("m.py", "modified", old.encode(), "".join(new).encode(), False)
        hunks = change_hunks([change])
        expected = (sum(h.additions for h in hunks), sum(h.deletions for h in hunks))
        assert change.line_counts() == expected, (old, "".join(new))


def test_identical_and_empty_texts_have_no_hunks() -> None:
    assert grouped_opcodes([], []) == []
    assert grouped_opcodes(["a\n", "b\n"], ["a\n", "b\n"]) == []
    assert grouped_opcodes([], ["a\n"]) == [[("insert", 0, 0, 0, 1)]]


def test_binary_detection() -> None:
    assert is_binary(b"\x00abc")
    assert is_binary("é".encode("latin-1"))
    assert not is_binary("é ☃\n".encode())
    assert not is_binary(b"")
    assert not is_binary(None)
    change = FileChange("img.png", "modified", b"\x89PNG\x00", b"\x89PNG\x01", True)
    assert render_diff([change]) == (
        "diff --git a/img.png b/img.png\nBinary files a/img.png and b/img.png differ\n"
    )
    assert change.line_counts() == (0, 0)


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
def test_git_apply_reproduces_the_workspace(tmp_path: Path) -> None:
    project = tmp_path / "proj"
    project.mkdir()
    lines = [f"line {i}\n" for i in range(200)]
    (project / "long.py").write_text("".join(lines))
    (project / "nonl.py").write_text("no newline")
    (project / "crlf.txt").write_bytes(b"a\r\nb\r\n")
    (project / "del.py").write_text("x\n")
    ws = WorkspaceStore(project).create("lint", "g")
    edited = list(lines)
    edited[3] = "changed 3\n"
    edited[150:152] = ["inserted\n"]
    edited.append("tail\n")
    ws.write("long.py", "".join(edited).encode())
    ws.write("nonl.py", b"no newline, still")
    ws.write("crlf.txt", b"a\r\nB\r\n")
    ws.write("sub/new.py", "unicode ☃\n".encode())
    ws.write("empty.txt", b"")
    ws.delete("del.py")
    expected = {rel: ws.read(rel) for rel in ws.iter_files()}
    patch = tmp_path / "change.patch"
    patch.write_text(ws.diff())
    copy = tmp_path / "copy"
    shutil.copytree(project, copy, ignore=shutil.ignore_patterns(".remora"))
    subprocess.run(
        ["git", "apply", "--whitespace=nowarn", str(patch)],
        cwd=copy,
        check=True,
        capture_output=True,
    )
    got = {
        p.relative_to(copy).as_posix(): p.read_bytes()
        for p in sorted(copy.rglob("*"))
        if p.is_file()
    }
    assert got == expected
