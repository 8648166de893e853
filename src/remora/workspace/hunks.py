"""A change's hunks: numbered, shown, and applied one by one.

The hunks are exactly those of the unified diff that ``remora review show``
prints: difflib's grouped opcodes with three lines of context (diff.py's
:func:`~remora.workspace.diff.grouped_opcodes`), numbered from 1
across the change's files in path order. Applying a subset replaces the old
lines of each chosen hunk with its new lines and keeps the old lines of every
other hunk, so the bytes written are the project's bytes plus exactly the
chosen edits. An added, deleted or binary file is one hunk: all or nothing.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from remora.errors import UsageError
from remora.workspace.diff import FileChange, Opcode, grouped_opcodes, split_lines, unified_range
from remora.workspace.overlay import Workspace

__all__ = [
    "Hunk",
    "HunkLine",
    "change_hunks",
    "change_signature",
    "chosen_contents",
    "narrow_workspace",
    "parse_hunk_numbers",
]

LineKind = Literal["context", "removed", "added"]


@dataclass(frozen=True, slots=True)
class HunkLine:
    kind: LineKind
    old_number: int | None  # 1-based line number in the project's file
    new_number: int | None  # 1-based line number in the agent's file
    text: str  # the line without its line ending
    newline: bool  # False on a last line without a line ending


@dataclass(frozen=True, slots=True)
class Hunk:
    number: int  # 1-based across the whole change
    path: str
    header: str  # "@@ -12,7 +12,9 @@", or a note for a whole-file hunk
    lines: tuple[HunkLine, ...]
    whole_file: bool  # added, deleted or binary: taken all or nothing
    opcodes: tuple[Opcode, ...] = ()

    @property
    def additions(self) -> int:
        return sum(line.kind == "added" for line in self.lines)

    @property
    def deletions(self) -> int:
        return sum(line.kind == "removed" for line in self.lines)


def _lines(data: bytes | None) -> list[str]:
    # The same split as diff.py, so the hunks match the printed diff.
    return split_lines(data.decode("utf-8")) if data else []


def _strip(line: str) -> tuple[str, bool]:
    for ending in ("\r\n", "\n", "\r"):
        if line.endswith(ending):
            return line[: -len(ending)], True
    stripped = line.rstrip("\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029")
    return stripped, stripped != line


def _group_lines(old: list[str], new: list[str], group: list[Opcode]) -> list[HunkLine]:
    out: list[HunkLine] = []
    for tag, i1, i2, j1, j2 in group:
        if tag == "equal":
            for offset, line in enumerate(old[i1:i2]):
                text, newline = _strip(line)
                out.append(HunkLine("context", i1 + offset + 1, j1 + offset + 1, text, newline))
            continue
        for offset, line in enumerate(old[i1:i2]):
            text, newline = _strip(line)
            out.append(HunkLine("removed", i1 + offset + 1, None, text, newline))
        for offset, line in enumerate(new[j1:j2]):
            text, newline = _strip(line)
            out.append(HunkLine("added", None, j1 + offset + 1, text, newline))
    return out


def _file_hunks(change: FileChange, first_number: int) -> list[Hunk]:
    if change.binary:
        note = f"binary file {change.status}"
        return [Hunk(first_number, change.path, note, (), whole_file=True)]
    old, new = _lines(change.old), _lines(change.new)
    groups = grouped_opcodes(old, new)
    whole = change.status != "modified"
    if whole:
        lines = [line for group in groups for line in _group_lines(old, new, group)]
        note = f"new file, {len(new)} lines" if change.status == "added" else "file deleted"
        return [Hunk(first_number, change.path, note, tuple(lines), whole_file=True)]
    hunks: list[Hunk] = []
    for offset, group in enumerate(groups):
        first, last = group[0], group[-1]
        header = (
            f"@@ -{unified_range(first[1], last[2] - first[1])} "
            f"+{unified_range(first[3], last[4] - first[3])} @@"
        )
        hunks.append(
            Hunk(
                first_number + offset,
                change.path,
                header,
                tuple(_group_lines(old, new, group)),
                whole_file=False,
                opcodes=tuple(group),
            )
        )
    return hunks


def change_hunks(changes: Sequence[FileChange]) -> list[Hunk]:
    """Every hunk of a change, numbered from 1 in the order of ``changes``."""
    hunks: list[Hunk] = []
    for change in changes:
        hunks.extend(_file_hunks(change, len(hunks) + 1))
    return hunks


def parse_hunk_numbers(text: str) -> list[int]:
    """``"1,3"`` or ``"2-4,7"`` as sorted hunk numbers; a clear error otherwise."""
    numbers: set[int] = set()
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        low, _, high = part.partition("-")
        try:
            start = int(low)
            end = int(high) if high else start
        except ValueError:
            raise UsageError(
                f"--hunks {text!r}: {part!r} is not a hunk number or range",
                "give numbers from `remora review show ID`, e.g. --hunks 1,3 or --hunks 2-4",
            ) from None
        if start < 1 or end < start:
            raise UsageError(
                f"--hunks {text!r}: {part!r} is not a valid range", "hunks are numbered from 1"
            )
        numbers.update(range(start, end + 1))
    if not numbers:
        raise UsageError(f"--hunks {text!r} names no hunk", "e.g. --hunks 1,3")
    return sorted(numbers)


def _apply(change: FileChange, hunks: Sequence[Hunk], chosen: set[int]) -> bytes | None:
    """The file's content with only the chosen hunks applied; None: no file."""
    if hunks[0].whole_file:
        return change.new if hunks[0].number in chosen else change.old
    old, new = _lines(change.old), _lines(change.new)
    out: list[str] = []
    position = 0
    for hunk in hunks:
        take = hunk.number in chosen
        for tag, i1, i2, j1, j2 in hunk.opcodes:
            if tag == "equal":
                continue
            out.extend(old[position:i1])
            out.extend(new[j1:j2] if take else old[i1:i2])
            position = i2
    out.extend(old[position:])
    return "".join(out).encode("utf-8")


