"""The other Python files of a node's folder, read once per process while none of them changes.

Every docstring run shows, and checks its summary against, its folder's
documented code (draft.py). Read through the run's workspace that was a folder
listing and up to eight path resolutions, reads, hashes and decodes per run
(~2.5 ms of a docstring run's ~26 on SQLAlchemy's ``orm``), the same files for
every node of the folder. So what was read is kept per process with the stat of
the folder and of each file it came from, and read again when any differs (a
file edited, or one added, removed or renamed: the folder's mtime changes with
its listing); a read of files changed within the last few seconds is not kept
(workspace/filestat.py). A run whose own workspace changed a file of the folder
reads through it, to see its own change.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from remora.code.context import CodeContext
from remora.workspace.filestat import Signature, settled, signature

__all__ = ["MAX_SIBLING_FILES", "sibling_texts"]

MAX_SIBLING_FILES = 8
_KEPT_FOLDERS = 32


@dataclass(frozen=True)
class _Folder:
    names: tuple[str, ...]  # the first MAX_SIBLING_FILES Python files, sorted
    stats: tuple[Signature, ...]  # the folder's, then each name's
    texts: dict[str, str]  # by name; a file that is not UTF-8 text is left out


_kept: OrderedDict[tuple[str, str], _Folder] = OrderedDict()
_lock = threading.Lock()  # host functions run in worker threads


def sibling_texts(context: CodeContext, path: str) -> tuple[str, ...]:
    """The text of the other Python files of ``path``'s folder (test files left out), in
    name order, once per change of the run's workspace: a docstring run asks two or three
    times (its prompt's examples, each summary's check)."""
    return context.kept(("siblings", path), lambda: _sibling_texts(context, path))


def _sibling_texts(context: CodeContext, path: str) -> tuple[str, ...]:
    folder = str(PurePosixPath(path).parent)
    workspace = context.workspace
    own = [
        changed
        for changed in workspace.changed_files()
        if changed != path and str(PurePosixPath(changed).parent) == folder
    ]
    read = None if own else _kept_read(context, folder)
    if read is None:
        read = _read(context, folder)
        if not own and settled(read.stats):
            with _lock:
                _kept[(str(workspace.project_root), folder)] = read
                while len(_kept) > _KEPT_FOLDERS:
                    _kept.popitem(last=False)
    return tuple(
        read.texts[name]
        for name in read.names
        if name in read.texts and _joined(folder, name) != path
    )


def _kept_read(context: CodeContext, folder: str) -> _Folder | None:
    """The folder's kept read if its files are all as they were then."""
    root = context.workspace.project_root
    with _lock:
        read = _kept.get((str(root), folder))
        if read is not None:
            _kept.move_to_end((str(root), folder))
    directory = root / folder
    if read is None or (signature(directory), *_file_stats(directory, read.names)) != read.stats:
        return None
    return read


def _read(context: CodeContext, folder: str) -> _Folder:
    """The folder's files read through the run's workspace; stats taken first, so a file
    changed during the read does not match them afterwards."""
    directory = context.workspace.project_root / folder
    before = signature(directory)
    names = sorted(
        name
        for name in context.workspace.list_dir(folder)
        if name.endswith(".py") and not name.startswith("test")
    )[:MAX_SIBLING_FILES]
    stats = (before, *_file_stats(directory, names))
    texts = {}
    for name in names:
        try:
            texts[name] = context.read_text(_joined(folder, name))
        except (FileNotFoundError, ValueError):
            continue
    return _Folder(tuple(names), stats, texts)


def _file_stats(directory: Path, names: Sequence[str]) -> tuple[Signature, ...]:
    return tuple(signature(directory / name) for name in names)


def _joined(folder: str, name: str) -> str:
    """The project path of ``name`` in ``folder`` ("." for the project's root)."""
    return name if folder == "." else f"{folder}/{name}"
