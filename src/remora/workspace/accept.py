"""Accept: write a workspace's changes into the project without ever losing an edit.

1. Conflicts first: a file the agent changed whose live content no longer has
   the base sha (or that appeared / vanished since) stops the accept before
   anything is written.
2. The plan (paths, actions, modes) is journaled in the workspace's database
   with ``synchronous=FULL``; from then on the overlay is frozen.
3. Each file is checked against its base again right before it is written
   (temp file in the same directory, fsync, a last check, ``os.replace``;
   deletions unlink), so an edit made meanwhile is a conflict, not a loss.
   The touched directories are fsynced before the journal goes away (with the
   workspace itself, by the store).

A ``tidy`` hook given by the caller sees each file the accept writes, as the project
has it and as the change leaves it, before the plan is made, and may change what is
written (the imports the change made unused, :mod:`remora.code.lint.made_unused`); what
it did is reported. The workspace layer knows nothing of Python: the hook does.

A journal found later means the accept was interrupted: every planned file is
redone from the stored content with the same per-file check (a file that
already has the new content counts as written), so the project ends with each
file either old or new, never half-written. A file that cannot be written
(conflict, refused path, full disk, read-only project) is reported and kept in
the workspace while the others are written; the journal is then cleared, so an
accept never stays stuck.

The store holds the project's accept lock (lock.py) around all of this.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from remora.workspace.hunks import narrow_workspace
from remora.workspace.overlay import Workspace, sha256
from remora.workspace.paths import WorkspacePathError
from remora.workspace.rebase import conflict_of, project_bytes, rebase_onto_project

__all__ = [
    "AcceptReport",
    "Conflict",
    "Tidied",
    "Tidy",
    "accept_workspace",
    "find_conflicts",
    "tidy_notes",
]

# Crash tests set this to kill the process at a chosen step:
# hook(stage, index, path) with stage "temp_written" or "replaced".
STEP_HOOK: Callable[[str, int, str], None] | None = None


@dataclass(frozen=True, slots=True)
class Conflict:
    path: str
    reason: str

    def to_dict(self) -> dict[str, str]:
        return {"path": self.path, "reason": self.reason}


@dataclass(frozen=True, slots=True)
class Tidied:
    """What a ``tidy`` hook made of one file: the bytes to write, and what it removed
    beyond the change (``from typing import Optional``), or why it could not check."""

    data: bytes
    removed: tuple[str, ...] = ()
    unchecked: str | None = None


# tidy(workspace, path, the project's bytes, the change's bytes)
Tidy = Callable[[Workspace, str, bytes, bytes], Tidied]


@dataclass(slots=True)
class AcceptReport:
    workspace_id: str
    accepted: bool
    written: list[str] = field(default_factory=list)
    deleted: list[str] = field(default_factory=list)
    conflicts: list[Conflict] = field(default_factory=list)
    # True when this call finished an accept that an earlier process started
    resumed: bool = False
    # path -> what the tidy hook removed beyond the change; path -> why it could not check
    also_removed: dict[str, list[str]] = field(default_factory=dict)
    unchecked: dict[str, str] = field(default_factory=dict)

    def to_dict(self) -> dict[str, object]:
        return {
            "workspace_id": self.workspace_id,
            "accepted": self.accepted,
            "written": list(self.written),
            "deleted": list(self.deleted),
            "conflicts": [c.to_dict() for c in self.conflicts],
            "resumed": self.resumed,
            "also_removed": {path: list(names) for path, names in self.also_removed.items()},
            "unchecked": dict(self.unchecked),
        }

    def notes(self) -> list[str]:
        """What the accept did beyond the change, or could not check, one line per file."""
        return tidy_notes(self.also_removed, self.unchecked)


def tidy_notes(
    also_removed: Mapping[str, Sequence[str]], unchecked: Mapping[str, str]
) -> list[str]:
    """What a ``tidy`` hook did beyond the change (path -> names removed), or could not check
    (path -> why), one line per file, as every accept tells it."""
    return [
        f"{path}: also removed {', '.join(names)}, unused after the accepted changes"
        for path, names in also_removed.items()
    ] + [f"{path}: {why}" for path, why in unchecked.items()]


@dataclass(frozen=True, slots=True)
class _Step:
    path: str
    action: Literal["write", "delete"]
    mode: int | None


def _file_in_the_way(ws: Workspace, path: str) -> str | None:
    """The first parent of ``path`` that exists in the project as a non-directory."""
    parts = path.split("/")[:-1]
    for depth in range(1, len(parts) + 1):
        parent = "/".join(parts[:depth])
        target = ws.project_root / parent
        if target.exists() and not target.is_dir():
            return parent
    return None


def find_conflicts(ws: Workspace) -> list[Conflict]:
    """Files whose project copy changed since the agent first saw them."""
    conflicts: list[Conflict] = []
    for path, new, deleted in ws.overlay_rows():
        try:
            ws.safe_path(path)
        except WorkspacePathError as exc:
            conflicts.append(Conflict(path, f"the path is no longer safe: {exc.reason}"))
            continue
        if (ws.project_root / path).is_dir():
            conflicts.append(Conflict(path, "a directory now exists at this path"))
            continue
        blocker = _file_in_the_way(ws, path)
        if blocker is not None and not deleted:
            conflicts.append(Conflict(path, f"{blocker} is now a file, not a directory"))
            continue
        live = project_bytes(ws, path)
        live_sha = None if live is None else sha256(live)
        base = ws.base_sha(path)
        if live_sha == base:
            continue
        if deleted:
            if live is not None:
                conflicts.append(Conflict(path, "changed in the project since the agent read it"))
            continue
        if live == new:
            continue  # the project already has exactly this content
        if live is None:
            conflicts.append(Conflict(path, "deleted from the project since the agent read it"))
            continue
        why = conflict_of(ws, path, live, new or b"")
        conflicts.append(Conflict(path, why or "changed in the project since the agent read it"))
    return conflicts


def _tidy(ws: Workspace, tidy: Tidy, report: AcceptReport) -> None:
    """Let ``tidy`` see each file about to be written and store what it makes of it."""
    for path, new, deleted in ws.overlay_rows():
        live = project_bytes(ws, path)
        if deleted or new is None or live is None or live == new:
            continue
        tidied = tidy(ws, path, live, new)
        if tidied.unchecked is not None:
            report.unchecked[path] = tidied.unchecked
        if tidied.data != new:
            ws.write(path, tidied.data)
            report.also_removed[path] = list(tidied.removed)


def _plan(ws: Workspace) -> list[_Step]:
    steps: list[_Step] = []
    for path, new, deleted in ws.overlay_rows():
        live = project_bytes(ws, path)
        if deleted:
            if live is not None:
                steps.append(_Step(path, "delete", None))
        elif live != new:
            steps.append(_Step(path, "write", ws.live_mode(path) if live is not None else None))
    return steps


def _journal(ws: Workspace, steps: list[_Step]) -> None:
    conn, lock = ws.connection()
    with lock:
        conn.execute("PRAGMA synchronous=FULL")
        conn.execute("BEGIN IMMEDIATE")
        conn.execute("DELETE FROM accept_plan")
        conn.executemany(
            "INSERT INTO accept_plan(seq, path, action, mode) VALUES (?, ?, ?, ?)",
            [(i, s.path, s.action, s.mode) for i, s in enumerate(steps)],
        )
        conn.execute("COMMIT")


def _journaled(ws: Workspace) -> list[_Step] | None:
    conn, lock = ws.connection()
    with lock:
        rows = conn.execute("SELECT path, action, mode FROM accept_plan ORDER BY seq").fetchall()
    return [_Step(p, a, m) for p, a, m in rows] if rows else None


def _fsync_dir(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _temp_file(target: Path, data: bytes, mode: int | None, tag: str) -> Path:
    """``data`` fsynced into a temporary file beside ``target``, ready for ``os.replace``."""
    name = target.name
    if len(name.encode()) > 200:  # keep the temp name under the 255-byte limit
        name = hashlib.sha256(name.encode()).hexdigest()[:16]
    tmp = target.with_name(f".{name}.remora-{tag}.tmp")
    # 0o666 lets the umask decide for new files, as any editor would.
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o666)
    try:
        if mode is not None:
            os.fchmod(fd, mode)
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
        os.fsync(fd)
    except OSError:
        os.close(fd)
        tmp.unlink(missing_ok=True)  # a full disk must not leave half a temp file behind
        raise
    os.close(fd)
    return tmp


def _target(ws: Workspace, path: str) -> Path:
    target = ws.project_root / path
    # Keep a symlink inside the project a symlink: write where it points
    # (normalise() has checked that this stays inside the project).
    return Path(os.path.realpath(target)) if target.is_symlink() else target


@dataclass(slots=True)
class _Applied:
    written: list[str] = field(default_factory=list)
    deleted: list[str] = field(default_factory=list)
    conflicts: list[Conflict] = field(default_factory=list)
    dirs: set[Path] = field(default_factory=set)


def _live_now(target: Path) -> bytes | None:
    """The target's bytes now; None when missing. A directory there is a conflict."""
    if target.is_dir():
        raise IsADirectoryError(f"{target.name} is a directory")
    try:
        return target.read_bytes()
    except FileNotFoundError:
        return None


