"""CSTNode: one discovered file, class, function or method."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any, Literal

__all__ = ["NODE_TYPES", "CSTNode", "NodeType", "make_node_id"]

NodeType = Literal["file", "class", "function", "method"]


NODE_TYPES: tuple[NodeType, ...] = ("file", "class", "function", "method")


def make_node_id(file_path: str, full_name: str, node_type: NodeType, occurrence: int = 1) -> str:
    """Stable across runs and unique per (path, qualified name, type).

    Two classes with a method of the same name differ in ``full_name``; a file
    and a module-level function of the same name differ in ``node_type``. A name
    defined twice in one scope (a property's getter and setter, a function
    redefined under ``if``) is told apart by ``occurrence`` (1 for the first in
    the file); the first keeps the plain id so adding a redefinition later does
    not change it.
    """
    key = f"{file_path}\0{node_type}\0{full_name}"
    if occurrence > 1:
        key = f"{key}\0{occurrence}"
    return hashlib.sha256(key.encode()).hexdigest()[:16]


@dataclass(frozen=True, slots=True)
class CSTNode:
    node_id: str
    node_type: NodeType
    name: str
    full_name: str
    # Relative to the project root, with forward slashes.
    file_path: str
    start_byte: int
    end_byte: int
    # 1-based, inclusive.
    start_line: int
    end_line: int
    text: str
    text_hash: str = field(default="")
    is_async: bool = False
    decorators: tuple[str, ...] = ()

    def __reduce__(self) -> tuple[type[CSTNode], tuple[Any, ...]]:
        # Pickle as a flat tuple rebuilt through __init__: about 4x cheaper to
        # load than the generated __setstate__, and the parent process loads
        # every node that discovery's worker processes send back.
        return (
            CSTNode,
            (
                self.node_id,
                self.node_type,
                self.name,
                self.full_name,
                self.file_path,
                self.start_byte,
                self.end_byte,
                self.start_line,
                self.end_line,
                self.text,
                self.text_hash,
                self.is_async,
                self.decorators,
            ),
        )

    def to_dict(self, *, with_text: bool = True) -> dict[str, Any]:
        data: dict[str, Any] = {
            "node_id": self.node_id,
            "node_type": self.node_type,
            "name": self.name,
            "full_name": self.full_name,
            "file_path": self.file_path,
            "start_byte": self.start_byte,
            "end_byte": self.end_byte,
            "start_line": self.start_line,
            "end_line": self.end_line,
            "text_hash": self.text_hash,
            "is_async": self.is_async,
            "decorators": list(self.decorators),
        }
        if with_text:
            data["text"] = self.text
        return data
