"""A change made of several separate edits parsed one edit at a time (reparse.py's last try).

Ruff's typing upgrade of a function changes its signature and an annotation in its body at
once; as one change it spans the header and the block, so the whole function was parsed
again (SQLAlchemy's engine: 83 of lint's 440 changed texts, ~11 ms each). Edit by edit, each
is a change a cheap partial parse takes (the header alone, a run of statements): each step's
text is parsed from the last step's tree, and the last step's tree is the new text's. Any
step that only a larger parse would take, or whose text does not parse on its own (an edit
that opens a bracket another closes), ends the try: the change is parsed as one.
"""

from __future__ import annotations

import difflib
import itertools
from collections.abc import Callable, Sequence

from remora.code.parsing.reparse_tree import Reparsed, Unreadable
from remora.code.parsing.source import ParsedFile

__all__ = ["edits_of", "reparsed_in_steps"]

# Lines of the changed region diffed into edits, at most: beyond, the diff costs more than it
# saves, and so many edits are one change anyway.
_MAX_LINES = 400
_MAX_EDITS = 8

# An edit: old bytes [start, stop) replaced by new bytes.
Edit = tuple[int, int, bytes]
Step = Callable[[ParsedFile, bytes], Reparsed | None]


def edits_of(
    old: bytes, new: bytes, region: tuple[int, int], cuts: Sequence[int] = ()
) -> list[Edit]:
    """The separate line edits that make ``new`` from ``old``, whose differing bytes lie in
    ``region`` (of the old text): a diff of the region's whole lines, an edit of as many
    lines as it replaces cut at each of ``cuts`` (line starts: where a function's header
    ends, so that a change of its last line and of the body's first is two). Empty when
    there are fewer than two, or too many to be worth it."""
    prefix, end = region
    start = old.rfind(b"\n", 0, prefix) + 1
    stop = old.find(b"\n", end)
    stop = len(old) if stop < 0 else stop + 1
    delta = len(new) - len(old)
    old_lines = old[start:stop].splitlines(keepends=True)
    new_lines = new[start : stop + delta].splitlines(keepends=True)
    if max(len(old_lines), len(new_lines)) > _MAX_LINES:
        return []
    matcher = difflib.SequenceMatcher(None, old_lines, new_lines, autojunk=False)
    offsets = _offsets(old_lines, start)
    new_offsets = _offsets(new_lines, start)
    edits: list[Edit] = []
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        if i2 - i1 != j2 - j1:  # lines put or taken: where a cut falls in the new ones is open
            edits.append((offsets[i1], offsets[i2], new[new_offsets[j1] : new_offsets[j2]]))
            continue
        lines = [i1, *(i for i in range(i1 + 1, i2) if offsets[i] in cuts), i2]
        for a, b in itertools.pairwise(lines):
            content = new[new_offsets[a - i1 + j1] : new_offsets[b - i1 + j1]]
            edits.append((offsets[a], offsets[b], content))
    return edits if 1 < len(edits) <= _MAX_EDITS else []


def _offsets(lines: list[bytes], start: int) -> list[int]:
    """Each line's start offset, and one past the last line's end."""
    found = [start]
    for line in lines:
        found.append(found[-1] + len(line))
    return found


def reparsed_in_steps(old: ParsedFile, edits: list[Edit], step: Step) -> Reparsed | None:
    """The new text's tree made edit by edit (in file order) with ``step``, or None."""
    current, shift, tree = old, 0, None
    data = old.data
    for start, stop, content in edits:
        data = data[: start + shift] + content + data[stop + shift :]
        shift += len(content) - (stop - start)
        try:
            tree = step(current, data)
        except Unreadable:  # this step's text alone: the whole change may still parse
            return None
        if tree is None:
            return None
        current = ParsedFile(
            data.decode("utf-8"),
            current.path,
            tree=(tree.module, tree.spans),
            definitions=tree.definitions,
        )
        # The interpreter reads the step's text as it read the old one's (it only decides
        # which parser refuses a broken snippet first): not asked again of the whole text.
        current.__dict__["python_reads"] = old.python_reads
    return tree
