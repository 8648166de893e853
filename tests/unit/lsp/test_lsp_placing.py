"""Placing a change's hunks in a buffer that moved on, and the edits that apply them."""

from __future__ import annotations

from pathlib import Path

import pytest
from lsprotocol import types
from queued_change import queue_change

from remora.lsp.editing import AcceptConflict, EditCapabilities, plan_accept
from remora.lsp.placing import place_hunks
from remora.lsp.queue import ReviewQueue
from remora.lsp.textmap import LineMap, Lines, PositionError
from remora.results import ResultsDB
from remora.results.review_queue import accepted_in_editor
from remora.workspace import WorkspaceStore

OLD = "import os\n\n\ndef f(x):\n    y = x\n    return y\n\n\ndef g():\n    return 1\n"
NEW = OLD.replace("    return y\n", "    return y + 1\n")


def _project(root: Path) -> str:
    return queue_change(root, "m.py", OLD, NEW, "f")


def test_line_map_shifts_kept_lines_and_refuses_edited_ones() -> None:
    base = ["a\n", "b\n", "c\n", "d\n"]
    moved = LineMap.build(base, ["new\n", *base])
    assert moved.shift_of_span(1, 3) == 1
    edited = LineMap.build(base, ["a\n", "B\n", "c\n", "d\n"])
    assert edited.shift_of_span(0, 3) is None and edited.shift_of_span(2, 4) == 0
    assert edited.shift_of_span(3, 3) == 0  # an insertion point between kept lines


def test_line_map_of_a_long_file_keeps_its_frequent_lines_as_anchors() -> None:
    # 2,000 lines, a third blank: an unsaved line early on shifts every kept line after it.
    base = [line for i in range(700) for line in (f"def f{i}():\n", "    pass\n", "\n")][:2000]
    buffer = [*base[:10], "# note\n", *base[10:1500], *base[1501:]]
    line_map = LineMap.build(base, buffer)
    assert line_map.shift_of_span(0, 10) == 0
    assert line_map.shift_of_span(11, 1499) == 1
    assert line_map.shift_of_span(1499, 1502) is None  # the line deleted in the buffer
    assert line_map.shift_of_span(1501, 2000) == 0


def test_positions_past_the_end_are_refused_with_the_document_size() -> None:
    lines = Lines.of("ab\ncd\n")
    lines.check(types.Position(2, 0), "hover")  # the empty line after the final newline
    with pytest.raises(PositionError, match=r"line 3 is past the end of the document \(3 line"):
        lines.check(types.Position(3, 0), "hover")
    with pytest.raises(PositionError, match="character 3 is past the end of line 1"):
        lines.check(types.Position(1, 3), "hover")
    assert Lines.of("é\U0001f600", "utf-16").units("é\U0001f600") == 3
    assert Lines.of("é\U0001f600", "utf-8").units("é\U0001f600") == 6


def test_replacing_the_last_line_without_a_newline_ends_at_the_text_end() -> None:
    lines = Lines.of("a\nb")
    edit = lines.replace(1, 2, ["c"])
    assert edit.range == types.Range(types.Position(1, 0), types.Position(1, 1))


def test_a_hunk_follows_edits_outside_its_node_and_conflicts_inside(tmp_path: Path) -> None:
    root = tmp_path / "p"
    workspace_id = _project(root)
    queue = ReviewQueue(root)
    queue.refresh()
    change = queue.get(workspace_id)
    assert change is not None and change.node_span == (3, 6)
    own = change.file("m.py")
    assert own is not None
    above = Lines.of("# note\n" + OLD)
    [place] = place_hunks(change, own, above)
    assert place.placed and (place.first, place.last) == (6, 6)
    inside = Lines.of(OLD.replace("    y = x\n", "    y = x * 2\n"))
    [conflict] = place_hunks(change, own, inside)
    assert not conflict.placed
    assert conflict.conflict == "the text of f in the buffer differs from what the agent saw"
    # an edit in g() does not touch f's text: still placed
    [elsewhere] = place_hunks(change, own, Lines.of(OLD.replace("return 1", "return 2")))
    assert elsewhere.placed


def test_plan_accept_edits_the_buffer_and_refuses_a_conflict(tmp_path: Path) -> None:
    root = tmp_path / "p"
    workspace_id = _project(root)
    queue = ReviewQueue(root)
    queue.refresh()
    change = queue.get(workspace_id)
    assert change is not None
    buffer = "# note\n" + OLD

    plan = plan_accept(root, change, None, lambda rel: (buffer, 4), "utf-16", EditCapabilities())
    [(uri, edits)] = plan.workspace_edit(EditCapabilities()).changes.items()  # type: ignore[union-attr]
    assert uri.endswith("/m.py")
    assert [(e.range.start.line, e.range.end.line, e.new_text) for e in edits] == [
        (6, 7, "    return y + 1\n")
    ]
    edited = OLD.replace("    y = x\n", "    y = -x\n")
    with pytest.raises(AcceptConflict, match="Nothing was written"):
        plan_accept(root, change, None, lambda rel: (edited, 5), "utf-16", EditCapabilities())
    with pytest.raises(ValueError, match="has 1 hunk"):
        plan_accept(root, change, 3, lambda rel: None, "utf-16", EditCapabilities())


def test_accepted_in_editor_records_as_review_accept_and_removes_the_workspace(
    tmp_path: Path,
) -> None:
    root = tmp_path / "p"
    workspace_id = _project(root)
    store = WorkspaceStore(root)
    with ResultsDB(root) as db:
        accepted_in_editor(store, db, workspace_id, [1])
        record = db.get(workspace_id)
    assert record is not None
    assert (record.review_state, record.accepted_hunks) == ("accepted", [1])
    assert not store.exists(workspace_id)
    assert (root / "m.py").read_text() == OLD  # the editor writes the file, not the queue
