"""The docstring summaries of a file's definitions, once per text (the drafts' style, the
checks' copies and facts read them)."""

from __future__ import annotations

import ast
import functools
import itertools

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
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            found |= _attribute_docstrings(node.body)
    return tuple(found.items())


def _attribute_docstrings(body: list[ast.stmt]) -> dict[str, str]:
    """The string that follows an assignment in a class or module body (an attribute's
    docstring, which Sphinx shows), by ``the attribute NAME``: a class's summary copied
    from its first field's says nothing of the class (a blind reviewer, pathspec)."""
    found: dict[str, str] = {}
    for assigned, following in itertools.pairwise(body):
        if not isinstance(assigned, ast.Assign | ast.AnnAssign):
            continue
        target = assigned.targets[0] if isinstance(assigned, ast.Assign) else assigned.target
        value = following.value if isinstance(following, ast.Expr) else None
        if isinstance(value, ast.Constant) and isinstance(value.value, str) and value.value.strip():
            found[f"the attribute {ast.unparse(target)}"] = value.value.strip().splitlines()[0]
    return found


def file_docstring_summaries(text: str) -> dict[str, str]:
    """Every definition's docstring summary in ``text``, by name (the file's own too)."""
    return dict(_summaries(text))
