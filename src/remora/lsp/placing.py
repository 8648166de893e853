"""Where each hunk of a change lies in the editor's buffer, and the edits that apply it.

A hunk rests on some of the base's lines: the lines of its node when it lies
inside a function, class or method, else its own lines with their context.
While the buffer keeps all of those lines as the agent saw them (edits
elsewhere only move them), the hunk is placed and can be applied there; once
one of them is edited, or the file was saved with other content, the hunk is a
conflict and is never applied.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from remora.lsp.queue import ChangeFile, PendingChange
from remora.lsp.textmap import LineMap, Lines, Replacement, lines_of
from remora.workspace.hunks import Hunk

__all__ = ["HunkPlace", "changed_span", "place_hunks", "replacements_for"]


@dataclass(frozen=True, slots=True)
class HunkPlace:
    change: PendingChange
    hunk: Hunk
    first: int  # buffer lines (0-based, inclusive) the hunk changes or sits at
    last: int
    shift: int | None  # buffer line - base line; None: a conflict
    conflict: str = ""

    @property
    def placed(self) -> bool:
        return self.shift is not None


def changed_span(hunk: Hunk) -> tuple[int, int]:
    """Base lines ``[start, end)`` the hunk replaces (empty for a pure insertion)."""
    edits = [op for op in hunk.opcodes if op[0] != "equal"]
    if not edits:
        return 0, 0
    return min(op[1] for op in edits), max(op[2] for op in edits)


def _resting_span(change: PendingChange, file: ChangeFile, hunk: Hunk) -> tuple[int, int]:
    """The base lines that must be unchanged for the hunk to apply."""
    start, end = changed_span(hunk)
    span = change.node_span
    inside = span is not None and span[0] <= start and end <= span[1]
    if span is not None and inside and file.path == change.record.file_path:
        return span
    return hunk.opcodes[0][1], hunk.opcodes[-1][2]


def _at(start: int, end: int, shift: int, count: int) -> tuple[int, int]:
    first = start + shift
    last = max(start, end - 1) + shift
    if start == end and first >= count:  # an insertion after the last line
        first = last = max(count - 1, 0)
    return first, last


def place_hunks(change: PendingChange, file: ChangeFile, buffer: Lines) -> list[HunkPlace]:
    """Each hunk of ``file`` placed in ``buffer`` (the open document's current text)."""
    base = lines_of((file.change.old or b"").decode("utf-8", "replace"))
    mapping = LineMap.build(base, buffer.lines)
    places: list[HunkPlace] = []
    for hunk in file.hunks:
        if hunk.whole_file:
            places.append(_whole_file_place(change, file, hunk, base, buffer))
            continue
        start, end = changed_span(hunk)
        if not file.on_base:
            line = mapping.nearest(start)
            reason = f"{file.path} was saved since the agent read it"
            places.append(HunkPlace(change, hunk, line, line, None, reason))
            continue
        shift = mapping.shift_of_span(*_resting_span(change, file, hunk))
        if shift is None:
            line = mapping.nearest(start)
            reason = (
                f"the text of {change.node} in the buffer differs from what the agent saw"
                if change.node_span is not None
                else f"lines {start + 1}-{max(start, end - 1) + 1} of {file.path} were edited "
                "since the agent saw them"
            )
            places.append(HunkPlace(change, hunk, line, line, None, reason))
            continue
        first, last = _at(start, end, shift, len(buffer))
        places.append(HunkPlace(change, hunk, first, last, shift))
    return places


def _whole_file_place(
    change: PendingChange, file: ChangeFile, hunk: Hunk, base: Sequence[str], buffer: Lines
) -> HunkPlace:
    if file.change.status == "added":
        # The document is open, so the file the agent creates exists now.
        return HunkPlace(change, hunk, 0, 0, None, f"{file.path} was created since the agent ran")
    if not file.on_base or list(base) != list(buffer.lines):
        reason = f"{file.path} differs from what the agent saw"
        return HunkPlace(change, hunk, 0, 0, None, reason)
    return HunkPlace(change, hunk, 0, max(len(buffer) - 1, 0), 0)


def replacements_for(file: ChangeFile, place: HunkPlace, buffer: Lines) -> list[Replacement]:
    """The buffer lines one placed hunk replaces, and with what (lines of the buffer as it is)."""
    if place.shift is None:
        raise ValueError("a conflicting hunk has no edits")
    new = lines_of((file.change.new or b"").decode("utf-8"))
    if place.hunk.whole_file:
        # A deleted file's content goes; the file itself is deleted by a DeleteFile.
        return [(0, len(buffer), new)]
    return [
        (i1 + place.shift, i2 + place.shift, new[j1:j2])
        for tag, i1, i2, j1, j2 in place.hunk.opcodes
        if tag != "equal"
    ]
