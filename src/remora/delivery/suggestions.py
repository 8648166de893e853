"""A change as a forge's suggestion: the lines it replaces and the text that replaces them.

GitHub and GitLab both apply a suggestion by replacing whole lines of the
pull request's head: one change to one existing file becomes the span from
its first edited line to its last, and the new text of that span. A change
that only inserts lines is anchored on the line before them (or after, at
the top of a file) and repeats it. Everything else (a new or deleted file,
several files, a binary) is shown as a patch in the review's summary.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from remora.delivery.pending import PendingChange, file_edits
from remora.workspace.diff import split_lines

__all__ = ["Suggestion", "change_note", "fence", "patch_section", "suggestion_for", "within"]


@dataclass(frozen=True, slots=True)
class Suggestion:
    path: str  # project-relative
    start_line: int  # 1-based, inclusive: the lines replaced in the head's file
    end_line: int
    text: str  # the replacement, lines with their endings


def suggestion_for(change: PendingChange) -> Suggestion | None:
    """The change as one suggestion, or None when it cannot be one."""
    if len(change.files) != 1:
        return None
    file = change.files[0]
    if file.status != "modified" or file.binary or file.old is None or file.new is None:
        return None
    edits = file_edits(file)
    if not edits:
        return None
    old = split_lines(file.old.decode("utf-8"))
    new = split_lines(file.new.decode("utf-8"))
    start, end = edits[0].old_start, edits[-1].old_end
    # The new text of the span: the new file's lines between the unchanged head and tail.
    head, tail = start - 1, len(old) - end
    text = new[head : len(new) - tail]
    if end < start:  # lines only inserted: repeat a neighbour so the suggestion has a line
        if start > 1:
            start, text = start - 1, [old[start - 2], *text]
        elif old:
            end, text = 1, [*text, old[0]]
        else:
            return None
        end = max(end, start)
    if text and not text[-1].endswith("\n"):
        text = [*text[:-1], text[-1] + "\n"]  # a suggestion block ends at a line's end
    return Suggestion(file.path, start, end, "".join(text))


def within(suggestion: Suggestion, shown: Sequence[tuple[int, int]]) -> bool:
    """The suggestion's lines all lie in one range of the pull request's diff."""
    return any(a <= suggestion.start_line and suggestion.end_line <= b for a, b in shown)


def fence(text: str, info: str) -> str:
    """A fenced block longer than any run of backticks inside ``text``."""
    longest, run = 0, 0
    for char in text:
        run = run + 1 if char == "`" else 0
        longest = max(longest, run)
    ticks = "`" * max(3, longest + 1)
    return f"{ticks}{info}\n{text}{ticks}"


def change_note(change: PendingChange) -> str:
    """The words above a suggestion or a patch: what the agent did and what was checked."""
    lines = [f"**{change.title}**", "", change.summary or "(no summary)"]
    if change.checked:
        lines += ["", f"Checked: {change.checked}."]
    lines += ["", f"`remora review accept {change.workspace_id}` · model {change.model}"]
    return "\n".join(lines)


def patch_section(change: PendingChange, why: str) -> str:
    """A change the forge cannot suggest on a line: its note and its patch, folded."""
    return "\n".join(
        [
            change_note(change),
            "",
            f"<details><summary>patch ({why})</summary>",
            "",
            fence(change.diff(), "diff"),
            "",
            "</details>",
        ]
    )
