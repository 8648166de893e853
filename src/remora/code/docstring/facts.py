"""What prose about a node may rest on: the numbers its code holds and the words it names.

A summary that states a number the code does not hold, or says nothing but the
prompt's words, is refused (prose.py). The facts of every definition of a file
come from one walk of its LibCST tree, kept with the parsed file: the file's,
each class's and each function's runs ask about the same text, and walking each
node's own subtree walked every line once per definition around it (4.2 s over
the 2,689 nodes of SQLAlchemy's ``orm``, 1.5 s of it the files' own walks).
"""

from __future__ import annotations

import re
import threading
import weakref
from dataclasses import dataclass

import libcst as cst

from remora import python_ast
from remora.code.parsing import ParsedFile, SourceNode, child_nodes

__all__ = ["CodeFacts", "code_facts", "file_facts", "name_words", "word_tokens"]


def word_tokens(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+", text.lower())


def name_words(name: str) -> set[str]:
    """``total_revenue`` and ``totalRevenue`` -> {total, revenue}."""
    spaced = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", name).replace("_", " ")
    return set(word_tokens(spaced))


@dataclass(frozen=True, slots=True)
class CodeFacts:
    """What prose about a node may rest on: the values of its numeric literals, and
    the words its code names (identifiers split at ``_`` and case, strings and
    comments; three letters or more). For a file, the whole file's."""

    numbers: frozenset[float]
    words: frozenset[str]


def code_facts(node: SourceNode) -> CodeFacts:
    """The node's :class:`CodeFacts`: its definition's (decorators and nested ones too)."""
    file = node.file
    with _lock:
        kept = _by_file.get(file)
    if kept is None:
        kept = file_facts(file)
        with _lock:
            _by_file[file] = kept
    return kept[-1 if node.definition is None else file.spans[node.definition].start]


# Kept while the parsed file lives (the runs of one text share it; a run's changed text is
# another): a cache of its own would keep files' trees alive.
_by_file: weakref.WeakKeyDictionary[ParsedFile, dict[int, CodeFacts]] = weakref.WeakKeyDictionary()
_lock = threading.Lock()  # host functions run on worker threads


def file_facts(file: ParsedFile) -> dict[int, CodeFacts]:
    """The facts of each definition of ``file`` by the byte where its ``def``/``class``
    starts, and the whole file's under -1."""
    found: dict[int, CodeFacts] = {}
    # The facts gathered so far of the module and of each definition being walked.
    open_sets: list[tuple[set[float], set[str]]] = [(set(), set())]
    stack: list[tuple[cst.CSTNode, bool]] = [(file.module, False)]
    while stack:
        node, leaving = stack.pop()
        if leaving:  # the definition's subtree is done: it is also its parent's
            numbers, words = open_sets.pop()
            found[file.spans[node].start] = _facts(numbers, words)
            open_sets[-1][0].update(numbers)
            open_sets[-1][1].update(words)
            continue
        if isinstance(node, cst.FunctionDef | cst.ClassDef):
            open_sets.append((set(), set()))
            stack.append((node, True))
        _add(node, *open_sets[-1])
        stack.extend((child, False) for child in child_nodes(node))
    found[-1] = _facts(*open_sets[0])
    return found


def _add(node: cst.CSTNode, numbers: set[float], words: set[str]) -> None:
    if isinstance(node, cst.Integer | cst.Float):
        numbers.add(float(python_ast.literal_eval(node.value)))
    elif isinstance(node, cst.Name):
        words.update(name_words(node.value))
    elif isinstance(node, cst.SimpleString):
        value = python_ast.literal_eval(node.value)
        words.update(word_tokens(value if isinstance(value, str) else value.decode("latin-1")))
    elif isinstance(node, cst.FormattedStringText | cst.Comment):
        words.update(word_tokens(node.value))


def _facts(numbers: set[float], words: set[str]) -> CodeFacts:
    return CodeFacts(frozenset(numbers), frozenset(w for w in words if len(w) >= 3))
