"""What a three-way merge of a Python module brought in, tidied by meaning (LibCST).

When both sides of a merge added to the same place (two changes each adding tests
to one test file, each with the imports its tests need), the text merge keeps
both additions one after the other. That parses, but reads as two files glued
together. Here the top-level statements the merge brought in from the change
(those the project's file did not have) are put where a maintainer would put
them:

- an import from the change's own import block joins the project's imports: a
  ``from m import x`` adds its names to the project's ``from m import ...``
  statement, an import already there is dropped, any other goes where
  :mod:`remora.workspace.import_block` puts an import;
- a function or class already there, identical, is dropped (two changes that
  add the same fixture add it once);
- a function or class that takes the name of a different one already there is
  a conflict, named by its line in the project's file.

Only what came from the change moves; the project's own statements stay as
they are, byte for byte.
"""

from __future__ import annotations

import ast
from collections import Counter
from dataclasses import dataclass

import libcst as cst
from libcst.metadata import MetadataWrapper, PositionProvider

from remora import python_ast
from remora.workspace.import_block import (
    ImportKey,
    from_key,
    insert_import,
    is_docstring,
    join_names,
    only_import,
)

__all__ = ["Tidied", "join_additions", "tidy_merged_module"]

_Span = tuple[int, int]


@dataclass(frozen=True, slots=True)
class Tidied:
    """The tidied module text, or None with the project's lines that clash."""

    text: str | None
    lines: tuple[_Span, ...] = ()
    reason: str = ""


def _key(module: cst.Module, stmt: cst.BaseStatement) -> str:
    """A statement's code without the blank lines and comments above it."""
    return module.code_for_node(stmt.with_changes(leading_lines=())).strip()


def _defined_name(stmt: cst.BaseStatement) -> str | None:
    if isinstance(stmt, cst.FunctionDef | cst.ClassDef):
        return stmt.name.value
    return None


def _join_names(
    line: cst.BaseStatement, incoming: cst.Import | cst.ImportFrom
) -> cst.BaseStatement:
    """The project's ``from m import ...`` line with the names ``incoming`` adds."""
    assert isinstance(line, cst.SimpleStatementLine) and isinstance(incoming, cst.ImportFrom)
    target = line.body[0]
    assert isinstance(target, cst.ImportFrom) and not isinstance(incoming.names, cst.ImportStar)
    joined = join_names(target, incoming.names)
    return line if joined is target else line.with_changes(body=[joined])


def _leading_imports(module: cst.Module) -> set[str]:
    """The statements of a module's import block: before its first other statement."""
    keys: set[str] = set()
    for index, stmt in enumerate(module.body):
        if index == 0 and is_docstring(stmt):
            continue
        if only_import(stmt) is None:
            break
        keys.add(_key(module, stmt))
    return keys


def _def_lines(module: cst.Module) -> dict[str, _Span]:
    wrapper = MetadataWrapper(module, unsafe_skip_copy=True)
    positions = wrapper.resolve(PositionProvider)
    spans: dict[str, _Span] = {}
    for stmt in wrapper.module.body:
        name = _defined_name(stmt)
        if name is not None:
            where = positions[stmt]
            spans.setdefault(name, (where.start.line, where.end.line))
    return spans


# A statement's lines (with the blank lines and comments above it), whether it defines a
# function or class, whether it is a bare string (a docstring's place).
_Chunk = tuple[list[str], bool, bool]


def _chunks(lines: list[str]) -> list[_Chunk]:
    """Whole top-level statements (SyntaxError when they are not); lines after the last
    one stay with it."""
    body = python_ast.parse("".join(lines)).body
    if not body:  # blank lines and comments only
        return [(lines, False, False)] if lines else []
    ends = [stmt.end_lineno or stmt.lineno for stmt in body[:-1]]
    cuts = list(zip([0, *ends], [*ends, len(lines)], strict=True))
    definitions = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
    return [
        (lines[start:end], isinstance(stmt, definitions), _bare_string(stmt))
        for (start, end), stmt in zip(cuts, body, strict=True)
    ]


def _bare_string(stmt: ast.stmt) -> bool:
    value = stmt.value if isinstance(stmt, ast.Expr) else None
    return isinstance(value, ast.Constant) and isinstance(value.value, str)


