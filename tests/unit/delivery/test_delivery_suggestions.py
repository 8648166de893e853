"""A change as a forge's suggestion: the lines replaced and their new text."""

from __future__ import annotations

import pytest

from remora.delivery.pending import PendingChange
from remora.delivery.suggestions import fence, suggestion_for
from remora.workspace.diff import FileChange

OLD = "a\nb\nc\nd\n"


def change(old: str | None, new: str | None, *more: FileChange) -> PendingChange:
    status = "added" if old is None else "deleted" if new is None else "modified"
    file = FileChange("m.py", status, old and old.encode(), new and new.encode(), False, 0o100644)  # type: ignore[arg-type]
    return PendingChange("ws", "lint", "m", "s", "", "model", (file, *more))


def applied(old: str, start: int, end: int, text: str) -> str:
    lines = old.splitlines(keepends=True)
    lines[start - 1 : end] = text.splitlines(keepends=True)
    return "".join(lines)


@pytest.mark.parametrize(
    "new",
    [
        "a\nB\nc\nd\n",  # one line replaced
        "a\nB\nc\nD\n",  # two runs: one span from the first to the last
        "a\nb\nnew\nc\nd\n",  # inserted in the middle: anchored on the line before
        "top\na\nb\nc\nd\n",  # inserted at the top: anchored on the line after
        "a\nc\nd\n",  # a line removed
        "a\nb\nc\nd\ne\n",  # appended
    ],
)
def test_applying_the_suggestion_gives_the_change(new: str) -> None:
    found = suggestion_for(change(OLD, new))
    assert found is not None
    assert applied(OLD, found.start_line, found.end_line, found.text) == new


def test_what_cannot_be_a_suggestion() -> None:
    assert suggestion_for(change(None, "x\n")) is None  # a new file
    assert suggestion_for(change(OLD, None)) is None  # a deleted file
    other = FileChange("n.py", "modified", b"x\n", b"y\n", False, 0o100644)
    assert suggestion_for(change(OLD, "a\n", other)) is None  # several files


def test_a_fence_is_longer_than_the_backticks_inside() -> None:
    assert fence("x = 1\n", "suggestion") == "```suggestion\nx = 1\n```"
    assert fence('"""```py```"""\n', "suggestion").startswith("````suggestion\n")
