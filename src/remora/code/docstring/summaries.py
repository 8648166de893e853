"""The docstring summaries of a file's definitions, once per text (the drafts' style, the
checks' copies and facts read them)."""

from __future__ import annotations

import ast
import functools

from remora.code.parsing import ast_definitions, ast_tree

__all__ = ["file_docstring_summaries"]


@functools.lru_cache(maxsize=64)
def _summaries(text: str) -> tuple[tuple[str, str], ...]:
    tree = ast_tree(text)
    if tree is None:
        return ()
    found = {}
    for node in [tree, *ast_definitions(text)]:
        doc = ast.get_docstring(node)
        if doc and doc.strip():
            name = "the module" if isinstance(node, ast.Module) else node.name
            found[name] = doc.strip().splitlines()[0].strip()
    return tuple(found.items())


def file_docstring_summaries(text: str) -> dict[str, str]:
    """Every definition's docstring summary in ``text``, by name (the file's own too)."""
    return dict(_summaries(text))