def join_additions(
    ours: list[str], theirs: list[str], *, at_start: bool = False
) -> list[str] | None:
    """Lines both sides added at one place, kept both; None where that would be wrong.

    Both must be whole top-level statements (lines added inside a block are the same
    place taken twice). The statements both begin with are kept once (two changes that
    each created the same test file begin it with the same docstring and imports); of
    the change's other statements none may be a bare string (a docstring for a place the
    project's lines take first), except its module docstring where both added at the start
    of the module and the project's lines have none. Then the
    project's statements stay in their order, each function or class of the change's
    goes before the first of the project's that sorts after it, and its other statements
    after the project's other statements: changes that add tests at one place give the
    same file in whichever order they are accepted.
    """
    try:
        our_chunks, their_chunks = _chunks(ours), _chunks(theirs)
    except SyntaxError:
        return None
    common = 0
    for (mine, _, _), (other, _, _) in zip(our_chunks, their_chunks, strict=False):
        if "".join(mine).strip() != "".join(other).strip():
            break
        common += 1
    out = [(lines, defines) for lines, defines, _ in our_chunks]
    rest = their_chunks[common:]
    first_ours_bare = bool(our_chunks) and our_chunks[0][2]
    if at_start and rest and rest[0][2] and not first_ours_bare and not common:
        docstring = rest[0][0]  # the change's module docstring, at the top, a blank line after
        out.insert(0, (docstring if docstring[-1].strip() == "" else [*docstring, "\n"], False))
        rest = rest[1:]
    for lines, defines, bare in rest:
        if bare:  # a docstring of the change's where the project's lines come first
            return None
        text = "".join(lines).strip()
        if defines:
            later = (i for i, (o, d) in enumerate(out) if d and "".join(o).strip() > text)
            at = next(later, len(out))
        else:
            at = max((i + 1 for i, (_, d) in enumerate(out) if not d), default=0)
        out.insert(at, (lines, defines))
    return [line for lines, _ in out for line in lines]


def tidy_merged_module(merged: str, ours: str, theirs: str) -> Tidied:
    """``merged`` with what it took from ``theirs`` placed by meaning (module docstring)."""
    try:
        module = cst.parse_module(merged)
    except cst.ParserSyntaxError as exc:
        return Tidied(None, ((exc.raw_line, exc.raw_line),), "would not parse once merged")
    try:
        our_module, their_module = cst.parse_module(ours), cst.parse_module(theirs)
    except cst.ParserSyntaxError:
        return Tidied(merged)  # a side that does not parse: the text merge stands as it is
    our_counts = Counter(_key(our_module, stmt) for stmt in our_module.body)
    our_keys = set(our_counts)
    our_defs = _def_lines(our_module)
    their_imports = _leading_imports(their_module)

    body: list[cst.BaseStatement] = []
    from_targets: dict[ImportKey, int] = {}  # -> index in body of the project's statement
    hoisted: list[cst.BaseStatement] = []
    our_from_modules = {
        from_key(node)
        for stmt in our_module.body
        if isinstance(node := only_import(stmt), cst.ImportFrom)
    }
    in_block = True  # still in the import block at the module's start
    for stmt in module.body:
        key = _key(module, stmt)
        node = only_import(stmt)
        module_key = from_key(node) if isinstance(node, cst.ImportFrom) else None
        if our_counts[key] > 0:  # the project's own statement
            our_counts[key] -= 1
        elif node is not None and key in their_imports:
            if key in our_keys:
                continue
            if module_key is not None and module_key in from_targets:
                index = from_targets[module_key]
                body[index] = _join_names(body[index], node)
                continue
            if not (in_block and module_key in our_from_modules):  # not one of ours, edited
                hoisted.append(stmt.with_changes(leading_lines=()))
                continue
        elif _defined_name(stmt) is not None and key in our_keys:
            continue  # the same definition, already there
        if module_key is not None:
            from_targets.setdefault(module_key, len(body))
        in_block = in_block and (node is not None or (not body and is_docstring(stmt)))
        body.append(stmt)
    # A name defined more often than in the project's file: both sides defined it, differently.
    ours_named = Counter(_defined_name(stmt) for stmt in our_module.body)
    merged_named = Counter(_defined_name(stmt) for stmt in body)
    clashes = [
        our_defs[name]
        for name, count in merged_named.items()
        if name is not None and name in our_defs and count > ours_named[name]
    ]
    if clashes:
        return Tidied(None, tuple(clashes), "define a name this change defines differently")
    for line in hoisted:
        assert isinstance(line, cst.SimpleStatementLine)
        insert_import(body, line)
    text = module.with_changes(body=body).code
    try:
        cst.parse_module(text)
    except cst.ParserSyntaxError as exc:  # pragma: no cover - LibCST writes what it parsed
        return Tidied(None, ((exc.raw_line, exc.raw_line),), "would not parse once merged")
    return Tidied(text)
