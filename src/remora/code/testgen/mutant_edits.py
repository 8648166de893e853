"""One edit of a function's source, and the whole file's text with it made.

A mutant (:mod:`remora.code.testgen.mutants`) replaces one expression or statement at its
exact span by the mutated node's :func:`ast.unparse`, padded with line breaks so every line
keeps its number: coverage's lines and the function's first line match the original's.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

__all__ = ["Edit", "apply_edit"]


@dataclass(frozen=True)
class Edit:
    """One change of a function: the node replaced (through ``through`` when more than
    one statement), by what, at which line, of which kind, in words."""

    original: ast.expr | ast.stmt  # what is replaced, for its span
    replacement: ast.AST
    line: int
    kind: str
    words: str
    statement: bool
    through: ast.stmt | None = None  # the last statement replaced, when more than one
    must_fail: str = ""


def apply_edit(data: bytes, starts: list[int], edit: Edit) -> str | None:
    """The file's text with ``edit`` made (None where its span or text cannot be had);
    ``starts``: :func:`remora.code.parsing.line_starts` of ``data``."""
    node = edit.original
    last = edit.through or node
    end_line, end_col = last.end_lineno, last.end_col_offset
    if end_line is None or end_col is None:
        return None
    begin = starts[node.lineno - 1] + node.col_offset
    end = starts[end_line - 1] + end_col
    breaks = "\n" * (end_line - node.lineno)
    replacement_node = edit.replacement
    if isinstance(replacement_node, ast.stmt) and not hasattr(replacement_node, "lineno"):
        ast.copy_location(replacement_node, node)  # unparse reads a statement's line
    text = ast.unparse(replacement_node)
    replacement = f"{text}{breaks}" if edit.statement else f"({text}{breaks})"
    try:
        return (data[:begin] + replacement.encode("utf-8") + data[end:]).decode("utf-8")
    except UnicodeDecodeError:
        return None
