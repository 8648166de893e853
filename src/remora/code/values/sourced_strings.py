"""Strings with a source in the project: its literals, annotations, docs and tests.

Sample data a maintainer merges holds no placeholder (``"sample part"``, a
string the code has never seen and often rejects: issue 51). A string value is
offered only when the project itself has it: a string constant of one of its
Python files (code, tests, ``Literal[...]`` annotations and docstrings alike),
or a string in an example of its docs (a ``>>>`` line of a docstring, a
Markdown or reStructuredText file, a fenced ``python`` block of Markdown, a
``.. code-block:: python`` block of reStructuredText).
Every example is read with :mod:`ast`; nothing is scanned by hand. The empty
string needs a source too: an instance whose every field is ``""`` tells a
reader nothing.
"""

from __future__ import annotations

import ast
import re
import textwrap
from collections.abc import Iterable, Iterator
from typing import Any

from remora import python_ast
from remora.code.context import CodeContext
from remora.code.parsing import ast_tree, per_text
from remora.code.values.call_render import SET_MARKER
from remora.code.values.unspelled_values import TUPLE_MARKER, is_tuple, is_type
from remora.sandbox import search

__all__ = [
    "DOC_PATTERNS",
    "doc_strings",
    "examples",
    "literal_strings",
    "project_documents",
    "project_files",
    "project_strings",
    "unsourced",
]

MAX_FILES = 200
DOC_PATTERNS = ("**/*.md", "**/*.rst", "**/*.txt")
# The languages a fenced block is Python in (```` ```python ````, ```` ``` pycon ````).
_FENCES = ("python", "py", "pycon")
# reST: ``.. code-block:: python`` (Sphinx), ``.. code:: python``, ``.. sourcecode:: py``.
_REST = re.compile(r"^\.\. (code-block|code|sourcecode)::")
_REST_PYTHON = ("python", "py", "python3")


def _constants(tree: ast.AST) -> set[str]:
    return {
        n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)
    }


def _statements(lines: Iterable[str]) -> Iterator[str]:
    """A doctest session's statements: each ``>>>`` line with the ``...`` lines that
    continue it; output lines end a statement."""
    current: list[str] | None = None
    for line in lines:
        stripped = line.strip()
        if stripped.startswith(">>> ") or stripped == ">>>":
            if current is not None:
                yield "\n".join(current)
            current = [stripped[4:]]
        elif current is not None and (stripped.startswith("... ") or stripped == "..."):
            current.append(stripped[4:])
        elif current is not None:
            yield "\n".join(current)
            current = None
    if current is not None:
        yield "\n".join(current)


def _block(lines: list[str]) -> Iterator[str]:
    """A code block's source, or its statements when it is a doctest session (``>>>``
    lines in a fenced block or a ``code-block`` directive: its prompts are not Python)."""
    first = next((line.strip() for line in lines if line.strip()), "")
    if first.startswith(">>>"):
        yield from _statements(lines)
    else:
        yield textwrap.dedent("\n".join(lines)).strip("\n")


def _fence(stripped: str) -> bool:
    """Whether a line opens a fenced Python block (```` ```python ````, ```` ``` py ````)."""
    return stripped.startswith("```") and stripped[3:].strip().startswith(_FENCES)


def examples(text: str) -> Iterable[str]:
    """Python sources of a text's examples: each ``>>>`` statement (with its ``...``
    lines), each fenced Python block, each reStructuredText
    ``code-block``/``code``/``sourcecode`` directive's Python block (its lines indented
    past the directive, options and blank lines before them left out); a block that is a
    doctest session gives its statements."""
    block: list[str] | None = None
    directive: int | None = None  # the indentation of the reST directive being read
    session: list[str] = []  # ``>>>`` and ``...`` lines outside a block
    for line in text.splitlines():
        stripped = line.strip()
        indent = len(line) - len(line.lstrip())
        if directive is not None:
            if not stripped or (indent > directive and (block or not stripped.startswith(":"))):
                block = [*(block or []), line]
                continue
            if indent > directive:  # a directive's option (``:linenos:``)
                continue
            yield from _block(block or [])
            block, directive = None, None
        if block is not None:
            if stripped.startswith("```"):
                yield from _block(block)
                block = None
            else:
                block.append(line)
            continue
        if stripped.startswith((">>> ", "... ")) or stripped in (">>>", "..."):
            session.append(line)
            continue
        yield from _statements(session)
        session = []
        if _fence(stripped):
            block = []
        elif stripped.split("::")[-1].strip() in _REST_PYTHON and _REST.match(stripped):
            directive = indent
    yield from _statements(session)
    if directive is not None and block:
        yield from _block(block)


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


def project_documents(context: CodeContext) -> list[str]:
    """The texts of the project's documents (Markdown, reST, plain text), in
    ``DOC_PATTERNS`` order; one that is not UTF-8 (pyfiglet's latin-1 ``figfont.txt``)
    holds no example this reads, and is left out (kept until the run writes)."""

    def collect() -> list[str]:
        texts = []
        for pattern in DOC_PATTERNS:
            for path in project_files(context, pattern):
                try:
                    texts.append(context.read_text(path))
                except ValueError:  # not UTF-8 text
                    continue
        return texts

    return context.kept("project documents", collect)


def project_strings(context: CodeContext) -> frozenset[str]:
    """Every string the project's files hold (kept until the run writes)."""

    def collect() -> frozenset[str]:
        found: set[str] = set()
        for path in project_files(context, "**/*.py"):
            found |= literal_strings(context.read_text(path))
        for text in project_documents(context):
            found |= doc_strings(text)
        return frozenset(found)

    return context.kept("project strings", collect)


def unsourced(value: Any, strings: frozenset[str] | set[str]) -> str | None:
    """The first string of ``value`` (a JSON value of a set: lists, dicts, instances as
        ``{"__class__", "args"}``, sets as ``{"__set__": [...]}``, tuples as ``{"__tuple__":
    [...]}``) the project does not hold; None
        when all have a source."""
    if isinstance(value, str):
        return None if value in strings else value
    if isinstance(value, list):
        items: list[Any] = value
    elif isinstance(value, dict) and set(value) == {"__class__", "args"}:
        items = list(value["args"].values()) if isinstance(value["args"], dict) else []
    elif isinstance(value, dict) and set(value) <= {"__callable__", "__returns__", "__takes__"}:
        items = [value.get("__returns__")]
    elif isinstance(value, dict) and set(value) == {SET_MARKER}:
        items = list(value[SET_MARKER])
    elif is_tuple(value):
        items = list(value[TUPLE_MARKER])
    elif is_type(value):
        return None  # a class, named: no string
    elif isinstance(value, dict):
        items = [*value.keys(), *value.values()]
    else:
        return None
    for item in items:
        missing = unsourced(item, strings)
        if missing is not None:
            return missing
    return None
