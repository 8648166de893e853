"""Host functions for tool scripts, bound to one workspace and one node.

Every path goes through the workspace's path rules: ``..``, absolute paths and
symlinks that leave the project are refused with :class:`ExternalRefused`
(a PermissionError inside the script, ``external_error`` in the envelope).
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from remora.errors import RemoraError
from remora.events import Event, EventEmitter
from remora.sandbox import search
from remora.sandbox.commands import check_command, run_command
from remora.sandbox.envelope import ExternalRefused

if TYPE_CHECKING:
    from remora.config import SandboxConfig
    from remora.discovery import CSTNode
    from remora.workspace import Workspace

__all__ = ["DEFAULT_SEARCH_TIMEOUT_S", "build_externals"]

DEFAULT_SEARCH_TIMEOUT_S = 5.0
MAX_LOG_CHARS = 4000


@contextlib.contextmanager
def _refusals() -> Iterator[None]:
    """Workspace refusals (path outside the project, accept in progress) as ExternalRefused."""
    try:
        yield
    except RemoraError as exc:
        raise ExternalRefused(exc.message) from None


class _Externals:
    def __init__(
        self,
        ws: Workspace,
        node: CSTNode | None,
        config: SandboxConfig,
        emitter: EventEmitter | None,
        log_sink: list[str] | None,
        run_id: str | None,
        search_timeout_s: float,
    ) -> None:
        self.ws = ws
        self.node = node
        self.config = config
        self.emitter = emitter
        self.log_sink = log_sink
        self.run_id = run_id
        self.search_timeout_s = search_timeout_s

    def _emit(self, data: dict[str, Any]) -> None:
        if self.emitter is not None:
            self.emitter.emit(Event("tool_log", {"workspace_id": self.ws.id, **data}, self.run_id))

    # -- files ----------------------------------------------------------------

    def read_file(self, path: str) -> str:
        with _refusals():
            data = self.ws.read(path)
            if data is None:
                if self.ws.is_dir(path):
                    raise IsADirectoryError(f"{path!r} is a directory; use list_dir")
                raise FileNotFoundError(f"no file {path!r} in the project")
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError:
            raise ValueError(f"{path!r} is not UTF-8 text (a binary file?)") from None

    def write_file(self, path: str, content: str) -> bool:
        if not isinstance(content, str):
            raise TypeError(f"write_file: content must be a string, got {type(content).__name__}")
        with _refusals():
            self.ws.write(path, content.encode("utf-8"))
        return True

    def delete_file(self, path: str) -> bool:
        with _refusals():
            if self.ws.is_dir(path):
                raise IsADirectoryError(f"{path!r} is a directory; delete its files instead")
            if not self.ws.exists(path):
                return False
            self.ws.delete(path)
        return True

    def list_dir(self, path: str = ".") -> list[str]:
        with _refusals():
            return self.ws.list_dir(path)

    def file_exists(self, path: str) -> bool:
        with _refusals():
            return self.ws.exists(path)

    def search_files(self, pattern: str) -> list[str]:
        with _refusals():
            return search.search_files(self.ws, pattern)

    async def search_content(self, pattern: str, path: str = "**/*.py") -> dict[str, Any]:
        stop = threading.Event()
        try:
            with _refusals():
                return await asyncio.to_thread(
                    search.search_content, self.ws, pattern, path, self.search_timeout_s, stop=stop
                )
        except asyncio.CancelledError:
            stop.set()  # Ctrl-C: the thread ends at its next line instead of the time bound
            raise

    # -- commands -------------------------------------------------------------

    async def run_command(self, cmd: str, args: list[str]) -> dict[str, Any]:
        argv = check_command(cmd, args, self.config.commands)
        with _refusals():
            result = await run_command(
                self.ws,
                argv,
                self.config.command_timeout,
                allow_unsandboxed=self.config.allow_unsandboxed_commands,
            )
        self._emit(
            {
                "source": "run_command",
                "argv": argv,
                "exit_code": result["exit_code"],
                "timed_out": result["timed_out"],
                "changed_files": result["changed_files"],
                "duration_s": result["duration_s"],
            }
        )
        return result

    # -- the node ---------------------------------------------------------------

    def _bound_node(self) -> CSTNode:
        if self.node is None:
            raise ExternalRefused(
                "no node is bound to this tool run "
                "(`remora tool run --node FILE::QUALNAME` binds one)"
            )
        return self.node

    def get_node_source(self) -> str:
        return self._bound_node().text

    def get_node_metadata(self) -> dict[str, Any]:
        node = self._bound_node()
        return {
            "node_id": node.node_id,
            "node_type": node.node_type,
            "name": node.name,
            "full_name": node.full_name,
            "file_path": node.file_path,
            "start_line": node.start_line,
            "end_line": node.end_line,
            "start_byte": node.start_byte,
            "end_byte": node.end_byte,
        }

    def log(self, message: str) -> None:
        text = str(message)[:MAX_LOG_CHARS]
        if self.log_sink is not None:
            self.log_sink.append(text)
        self._emit({"source": "log", "message": text})


def build_externals(
    workspace: Workspace,
    node: CSTNode | None,
    config: SandboxConfig,
    *,
    emitter: EventEmitter | None = None,
    log_sink: list[str] | None = None,
    run_id: str | None = None,
    search_timeout_s: float = DEFAULT_SEARCH_TIMEOUT_S,
) -> dict[str, Callable[..., Any]]:
    """The standard externals bound to ``workspace`` and ``node``, by name."""
    ext = _Externals(workspace, node, config, emitter, log_sink, run_id, search_timeout_s)
    return {
        "read_file": ext.read_file,
        "write_file": ext.write_file,
        "delete_file": ext.delete_file,
        "list_dir": ext.list_dir,
        "file_exists": ext.file_exists,
        "search_files": ext.search_files,
        "search_content": ext.search_content,
        "run_command": ext.run_command,
        "get_node_source": ext.get_node_source,
        "get_node_metadata": ext.get_node_metadata,
        "log": ext.log,
    }
