"""Accept in the editor: a change (or one hunk) as a WorkspaceEdit on the buffers as they are.

The editor applies the edit itself (``workspace/applyEdit``), so its buffer,
undo history and unsaved text stay its own. The edit is computed against each
buffer's current text (the file's bytes when it is not open) and refused,
nothing written, when a file moved on from the base the agent read or the
text a hunk rests on was edited (see placing.py). A ``tidy`` hook sees each
changed file as the buffer has it and as the change leaves it, as every accept's
does (the imports the change made unused go with it,
:func:`remora.code.lint.accepted_files.tidy_accepted`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from lsprotocol import types
from pygls.uris import from_fs_path

from remora.lsp.placing import place_hunks, replacements_for
from remora.lsp.queue import ChangeFile, PendingChange
from remora.lsp.textmap import Lines, Replacement
from remora.workspace.accept import Tidied, tidy_notes
from remora.workspace.overlay import sha256

__all__ = ["AcceptConflict", "BufferTidy", "EditPlan", "OpenText", "plan_accept"]

# rel path -> (current text, version) of the open document, or None when not open
OpenText = Callable[[str], tuple[str, int] | None]
# tidy(rel path, the buffer's text, the text the change leaves in it), as an accept's hook
BufferTidy = Callable[[str, bytes, bytes], Tidied]


class AcceptConflict(Exception):
    """Why a change cannot be applied to the buffers as they are; nothing was applied."""

    def __init__(self, change: PendingChange, reasons: Sequence[str]) -> None:
        self.change = change
        self.reasons = list(reasons)
        joined = "; ".join(self.reasons)
        super().__init__(
            f"conflict: {change.operation} change {change.id} to {change.node} was not applied: "
            f"{joined}. Nothing was written; run the agent again or reject the change."
        )


@dataclass(frozen=True, slots=True)
class EditCapabilities:
    document_changes: bool = False
    create: bool = False
    delete: bool = False

    @classmethod
    def of(cls, client: types.ClientCapabilities) -> EditCapabilities:
        workspace = client.workspace
        edit = workspace.workspace_edit if workspace is not None else None
        if edit is None:
            return cls()
        operations = set(edit.resource_operations or ())
        return cls(
            bool(edit.document_changes),
            types.ResourceOperationKind.Create in operations,
            types.ResourceOperationKind.Delete in operations,
        )


@dataclass
class EditPlan:
    change: PendingChange
    hunks: list[int] | None  # None: the whole change
    document_changes: list[
        types.TextDocumentEdit | types.CreateFile | types.RenameFile | types.DeleteFile
    ] = field(default_factory=list)
    changes: dict[str, list[types.TextEdit]] = field(default_factory=dict)
    # rel path -> what the tidy hook removed beyond the change; -> why it could not check
    also_removed: dict[str, list[str]] = field(default_factory=dict)
    unchecked: dict[str, str] = field(default_factory=dict)

    def notes(self) -> list[str]:
        """What the edit does beyond the change, or could not check, one line per file."""
        return tidy_notes(self.also_removed, self.unchecked)

    def workspace_edit(self, capabilities: EditCapabilities) -> types.WorkspaceEdit:
        if capabilities.document_changes:
            return types.WorkspaceEdit(document_changes=self.document_changes)
        return types.WorkspaceEdit(changes=self.changes)


def _file_plan(
    root: Path,
    change: PendingChange,
    file: ChangeFile,
    chosen: set[int],
    open_text: OpenText,
    encoding: str,
    capabilities: EditCapabilities,
    plan: EditPlan,
    tidy: BufferTidy | None,
) -> list[str]:
    """Add one file's edits to ``plan``; the reasons it cannot be applied (then nothing is)."""
    path = root / file.path
    uri = from_fs_path(str(path)) or path.as_uri()
    if file.change.binary:
        return [f"{file.path} is binary: accept it with `remora review accept {change.id}`"]
    opened = open_text(file.path)
    disk = path.read_bytes() if path.is_file() else None
    if file.change.status == "added":
        if disk is not None or opened is not None:
            return [f"{file.path} was created since the agent ran"]
        if not (capabilities.document_changes and capabilities.create):
            return [
                f"the editor cannot create {file.path} through LSP: accept it with "
                f"`remora review accept {change.id}`"
            ]
        text = (file.change.new or b"").decode("utf-8")
        insert = types.TextEdit(types.Range(types.Position(0, 0), types.Position(0, 0)), text)
        plan.document_changes.append(types.CreateFile(uri=uri))
        plan.document_changes.append(_document_edit(uri, None, [insert]))
        return []
    if disk is None or sha256(disk) != file.base_sha:
        return [f"{file.path} was saved since the agent read it"]
    text, version = opened if opened is not None else (disk.decode("utf-8"), None)
    buffer = Lines.of(text, encoding)
    replacements: list[Replacement] = []
    reasons: list[str] = []
    for place in place_hunks(change, file, buffer):
        if place.hunk.number not in chosen:
            continue
        if not place.placed:
            reasons.append(place.conflict)
            continue
        replacements.extend(replacements_for(file, place, buffer))
    if reasons:
        return reasons
    if file.change.status == "deleted":
        if not (capabilities.document_changes and capabilities.delete):
            return [
                f"the editor cannot delete {file.path} through LSP: accept it with "
                f"`remora review accept {change.id}`"
            ]
        plan.document_changes.append(types.DeleteFile(uri=uri))
        return []
    if tidy is not None:
        replacements = _tidied(plan, file.path, buffer, replacements, tidy)
    edits = [buffer.replace(start, end, lines) for start, end, lines in replacements]
    plan.document_changes.append(_document_edit(uri, version, edits))
    plan.changes[uri] = edits
    return []


