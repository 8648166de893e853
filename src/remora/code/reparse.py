"""A file's new text parsed from its old parse when the change lies inside one definition.

A run changes one node of its file (a lint fix, a docstring) and then asks
about the new text; parsing the whole file again (LibCST's tree and byte spans)
made every change cost the whole file's size, so a file of N nodes cost
quadratic time. Here only the innermost class or function holding the change
is parsed again (its text under an ``if 1:`` line that gives it its
indentation, with the file's indentation unit and line ending), put in place of
the old one along the path of its ancestors (the other subtrees are the same
objects), and the byte spans are the new definition's own, the old ones before
it, and the old ones shifted by the change in length after it. Whenever any of
that does not hold (the change crosses a definition's edges, the new text is
not one definition of the same kind), None: the caller parses the whole text.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import NamedTuple

import libcst as cst
from libcst.metadata import CodeSpan

from remora.code.reparse_spans import NewSpans, SnippetSpans
from remora.code.source import (
    Definition,
    ParsedFile,
    byte_spans,
    qualified_definitions,
    statement_children,
)

__all__ = ["Reparsed", "changed_region", "reparsed_spans"]


def _snippet(module: cst.Module, source: bytes) -> cst.Module | None:
    """``source`` parsed as the file's module parses it (its indentation unit and line
    ending); None when it does not parse."""
    config = cst.PartialParserConfig(
        default_indent=module.default_indent, default_newline=module.default_newline
    )
    try:
        return cst.parse_module(source.decode("utf-8"), config=config)
    except cst.ParserSyntaxError:
        return None


def changed_region(old: bytes, new: bytes) -> tuple[int, int]:
    """(p, q): ``old`` and ``new`` share their first p and last q bytes, p + q <= both lengths."""
    limit = min(len(old), len(new))
    lo, hi = 0, limit  # binary search on slice equality (memcmp), not a byte-by-byte loop
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if old[:mid] == new[:mid]:
            lo = mid
        else:
            hi = mid - 1
    prefix = lo
    lo, hi = 0, limit - prefix
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if old[len(old) - mid :] == new[len(new) - mid :]:
            lo = mid
        else:
            hi = mid - 1
    return prefix, lo


def _path_to(
    root: cst.CSTNode, target: cst.CSTNode, spans: Mapping[cst.CSTNode, CodeSpan]
) -> list[cst.CSTNode] | None:
    """``root``, ..., ``target`` through statement bodies (None when not found).

    Only children whose byte span holds the target's start are searched (a node
    without a span, whitespace, is searched too): the walk costs the path's
    length times the bodies' breadth, not the whole tree.
    """
    if root is target:
        return [root]
    at = spans[target].start
    for child in statement_children(root):
        span = spans.get(child)
        if span is not None and not span.start <= at < span.start + max(span.length, 1):
            continue
        below = _path_to(child, target, spans)
        if below is not None:
            return [root, *below]
    return None


def _with_child(parent: cst.CSTNode, old: cst.CSTNode, new: cst.CSTNode) -> cst.CSTNode | None:
    """``parent`` with its direct child ``old`` (a field, or an item of one) replaced by ``new``."""
    for field in dataclasses.fields(parent):
        value = getattr(parent, field.name)
        if value is old:
            return parent.with_changes(**{field.name: new})
        if isinstance(value, Sequence) and not isinstance(value, str | bytes):
            for index, item in enumerate(value):
                if item is old:
                    items = [*value[:index], new, *value[index + 1 :]]
                    fresh = tuple(items) if isinstance(value, tuple) else items
                    return parent.with_changes(**{field.name: fresh})
    return None


def _one_line_ending(text: bytes, newline: bytes) -> bool:
    """Whether every line break of ``text`` is ``newline``."""
    lf, cr = text.count(b"\n"), text.count(b"\r")
    if newline == b"\r\n":
        return lf == cr == text.count(b"\r\n")
    return cr == 0 if newline == b"\n" else lf == 0


def _line_end(data: bytes, offset: int) -> int:
    """One past the line break that ends the line holding ``offset`` (-1 on the last line)."""
    ends = [i for i in (data.find(b"\n", offset), data.find(b"\r", offset)) if i >= 0]
    if not ends:
        return -1
    end = min(ends)
    return end + 2 if data[end : end + 2] == b"\r\n" else end + 1


def _footer_may_follow(data: bytes, offset: int, indent: int) -> bool:
    """Whether a line from ``offset`` on, before the next line of code, may belong to the
    definition's block (its footer): LibCST gives the block the blank and comment lines up to
    the last one that starts with the block's own indentation, which is longer than the
    ``indent`` bytes of the ``def``/``class`` line; lines no more indented than that belong
    to what follows (measured on click: 12 of 28 whole parses of a docstring run were a
    comment at the margin after a function)."""
    while offset < len(data):
        end = _line_end(data, offset)
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
        span = file.spans[definition]
        hi = _line_end(file.data, span.start + span.length)
        if hi >= 0 and lo <= start and end <= hi:
            found.append((hi - lo, definition, hi))
    found.sort(key=lambda item: item[0])
    return [(definition, hi) for _, definition, hi in found]


class Reparsed(NamedTuple):
    """The new text's module, byte spans and definitions (qualified name, node) in file order."""

    module: cst.Module
    spans: Mapping[cst.CSTNode, CodeSpan]
    definitions: list[tuple[str, Definition]]


