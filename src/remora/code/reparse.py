"""A file's new text parsed from its old parse when the change lies inside one definition.

A run changes one node of its file (a lint fix, a docstring) and then asks
about the new text; parsing the whole file again (LibCST's tree and byte spans)
made every change cost the whole file's size, so a file of N nodes cost
quadratic time. Here only the innermost class or function holding the change
is parsed again (its text under an ``if 1:`` line that gives it its
indentation, with the file's indentation unit and line ending), put in place of
the old one along the path of its ancestors (the other subtrees are the same
objects), and the byte spans are the new definition's own, the old ones before
it, and the old ones shifted by the change in length after it. A change in a
run of simple statements (a docstring, a class's attributes, a module's imports)
parses those lines alone (reparse_statements.py). Whenever none of that holds
(the change crosses a definition's edges, the new text is not one definition of
the same kind, a snippet does not parse), None: the caller parses the whole text.
"""

from __future__ import annotations

from collections.abc import Sequence

import libcst as cst

from remora.code.line_breaks import line_start_at
from remora.code.reparse_spans import NewSpans, SnippetSpans
from remora.code.reparse_statements import statements_reparsed
from remora.code.reparse_tree import (
    Reparsed,
    Unreadable,
    changed_region,
    line_end,
    one_line_ending,
    parse_snippet,
    path_to,
    rebuild_path,
)
from remora.code.source import (
    Definition,
    ParsedFile,
    byte_spans,
    qualified_definitions,
)

__all__ = ["Reparsed", "changed_region", "reparsed_spans"]


def _footer_may_follow(data: bytes, offset: int, indent: int) -> bool:
    """Whether a line from ``offset`` on, before the next line of code, may belong to the
    definition's block (its footer): LibCST gives the block the blank and comment lines up to
    the last one that starts with the block's own indentation, which is longer than the
    ``indent`` bytes of the ``def``/``class`` line; lines no more indented than that belong
    to what follows (measured on click: 12 of 28 whole parses of a docstring run were a
    comment at the margin after a function)."""
    while offset < len(data):
        end = line_end(data, offset)
        line = data[offset : end if end >= 0 else len(data)].rstrip(b"\r\n")
        code = line.lstrip(b" \t\f")
        if code and not code.startswith(b"#"):
            return False
        if len(line) - len(code) > indent:
            return True
        if end < 0:
            return False
        offset = end
    return False


def _ends_without_code(data: bytes, start: int, stop: int) -> bool:
    """Whether the last line of ``data[start:stop]`` is blank or a comment (whose owner, the
    definition's block or the next statement, only the whole text tells)."""
    text = data[start:stop].rstrip(b"\r\n")
    last = text[max(text.rfind(b"\n"), text.rfind(b"\r")) + 1 :].strip()
    return not last or last.startswith(b"#")


def _holding(file: ParsedFile, start: int, end: int) -> list[tuple[Definition, int]]:
    """The definitions holding bytes ``start``..``end`` (from the first decorator through the
    last line's line break), smallest first, each with one past that line break."""
    found: list[tuple[int, Definition, int]] = []
    for _, definition in file.definitions:
        first = definition.decorators[0] if definition.decorators else definition
        lo = file.spans[first].start
        if lo > start:
            break  # in file order: the later ones start later still
        span = file.spans[definition]
        hi = line_end(file.data, span.start + span.length)
        if hi >= 0 and end <= hi:
            found.append((hi - lo, definition, hi))
    found.sort(key=lambda item: item[0])
    return [(definition, hi) for _, definition, hi in found]


def reparsed_spans(old: ParsedFile, new_data: bytes) -> Reparsed | None:
    """The new text's module and byte spans made from ``old``; None: parse the whole text."""
    data = old.data
    prefix, suffix = changed_region(data, new_data)
    end = len(data) - suffix
    try:
        # Text inserted right before a definition lies in its parent: the smallest that
        # parses back as one definition of the same kind is taken.
        for definition, old_stop in _holding(old, prefix, end):
            tree = statements_reparsed(old, new_data, definition, (prefix, end))
            if tree is None:
                tree = _replaced(old, new_data, definition, old_stop)
            if tree is not None:
                return tree
        # outside every definition: the module's statements, or the whole text
        return statements_reparsed(old, new_data, old.module, (prefix, end))
    except Unreadable:
        return None


def _definitions(
    old: ParsedFile,
    definition: Definition,
    replacement: Definition,
    rebuilt: dict[int, cst.CSTNode],
) -> list[tuple[str, Definition]] | None:
    """The new tree's definitions from the old list: ``definition`` and the ones inside it
    found again in ``replacement``, its ancestors (``rebuilt``, by the old node's id) the new
    nodes, the others the same. Listing them from the whole tree cost the file's size."""
    names = old.definitions
    index = next((i for i, (_, node) in enumerate(names) if node is definition), None)
    if index is None:
        return None
    name = names[index][0]
    stop = index + 1  # the definitions inside it follow it (pre-order), named under it
    while stop < len(names) and names[stop][0].startswith(name + "."):
        stop += 1
    inside = list(qualified_definitions(replacement, name.split(".")[:-1]))

    def current(entry: tuple[str, Definition]) -> tuple[str, Definition]:
        node = rebuilt.get(id(entry[1]), entry[1])
        assert isinstance(node, cst.FunctionDef | cst.ClassDef)
        return entry[0], node

    return [*map(current, names[:index]), *inside, *map(current, names[stop:])]


def _replaced(
    old: ParsedFile, new_data: bytes, definition: Definition, old_stop: int
) -> Reparsed | None:
    data = old.data
    first = definition.decorators[0] if definition.decorators else definition
    start = old.spans[first].start
    delta = len(new_data) - len(data)
    span = old.spans[definition]
    old_end = span.start + span.length
    indent_start = line_start_at(data, start)
    indent = data[indent_start:start]
    if indent.strip():
        return None
    footer = _footer_may_follow(data, old_stop, len(indent))
    if footer or _ends_without_code(new_data, start, old_stop + delta):
        return None
    module = old.module
    text = new_data[start : old_stop + delta]
    newline = module.default_newline.encode("utf-8")
    if not text.endswith(newline) or not one_line_ending(text, newline):
        # The next line joined the definition's last one, or a line ending other than the
        # file's own (LibCST would write the file's): the whole text is parsed.
        return None
    head = ("if 1:" + module.default_newline).encode("utf-8") + indent if indent else b""
    source = head + text
    snippet = parse_snippet(module, source, python_first=old.python_reads)
    body: Sequence[cst.CSTNode] = snippet.body
    if indent:
        if len(body) != 1 or not isinstance(body[0], cst.If):
            return None
        body = body[0].body.body
    if len(body) != 1 or type(body[0]) is not type(definition) or snippet.footer:
        return None
    parsed = body[0]
    assert isinstance(parsed, cst.FunctionDef | cst.ClassDef)
    replacement = parsed.with_changes(leading_lines=definition.leading_lines)
    path = path_to(module, definition, old.spans)
    if path is None:
        return None
    shift = start - len(head)
    own = SnippetSpans(byte_spans(snippet), shift)
    own[replacement] = own[parsed]
    rebuilt = rebuild_path(old, path, replacement, own, (span, own[parsed]), delta)
    if rebuilt is None:
        return None
    new, ancestors = rebuilt
    definitions = _definitions(old, definition, replacement, ancestors)
    if definitions is None:
        return None
    return Reparsed(new, NewSpans(old.spans, own, old_end, delta), definitions)
