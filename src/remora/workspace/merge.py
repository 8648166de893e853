"""Three-way merge of one file: an agent's change applied to the file as it is now.

A change is computed against the file as the agent read it (the *base*). When
the project's file has moved on since (another change accepted, the user's own
edit), the change is merged into it as ``git merge-file`` would: merge3 aligns
base, project and change, and every region only one side changed takes that
side. Where both sides changed the same stretch, the edits within it are
compared against the base once more: edits to different base lines apply
together (two insertions at one place keep both, the project's first), and only
edits to the same base lines are a conflict, reported by their lines in the
project's file. In a Python file two sides that each edited the same import
statements keep the imports of both, and :mod:`remora.workspace.merge_python`
then tidies what the merge brought in (imports moved to the import block and
merged per module, definitions present twice kept once); the result must parse.
"""

from __future__ import annotations

import ast
import difflib
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import merge3

from remora import python_ast
from remora.workspace.diff import is_binary, split_lines
from remora.workspace.merge_python import join_additions, tidy_merged_module

__all__ = ["Merged", "merge_file"]

LineSpan = tuple[int, int]  # 1-based first and last line in the project's file


@dataclass(frozen=True, slots=True)
class Merged:
    """The merged bytes, or None with the project's lines where both sides changed."""

    content: bytes | None
    conflicts: tuple[LineSpan, ...] = ()
    reason: str = ""

    def describe(self) -> str:
        """The conflict as a reviewer reads it: which lines of the project's file, and why."""
        if self.content is not None:
            return ""
        spans = ", ".join(f"{a}" if a == b else f"{a}-{b}" for a, b in self.conflicts)
        if not spans:
            return self.reason
        plural = len(self.conflicts) > 1 or self.conflicts[0][0] != self.conflicts[0][1]
        return f"{'lines' if plural else 'line'} {spans} {self.reason}"


class _Matcher(difflib.SequenceMatcher[str]):
    """difflib without autojunk: from 200 lines on it takes blank lines for junk, which
    cannot anchor a match, and the merge would see overlapping edits where there are none."""

    def __init__(
        self,
        isjunk: Callable[[str], bool] | None = None,
        a: Sequence[str] = (),
        b: Sequence[str] = (),
        autojunk: bool = False,
    ) -> None:
        super().__init__(isjunk, a, b, autojunk=False)

    def get_matching_blocks(self) -> list[tuple[int, int, int]]:  # type: ignore[override]
        return [tuple(block) for block in super().get_matching_blocks()]  # type: ignore[misc]


_BOTH = "changed in the project since the agent read it, and by this change"
_Edit = tuple[int, int, list[str], int]  # base start, base end, new lines, side (0: project)


def _edits(base: list[str], side: list[str], which: int) -> list[_Edit]:
    matcher = _Matcher(None, base, side)
    return [
        (i1, i2, side[j1:j2], which)
        for tag, i1, i2, j1, j2 in matcher.get_opcodes()
        if tag != "equal"
    ]


def _overlap(first: _Edit, second: _Edit) -> bool:
    """Whether two edits touch the same base lines (insertions at one point do not)."""
    a1, a2, _, _ = first
    b1, b2, _, _ = second
    if a1 == a2 or b1 == b2:  # an insertion overlaps only an edit that spans its point
        point, (s1, s2) = (a1, (b1, b2)) if a1 == a2 else (b1, (a1, a2))
        return s1 < point < s2
    return a1 < b2 and b1 < a2


def _contains(longer: list[str], shorter: list[str]) -> bool:
    return longer[: len(shorter)] == shorter or longer[len(longer) - len(shorter) :] == shorter


def _absorbed(ours: list[_Edit], theirs: list[_Edit]) -> list[_Edit]:
    """Both sides' edits, where two that replace the same lines, one's new lines the start
    or end of the other's (the project made part of the change already), count once."""
    kept = list(theirs)
    for edit in ours:
        start, end, lines, _ = edit
        other = next((e for e in kept if (e[0], e[1]) == (start, end) and e[3] == 1), None)
        if other is not None and _contains(other[2], lines):
            continue  # the change's edit holds the project's: it stands for both
        if other is not None and _contains(lines, other[2]):
            kept.remove(other)  # the project's edit holds the change's
        kept.append(edit)
    return kept


