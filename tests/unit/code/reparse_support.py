"""What the partial-parse tests share: a partial parse compared with the whole parse, node by
node, and the snippets parsed."""

from __future__ import annotations

import libcst as cst
import pytest

from remora.code.parsing import ParsedFile, qualified_definitions
from remora.code.parsing.reparse import reparsed_spans


def nodes(node: cst.CSTNode) -> list[cst.CSTNode]:
    found = [node]
    for child in node.children:
        found.extend(nodes(child))
    return found


def assert_same_as_whole_parse(old: ParsedFile, new_text: str) -> None:
    tree = reparsed_spans(old, new_text.encode("utf-8"))
    assert tree is not None, "expected a partial parse"
    derived = ParsedFile(new_text, tree=(tree.module, tree.spans), definitions=tree.definitions)
    whole = ParsedFile(new_text)
    assert derived.module.code == new_text
    assert [n for n, _ in derived.definitions] == [n for n, _ in whole.definitions]
    # The definitions made from the old list are the new tree's own nodes.
    found = qualified_definitions(derived.module)
    assert [(n, id(d)) for n, d in derived.definitions] == [(n, id(d)) for n, d in found]
    pairs = list(zip(nodes(whole.module), nodes(derived.module), strict=True))
    compared = 0
    for expected, got in pairs:
        assert type(expected) is type(got)
        try:
            span = whole.spans[expected]
        except KeyError:  # LibCST gives whitespace and tokens no span
            continue
        assert derived.spans[got] == span, type(expected).__name__
        assert derived.positions[got] == whole.positions[expected]
        compared += 1
    assert compared > 50


def snippet_sources(monkeypatch: pytest.MonkeyPatch) -> list[bytes]:
    """The source of each snippet parsed from now on (whole definitions, headers, statements)."""
    import remora.code.parsing.reparse as reparse
    import remora.code.parsing.reparse_statements as statements

    sources: list[bytes] = []
    real = reparse.parse_snippet

    def kept(module: cst.Module, source: bytes, *, python_first: bool = False) -> cst.Module:
        sources.append(source)
        return real(module, source, python_first=python_first)

    monkeypatch.setattr(reparse, "parse_snippet", kept)
    monkeypatch.setattr(statements, "parse_snippet", kept)
    return sources
