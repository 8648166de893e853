"""The definitions of a file's ``ast``, once per text: found by name and line, and their
docstrings' summaries (the drafts' style, the checks' copies and facts read them)."""

from __future__ import annotations

import ast
import functools

from remora.code.parsing import ast_tree, per_text

__all__ = ["Defined", "definitions", "file_docstring_summaries", "located_definition"]

Defined = ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef


# Once per text: every run's prompt looks its node up among the file's definitions, a walk
# of the whole file each time (2.7% of a docstring run on click).
@per_text()
def definitions(text: str) -> tuple[Defined, ...]:
    tree = ast_tree(text)
    return () if tree is None else tuple(n for n in ast.walk(tree) if isinstance(n, Defined))


@functools.lru_cache(maxsize=64)
def _summaries(text: str) -> tuple[tuple[str, str], ...]:
    tree = ast_tree(text)
    if tree is None:
        return ()
    found = {}
    for node in [tree, *definitions(text)]:
        doc = ast.get_docstring(node)
        if doc and doc.strip():
            name = "the module" if isinstance(node, ast.Module) else node.name
            found[name] = doc.strip().splitlines()[0].strip()
    return tuple(found.items())


def file_docstring_summaries(text: str) -> dict[str, str]:
    """Every definition's docstring summary in ``text``, by name (the file's own too)."""
    return dict(_summaries(text))


def located_definition(text: str, full_name: str, line: int) -> Defined | None:
    """The ``ast`` definition of ``full_name`` whose decorator or ``def``/``class`` line is
    ``line`` (None when the text does not parse or has no such definition)."""
    short = full_name.rsplit(".", 1)[-1]
    for node in definitions(text):
        start = node.decorator_list[0].lineno if node.decorator_list else node.lineno
        if node.name == short and line in (start, node.lineno):
            return node
    return None
