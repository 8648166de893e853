"""The review queue's pending changes, with what an export needs: files, edits, words.

An :class:`Edit` is one run of changed lines of a file (difflib's opcodes,
as ``remora review show`` matches lines): the project's lines ``old_start`` to
``old_end`` (1-based; ``old_end = old_start - 1`` for lines only inserted
before ``old_start``) become ``new_lines``. :func:`merged_files` lays the
changes to one file over each other for a single patch.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from remora import review
from remora.delivery.commit_message import checked_line, model_of, subject
from remora.results import ResultsDB
from remora.workspace.diff import FileChange, line_opcodes, split_lines

__all__ = ["Edit", "PendingChange", "file_edits", "merged_files", "pending_changes"]


@dataclass(frozen=True, slots=True)
class Edit:
    old_start: int
    old_end: int
    new_lines: tuple[str, ...]  # each with its line ending


@dataclass(frozen=True, slots=True)
class PendingChange:
    """One change waiting for review, described for a person reading a review."""

    workspace_id: str
    operation: str
    node: str
    summary: str
    checked: str
    model: str
    files: tuple[FileChange, ...]

    @property
    def title(self) -> str:
        return subject(self.operation, self.node)

    def diff(self) -> str:
        return "".join(f.diff() for f in self.files)


def _text_lines(data: bytes | None) -> list[str]:
    return split_lines(data.decode("utf-8")) if data else []


def file_edits(change: FileChange) -> list[Edit]:
    """The runs of changed lines from the project's text to the change's."""
    old, new = _text_lines(change.old), _text_lines(change.new)
    return [
        Edit(i1 + 1, i2, tuple(new[j1:j2]))
        for tag, i1, i2, j1, j2 in line_opcodes(old, new)
        if tag != "equal"
    ]


def pending_changes(project: str | Path) -> list[PendingChange]:
    """Every pending change of the project's queue (conflicts and past decisions left out)."""
    root = Path(project).resolve()
    items = [item for item in review.list_changes(root) if item.state == "pending"]
    if not items:
        return []
    with ResultsDB(root) as db:
        records = {item.id: db.get(item.id) for item in items}
    changes: list[PendingChange] = []
    for item in items:
        record = records[item.id]
        view = review.show(item.id, project=root)
        changes.append(
            PendingChange(
                workspace_id=item.id,
                operation=item.operation,
                node=item.node,
                summary=item.summary,
                checked=checked_line(record) if record is not None else "",
                model=model_of(record),
                files=tuple(view.files),
            )
        )
    return changes


def _overlaps(a: Edit, b: Edit) -> bool:
    """Two edits replace a line in common, insert inside the other's lines, or at one place."""
    a_inserts, b_inserts = a.old_end < a.old_start, b.old_end < b.old_start
    if a_inserts and b_inserts:
        return a.old_start == b.old_start
    if a_inserts or b_inserts:
        point, lines = (a, b) if a_inserts else (b, a)
        return lines.old_start < point.old_start <= lines.old_end
    return a.old_start <= b.old_end and b.old_start <= a.old_end


def merged_files(
    changes: list[PendingChange], current: dict[str, bytes | None]
) -> tuple[list[FileChange], list[tuple[str, str]]]:
    """One file change per path, each the edits of every change to it that fit together.

    ``current`` holds each path's bytes in the project now. A change read
    from other bytes, or whose edits touch lines an earlier change already
    edits, is left out whole: (its id, why) in the second list.
    """
    left_out: list[tuple[str, str]] = []
    taken: list[PendingChange] = []
    edits: dict[str, list[Edit]] = {}
    whole: dict[str, FileChange] = {}
    for change in changes:
        mine: dict[str, list[Edit]] = {}
        why = ""
        for file in change.files:
            if file.old != current.get(file.path):
                why = f"{file.path} changed since its agent read it"
            elif file.binary or file.status != "modified":
                if file.path in whole or file.path in edits:
                    why = f"{file.path} is changed by an earlier change too"
            else:
                mine[file.path] = file_edits(file)
                if file.path in whole or any(
                    _overlaps(a, b) for a in mine[file.path] for b in edits.get(file.path, [])
                ):
                    why = f"its edits to {file.path} overlap an earlier change's"
        if why:
            left_out.append((change.workspace_id, why))
            continue
        taken.append(change)
        for file in change.files:
            if file.path in mine:
                edits.setdefault(file.path, []).extend(mine[file.path])
            else:
                whole[file.path] = file
    merged = list(whole.values())
    for path, runs in edits.items():
        base = next(f for c in taken for f in c.files if f.path == path)
        merged.append(
            FileChange(path, "modified", base.old, _apply(base.old, runs), False, base.mode)
        )
    return sorted(merged, key=lambda f: f.path), left_out


def _apply(old: bytes | None, runs: list[Edit]) -> bytes:
    lines = _text_lines(old)
    for edit in sorted(runs, key=lambda e: (e.old_start, e.old_end), reverse=True):
        lines[edit.old_start - 1 : edit.old_end] = list(edit.new_lines)
    return "".join(lines).encode()