def _moved_on(live: bytes | None, base: str | None) -> str | None:
    """Why ``live`` is not the recorded base (the user changed it), or None."""
    if (None if live is None else sha256(live)) == base:
        return None
    if base is None:
        return "created in the project since the agent started"
    if live is None:
        return "deleted from the project since the agent read it"
    return "changed in the project since the agent read it"


def _apply_step(
    ws: Workspace, step: _Step, new: bytes, tag: str, index: int, done: _Applied
) -> str | None:
    """Apply one step unless the file moved on since its base; the conflict reason if so.

    The check is made per file right before that file is written (and again
    after the temporary file is ready, just before the rename), so an edit the
    user makes while an accept runs, or between a crash and the resume, is
    refused rather than overwritten.
    """
    # A resumed accept made no up-front check, and a symlink swapped in since
    # must not lead a write outside the project.
    ws.safe_path(step.path)
    target = _target(ws, step.path)
    base = ws.base_sha(step.path)
    live = _live_now(target)
    if step.action == "delete":
        if live is None:
            done.deleted.append(step.path)  # already gone (a resumed accept)
            return None
        if (reason := _moved_on(live, base)) is not None:
            return reason
        target.unlink()
        done.deleted.append(step.path)
        done.dirs.add(target.parent)
        return None
    if live == new:
        done.written.append(step.path)  # already written (a resumed accept)
        return None
    if (reason := _moved_on(live, base)) is not None:
        return reason
    parent = target.parent
    missing = [p for p in (parent, *parent.parents) if not p.exists()]
    parent.mkdir(parents=True, exist_ok=True)
    done.dirs.update(p.parent for p in missing)
    tmp = _temp_file(target, new, step.mode, tag)
    if STEP_HOOK is not None:
        STEP_HOOK("temp_written", index, step.path)
    if (reason := _moved_on(_live_now(target), base)) is not None:
        tmp.unlink()
        return reason
    os.replace(tmp, target)
    done.written.append(step.path)
    done.dirs.add(parent)
    return None


