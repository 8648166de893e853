"""Changes of a workspace as git-style unified diffs, and their line counts."""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

__all__ = [
    "ChangeStatus",
    "FileChange",
    "change_stats",
    "escape_controls",
    "file_change",
    "is_binary",
    "render_diff",
    "render_file_diff",
    "split_lines",
]

# What a terminal acts on instead of showing: C0 and C1 controls (ESC starts
# colour and cursor sequences), DEL, a CR that is not part of CRLF (it returns
# to the line start and lets later text cover earlier text), and the Unicode
# bidirectional overrides that reorder how a line reads.
_CONTROLS = re.compile("\r(?!\n)|[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")

ChangeStatus = Literal["added", "modified", "deleted"]
_NO_NEWLINE = "\\ No newline at end of file\n"


def is_binary(data: bytes | None) -> bool:
    """Binary for diffing: a NUL byte, or bytes that are not UTF-8.

    Non-UTF-8 text is shown as binary rather than guessed at: the diff must be
    exact, and the bytes still round-trip unchanged through accept.
    """
    if data is None:
        return False
    if b"\0" in data[:8192]:
        return True
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return True
    return False


@dataclass(frozen=True, slots=True)
class FileChange:
    """One changed file: ``old`` is the project's content, ``new`` the workspace's."""

    path: str
    status: ChangeStatus
    old: bytes | None
    new: bytes | None
    binary: bool
    # permission bits of the project file (None for an added file)
    mode: int | None = None

    def line_counts(self) -> tuple[int, int]:
        """(added lines, deleted lines); binary files count as 0/0."""
        if self.binary:
            return 0, 0
        added = deleted = 0
        for line in _hunks(self):
            if line.startswith("+") and not line.startswith("+++"):
                added += 1
            elif line.startswith("-") and not line.startswith("---"):
                deleted += 1
        return added, deleted

    def diff(self) -> str:
        return render_file_diff(self)


def split_lines(text: str) -> list[str]:
    """Lines ending at ``\\n`` only, each with its ending (the last may have none).

    ``str.splitlines`` also splits at CR, form feed, NEL and more, which would
    show a lone CR in a file as a line break of the diff: a reviewer must see
    it as the ``\\x0d`` it is (see :func:`escape_controls`).
    """
    lines = [line + "\n" for line in text.split("\n")]
    lines[-1] = lines[-1][:-1]
    return lines if lines[-1] else lines[:-1]


def _lines(data: bytes | None) -> list[str]:
    if not data:
        return []
    return split_lines(data.decode("utf-8"))


def _hunks(change: FileChange) -> list[str]:
    """The ``@@`` hunks and their lines, with git's no-newline markers."""
    old = _lines(change.old)
    new = _lines(change.new)
    out: list[str] = []
    raw = difflib.unified_diff(old, new, n=3, lineterm="\n")
    for index, line in enumerate(raw):
        if index < 2:  # difflib's own ---/+++ lines; git-style ones are written by the caller
            continue
        if line.endswith("\n"):
            out.append(line)
        else:
            out.append(line + "\n")
            out.append(_NO_NEWLINE)
    return out


def _mode_text(mode: int | None) -> str:
    return f"{0o100000 | ((mode or 0o644) & 0o777):o}"


def render_file_diff(change: FileChange) -> str:
    """A git-style diff of one file (``diff --git a/... b/...``)."""
    path, mode = change.path, change.mode
    header = [f"diff --git a/{path} b/{path}\n"]
    old_name, new_name = f"a/{path}", f"b/{path}"
    if change.status == "added":
        header.append(f"new file mode {_mode_text(mode)}\n")
        old_name = "/dev/null"
    elif change.status == "deleted":
        header.append(f"deleted file mode {_mode_text(mode)}\n")
        new_name = "/dev/null"
    if change.binary:
        header.append(f"Binary files {old_name} and {new_name} differ\n")
        return "".join(header)
    body = _hunks(change)
    if not body:  # e.g. an empty file added: git shows just the header
        return "".join(header)
    return "".join([*header, f"--- {old_name}\n", f"+++ {new_name}\n", *body])


def file_change(
    path: str, live: bytes | None, new: bytes | None, deleted: bool, mode: int | None
) -> FileChange | None:
    """What accepting a workspace's row for ``path`` does to the ``live`` file; None: nothing."""
    if deleted:
        if live is None:
            return None
        return FileChange(path, "deleted", live, None, is_binary(live), mode)
    if live == new:
        return None
    status: ChangeStatus = "added" if live is None else "modified"
    return FileChange(path, status, live, new, is_binary(live) or is_binary(new), mode)


def change_stats(changes: list[FileChange]) -> dict[str, int]:
    """Files changed and lines added and deleted, over ``changes``."""
    counts = [change.line_counts() for change in changes]
    return {
        "files": len(changes),
        "additions": sum(added for added, _ in counts),
        "deletions": sum(deleted for _, deleted in counts),
    }


def render_diff(changes: Iterable[FileChange]) -> str:
    """All changes, one after the other; "" when there are none."""
    return "".join(render_file_diff(change) for change in changes)


def _escaped(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code <= 0xFF else f"\\u{code:04x}"


def escape_controls(text: str) -> str:
    """``text`` with every control character a terminal would act on written as ``\\xNN``.

    For showing a change to a reviewer: an ESC sequence or a lone CR in a
    file must not hide or rewrite lines of the diff on the screen.
    """
    return _CONTROLS.sub(_escaped, text)