def reparsed_spans(old: ParsedFile, new_data: bytes) -> Reparsed | None:
    """The new text's module and byte spans made from ``old``; None: parse the whole text."""
    data = old.data
    prefix, suffix = changed_region(data, new_data)
    # Text inserted right before a definition lies in its parent: the smallest that parses
    # back as one definition of the same kind is taken.
    end = len(data) - suffix
    for definition, old_stop in _holding(old, prefix, end):
        tree = _block_head(old, new_data, definition, (prefix, end))
        if tree is None:
            tree = _replaced(old, new_data, definition, old_stop)
        if tree is not None:
            return tree
    # outside every definition: the module's head, or else the whole text
    return _module_head(old, new_data, end)


def _module_head(old: ParsedFile, new_data: bytes, end: int) -> Reparsed | None:
    """The change ends by the line break after the module's first statement, a simple one (a
    module docstring written or replaced): the new text up to there parsed as a module of its
    own, its header and statements put before the old other statements. Only simple statements
    on both sides, so the file's first indented block, where LibCST finds the indentation
    unit, is in the unchanged rest."""
    module, data = old.module, old.data
    if not module.body or not isinstance(module.body[0], cst.SimpleStatementLine):
        return None
    last = old.spans[module.body[0].body[-1]]
    stop = _line_end(data, last.start + last.length)
    if stop < 0 or end > stop:
        return None
    delta = len(new_data) - len(data)
    head = new_data[: stop + delta]
    newline = module.default_newline.encode("utf-8")
    if not head.endswith(newline) or not _one_line_ending(head, newline):
        return None  # as in _replaced: the whole parse would find another line ending
    snippet = _snippet(module, head)
    if snippet is None:
        return None
    simple = all(isinstance(s, cst.SimpleStatementLine) for s in snippet.body)
    if not snippet.body or not simple or snippet.footer or snippet.encoding != module.encoding:
        return None  # a comment last (the next statement's, in the whole text), a coding line
    new = module.with_changes(header=snippet.header, body=(*snippet.body, *module.body[1:]))
    own = SnippetSpans(byte_spans(snippet), 0)
    own[new] = CodeSpan(0, len(new_data))
    # The first statement was simple: every definition is in the rest, the same nodes.
    return Reparsed(new, NewSpans(old.spans, own, stop, delta), list(old.definitions))


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
    indent_start = max(data.rfind(b"\n", 0, start), data.rfind(b"\r", 0, start)) + 1
    indent = data[indent_start:start]
    if indent.strip():
        return None
    footer = _footer_may_follow(data, old_stop, len(indent))
    if footer or _ends_without_code(new_data, start, old_stop + delta):
        return None
    module = old.module
    text = new_data[start : old_stop + delta]
    newline = module.default_newline.encode("utf-8")
    if not text.endswith(newline) or not _one_line_ending(text, newline):
        # The next line joined the definition's last one, or a line ending other than the
        # file's own (LibCST would write the file's): the whole text is parsed.
        return None
    head = ("if 1:" + module.default_newline).encode("utf-8") + indent if indent else b""
    source = head + text
    snippet = _snippet(module, source)
    if snippet is None:
        return None
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
    path = _path_to(module, definition, old.spans)
    if path is None:
        return None
    shift = start - len(head)
    own = SnippetSpans(byte_spans(snippet), shift)
    own[replacement] = own[parsed]
    rebuilt = _rebuilt(old, path, replacement, own, (span, own[parsed]), delta)
    if rebuilt is None:
        return None
    new, ancestors = rebuilt
    definitions = _definitions(old, definition, replacement, ancestors)
    if definitions is None:
        return None
    return Reparsed(new, NewSpans(old.spans, own, old_end, delta), definitions)