def _apply(ws: Workspace, steps: list[_Step]) -> _Applied:
    """Every step that can be applied; the others become conflicts, never a stuck accept."""
    tag = hashlib.sha256(ws.id.encode()).hexdigest()[:8]
    overlay = {path: content for path, content, _ in ws.overlay_rows()}
    done = _Applied()
    for index, step in enumerate(steps):
        try:
            reason = _apply_step(ws, step, overlay.get(step.path) or b"", tag, index, done)
        except WorkspacePathError as exc:
            reason = f"the path is refused: {exc.reason}"
        except OSError as exc:  # disk full, read-only project, a file where a folder must be
            reason = f"could not be written: {exc.strerror or exc}"
        if reason is not None:
            done.conflicts.append(Conflict(step.path, reason))
        if STEP_HOOK is not None:
            STEP_HOOK("replaced", index, step.path)
    for directory in sorted(done.dirs):
        if directory.is_dir():
            _fsync_dir(directory)
    return done


def _settle_partial(ws: Workspace, done: _Applied) -> None:
    """After a partial accept: drop what was applied and the journal, keep the rest.

    The workspace then holds only the files that were not written, for a later
    accept (which checks them again) or a reject.
    """
    applied = [(path,) for path in (*done.written, *done.deleted)]
    conn, lock = ws.connection()
    with lock:
        conn.execute("BEGIN IMMEDIATE")
        conn.executemany("DELETE FROM overlay WHERE path=?", applied)
        conn.execute("DELETE FROM accept_plan")
        conn.execute("COMMIT")


def accept_workspace(
    ws: Workspace, contents: Mapping[str, bytes | None] | None = None, tidy: Tidy | None = None
) -> AcceptReport:
    """Check, journal and apply; or resume a journaled accept. Does not close ``ws``.

    ``contents`` (path -> bytes, None: no file; see hunks.chosen_contents) narrows
    the workspace to part of its change before the plan is made, so a resumed
    accept redoes exactly that part. ``tidy`` then sees each file to be written
    (the module's docstring); a resumed accept writes what it made then.
    """
    report = AcceptReport(ws.id, accepted=False)
    steps = _journaled(ws)
    report.resumed = steps is not None
    if steps is None:
        rebase_onto_project(ws)  # changes to files that moved on since, merged into them
        report.conflicts = find_conflicts(ws)
        if report.conflicts:
            return report
        if contents is not None:
            narrow_workspace(ws, contents)
        if tidy is not None:
            _tidy(ws, tidy, report)
        steps = _plan(ws)
        _journal(ws, steps)
    done = _apply(ws, steps)
    if done.conflicts:
        _settle_partial(ws, done)
    report.accepted = not done.conflicts
    report.written, report.deleted, report.conflicts = done.written, done.deleted, done.conflicts
    return report
