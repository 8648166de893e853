"""Strings with a source in the project: its literals, annotations, docs and tests.

Sample data a maintainer merges holds no placeholder (``"sample part"``, a
string the code has never seen and often rejects: issue 51). A string value is
offered only when the project itself has it: a string constant of one of its
Python files (code, tests, ``Literal[...]`` annotations and docstrings alike),
or a string in an example of its docs (a ``>>>`` line of a docstring, a
Markdown or reStructuredText file, or a fenced ``python`` block of Markdown).
Every example is read with :mod:`ast`; nothing is scanned by hand. The empty
string needs a source too: an instance whose every field is ``""`` tells a
reader nothing.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable
from typing import Any

from remora import python_ast
from remora.code.context import CodeContext
from remora.code.parsing import ast_tree, per_text
from remora.code.values.call_render import SET_MARKER
from remora.sandbox import search

__all__ = [
    "DOC_PATTERNS",
    "doc_strings",
    "examples",
    "literal_strings",
    "project_files",
    "project_strings",
    "unsourced",
]

MAX_FILES = 200
DOC_PATTERNS = ("**/*.md", "**/*.rst", "**/*.txt")
_FENCES = ("```python", "```py", "```pycon")


def _constants(tree: ast.AST) -> set[str]:
    return {
        n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)
    }


def examples(text: str) -> Iterable[str]:
    """Python sources of a text's examples: each ``>>>`` line, each fenced Python block."""
    block: list[str] | None = None
    for line in text.splitlines():
        stripped = line.strip()
        if block is not None:
            if stripped.startswith("```"):
                yield "\n".join(block)
                block = None
            else:
                block.append(line)
            continue
        if stripped.startswith(_FENCES):
            block = []
        elif stripped.startswith(">>> "):
            yield stripped[4:]


@per_text(max_entries=MAX_FILES)
def doc_strings(text: str) -> frozenset[str]:
    """The string constants of the examples in a document or a docstring (kept per text:
    every node's run reads the project's files again)."""
    found: set[str] = set()
    for source in examples(text):
        try:
            found |= _constants(python_ast.parse(source))
        except SyntaxError:
            continue  # an example that is not Python (a shell line, a fragment)
    return frozenset(found)


@per_text(max_entries=MAX_FILES)
def literal_strings(text: str) -> frozenset[str]:
    """A Python file's string constants, and those of its docstrings' examples (kept per
    text, as :func:`doc_strings`)."""
    tree = ast_tree(text)
    if tree is None:
        return frozenset()
    found = set(_constants(tree))
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            docstring = ast.get_docstring(node)
            if docstring and ">>>" in docstring:
                found |= doc_strings(docstring)
    return frozenset(found)


def project_files(context: CodeContext, pattern: str) -> list[str]:
    found = search.search_files(context.workspace, pattern)
    return [p for p in found if "/." not in f"/{p}" and "site-packages" not in p][:MAX_FILES]


def project_strings(context: CodeContext) -> frozenset[str]:
    """Every string the project's files hold (kept until the run writes)."""

    def collect() -> frozenset[str]:
        found: set[str] = set()
        for path in project_files(context, "**/*.py"):
            found |= literal_strings(context.read_text(path))
        for pattern in DOC_PATTERNS:
            for path in project_files(context, pattern):
                found |= doc_strings(context.read_text(path))
        return frozenset(found)

    return context.kept("project strings", collect)


def unsourced(value: Any, strings: frozenset[str] | set[str]) -> str | None:
    """The first string of ``value`` (a JSON value of a set: lists, dicts, instances as
    ``{"__class__", "args"}``, sets as ``{"__set__": [...]}``) the project does not hold; None
    when all have a source."""
    if isinstance(value, str):
        return None if value in strings else value
    if isinstance(value, list):
        items: list[Any] = value
    elif isinstance(value, dict) and set(value) == {"__class__", "args"}:
        items = list(value["args"].values()) if isinstance(value["args"], dict) else []
    elif isinstance(value, dict) and set(value) <= {"__callable__", "__returns__"}:
        items = [value.get("__returns__")]
    elif isinstance(value, dict) and set(value) == {SET_MARKER}:
        items = list(value[SET_MARKER])
    elif isinstance(value, dict):
        items = [*value.keys(), *value.values()]
    else:
        return None
    for item in items:
        missing = unsourced(item, strings)
        if missing is not None:
            return missing
    return None