def _same_point(first: _Edit, second: _Edit) -> bool:
    return first[0] == first[1] == second[0] == second[1]


def _resolve(base: list[str], ours: list[str], theirs: list[str]) -> list[str] | None:
    """One conflicting region merged edit by edit, or None when edits share base lines."""
    edits = sorted(
        _absorbed(_edits(base, ours, 0), _edits(base, theirs, 1)),
        key=lambda e: (e[0], e[0] != e[1], e[3]),
    )
    for index, edit in enumerate(edits):
        for later in edits[index + 1 :]:
            if later[3] != edit[3] and _overlap(edit, later):
                return None
    out: list[str] = []
    at = 0
    index = 0
    while index < len(edits):
        start, end, lines, _ = edits[index]
        following = edits[index + 1] if index + 1 < len(edits) else None
        if following and following[3] != edits[index][3] and _same_point(edits[index], following):
            # the project's side is the first
            joined = join_additions(lines, following[2], at_start=start == 0)
            if joined is None:
                return None
            lines = joined
            index += 1
        out += base[at:start]
        out += lines
        at = max(at, end)
        index += 1
    out += base[at:]
    return out


def _imports_only(lines: list[str]) -> bool:
    """Whether ``lines`` are whole top-level import statements (and blank lines)."""
    if not any(line.strip() for line in lines):
        return True
    try:
        tree = python_ast.parse("".join(lines))
    except SyntaxError:
        return False
    return all(isinstance(stmt, ast.Import | ast.ImportFrom) for stmt in tree.body)


def _imports_of_both(base: list[str], ours: list[str], theirs: list[str]) -> list[str] | None:
    """Both sides' import lines where each changed the same imports; else None."""
    if not (_imports_only(base) and _imports_only(ours) and _imports_only(theirs)):
        return None
    return ours + [line for line in theirs if line not in ours and line not in base]


def merge_file(path: str, base: bytes, ours: bytes, theirs: bytes) -> Merged:
    """``theirs`` (a change made against ``base``) merged into ``ours`` (the file now)."""
    if ours in (base, theirs):
        return Merged(theirs)
    if theirs == base:
        return Merged(ours)
    if is_binary(base) or is_binary(ours) or is_binary(theirs):
        return Merged(None, (), "binary file changed on both sides")
    python = path.endswith((".py", ".pyi"))
    base_lines, our_lines, their_lines = (
        split_lines(data.decode("utf-8")) for data in (base, ours, theirs)
    )
    merger = merge3.Merge3(base_lines, our_lines, their_lines, sequence_matcher=_Matcher)
    out: list[str] = []
    conflicts: list[LineSpan] = []
    joined_both = False
    for region in merger.merge_regions():
        if len(region) == 3:
            kind, start, end = region
            side = base_lines if kind == "unchanged" else their_lines if kind == "b" else our_lines
            out += side[start:end]
            continue
        _, z1, z2, a1, a2, b1, b2 = region
        parts = base_lines[z1:z2], our_lines[a1:a2], their_lines[b1:b2]
        # Only in Python, where the result is parsed and tidied, are both sides' edits
        # to one stretch joined; elsewhere that is a conflict, as in git.
        merged = _resolve(*parts) if python else None
        if merged is None and python:
            merged = _imports_of_both(*parts)
        if merged is None:
            conflicts.append((a1 + 1, max(a2, a1 + 1)))
            continue
        joined_both = True
        out += merged
    if conflicts:
        return Merged(None, tuple(conflicts), _BOTH)
    text = "".join(out)
    if python and joined_both:
        tidied = tidy_merged_module(text, ours.decode("utf-8"), theirs.decode("utf-8"))
        if tidied.text is None:
            return Merged(None, tidied.lines, tidied.reason)
        text = tidied.text
    return Merged(text.encode("utf-8"))