def chosen_contents(
    changes: Sequence[FileChange], numbers: Iterable[int], *, workspace_id: str = "the change"
) -> dict[str, bytes | None]:
    """Each changed file's content with only hunks ``numbers`` applied (None: no file).

    Raises UsageError naming the valid range when a number is not a hunk.
    """
    hunks = change_hunks(changes)
    chosen = set(numbers)
    unknown = sorted(chosen - {h.number for h in hunks})
    if unknown:
        raise UsageError(
            f"{workspace_id} has {len(hunks)} hunk(s); no hunk {', '.join(map(str, unknown))}",
            f"see the numbered hunks with `remora review show {workspace_id}`",
        )
    contents: dict[str, bytes | None] = {}
    for change in changes:
        own = [h for h in hunks if h.path == change.path]
        contents[change.path] = _apply(change, own, chosen)
    return contents


def narrow_workspace(ws: Workspace, contents: Mapping[str, bytes | None]) -> None:
    """Make the workspace hold ``contents`` (None: the file is absent).

    A path whose content equals the project's base drops out of the overlay,
    so an accept afterwards writes exactly these contents and nothing else.
    """
    for path, data in contents.items():
        if data is None:
            ws.delete(path)
        else:
            ws.write(path, data)


def change_signature(changes: Sequence[FileChange]) -> str:
    """What a change does, independent of line numbers: sha256 of its edits per file.

    Two runs that make the same edits to a node get the same signature even
    when other parts of the file moved meanwhile.
    """
    edits: list[object] = []
    for change in sorted(changes, key=lambda c: c.path):
        if change.binary:
            digest = hashlib.sha256(change.new or b"").hexdigest()
            edits.append([change.path, change.status, digest])
            continue
        hunks = _file_hunks(change, 1)
        edits.append(
            [
                change.path,
                change.status,
                [
                    [[line.kind, line.text] for line in hunk.lines if line.kind != "context"]
                    for hunk in hunks
                ],
            ]
        )
    return hashlib.sha256(json.dumps(edits, ensure_ascii=False).encode()).hexdigest()
