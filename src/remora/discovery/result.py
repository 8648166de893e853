"""What discovery returns: nodes, warnings about files, counts."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from remora.discovery.node import CSTNode

__all__ = ["DiscoveryResult", "DiscoveryWarning"]


@dataclass(frozen=True, slots=True)
class DiscoveryWarning:
    """A file that was skipped or only partly understood.

    ``file`` is relative to the project root; ``line`` is 1-based, or None when
    the problem is the whole file (unreadable, binary).
    """

    file: str
    line: int | None
    message: str

    def __str__(self) -> str:
        where = self.file if self.line is None else f"{self.file}:{self.line}"
        return f"{where}: {self.message}"

    def to_dict(self) -> dict[str, Any]:
        return {"file": self.file, "line": self.line, "message": self.message}


@dataclass
class DiscoveryResult:
    """Nodes in path order (each file's nodes in source order) and warnings."""

    nodes: list[CSTNode] = field(default_factory=list)
    warnings: list[DiscoveryWarning] = field(default_factory=list)
    # files parsed (skipped files are not counted; they each have a warning)
    files: int = 0
    skipped: int = 0
    seconds: float = 0.0
    # parse processes used; 1 means parsed in this process
    workers: int = 1