def _rebuilt(
    old: ParsedFile,
    path: list[cst.CSTNode],
    new: cst.CSTNode,
    own: SnippetSpans,
    replaced: tuple[CodeSpan, CodeSpan],
    delta: int,
) -> tuple[cst.Module, dict[int, cst.CSTNode]] | None:
    """The module with ``path``'s last node replaced by ``new``, each ancestor rebuilt (by the
    old node's id) and its span put in ``own``; ``replaced``: the old node's span and the new
    one's, in a text ``delta`` bytes longer."""
    old_span, new_span = replaced
    old_end, new_end = old_span.start + old_span.length, new_span.start + new_span.length
    ancestors: dict[int, cst.CSTNode] = {}
    for parent, child in zip(reversed(path[:-1]), reversed(path[1:]), strict=True):
        rebuilt = _with_child(parent, child, new)
        if rebuilt is None:
            return None
        ancestors[id(parent)] = rebuilt
        if isinstance(parent, cst.Module):
            own[rebuilt] = CodeSpan(0, len(old.data) + delta)
        else:
            # A span ends where its last statement's code ends (a trailing comment is not
            # in it), a block's starts where its first one's code does: an ancestor that
            # ended or started with the replaced node ends or starts where the new one does.
            parent_span = old.spans[parent]
            parent_end = parent_span.start + parent_span.length
            end = new_end if parent_end == old_end else parent_end + delta
            start = new_span.start if parent_span.start == old_span.start else parent_span.start
            own[rebuilt] = CodeSpan(start, end - start)
        new = rebuilt
    assert isinstance(new, cst.Module)
    return new, ancestors


def _block_head(
    old: ParsedFile, new_data: bytes, definition: Definition, change: tuple[int, int]
) -> Reparsed | None:
    """The change lies after the definition's header line and ends by the line break after
    its first statement, a simple one (its docstring written or replaced): those lines parsed
    again under an ``if 1:`` line and put before the body's other statements. Parsing the
    whole definition cost a class's size for its docstring (most of a docstring run's
    re-parsing on click)."""
    body = definition.body
    if not isinstance(body, cst.IndentedBlock) or not isinstance(
        body.body[0], cst.SimpleStatementLine
    ):
        return None
    data, module = old.data, old.module
    prefix, end = change
    header = old.spans[body.header]
    begin = header.start + header.length  # one past the header line's line break
    first = old.spans[body.body[0]]
    last = old.spans[body.body[0].body[-1]]
    stop = _line_end(data, last.start + last.length)
    delta = len(new_data) - len(data)
    if stop < 0 or prefix < begin or end > stop:
        return None
    text = new_data[begin : stop + delta]
    newline = module.default_newline.encode("utf-8")
    if not text.endswith(newline) or not _one_line_ending(text, newline):
        return None
    head = ("if 1:" + module.default_newline).encode("utf-8")
    snippet = _snippet(module, head + text)
    if snippet is None:
        return None
    wrapper = snippet.body[0] if len(snippet.body) == 1 else None
    if not isinstance(wrapper, cst.If) or wrapper.orelse or snippet.footer:
        return None
    block = wrapper.body
    if not isinstance(block, cst.IndentedBlock) or block.footer:
        return None  # a comment last: the next statement's or the block's, as the rest says
    statements = block.body
    if not all(isinstance(s, cst.SimpleStatementLine) for s in statements):
        return None
    shift = begin - len(head)
    own = SnippetSpans(byte_spans(snippet), shift)
    # The block's indentation is its first statement's: the rest of the body must find the same.
    if _indent_at(new_data, own[statements[0]].start) != _indent_at(data, first.start):
        return None
    path = _path_to(module, definition, old.spans)
    if path is None:
        return None
    new_block = body.with_changes(body=(*statements, *body.body[1:]))
    # The block's span runs from its first statement's code to its last one's.
    start, last_new = own[statements[0]].start, own[statements[-1]]
    span = old.spans[body]
    block_end = span.start + span.length
    if block_end == first.start + first.length:
        block_end = last_new.start + last_new.length
    else:
        block_end += delta
    own[new_block] = CodeSpan(start, block_end - start)
    rebuilt = _rebuilt(old, [*path, body], new_block, own, (span, own[new_block]), delta)
    if rebuilt is None:
        return None
    new, ancestors = rebuilt
    # The first statement was simple: the definitions are the same nodes, or rebuilt ones.
    definitions = [(name, ancestors.get(id(d), d)) for name, d in old.definitions]
    if any(not isinstance(d, cst.FunctionDef | cst.ClassDef) for _, d in definitions):
        return None
    return Reparsed(new, NewSpans(old.spans, own, stop, delta), definitions)  # type: ignore[arg-type]


def _indent_at(data: bytes, offset: int) -> bytes:
    """The whitespace that starts the line holding ``offset``."""
    start = max(data.rfind(b"\n", 0, offset), data.rfind(b"\r", 0, offset)) + 1
    line = data[start:offset]
    return line[: len(line) - len(line.lstrip(b" \t\f"))]
