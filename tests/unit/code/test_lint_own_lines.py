"""own_lines and statement_lines equal the LibCST visits of the node's tree they replaced."""

from __future__ import annotations

from pathlib import Path

import libcst as cst
import pytest

from remora.code.lint.own_findings import own_lines
from remora.code.lint.statement_units import statement_lines
from remora.code.parsing import NodeRef, ParsedFile, SourceNode, locate

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


class _Units(cst.CSTVisitor):
    """statement_lines' former LibCST visit: the reference its walk must equal."""

    def __init__(self, node: SourceNode, line: int) -> None:
        self.positions, self.line = node.file.positions, line
        self.found: list[tuple[int, int]] = []

    def on_visit(self, item: cst.CSTNode) -> bool:
        if isinstance(item, cst.FunctionDef | cst.ClassDef):
            return False
        body = getattr(item, "body", None)
        unit: tuple[int, int] | None = None
        if isinstance(item, cst.SimpleStatementLine) or isinstance(body, cst.SimpleStatementSuite):
            unit = (self.positions[item].start.line, self.positions[item].end.line)
        elif isinstance(body, cst.IndentedBlock):
            unit = (self.positions[item].start.line, self.positions[body.header].start.line)
        if unit is not None and unit[0] <= self.line <= unit[1]:
            self.found.append(unit)
        return True


@pytest.mark.parametrize("path", sorted(SAMPLE.rglob("*.py")), ids=lambda p: p.name)
def test_statement_lines_by_walk_equal_a_libcst_visit(path: Path) -> None:
    file = ParsedFile(path.read_text(), str(path))
    nodes = [locate(file, NodeRef("file", str(path)))] + [
        SourceNode(file, NodeRef("function", name, 1), definition)
        for name, definition in file.definitions
    ]
    for node in nodes:
        first, last = node.file.line_of(node.start_byte()), node.file.line_of(node.end_byte())
        for line in range(first, last + 1):
            units = _Units(node, line)
            for statement in node.body_statements:
                statement.visit(units)
            expected = units.found[-1] if units.found else (line, line)
            assert statement_lines(node, line) == expected, (node.ref.full_name, line)
