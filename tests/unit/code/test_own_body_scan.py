"""node_raises and node_returns read a definition's own code from its tree's fields: the same
answers as a LibCST visit of it (the oracle below), on the sample project, on stdlib
modules nobody here wrote, and on the shapes that steer the scan."""

from __future__ import annotations

import argparse
import json.decoder
import subprocess
from pathlib import Path
from typing import Any

import libcst as cst

from remora.code.parsing import NodeRef, ParsedFile, locate, node_raises, node_returns, parse

SAMPLE = Path(__file__).resolve().parents[3] / "examples" / "sample_project"

SHAPES = """
def shapes(x):
    def inner():
        raise Hidden()
        yield 1

    class Local:
        def method(self):
            return "hidden"

    fn = lambda: (yield)
    try:
        with open(x) as f:
            raise errors.Bad(f) from None
    except (KeyError, IndexError):
        try:
            pass
        except OSError:
            raise
        raise
    match x:
        case 1:
            raise Matched
        case _:
            return None
    if x:
        return x
    yield from ()
"""


class _Visit(cst.CSTVisitor):
    """A LibCST visit of the node's own statements (nested definitions and lambdas left)."""

    def __init__(self, file: ParsedFile) -> None:
        self.file = file
        self.handlers: list[list[str]] = []
        self.raised: list[tuple[str, int, bool]] = []
        self.value_returns = 0
        self.yields = 0

    def on_visit(self, node: cst.CSTNode) -> bool:
        if isinstance(node, cst.FunctionDef | cst.ClassDef | cst.Lambda):
            return False
        return super().on_visit(node)

    def visit_ExceptHandler(self, node: cst.ExceptHandler) -> None:
        caught = node.type
        if caught is None:
            self.handlers.append(["BaseException"])
        elif isinstance(caught, cst.Tuple):
            self.handlers.append([self.file.code(e.value) for e in caught.elements])
        else:
            self.handlers.append([self.file.code(caught)])

    def leave_ExceptHandler(self, original_node: cst.ExceptHandler) -> None:
        self.handlers.pop()

    def visit_Raise(self, node: cst.Raise) -> None:
        line = self.file.positions[node].start.line
        if node.exc is None:
            names = self.handlers[-1] if self.handlers else []
        else:
            target = node.exc.func if isinstance(node.exc, cst.Call) else node.exc
            names = [self.file.code(target)]
        self.raised += [(name, line, node.exc is None) for name in names]

    def visit_Return(self, node: cst.Return) -> None:
        value = node.value
        if value is not None and not (isinstance(value, cst.Name) and value.value == "None"):
            self.value_returns += 1

    def visit_Yield(self, node: cst.Yield) -> None:
        self.yields += 1


def _by_visit(file: ParsedFile, definition: cst.FunctionDef) -> tuple[Any, ...]:
    visit = _Visit(file)
    body = definition.body
    for statement in body.body if isinstance(body, cst.IndentedBlock) else [body]:
        statement.visit(visit)
    first: dict[str, tuple[str, int, bool]] = {}
    for row in visit.raised:
        first.setdefault(row[0], row)
    return list(first.values()), visit.value_returns > 0, visit.yields > 0


def test_every_function_scans_as_a_visit_finds() -> None:
    texts = [p.read_text(encoding="utf-8") for p in sorted(SAMPLE.rglob("*.py"))]
    texts += [Path(m.__file__ or "").read_text() for m in (argparse, json.decoder, subprocess)]
    texts.append(SHAPES)
    checked = 0
    for index, text in enumerate(texts):
        file = parse(text, f"scanned_{index}.py")
        for name, definition in file.definitions:
            if not isinstance(definition, cst.FunctionDef):
                continue
            line = file.positions[definition].start.line
            node = locate(file, NodeRef("function", name, line))
            raised = [(r["name"], r["line"], r["reraise"]) for r in node_raises(node)]
            returns = node_returns(node)
            annotation_says_none = returns["annotation"] in ("None", "NoReturn", "Never")
            expected, value_returns, yields = _by_visit(file, definition)
            assert raised == expected, name
            assert returns["returns_value"] == (value_returns and not annotation_says_none), name
            assert returns["is_generator"] == yields, name
            checked += 1
    assert checked > 200


def test_the_shapes_that_steer_the_scan() -> None:
    node = locate(parse(SHAPES, "shapes.py"), NodeRef("function", "shapes", 2))
    assert [(r["name"], r["reraise"]) for r in node_raises(node)] == [
        ("errors.Bad", False),  # the nested def's Hidden is its own
        ("OSError", True),
        ("KeyError", True),  # the bare raise after the inner try: the outer handler's again
        ("IndexError", True),
        ("Matched", False),
    ]
    assert node_returns(node) == {"returns_value": True, "is_generator": True, "annotation": None}
