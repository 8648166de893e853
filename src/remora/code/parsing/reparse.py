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
run of simple statements (a docstring, a class's attributes, a module's imports, the
statements of an ``if`` or ``try`` block in a function) parses those lines alone
(reparse_statements.py), one inside a function's header (its signature) the header alone,
over the old block, and a change of separate edits each edit so (reparse_steps.py).
Whenever none of that holds (the change crosses a definition's edges, the new text is not
one definition of the same kind, a snippet does not parse), None: the caller parses the
whole text.
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence

import libcst as cst
from libcst.metadata import CodeSpan

from remora.code.parsing.line_breaks import line_start_at
from remora.code.parsing.reparse_spans import NewSpans, SnippetSpans
from remora.code.parsing.reparse_statements import blocks_holding, inserted_at, statements_reparsed
from remora.code.parsing.reparse_steps import edits_of, reparsed_in_steps
from remora.code.parsing.reparse_tree import (
    Reparsed,
    Unreadable,
    changed_region,
    footer_may_follow,
    line_end,
    line_start_of_insertion,
    one_line_ending,
    parse_snippet,
    path_to,
    rebuild_path,
    whole_lines,
)
from remora.code.parsing.source import ParsedFile, byte_spans
from remora.code.parsing.tree_walk import Definition, field_names, qualified_definitions

__all__ = ["Reparsed", "changed_region", "reparsed_spans"]


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
    """The new text's module and byte spans made from ``old``; None: parse the whole text.

    What a small part parsed again takes first; then a change of separate edits edit by edit
    (reparse_steps.py); then the whole definition that holds the change."""
    prefix, suffix = changed_region(old.data, new_data)
    change = (prefix, len(old.data) - suffix)
    try:
        tree = _reparsed(old, new_data, change, whole_definitions=False)
        if tree is not None:
            return tree
        edits = edits_of(old.data, new_data, change, _header_ends(old, *change))
        if edits:
            tree = reparsed_in_steps(old, edits, _in_parts)
            if tree is not None:
                return tree
        return _reparsed(old, new_data, change, whole_definitions=True)
    except Unreadable:
        return None


def _header_ends(old: ParsedFile, prefix: int, end: int) -> list[int]:
    """Where the header of each function holding bytes ``prefix``..``end`` ends (one past its
    line break): a change there and in the body is two edits."""
    found: list[int] = []
    for definition, _ in _holding(old, prefix, end):
        block = definition.body
        if isinstance(block, cst.IndentedBlock):
            header = old.spans[block.header]
            found.append(header.start + header.length)
    return found


def _in_parts(old: ParsedFile, new_data: bytes) -> Reparsed | None:
    prefix, suffix = changed_region(old.data, new_data)
    change = (prefix, len(old.data) - suffix)
    return _reparsed(old, new_data, change, whole_definitions=False)


def _reparsed(
    old: ParsedFile, new_data: bytes, change: tuple[int, int], *, whole_definitions: bool
) -> Reparsed | None:
    """``reparsed_spans`` of one change (``change``: the old text's first and one past its
    last changed byte); ``whole_definitions``: a definition that holds it may be parsed again
    whole. :class:`Unreadable` when a snippet of the new text does not parse."""
    data = old.data
    prefix, end = change
    holding = _holding(old, prefix, end)
    if len(holding) > 1 and _put_before(old, new_data, holding[0][0]):
        # Lines of their own put right before a definition: its parent's statements (a
        # class's docstring before its first method), parsed alone, or else its decorators,
        # which those lines alone do not parse as (then the definition is tried first).
        with contextlib.suppress(Unreadable):
            tree = statements_reparsed(old, new_data, holding[1][0], (prefix, end))
            if tree is not None:
                return tree
    # Lines inserted are, for a block's statements, put at a line's start rather than in
    # its indentation (the block may end right before that line).
    at = line_start_of_insertion(data, new_data, prefix) if prefix == end else None
    in_blocks = (prefix, end) if at is None else (at, at)
    # Text inserted right before a definition lies in its parent: the smallest that
    # parses back as one definition of the same kind is taken. In each, the innermost
    # block of statements first (an ``if``'s in a method), then the definition's own,
    # its header, the whole definition. Without ``whole_definitions``, the innermost alone.
    for definition, old_stop in holding if whole_definitions else holding[:1]:
        for owner in reversed(blocks_holding(old, definition, in_blocks)):
            tree = statements_reparsed(old, new_data, owner, in_blocks)
            if tree is not None:
                return tree
        tree = statements_reparsed(old, new_data, definition, (prefix, end))
        if tree is not None:
            return tree
        tree = _header_replaced(old, new_data, definition, (prefix, end))
        if tree is None and whole_definitions:
            tree = _replaced(old, new_data, definition, old_stop)
        if tree is not None:
            return tree
    if holding and not whole_definitions:
        return None
    # outside every definition: the module's statements, or the whole text
    return statements_reparsed(old, new_data, old.module, (prefix, end))


