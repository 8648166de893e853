"""What a ``remora_code`` host function is bound to: one workspace, one node, the sandbox settings.

A tool script never names a file or a node when it calls the toolkit: the run's
:class:`CodeContext` does. Reading goes through the workspace (so a script sees
its own earlier writes), and every workspace refusal (a path outside the
project, an accept in progress) reaches the script as :class:`ExternalRefused`,
a ``PermissionError`` it may catch.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Hashable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

from remora.errors import RemoraError
from remora.sandbox import search
from remora.sandbox.envelope import ExternalRefused

if TYPE_CHECKING:
    from remora.code.parsing import SourceNode
    from remora.config import SandboxConfig
    from remora.conversation import TextCompleter
    from remora.discovery import CSTNode
    from remora.workspace import Workspace

__all__ = ["CodeContext"]

T = TypeVar("T")


@dataclass(frozen=True)
class CodeContext:
    """The run a host function works for."""

    workspace: Workspace
    node: CSTNode | None
    sandbox: SandboxConfig
    # The run's model for plain completions (``remora_code.complete``); None in a bare tool run.
    completer: TextCompleter | None = None
    # What the run's tools read or worked out, kept until the run writes (the workspace's
    # revision changes): the tools of one turn read the node's file and locate the node again
    # and again (~9 times a docstring run), and each read of a project file resolves the
    # path, queries the overlay and decodes.
    _kept: dict[Hashable, tuple[int, Any]] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )

    # What the run's tools noted for its result, whatever the workspace's revision: the lint
    # agent's refused rewrites and why, which its submit reports (``notes``).
    _notes: dict[str, list[Any]] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )

    def note(self, kind: str, item: Any) -> None:
        """Keep ``item`` under ``kind`` for the rest of the run."""
        self._notes.setdefault(kind, []).append(item)

    def notes(self, kind: str) -> list[Any]:
        """What was noted under ``kind`` in this run, oldest first."""
        return list(self._notes.get(kind, []))

    def kept(self, key: Hashable, make: Callable[[], T]) -> T:
        """``make()``, kept under ``key`` until the workspace changes."""
        revision = self.workspace.revision
        hit = self._kept.get(key)
        if hit is None or hit[0] != revision:
            hit = self._kept[key] = (revision, make())
        return hit[1]

    async def kept_async(self, key: Hashable, make: Callable[[], Awaitable[T]]) -> T:
        """:meth:`kept` for work that is awaited (a program run in the sandbox)."""
        revision = self.workspace.revision
        hit = self._kept.get(key)
        if hit is None or hit[0] != revision:
            hit = self._kept[key] = (revision, await make())
        return hit[1]

    def search_files(self, pattern: str) -> list[str]:
        """:func:`remora.sandbox.search.search_files` on a listing of the merged view kept
        until the workspace changes: a walk of a large project (SQLAlchemy's 1,180 files)
        took ~17 ms, and a sample_data run asked for nine patterns."""
        listing = self.kept("listed files", lambda: tuple(self.workspace.iter_files()))
        return search.match_files(listing, pattern)

    def bound_node(self) -> CSTNode:
        """The run's node; refused when the run has none (a context provider, a bare tool run)."""
        if self.node is None:
            raise ExternalRefused(
                "no node is bound to this tool run "
                "(`remora tool run --node FILE::QUALNAME` binds one)"
            )
        return self.node

    def read_text(self, path: str) -> str:
        """The file's text in the workspace, line endings kept as they are on disk."""
        return self.kept(("text", path), lambda: self._read_text(path))

    def _read_text(self, path: str) -> str:
        try:
            data = self.workspace.read(path)
        except RemoraError as exc:
            raise ExternalRefused(exc.message) from None
        if data is None:
            raise FileNotFoundError(f"no file {path!r} in the project")
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError:
            raise ValueError(f"{path!r} is not UTF-8 text (a binary file?)") from None

    def write_text(self, path: str, text: str) -> None:
        """Write ``text`` into the workspace's copy of ``path`` (never the project itself)."""
        try:
            self.workspace.write(path, text.encode("utf-8"))
        except RemoraError as exc:
            raise ExternalRefused(exc.message) from None

    def node_file_text(self) -> str:
        """The current text of the file holding the run's node."""
        return self.read_text(self.bound_node().file_path)

    def located(self) -> SourceNode:
        """The run's node, found again in the current text of its file."""
        return self.kept("located", self._locate)

    def _locate(self) -> SourceNode:
        from remora.code.parsing import NodeRef, locate, parse

        node = self.bound_node()
        file = parse(self.read_text(node.file_path), node.file_path)
        try:
            return locate(file, NodeRef(node.node_type, node.full_name, node.start_line))
        except LookupError as exc:
            raise ValueError(str(exc)) from None
