"""Which lines of which files differ from a base commit, read from ``git diff --unified=0``."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from remora.git.command import GitFailed, git

__all__ = [
    "ChangedFile",
    "changed_files",
    "file_at",
    "lines_in_diff",
    "pull_request_files",
    "unquote_path",
]

FileStatus = Literal["added", "modified", "renamed", "deleted", "untracked"]

_HUNK = re.compile(rb"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")
_ESCAPES = {
    "a": 7, "b": 8, "t": 9, "n": 10, "v": 11, "f": 12, "r": 13, '"': 34, "\\": 92,
}  # fmt: skip


@dataclass
class ChangedFile:
    """One file that differs from the base.

    ``added``: the new side's changed lines (1-based, inclusive ranges);
    ``removed``: the old side's. ``old_path`` is None for a new file.
    """

    path: str  # relative to the repository's top, the new name
    status: FileStatus
    old_path: str | None = None
    added: list[tuple[int, int]] = field(default_factory=list)
    removed: list[tuple[int, int]] = field(default_factory=list)
    # Each hunk's header: (old start, old length, new start, new length).
    hunks: list[tuple[int, int, int, int]] = field(default_factory=list)

    def old_line(self, line: int) -> int | None:
        """The base's number of the new side's ``line``, or None where the diff changed it.

        Read from a diff without context (``--unified=0``), where every hunk is changed
        lines: a line outside them moved by what the hunks before it added or removed.
        """
        shift = 0
        for _old_start, old_len, new_start, new_len in self.hunks:
            if new_len and new_start <= line < new_start + new_len:
                return None
            if (new_start + new_len - 1 if new_len else new_start) < line:
                shift += new_len - old_len
        return line - shift


def unquote_path(raw: bytes) -> str:
    """A path as git prints it in a diff header: C-quoted when it holds odd characters."""
    if not raw.startswith(b'"'):
        return raw.decode("utf-8", "surrogateescape")
    out = bytearray()
    body, i = raw[1:-1], 0
    while i < len(body):
        char = body[i : i + 1]
        if char != b"\\":
            out += char
            i += 1
            continue
        nxt = chr(body[i + 1])
        if nxt.isdigit():  # \ooo: one byte in octal
            out.append(int(body[i + 1 : i + 4], 8))
            i += 4
        else:
            out.append(_ESCAPES.get(nxt, ord(nxt)))
            i += 2
    return bytes(out).decode("utf-8", "surrogateescape")


def _header_path(rest: bytes) -> str | None:
    """The path of a ``--- a/x`` or ``+++ b/x`` line, without its prefix; None for /dev/null."""
    rest = rest.rstrip(b"\r")
    if rest.endswith(b"\t"):  # git adds a tab after a name that holds a space
        rest = rest[:-1]
    if rest == b"/dev/null":
        return None
    name = unquote_path(rest)
    return name[2:]  # "a/" or "b/": the prefixes are fixed by the command below


def _parse(patch: bytes) -> list[ChangedFile]:
    files: list[ChangedFile] = []
    lines = patch.split(b"\n")
    i = 0
    current: ChangedFile | None = None
    while i < len(lines):
        line = lines[i]
        i += 1
        if line.startswith(b"diff --git "):
            current = ChangedFile(path="", status="modified")
            files.append(current)
            continue
        if current is None:
            continue
        if line.startswith(b"new file mode"):
            current.status = "added"
        elif line.startswith(b"deleted file mode"):
            current.status = "deleted"
        elif line.startswith(b"rename from "):
            current.status, current.old_path = "renamed", unquote_path(line[12:])
        elif line.startswith(b"rename to "):
            current.path = unquote_path(line[10:])
        elif line.startswith(b"--- "):
            old = _header_path(line[4:])
            current.old_path = old
        elif line.startswith(b"+++ "):
            new = _header_path(line[4:])
            current.path = new if new is not None else current.old_path or ""
        elif match := _HUNK.match(line):
            old_start, old_len = int(match[1]), int(match[2] or b"1")
            new_start, new_len = int(match[3]), int(match[4] or b"1")
            current.hunks.append((old_start, old_len, new_start, new_len))
            if old_len:
                current.removed.append((old_start, old_start + old_len - 1))
            if new_len:
                current.added.append((new_start, new_start + new_len - 1))
            # Skip the hunk's body by its counts: a removed line "-- x" reads as a header.
            body = old_len + new_len
            while body and i < len(lines):
                if not lines[i].startswith(b"\\"):  # "\ No newline at end of file"
                    body -= 1
                i += 1
    for changed in files:
        if changed.status != "added" and changed.old_path is None:
            changed.old_path = changed.path
    return [f for f in files if f.path]


def _diff_args(base: str, staged: bool, context: int) -> list[str]:
    args = ["diff", "--no-color", "--no-ext-diff", "--no-textconv", f"--unified={context}", "-M"]
    args += ["--src-prefix=a/", "--dst-prefix=b/"]
    if staged:
        args.append("--cached")
    return [*args, base, "--"]


def changed_files(top: Path, base: str, *, staged: bool = False) -> list[ChangedFile]:
    """The files that differ from ``base`` (a commit or tree), renames followed.

    The work tree is compared (staged or not), or with ``staged`` the index.
    Untracked files that ``.gitignore`` does not exclude are new files too,
    except with ``staged`` (they are not in the index).
    """
    found = _parse(git(top, *_diff_args(base, staged, 0)))
    if not staged:
        listed = git(top, "ls-files", "-z", "--others", "--exclude-standard", "--full-name")
        for raw in listed.split(b"\0"):
            if raw:
                name = raw.decode("utf-8", "surrogateescape")
                found.append(ChangedFile(path=name, status="untracked"))
    return found


def pull_request_files(top: Path, base: str, head: str) -> dict[str, ChangedFile]:
    """The files of the ``base..head`` diff without context, by new path (renames followed)."""
    args = _diff_args(base, False, 0)
    return {f.path: f for f in _parse(git(top, *args[:-1], head, "--")) if f.status != "deleted"}


def lines_in_diff(top: Path, base: str, head: str) -> dict[str, list[tuple[int, int]]]:
    """Each file's new-side line ranges that a pull request's diff shows (changes + 3 lines).

    What GitHub and GitLab let a review comment sit on: the lines of the
    ``base...head`` diff's hunks, context included.
    """
    patch = git(top, "diff", "--no-color", "--no-ext-diff", "--no-textconv", "--unified=3",
                "-M", "--src-prefix=a/", "--dst-prefix=b/", base, head, "--")  # fmt: skip
    shown: dict[str, list[tuple[int, int]]] = {}
    for changed in _parse(patch):
        if changed.status != "deleted":
            shown[changed.path] = changed.added
    return shown


def file_at(top: Path, commit: str, path: str) -> bytes | None:
    """The bytes of ``path`` in ``commit`` (``""`` for the index), or None if it is not there."""
    try:
        return git(top, "cat-file", "blob", f"{commit}:{path}")
    except GitFailed:
        return None