def _put_before(old: ParsedFile, new_data: bytes, definition: Definition) -> bool:
    """Whether ``new_data`` is the old text with bytes put at the start of the line where
    ``definition`` (its first decorator) starts, and nothing else changed."""
    first = definition.decorators[0] if definition.decorators else definition
    return inserted_at(old.data, new_data, line_start_at(old.data, old.spans[first].start))


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
    footer = footer_may_follow(data, old_stop, len(indent))
    if footer or _ends_without_code(new_data, start, old_stop + delta):
        return None
    text = new_data[start : old_stop + delta]
    if not whole_lines(text, old.module):  # the next line joined the definition's last one
        return None
    parsed = _definition_parsed(old, text, indent, type(definition))
    if parsed is None:
        return None
    snippet, head, node = parsed
    if node.leading_lines:
        # Lines put before the definition's first line (ruff's blank line after the imports,
        # before a class): which are its leading lines only the text before says.
        return None
    replacement = node.with_changes(leading_lines=definition.leading_lines)
    own = SnippetSpans(byte_spans(snippet), start - len(head))
    own[replacement] = own[node]
    return _put(old, definition, replacement, own, own[node], (old_end, delta))


# What a function's header holds: its fields but the lines, decorators and block around it.
_HEADER_FIELDS = tuple(
    name
    for name in field_names(cst.FunctionDef)
    if name not in ("body", "decorators", "leading_lines", "lines_after_decorators")
)


def _header_replaced(
    old: ParsedFile, new_data: bytes, definition: Definition, change: tuple[int, int]
) -> Reparsed | None:
    """A change inside a function's header (``def`` up to its colon: the name, parameters,
    annotations) parsed alone over a ``...`` body, its fields put on the old node, whose block
    and decorators stay. A signature's typing upgrade (``Optional[X]`` to ``X | None``) parsed
    the whole function again: 1,082 of lint's 2,689 runs on SQLAlchemy's orm, 5 ms each."""
    if not isinstance(definition, cst.FunctionDef) or not isinstance(
        definition.body, cst.IndentedBlock
    ):
        return None
    data, (prefix, end) = old.data, change
    span = old.spans[definition]  # from ``async``/``def``, the decorators left out
    colon_end = old.spans[definition.body.header].start  # the header line's rest after ``:``
    if prefix < span.start or end >= colon_end:
        return None
    delta = len(new_data) - len(data)
    text = new_data[span.start : colon_end + delta]
    indent = data[line_start_at(data, span.start) : span.start]
    newline = old.module.default_newline.encode("utf-8")
    if indent.strip() or not text.endswith(b":") or not one_line_ending(text, newline):
        return None
    parsed = _definition_parsed(old, text + b" ..." + newline, indent, cst.FunctionDef)
    if parsed is None:
        return None
    snippet, head, node = parsed
    if node.decorators or node.leading_lines:  # text put before the ``def``: not the header's
        return None
    replacement = definition.with_changes(**{name: getattr(node, name) for name in _HEADER_FIELDS})
    own = SnippetSpans(byte_spans(snippet), span.start - len(head))
    new_span = CodeSpan(span.start, span.length + delta)
    own[replacement] = new_span
    return _put(old, definition, replacement, own, new_span, (colon_end, delta))


def _definition_parsed(
    old: ParsedFile, text: bytes, indent: bytes, kind: type[Definition]
) -> tuple[cst.Module, bytes, Definition] | None:
    """``text``, one definition of ``kind`` at ``indent``, parsed as the file parses it (under
    an ``if 1:`` line when indented): the snippet, that line, the definition."""
    module = old.module
    head = ("if 1:" + module.default_newline).encode("utf-8") + indent if indent else b""
    snippet = parse_snippet(module, head + text, python_first=old.python_reads)
    body: Sequence[cst.CSTNode] = snippet.body
    if indent:
        if len(body) != 1 or not isinstance(body[0], cst.If):
            return None
        body = body[0].body.body
    if len(body) != 1 or type(body[0]) is not kind or snippet.footer or snippet.header:
        return None  # lines before it, at the margin, are the snippet's header: see _replaced
    node = body[0]
    assert isinstance(node, cst.FunctionDef | cst.ClassDef)
    return snippet, head, node


def _put(
    old: ParsedFile,
    definition: Definition,
    replacement: Definition,
    own: SnippetSpans,
    new_span: CodeSpan,
    shifted: tuple[int, int],
) -> Reparsed | None:
    """The new tree with ``replacement`` in ``definition``'s place, the ancestors rebuilt; the
    old spans from ``shifted``'s offset on moved by its change in length."""
    after, delta = shifted
    path = path_to(old.module, definition, old.spans)
    if path is None:
        return None
    rebuilt = rebuild_path(old, path, replacement, own, (old.spans[definition], new_span), delta)
    if rebuilt is None:
        return None
    new, ancestors = rebuilt
    definitions = _definitions(old, definition, replacement, ancestors)
    if definitions is None:
        return None
    return Reparsed(new, NewSpans(old.spans, own, after, delta), definitions)
