"""Changes of a workspace as git-style unified diffs, and their line counts."""

from __future__ import annotations

import difflib
import io
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal, TypeVar

__all__ = [
    "CONTEXT",
    "ChangeStatus",
    "FileChange",
    "Opcode",
    "change_stats",
    "escape_controls",
    "file_change",
    "grouped_opcodes",
    "is_binary",
    "line_opcodes",
    "render_diff",
    "render_file_diff",
    "split_lines",
    "unified_range",
]

# What a terminal acts on instead of showing: C0 and C1 controls (ESC starts
# colour and cursor sequences), DEL, a CR that is not part of CRLF (it returns
# to the line start and lets later text cover earlier text), and the Unicode
# bidirectional overrides that reorder how a line reads.
_CONTROLS = re.compile("\r(?!\n)|[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")

ChangeStatus = Literal["added", "modified", "deleted"]
_NO_NEWLINE = "\\ No newline at end of file\n"
CONTEXT = 3  # lines of context around each hunk, as git and difflib.unified_diff show
Opcode = tuple[str, int, int, int, int]  # difflib's (tag, i1, i2, j1, j2)
_Code = tuple[Literal["replace", "delete", "insert", "equal"], int, int, int, int]
_Item = TypeVar("_Item")


class _EndsTrimmed(difflib.SequenceMatcher[str]):
    """difflib's matcher run on what lies between the lines both texts begin and end with.

    On a whole file difflib spent most of its time indexing and matching lines no edit
    touched (a docstring added to a 3,400-line file: ~4 ms; ``remora review list`` of
    1,841 changes to SQLAlchemy's ``engine`` took 5.4 s), and from 200 lines on it takes
    frequent lines (blank ones, closing brackets) for junk that cannot anchor a match,
    so a small edit could show as one large replacement. The common ends are kept as
    they are and only the middle is matched, as git's diff does.
    """

    def __init__(self, old: Sequence[str], new: Sequence[str], *, autojunk: bool = True) -> None:
        super().__init__(None, (), ())  # the whole texts are never indexed
        self._old, self._new, self._junk = old, new, autojunk

    def get_opcodes(self) -> list[_Code]:
        # A fresh list each call: get_grouped_opcodes edits the one it is given.
        old, new = self._old, self._new
        head = _common_length(old, new, min(len(old), len(new)))
        tail = _common_length(old, new, min(len(old), len(new)) - head, from_end=True)
        middle = difflib.SequenceMatcher(
            None, old[head : len(old) - tail], new[head : len(new) - tail], self._junk
        )
        codes: list[_Code] = [("equal", 0, head, 0, head)] if head else []
        for tag, i1, i2, j1, j2 in middle.get_opcodes():
            codes.append((tag, i1 + head, i2 + head, j1 + head, j2 + head))
        if tail:
            codes.append(("equal", len(old) - tail, len(old), len(new) - tail, len(new)))
        return codes


def line_opcodes(old: Sequence[str], new: Sequence[str], *, autojunk: bool = True) -> list[Opcode]:
    """difflib's opcodes from ``old`` to ``new`` lines, the common ends matched first.

    ``autojunk=False``: no line of a long middle is taken for junk (slower on a large
    rewrite, every kept line found).
    """
    return list(_EndsTrimmed(old, new, autojunk=autojunk).get_opcodes())


def grouped_opcodes(old: Sequence[str], new: Sequence[str]) -> list[list[Opcode]]:
    """The hunks of the change from ``old`` to ``new`` lines: difflib's opcodes grouped with
    :data:`CONTEXT` lines around each, as ``remora review show`` prints them."""
    return list(_EndsTrimmed(old, new).get_grouped_opcodes(CONTEXT))


