"""own_lines from the file's definitions equals a walk of the node's tree for nested ones."""

from __future__ import annotations

from pathlib import Path

import libcst as cst

from remora.code.lint import own_lines
from remora.code.source import NodeRef, ParsedFile, SourceNode

SAMPLE = Path(__file__).resolve().parents[3] / "examples" / "sample_project"

NESTED = """import functools


@functools.cache
def outer(a):
    x = [i for i in range(a)]

    @functools.wraps(outer)
    def inner(b):
        class Local:
            def method(self):
                return b
        return Local

    return inner, x  # after the nested function


class Holder:
    value = 1

    if value:
        def maybe(self):
            return 1
    else:
        maybe = None

    def last(self): return 2
"""


def walked(node: SourceNode) -> set[int]:
    """The former own_lines: every nested definition found by visiting the node's tree."""
    file = node.file
    first, last = file.line_of(node.start_byte()), file.line_of(max(node.end_byte() - 1, 0))
    lines = set(range(first, last + 1))

    class Nested(cst.CSTVisitor):
        def on_visit(self, item: cst.CSTNode) -> bool:
            if isinstance(item, cst.FunctionDef | cst.ClassDef):
                start = item.decorators[0] if item.decorators else item
                lines.difference_update(
                    range(file.positions[start].start.line, file.positions[item].end.line + 1)
                )
                return False
            return True

    for statement in node.body_statements:
        statement.visit(Nested())
    return lines


def nodes_of(file: ParsedFile) -> list[SourceNode]:
    ref = NodeRef("file", "<file>", 1)
    found = [SourceNode(file, ref, None)]
    for name, definition in file.definitions:
        kind = "class" if isinstance(definition, cst.ClassDef) else "function"
        line = file.positions[definition].start.line
        found.append(SourceNode(file, NodeRef(kind, name, line), definition))
    return found


def test_own_lines_match_the_tree_walk() -> None:
    texts = [NESTED, *(p.read_text("utf-8") for p in sorted(SAMPLE.rglob("*.py")))]
    compared = 0
    for text in texts:
        file = ParsedFile(text)
        for node in nodes_of(file):
            assert own_lines(node) == walked(node), (node.ref, text[:60])
            compared += 1
    assert compared > 40


def test_nested_definitions_are_left_out() -> None:
    file = ParsedFile(NESTED)
    outer = next(n for n in nodes_of(file) if n.ref.full_name == "outer")
    mine = own_lines(outer)
    assert {4, 5, 6, 7, 14} <= mine  # decorator, header, body, blank, the return after inner
    assert not mine & set(range(8, 14))  # inner (its decorator too) and what it holds
