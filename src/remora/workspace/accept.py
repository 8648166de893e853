"""Accept: write a workspace's changes into the project, all or nothing per plan.

1. Conflicts first: a file the agent changed whose live content no longer has
   the base sha (or that appeared / vanished since) stops the accept before
   anything is written.
2. The plan (paths, actions, modes) is journaled in the workspace's database
   with ``synchronous=FULL``; from then on the overlay is frozen.
3. Each file: temp file in the same directory, fsync, ``os.replace``; deletions
   unlink. The touched directories are fsynced before the journal goes away
   (with the workspace itself, by the store).

A journal found later means the accept was interrupted: every planned file is
redone from the stored content, which is idempotent, so the project ends with
each file either old or new, never half-written, and finally all new.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from remora.workspace.overlay import Workspace, sha256
from remora.workspace.paths import WorkspacePathError

__all__ = ["AcceptReport", "Conflict", "accept_workspace", "find_conflicts"]

# Crash tests set this to kill the process at a chosen step:
# hook(stage, index, path) with stage "temp_written" or "replaced".
STEP_HOOK: Callable[[str, int, str], None] | None = None


@dataclass(frozen=True, slots=True)
class Conflict:
    path: str
    reason: str

    def to_dict(self) -> dict[str, str]:
        return {"path": self.path, "reason": self.reason}


@dataclass(slots=True)
class AcceptReport:
    workspace_id: str
    accepted: bool
    written: list[str] = field(default_factory=list)
    deleted: list[str] = field(default_factory=list)
    conflicts: list[Conflict] = field(default_factory=list)
    # True when this call finished an accept that an earlier process started
    resumed: bool = False

    def to_dict(self) -> dict[str, object]:
        return {
            "workspace_id": self.workspace_id,
            "accepted": self.accepted,
            "written": list(self.written),
            "deleted": list(self.deleted),
            "conflicts": [c.to_dict() for c in self.conflicts],
            "resumed": self.resumed,
        }


@dataclass(frozen=True, slots=True)
class _Step:
    path: str
    action: Literal["write", "delete"]
    mode: int | None


def _live(ws: Workspace, path: str) -> bytes | None:
    target = ws.project_root / path
    return target.read_bytes() if target.is_file() else None


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
        live = _live(ws, path)
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
        if base is None:
            conflicts.append(Conflict(path, "created in the project since the agent started"))
        elif live is None:
            conflicts.append(Conflict(path, "deleted from the project since the agent read it"))
        else:
            conflicts.append(Conflict(path, "changed in the project since the agent read it"))
    return conflicts


def _plan(ws: Workspace) -> list[_Step]:
    steps: list[_Step] = []
    for path, new, deleted in ws.overlay_rows():
        live = _live(ws, path)
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


def _atomic_write(
    target: Path, data: bytes, mode: int | None, tag: str, index: int, rel: str
) -> None:
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
    finally:
        os.close(fd)
    if STEP_HOOK is not None:
        STEP_HOOK("temp_written", index, rel)
    os.replace(tmp, target)


def _target(ws: Workspace, path: str) -> Path:
    target = ws.project_root / path
    # Keep a symlink inside the project a symlink: write where it points
    # (normalise() has checked that this stays inside the project).
    return Path(os.path.realpath(target)) if target.is_symlink() else target


def _apply(ws: Workspace, steps: list[_Step]) -> tuple[list[str], list[str]]:
    tag = hashlib.sha256(ws.id.encode()).hexdigest()[:8]
    overlay = {path: content for path, content, _ in ws.overlay_rows()}
    dirs: set[Path] = set()
    written: list[str] = []
    deleted: list[str] = []
    for index, step in enumerate(steps):
        # Checked again here: a resumed accept skipped the conflict check, and a
        # symlink swapped in since must not lead a write outside the project.
        ws.safe_path(step.path)
        target = _target(ws, step.path)
        if step.action == "delete":
            target.unlink(missing_ok=True)
            deleted.append(step.path)
        else:
            parent = target.parent
            missing = [p for p in (parent, *parent.parents) if not p.exists()]
            parent.mkdir(parents=True, exist_ok=True)
            dirs.update(p.parent for p in missing)
            _atomic_write(target, overlay.get(step.path) or b"", step.mode, tag, index, step.path)
            written.append(step.path)
        dirs.add(target.parent)
        if STEP_HOOK is not None:
            STEP_HOOK("replaced", index, step.path)
    for directory in sorted(dirs):
        if directory.is_dir():
            _fsync_dir(directory)
    return written, deleted


def accept_workspace(ws: Workspace) -> AcceptReport:
    """Check, journal and apply; or resume a journaled accept. Does not close ``ws``."""
    steps = _journaled(ws)
    resumed = steps is not None
    if steps is None:
        conflicts = find_conflicts(ws)
        if conflicts:
            return AcceptReport(ws.id, accepted=False, conflicts=conflicts)
        steps = _plan(ws)
        _journal(ws, steps)
    written, deleted = _apply(ws, steps)
    return AcceptReport(ws.id, accepted=True, written=written, deleted=deleted, resumed=resumed)