def _tidied(
    plan: EditPlan,
    path: str,
    buffer: Lines,
    replacements: list[Replacement],
    tidy: BufferTidy,
) -> list[Replacement]:
    """``replacements`` when the tidy hook leaves the changed buffer as it is; else the
    replacements from the buffer to what it made of it (the change and the removals)."""
    changed = buffer.replaced(replacements).encode("utf-8")
    tidied = tidy(path, "".join(buffer.lines).encode("utf-8"), changed)
    if tidied.unchecked is not None:
        plan.unchecked[path] = tidied.unchecked
    if tidied.data == changed:
        return replacements
    plan.also_removed[path] = list(tidied.removed)
    return buffer.replacements_to(tidied.data.decode("utf-8"))


def _document_edit(
    uri: str, version: int | None, edits: list[types.TextEdit]
) -> types.TextDocumentEdit:
    identifier = types.OptionalVersionedTextDocumentIdentifier(uri=uri, version=version)
    return types.TextDocumentEdit(text_document=identifier, edits=list(edits))


def plan_accept(
    root: Path,
    change: PendingChange,
    hunk: int | None,
    open_text: OpenText,
    encoding: str,
    capabilities: EditCapabilities,
    tidy: BufferTidy | None = None,
) -> EditPlan:
    """The WorkspaceEdit that accepts ``change`` (or only ``hunk``); AcceptConflict if it can't.

    ``tidy`` sees each file the edit changes in place (not one it creates or deletes).
    """
    numbers = [h.number for h in change.hunks]
    if hunk is not None and hunk not in numbers:
        raise ValueError(
            f"change {change.id} has {len(numbers)} hunk(s), numbered 1-{len(numbers)}; "
            f"no hunk {hunk}"
        )
    chosen = set(numbers) if hunk is None else {hunk}
    plan = EditPlan(change, None if hunk is None else [hunk])
    reasons: list[str] = []
    for file in change.files:
        if not chosen & {h.number for h in file.hunks}:
            continue
        reasons.extend(
            _file_plan(root, change, file, chosen, open_text, encoding, capabilities, plan, tidy)
        )
    if reasons:
        raise AcceptConflict(change, reasons)
    return plan
