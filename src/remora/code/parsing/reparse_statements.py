"""A change inside a run of simple statements parsed again alone (reparse.py's middle way).

A docstring, a class's attribute, a module's import: the lines of the statements the change
touches are parsed again, not the definition or file around them, and put in place of the
old statements; the spans are the snippet's and the old ones around it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

import libcst as cst
from libcst.metadata import CodeSpan

from remora.code.parsing.line_breaks import line_start_at
from remora.code.parsing.reparse_spans import NewSpans, SnippetSpans
from remora.code.parsing.reparse_tree import (
    Reparsed,
    footer_may_follow,
    indent_at,
    line_end,
    parse_snippet,
    path_to,
    rebuild_path,
    whole_lines,
)
from remora.code.parsing.source import ParsedFile, byte_spans
from remora.code.parsing.tree_walk import Definition, qualified_definitions

__all__ = ["BlockOwner", "blocks_holding", "inserted_at", "statements_reparsed"]

# What holds an indented block of statements: a definition, or a clause of a compound statement
# (an ``if``'s own block, its ``else``, a ``try``'s handlers, a ``with``'s, a ``case``'s).
Clause = (
    cst.If
    | cst.Else
    | cst.For
    | cst.While
    | cst.With
    | cst.Try
    | cst.TryStar
    | cst.ExceptHandler
    | cst.ExceptStarHandler
    | cst.Finally
    | cst.MatchCase
)
BlockOwner = Definition | Clause


def statements_reparsed(
    old: ParsedFile, new_data: bytes, owner: BlockOwner | cst.Module, change: tuple[int, int]
) -> Reparsed | None:
    """The change lies in a run of simple statements of ``owner``'s block (a docstring, a
    class's attributes, a module's imports), after the block's header or a simple statement:
    those lines parsed again (under an ``if 1:`` line in a definition; with the module's
    header lines for its first statement) and put in place of the old ones. Parsing the whole
    definition cost a class's size for its docstring or one attribute, and a module-level fix
    (an import, the module's docstring) the whole file's. Simple statements only,
    on both sides: no definition comes or goes, and no compound statement, whose block may
    own the comment lines after it, is at either edge. In a definition's block a run may
    follow a compound statement (a class's attributes after a method) when the change
    leaves the lines before the run's first statement alone: it keeps its old leading lines.
    Lines put first in a block that opens with a compound statement (a class's docstring
    before its first method) are parsed alone too."""
    prefix, end = change
    if isinstance(owner, cst.Module):
        statements: Sequence[cst.BaseStatement] = owner.body
        begin = 0  # the file's first lines: the module's header, then its first statement
    elif isinstance(owner.body, cst.IndentedBlock):
        statements = owner.body.body
        header = old.spans[owner.body.header]
        begin = header.start + header.length  # one past the header line's line break
    else:
        return None
    if prefix < begin:
        return None
    if (
        not isinstance(owner, cst.Module)
        and not isinstance(statements[0], cst.SimpleStatementLine)
        and inserted_at(old.data, new_data, begin)
    ):
        # Lines put first in a block that opens with a compound statement (a docstring
        # before an ``if``): parsed alone and put before it, which keeps its leading lines.
        return _put_statements(old, new_data, owner, (0, 0), (begin, begin), None)
    run: list[int] = []
    kept: Sequence[cst.EmptyLine] | None = None
    for index, statement in enumerate(statements):
        simple = isinstance(statement, cst.SimpleStatementLine)
        if isinstance(statement, cst.SimpleStatementLine):
            last = old.spans[statement.body[-1]]
        elif isinstance(owner, cst.Module) and _without_definitions(statement):
            last = old.spans[statement]  # a module's block of imports: see _without_definitions
        else:
            if run:
                return None
            begin = -1  # the next statement's lines may be this one's block's
            continue
        stop = line_end(old.data, last.start + last.length)
        if stop < 0:
            return None
        if stop < prefix:  # text inserted at a line's end joins that line's statement
            # After a block, the lines up to the next statement are that one's unless one is a
            # comment indented into the block.
            begin = stop if simple or not footer_may_follow(old.data, stop, 0) else -1
            continue
        if begin < 0:
            if isinstance(owner, cst.Module):
                return None  # the whole text, where the interpreter refuses broken edits first
            # After a compound statement: the lines between its block and this statement's
            # code are the block's or this statement's, which only the lines themselves and
            # this line's indentation decide. Unchanged, they stay whose they were: parsed
            # from this statement's own line on, it keeps its old leading lines.
            begin = line_start_at(old.data, old.spans[statement].start)
            if prefix < begin or not isinstance(statement, cst.SimpleStatementLine):
                return None
            kept = statement.leading_lines
        run.append(index)
        if end <= stop:
            if not simple and footer_may_follow(old.data, stop, 0):
                return None  # the lines after its block may be the block's
            break
    else:
        return None
    if begin == stop + len(new_data) - len(old.data) and len(run) == len(statements):
        return None  # a block is never empty
    return _put_statements(old, new_data, owner, (run[0], run[-1] + 1), (begin, stop), kept)


def blocks_holding(old: ParsedFile, owner: Definition, change: tuple[int, int]) -> list[Clause]:
    """The clauses of the compound statements in ``owner``'s block whose own block holds the
    whole change, outermost first: a change in a statement nested in an ``if``, ``for`` or
    ``try`` of a function is parsed with that block's statements, not the whole function
    (lint's fixes inside methods of SQLAlchemy's engine: 85 whole methods, 11 ms each)."""
    prefix, end = change
    found: list[Clause] = []
    node: BlockOwner = owner
    while isinstance(node.body, cst.IndentedBlock):
        inner = next(
            (
                clause
                for statement in node.body.body
                if not isinstance(
                    statement, cst.SimpleStatementLine | cst.FunctionDef | cst.ClassDef
                )
                for clause in _clauses(statement)
                if _block_holds(old, clause, prefix, end)
            ),
            None,
        )
        if inner is None:
            return found
        found.append(inner)
        node = inner
    return found


def _clauses(statement: cst.BaseStatement) -> list[Clause]:
    """Each part of a compound statement that has a block of its own, in source order."""
    if isinstance(statement, cst.If):
        orelse = statement.orelse
        if isinstance(orelse, cst.If):  # an ``elif``
            return [statement, *_clauses(orelse)]
        return [statement, *([orelse] if orelse else [])]
    if isinstance(statement, cst.For | cst.While):
        return [statement, *([statement.orelse] if statement.orelse else [])]
    if isinstance(statement, cst.Try | cst.TryStar):
        rest = [
            *([statement.orelse] if statement.orelse else []),
            *([statement.finalbody] if statement.finalbody else []),
        ]
        return [statement, *statement.handlers, *rest]
    if isinstance(statement, cst.With):
        return [statement]
    if isinstance(statement, cst.Match):
        return list(statement.cases)
    return []


def _block_holds(old: ParsedFile, clause: Clause, prefix: int, end: int) -> bool:
    """Whether the change lies after ``clause``'s header line and within its block's lines."""
    block = clause.body
    if not isinstance(block, cst.IndentedBlock):
        return False
    header, span = old.spans[block.header], old.spans[block]
    stop = line_end(old.data, span.start + span.length)
    return header.start + header.length <= prefix and end <= (len(old.data) if stop < 0 else stop)


def inserted_at(old: bytes, new: bytes, at: int) -> bool:
    """Whether ``new`` is ``old`` with bytes put at byte ``at``, and nothing else changed."""
    delta = len(new) - len(old)
    if delta <= 0:
        return False
    before, after = memoryview(old), memoryview(new)
    return before[:at] == after[:at] and before[at:] == after[at + delta :]


def _parsed(
    module: cst.Module, text: bytes, indented: bool, begin: int
) -> tuple[Sequence[cst.BaseStatement], SnippetSpans, Sequence[cst.EmptyLine] | None] | None:
    """The statements ``text`` (from byte ``begin`` of the new text) holds, simple ones only,
    their spans, and the module's header when ``text`` starts the file; None: anything else."""
    head = ("if 1:" + module.default_newline).encode("utf-8") if indented else b""
    snippet = parse_snippet(module, head + text)
    if snippet.footer or snippet.encoding != module.encoding:
        return None  # a comment last (the next statement's, in the whole text), a coding line
    own = SnippetSpans(byte_spans(snippet), begin - len(head))
    statements: Sequence[cst.BaseStatement] = ()
    header = None
    if indented:
        wrapper = snippet.body[0] if len(snippet.body) == 1 else None
        block = wrapper.body if isinstance(wrapper, cst.If) and not wrapper.orelse else None
        if not isinstance(block, cst.IndentedBlock) or block.footer:
            return None
        statements = block.body
    elif begin == 0:  # the file's first lines: its header
        statements, header = snippet.body, snippet.header
    elif snippet.body:  # the lines before the first statement: its own, not a header
        first = snippet.body[0]
        moved = first.with_changes(leading_lines=(*snippet.header, *first.leading_lines))
        own[moved] = own[first]
        statements = (moved, *snippet.body[1:])
    if not statements or not all(
        isinstance(s, cst.SimpleStatementLine) or (not indented and _without_definitions(s))
        for s in statements
    ):
        return None
    return statements, own, header


def _without_definitions(statement: cst.BaseStatement) -> bool:
    """Whether ``statement`` is a compound statement (an ``if``, a ``try``) holding no class or
    function: a module's imports under ``if TYPE_CHECKING:`` or ``try``, which a module-level
    fix (ruff's import sorting) changes together with the imports around them; a definition
    there would make the file's list of definitions change."""
    if isinstance(statement, cst.SimpleStatementLine | cst.FunctionDef | cst.ClassDef):
        return False
    return next(qualified_definitions(statement), None) is None


def _put_statements(
    old: ParsedFile,
    new_data: bytes,
    owner: BlockOwner | cst.Module,
    replaced: tuple[int, int],
    lines: tuple[int, int],
    leading: Sequence[cst.EmptyLine] | None,
) -> Reparsed | None:
    """``owner``'s statements ``replaced`` (first, past the last), whose lines were
    ``lines`` in the old text, in place of what those lines hold in the new one; the first
    one given ``leading`` lines (the old ones the lines parsed did not hold)."""
    module, (begin, stop), (first, past) = old.module, lines, replaced
    delta = len(new_data) - len(old.data)
    block = None if isinstance(owner, cst.Module) else owner.body
    body = module.body if block is None else cast(cst.IndentedBlock, block).body
    text = new_data[begin : stop + delta]
    if text and not whole_lines(text, module):
        return None
    if not text and begin == 0:
        return None  # the file's first statements gone: whose are the header lines is open
    empty: tuple[Sequence[cst.BaseStatement], SnippetSpans, None] = ((), SnippetSpans({}, 0), None)
    parsed = _parsed(module, text, block is not None, begin) if text else empty
    if parsed is None:
        return None
    statements, own, header = parsed
    if leading is not None:
        opening = statements[0] if statements else None
        if not isinstance(opening, cst.SimpleStatementLine) or opening.leading_lines:
            return None  # lines put before the statement, or it gone: the whole text says
        kept = opening.with_changes(leading_lines=leading)
        own[kept] = own[opening]
        statements = (kept, *statements[1:])
    if statements and indent_at(new_data, own[statements[0]].start) != indent_at(
        old.data, old.spans[body[first]].start
    ):
        return None  # a block's indentation is its first statement's: all must share it
    statements = (*body[:first], *statements, *body[past:])
    spans = NewSpans(old.spans, own, stop, delta)
    ancestors: dict[int, cst.CSTNode]
    if block is None:
        new = module.with_changes(
            body=statements, header=module.header if header is None else header
        )
        own[new] = CodeSpan(0, len(new_data))
        ancestors = {id(module): new}
    else:
        path = path_to(module, owner, old.spans)
        if path is None:
            return None
        new_block = block.with_changes(body=statements)
        # A block's span runs from its first statement's code to its last one's.
        start, last = spans[statements[0]].start, spans[statements[-1]]
        own[new_block] = CodeSpan(start, last.start + last.length - start)
        replacing = (old.spans[block], own[new_block])
        rebuilt = rebuild_path(old, [*path, block], new_block, own, replacing, delta)
        if rebuilt is None:
            return None
        new, ancestors = rebuilt
    # Simple statements only: the definitions are the same nodes, or rebuilt ones.
    definitions = [(name, ancestors.get(id(d), d)) for name, d in old.definitions]
    if any(not isinstance(d, cst.FunctionDef | cst.ClassDef) for _, d in definitions):
        return None
    return Reparsed(new, spans, definitions)  # type: ignore[arg-type]
