"""Accept in the editor: the buffer's edit takes the accept's tidy hook (real ruff) as
`remora review accept` does, against the buffer's text, not the file's."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from lsprotocol import types
from queued_change import queue_change

from remora.code.lint.accepted_files import tidy_accepted
from remora.lsp.editing import EditCapabilities, EditPlan, plan_accept
from remora.lsp.queue import PendingChange, ReviewQueue
from remora.lsp.textmap import lines_of
from remora.results import ResultsDB
from remora.results.review_queue import accepted_in_editor
from remora.workspace import WorkspaceStore

OLD = (
    "from typing import Optional\n\n\n"
    "def f(x: Optional[int]) -> int:\n    return x or 0\n\n\n"
    "def g() -> int:\n    return 1\n"
)
NEW = OLD.replace("Optional[int]", "int | None")


def _change(root: Path) -> PendingChange:
    """A lint change of f() (Optional[int] -> int | None), queued as a run queues it."""
    workspace_id = queue_change(root, "m.py", OLD, NEW, "f")
    queue = ReviewQueue(root)
    queue.refresh()
    change = queue.get(workspace_id)
    assert change is not None
    return change


def _plan(root: Path, change: PendingChange, buffer: str) -> EditPlan:
    with WorkspaceStore(root).open(change.id) as ws:
        return plan_accept(
            root,
            change,
            None,
            lambda rel: (buffer, 3),
            "utf-16",
            EditCapabilities(),
            lambda path, before, after: tidy_accepted(ws, path, before, after),
        )


def _applied(text: str, edits: Sequence[types.TextEdit | types.AnnotatedTextEdit | Any]) -> str:
    """``text`` once the editor applied ``edits`` (ranges of the text as it was; ASCII)."""
    starts = [0]
    for line in lines_of(text):
        starts.append(starts[-1] + len(line))

    def offset(position: types.Position) -> int:
        return starts[position.line] + position.character

    for edit in sorted(edits, key=lambda e: offset(e.range.start), reverse=True):
        text = text[: offset(edit.range.start)] + edit.new_text + text[offset(edit.range.end) :]
    return text


def _buffer_after(plan: EditPlan, buffer: str) -> str:
    changes = plan.workspace_edit(EditCapabilities()).changes
    assert changes is not None
    [(uri, edits)] = changes.items()
    assert uri.endswith("/m.py")
    return _applied(buffer, edits)


def test_the_buffer_loses_the_import_the_change_made_unused(tmp_path: Path) -> None:
    root = tmp_path / "p"
    change = _change(root)
    buffer = "# unsaved note\n" + OLD  # edits are the buffer's, wherever its lines moved
    plan = _plan(root, change, buffer)
    assert _buffer_after(plan, buffer) == "# unsaved note\n" + NEW.replace(
        "from typing import Optional\n", ""
    )
    assert plan.also_removed == {"m.py": ["from typing import Optional"]}
    assert plan.notes() == [
        "m.py: also removed from typing import Optional, unused after the accepted changes"
    ]
    # the document_changes form carries the same edits, at the buffer's version
    documents = plan.workspace_edit(EditCapabilities(document_changes=True)).document_changes
    assert documents is not None
    [document] = documents
    assert isinstance(document, types.TextDocumentEdit) and document.text_document.version == 3
    assert _applied(buffer, document.edits) == _buffer_after(plan, buffer)


def test_an_import_the_buffer_still_uses_stays(tmp_path: Path) -> None:
    root = tmp_path / "p"
    change = _change(root)
    # an unsaved function uses Optional too: the file on disk would lose it, the buffer not
    buffer = OLD + "\n\ndef h(y: Optional[str]) -> str:\n    return y or ''\n"
    plan = _plan(root, change, buffer)
    assert _buffer_after(plan, buffer) == buffer.replace(
        "def f(x: Optional[int])", "def f(x: int | None)"
    )
    assert plan.also_removed == {} and plan.unchecked == {}


def test_an_accept_in_the_editor_records_what_it_removed(tmp_path: Path) -> None:
    root = tmp_path / "p"
    change = _change(root)
    removed = {"m.py": ["from typing import Optional"]}
    with ResultsDB(root) as db:
        accepted_in_editor(WorkspaceStore(root), db, change.id, None, removed)
        record = db.get(change.id)
    assert record is not None
    assert (record.review_state, record.also_removed) == ("accepted", removed)