def unified_range(start: int, length: int) -> str:
    """A hunk header's range: 1-based start, ``start,length`` unless length is 1."""
    beginning = start + 1
    if length == 1:
        return f"{beginning}"
    if not length:
        beginning -= 1  # an empty range starts before the first line
    return f"{beginning},{length}"


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
    # why accepting it now would conflict ("lines 4-6: changed both here and by this change"):
    # the file moved on since the agent read it and the change does not merge; then ``old`` is
    # the file as the agent read it, so the diff shows what the agent did (rebase.py)
    conflict: str = ""

    def line_counts(self) -> tuple[int, int]:
        """(added lines, deleted lines); binary files count as 0/0."""
        if self.binary:
            return 0, 0
        added = deleted = 0
        # Only the lines between the texts' common ends are split and matched: what the
        # whole lines would give (their common ends are equal), for a fraction of the work
        # when a listing counts thousands of changes to large files.
        old, new = _middle(self.old or b"", self.new or b"")
        for tag, i1, i2, j1, j2 in line_opcodes(_lines(old), _lines(new)):
            if tag != "equal":
                deleted += i2 - i1
                added += j2 - j1
        return added, deleted

    def diff(self) -> str:
        return render_file_diff(self)


def split_lines(text: str) -> list[str]:
    """Lines ending at ``\\n`` only, each with its ending (the last may have none).

    ``str.splitlines`` also splits at CR, form feed, NEL and more, which would
    show a lone CR in a file as a line break of the diff: a reviewer must see
    it as the ``\\x0d`` it is (see :func:`escape_controls`).
    """
    return list(io.StringIO(text, newline="\n"))  # no translation, split at \n alone


def _common_length(
    old: Sequence[_Item], new: Sequence[_Item], limit: int, *, from_end: bool = False
) -> int:
    """How many items (bytes, lines) ``old`` and ``new`` begin (``from_end``: end) with in
    common, at most ``limit``: slices compared, their sizes doubled then halved (~40
    compares in C for a large file, where an item at a time in Python took ~150 us)."""

    def same(start: int, stop: int) -> bool:
        if from_end:
            return (
                old[len(old) - stop : len(old) - start] == new[len(new) - stop : len(new) - start]
            )
        return old[start:stop] == new[start:stop]

    run, step = 0, 64
    while run + step <= limit and same(run, run + step):
        run += step
        step *= 2
    high = min(run + step, limit)  # run is common; past high is not (or is past the limit)
    while run < high:
        middle = (run + high + 1) // 2
        if same(run, middle):
            run = middle
        else:
            high = middle - 1
    return run


def _middle(old: bytes, new: bytes) -> tuple[bytes, bytes]:
    """``old`` and ``new`` without the whole lines both begin and end with."""
    shortest = min(len(old), len(new))
    head = _common_length(old, new, shortest)
    head = old.rfind(b"\n", 0, head) + 1  # back to a line start (0 when none ended)
    tail = _common_length(old, new, shortest - head, from_end=True)
    old_end, new_end = len(old) - tail, len(new) - tail
    if not (old_end == head or old[old_end - 1] == 10) or not (
        new_end == head or new[new_end - 1] == 10
    ):
        # The common end starts inside a line: the whole lines after its first line end.
        ends = old.find(b"\n", old_end)
        if ends < 0:
            return old[head:], new[head:]
        old_end, new_end = ends + 1, ends + 1 + len(new) - len(old)
    return old[head:old_end], new[head:new_end]


def _lines(data: bytes | None) -> list[str]:
    if not data:
        return []
    return split_lines(data.decode("utf-8"))


def _hunks(change: FileChange) -> list[str]:
    """The ``@@`` hunks and their lines, with git's no-newline markers."""
    old = _lines(change.old)
    new = _lines(change.new)
    out: list[str] = []
    for group in grouped_opcodes(old, new):
        first, last = group[0], group[-1]
        out.append(
            f"@@ -{unified_range(first[1], last[2] - first[1])} "
            f"+{unified_range(first[3], last[4] - first[3])} @@\n"
        )
        for tag, i1, i2, j1, j2 in group:
            if tag == "equal":
                _marked(out, " ", old[i1:i2])
                continue
            _marked(out, "-", old[i1:i2])
            _marked(out, "+", new[j1:j2])
    return out


def _marked(out: list[str], mark: str, lines: list[str]) -> None:
    for line in lines:
        out.append(mark + line)
        if not line.endswith("\n"):  # a last line without an ending: git's marker follows
            out[-1] += "\n"
            out.append(_NO_NEWLINE)


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
