"""The pieces of a partial parse (reparse.py, reparse_statements.py): a snippet parsed as the
file's module parses it, the byte-level line helpers, and a node's ancestors rebuilt around
its replacement."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import NamedTuple

import libcst as cst
from libcst.metadata import CodeSpan

from remora.code.parsing.line_breaks import line_break_at, line_start_at
from remora.code.parsing.reparse_spans import SnippetSpans
from remora.code.parsing.source import ParsedFile, python_syntax_error
from remora.code.parsing.tree_walk import Definition, field_names, statement_children

__all__ = [
    "Reparsed",
    "Unreadable",
    "changed_region",
    "footer_may_follow",
    "indent_at",
    "line_end",
    "line_start_of_insertion",
    "one_line_ending",
    "parse_snippet",
    "path_to",
    "rebuild_path",
    "whole_lines",
]


class Unreadable(Exception):
    """A snippet of the new text does not parse: a larger one will not either (short of a
    bracket or string the change opened and a later line closes), so the whole text is
    parsed, where the interpreter's parser refuses a broken edit fastest. Trying each
    larger definition was most of a lint run's cost on a large class (SQLAlchemy's
    PGDialect, 75 KB, parsed again for every broken edit of one of its methods)."""


def parse_snippet(module: cst.Module, source: bytes, *, python_first: bool = False) -> cst.Module:
    """``source`` parsed as the file's module parses it (its indentation unit and line
    ending); :class:`Unreadable` when it does not parse.

    ``python_first`` (the file's old text is one the interpreter reads): the interpreter's
    parser, ~30x faster than LibCST's, refuses a snippet that does not parse before LibCST
    tries; on SQLAlchemy's SQLCompiler (200 KB) a broken edit of its own lines took LibCST
    240 ms to refuse, 130 times in one lint pass of the file.
    """
    if python_first and python_syntax_error(source) is not None:
        raise Unreadable
    config = cst.PartialParserConfig(
        default_indent=module.default_indent, default_newline=module.default_newline
    )
    try:
        return cst.parse_module(source.decode("utf-8"), config=config)
    except (cst.ParserSyntaxError, cst.CSTValidationError):  # a bare except: not last
        raise Unreadable from None


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


def line_start_of_insertion(old: bytes, new: bytes, at: int) -> int:
    """Where bytes inserted at ``at`` may as well have been put: the start of ``at``'s line,
    when ``at`` is inside that line's indentation and the inserted bytes end with it. A line
    added at the end of a block before a dedented one (``value = 0`` then ``finally:``) shares
    the next line's indentation with it, so the common prefix ends inside that indentation,
    outside the block the line was added to."""
    start = line_start_at(old, at)
    indent = old[start:at]
    delta = len(new) - len(old)
    if start == at or indent.strip() or not new[at : at + delta].endswith(indent):
        return at
    return start


def path_to(
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
        below = path_to(child, target, spans)
        if below is not None:
            return [root, *below]
    return None


def _with_child(parent: cst.CSTNode, old: cst.CSTNode, new: cst.CSTNode) -> cst.CSTNode | None:
    """``parent`` with its direct child ``old`` (a field, or an item of one) replaced by ``new``."""
    for name in field_names(type(parent)):
        value = getattr(parent, name)
        if value is old:
            return parent.with_changes(**{name: new})
        if isinstance(value, Sequence) and not isinstance(value, str | bytes):
            for index, item in enumerate(value):
                if item is old:
                    items = [*value[:index], new, *value[index + 1 :]]
                    fresh = tuple(items) if isinstance(value, tuple) else items
                    return parent.with_changes(**{name: fresh})
    return None


def one_line_ending(text: bytes, newline: bytes) -> bool:
    """Whether every line break of ``text`` is ``newline``."""
    lf, cr = text.count(b"\n"), text.count(b"\r")
    if newline == b"\r\n":
        return lf == cr == text.count(b"\r\n")
    return cr == 0 if newline == b"\n" else lf == 0


def whole_lines(text: bytes, module: cst.Module) -> bool:
    """Whether ``text`` ends with a line break and breaks lines with the file's own only
    (LibCST writes the file's line ending, so a snippet with another would differ)."""
    newline = module.default_newline.encode("utf-8")
    return text.endswith(newline) and one_line_ending(text, newline)


def line_end(data: bytes, offset: int) -> int:
    """One past the line break that ends the line holding ``offset`` (-1 on the last line)."""
    end = line_break_at(data, offset)
    if end == len(data):
        return -1
    return end + 2 if data[end : end + 2] == b"\r\n" else end + 1


def footer_may_follow(data: bytes, offset: int, indent: int) -> bool:
    """Whether a line from ``offset`` on, before the next line of code, may belong to the
    block that ends there (its footer): LibCST gives the block the blank and comment lines up
    to the last one that starts with the block's own indentation, which is longer than the
    ``indent`` bytes of the line that opens it (``def``, ``class``, ``if``); lines no more
    indented than that belong to what follows (measured on click: 12 of 28 whole parses of
    a docstring run were a comment at the margin after a function)."""
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


class Reparsed(NamedTuple):
    """The new text's module, byte spans and definitions (qualified name, node) in file order."""

    module: cst.Module
    spans: Mapping[cst.CSTNode, CodeSpan]
    definitions: list[tuple[str, Definition]]


def rebuild_path(
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


def indent_at(data: bytes, offset: int) -> bytes:
    """The whitespace that starts the line holding ``offset``."""
    line = data[line_start_at(data, offset) : offset]
    return line[: len(line) - len(line.lstrip(b" \t\f"))]
