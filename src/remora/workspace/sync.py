"""A real directory from a workspace, and back (for commands such as ruff or pytest).

``materialize`` writes the merged view into a folder and remembers the sha of
each file it wrote; ``absorb`` compares the folder with that manifest after the
command ran and stores only what the command changed. This module uses the
overlay; the overlay does not know it.
"""

from __future__ import annotations

import os
import warnings
from pathlib import Path

from remora.workspace.overlay import Workspace, sha256
from remora.workspace.paths import WorkspacePathError, walk_files

__all__ = ["absorb", "materialize"]

# The largest file read back from a command's copy into the workspace.
MAX_READ_BACK_BYTES = 16 << 20


def _readable(path: Path, mode: int | None) -> bytes | None:
    """The file's bytes, or None when its owner may not read it or reading fails.

    The owner bit is checked too because root reads a chmod-000 file anyway,
    while the sandboxed command (an unprivileged user) could not.
    """
    if mode is None or not mode & 0o400:
        return None
    try:
        return path.read_bytes()
    except OSError:
        return None


def materialize(ws: Workspace, dest: Path) -> None:
    """Copy project + overlay into ``dest`` (created if missing).

    Project files that cannot be read (chmod 000, vanished meanwhile) are left
    out of the copy rather than failing every command run on the project.
    """
    dest = dest.resolve()
    dest.mkdir(parents=True, exist_ok=True)
    overlay = {path: (content, deleted) for path, content, deleted in ws.overlay_rows()}
    manifest: dict[str, str] = {}
    new_bases: list[tuple[str, str | None]] = []
    for rel in ws.iter_files():
        mode = ws.live_mode(rel)
        if rel in overlay:
            data = overlay[rel][0] or b""
        else:
            live = _readable(ws.project_root / rel, mode)
            if live is None:
                continue  # a command cannot need what nobody may read
            data = live
            # The command sees this content: it is the base any change is made on.
            new_bases.append((rel, sha256(data)))
        target = dest / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
        if mode is not None:
            os.chmod(target, mode & 0o777)
        manifest[rel] = sha256(data)
    ws.record_bases(new_bases)
    ws.manifests[str(dest)] = manifest


def absorb(ws: Workspace, dest: Path) -> list[str]:
    """Store in the overlay what changed in ``dest`` since :func:`materialize`.

    Returns the changed paths, sorted. Symlinks created by the command are not
    followed (they could point anywhere); paths the workspace refuses are left
    out with a warning.
    """
    dest = dest.resolve()
    manifest = ws.manifests.get(str(dest))
    if manifest is None:  # not materialised by this object: compare with the merged view
        manifest = {}
        for rel in ws.iter_files():
            data = ws.read(rel)
            if data is not None:
                manifest[rel] = sha256(data)
    changed: list[str] = []
    current: dict[str, str] = {}
    for rel, full in walk_files(dest):
        if full.stat().st_size > MAX_READ_BACK_BYTES:
            # A command can write without bound into its copy; that must not
            # fill memory and the workspace. Such a file counts as unchanged.
            warnings.warn(
                f"workspace {ws.id}: not reading back {rel}: larger than "
                f"{MAX_READ_BACK_BYTES // (1 << 20)} MiB",
                stacklevel=2,
            )
            if rel in manifest:
                current[rel] = manifest[rel]
            continue
        data = full.read_bytes()
        sha = sha256(data)
        current[rel] = sha
        if manifest.get(rel) == sha:
            continue
        try:
            ws.write(rel, data)
        except (WorkspacePathError, OSError) as exc:
            warnings.warn(f"workspace {ws.id}: not reading back {rel}: {exc}", stacklevel=2)
            continue
        changed.append(rel)
    for rel in manifest.keys() - current.keys():
        ws.delete(rel)
        changed.append(rel)
    ws.manifests[str(dest)] = current
    return sorted(changed)
