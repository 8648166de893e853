"""The externals the host offers to tool scripts, as scripts declare them.

The loader checks a script's ``@external`` declarations against these (names,
parameters); ``remora agents check`` and the docs show them to script authors.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

__all__ = ["EXTERNALS", "ExternalSpec"]


@dataclass(frozen=True, slots=True)
class ExternalSpec:
    name: str
    params: tuple[str, ...]
    required: int
    # Blocking work on the host (a subprocess, a scan of the tree): the host
    # runs it off the event loop, so the script must ``await`` it.
    must_await: bool
    stub: str


def _spec(stub: str, *, must_await: bool = False) -> ExternalSpec:
    head = stub.split("(", 1)
    name = head[0].split()[-1]
    params: list[str] = []
    required = 0
    for raw in head[1].split(")", 1)[0].split(","):
        raw = raw.strip()
        if not raw:
            continue
        params.append(raw.split(":", 1)[0].strip())
        if "=" not in raw:
            required += 1
    return ExternalSpec(name, tuple(params), required, must_await, stub)


EXTERNALS: Final[dict[str, ExternalSpec]] = {
    spec.name: spec
    for spec in (
        _spec("async def read_file(path: str) -> str: ..."),
        _spec("async def write_file(path: str, content: str) -> bool: ..."),
        _spec("async def delete_file(path: str) -> bool: ..."),
        _spec('async def list_dir(path: str = ".") -> list[str]: ...'),
        _spec("async def file_exists(path: str) -> bool: ..."),
        _spec("async def search_files(pattern: str) -> list[str]: ..."),
        _spec(
            'async def search_content(pattern: str, path: str = "**/*.py") -> dict[str, Any]: ...',
            must_await=True,
        ),
        _spec(
            "async def run_command(cmd: str, args: list[str]) -> dict[str, Any]: ...",
            must_await=True,
        ),
        _spec("async def get_node_source() -> str: ..."),
        _spec("async def get_node_metadata() -> dict[str, Any]: ..."),
        _spec("async def log(message: str) -> None: ..."),
    )
}
