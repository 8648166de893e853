"""A Python module's import block, read and joined with LibCST.

The one rule for where an import goes, used by both writers of imports: merging two
changes to one file (:mod:`remora.workspace.merge_python`) and adding a test's imports
to a test file (``remora.code.probes.pytest_files``):

- names from ``m`` join the module's ``from m import ...`` statement, sorted, so the
  order in which they came does not show;
- an ``import x`` goes after the block's last ``import``, else before its first import
  that is not ``from __future__`` (those must stay first), a blank line between it and
  the ``from`` imports;
- any other ``from`` import goes at the block's end; code right after the block is
  kept a blank line away, and so are the ``from __future__`` imports from what follows.

The block is the imports at the module's start (after its docstring).
"""

from __future__ import annotations

from collections.abc import Sequence

import libcst as cst

__all__ = [
    "ImportKey",
    "alias_key",
    "from_key",
    "insert_import",
    "is_docstring",
    "join_names",
    "only_import",
    "with_imports",
]

ImportKey = tuple[int, str]  # relative level, module


def only_import(stmt: cst.BaseStatement) -> cst.Import | cst.ImportFrom | None:
    """The import a statement line holds alone (None for anything else)."""
    if isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1:
        small = stmt.body[0]
        if isinstance(small, cst.Import | cst.ImportFrom):
            return small
    return None


def is_docstring(stmt: cst.BaseStatement) -> bool:
    return (
        isinstance(stmt, cst.SimpleStatementLine)
        and len(stmt.body) == 1
        and isinstance(stmt.body[0], cst.Expr)
        and isinstance(stmt.body[0].value, cst.SimpleString | cst.ConcatenatedString)
    )


def _code(node: cst.CSTNode) -> str:
    return cst.Module([]).code_for_node(node)


def from_key(node: cst.ImportFrom) -> ImportKey | None:
    """(level, module) of a ``from`` import that names its names (no ``*``)."""
    if isinstance(node.names, cst.ImportStar):
        return None
    module = "" if node.module is None else _code(node.module)
    return len(node.relative), module


def alias_key(alias: cst.ImportAlias) -> tuple[str, str | None]:
    """An imported name and the name it is bound to (None when the same)."""
    asname = alias.asname
    return _code(alias.name), None if asname is None else _code(asname.name)


def join_names(target: cst.ImportFrom, extra: Sequence[cst.ImportAlias]) -> cst.ImportFrom:
    """``target`` with the names of ``extra`` it lacks, all sorted."""
    assert not isinstance(target.names, cst.ImportStar)
    have = {alias_key(alias) for alias in target.names}
    added = [alias for alias in extra if alias_key(alias) not in have]
    if not added:
        return target
    comma = cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))
    names = sorted([*target.names, *added], key=lambda alias: str(alias_key(alias)))
    names = [alias.with_changes(comma=comma) for alias in names]
    names[-1] = names[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
    return target.with_changes(names=names)


def _import_place(body: Sequence[cst.BaseStatement], *, plain: bool) -> int:
    start = 1 if body and is_docstring(body[0]) else 0
    end, last_plain, first_ordinary = start, None, None
    for index in range(start, len(body)):
        node = only_import(body[index])
        if node is None:
            break
        end = index + 1
        if isinstance(node, cst.Import):
            last_plain = index + 1
        if first_ordinary is None and not _is_future(body[index]):
            first_ordinary = index
    if not plain:
        return end
    if last_plain is not None:
        return last_plain
    return first_ordinary if first_ordinary is not None else end


def _is_future(stmt: cst.BaseStatement) -> bool:
    node = only_import(stmt)
    return isinstance(node, cst.ImportFrom) and from_key(node) == (0, "__future__")


def _leading_lines(stmt: cst.BaseStatement) -> list[cst.EmptyLine]:
    """The blank lines and comments above a statement."""
    assert isinstance(stmt, cst.SimpleStatementLine | cst.BaseCompoundStatement)
    return list(stmt.leading_lines)


def insert_import(body: list[cst.BaseStatement], line: cst.SimpleStatementLine) -> None:
    """Put the import ``line`` into ``body``'s import block, by the module's rule."""
    plain = isinstance(only_import(line), cst.Import)
    at = _import_place(body, plain=plain)
    before = body[at - 1] if at > 0 else None
    after = body[at] if at < len(body) else None
    blank = [cst.EmptyLine()]
    # A blank line after the docstring, and after the `from __future__` imports (their own
    # section, as isort and ruff's I rules keep it).
    future = before is not None and _is_future(before)
    leading = blank if before is not None and (is_docstring(before) or future) else []
    if after is not None and isinstance(only_import(after), cst.ImportFrom) and plain:
        after_plain = before is not None and isinstance(only_import(before), cst.Import)
        if not after_plain:  # the first `import x`: the lines above the block stay above it
            leading = _leading_lines(after) or leading
            body[at] = after.with_changes(leading_lines=blank)
        elif not _leading_lines(after):  # the `import x` group, a blank line, the `from`s
            body[at] = after.with_changes(leading_lines=blank)
    elif after is not None and only_import(after) is None and not _leading_lines(after):
        body[at] = after.with_changes(leading_lines=blank)
    body.insert(at, line.with_changes(leading_lines=leading))


def _joinable(stmt: cst.BaseStatement, module: str) -> bool:
    """A one-line ``from module import a, b`` without aliases or a comment to lose."""
    node = only_import(stmt)
    return (
        isinstance(stmt, cst.SimpleStatementLine)
        and isinstance(node, cst.ImportFrom)
        and from_key(node) == (0, module)
        and node.lpar is None
        and not isinstance(node.names, cst.ImportStar)
        and all(alias.asname is None for alias in node.names)
        and stmt.trailing_whitespace.comment is None
    )


def with_imports(text: str, module: str, names: Sequence[str], plain: Sequence[str]) -> str:
    """``text`` with ``from module import names`` and ``import x`` for each of ``plain``:
    the names it already binds left out, the others joined into its one-line ``from module
    import`` (else a new statement), each placed by the module's rule."""
    tree = cst.parse_module(text)
    body: list[cst.BaseStatement] = list(tree.body)
    bound_plain: set[str] = set()
    have: set[str] = set()
    for stmt in body:
        node = only_import(stmt)
        if isinstance(node, cst.Import):
            bound_plain |= {_code(alias.name) for alias in node.names}
        elif isinstance(node, cst.ImportFrom) and from_key(node) == (0, module):
            assert not isinstance(node.names, cst.ImportStar)
            have |= {alias_key(alias)[1] or alias_key(alias)[0] for alias in node.names}
    missing = sorted(set(names) - have)
    if missing:
        statement = cst.parse_statement(f"from {module} import {', '.join(missing)}\n")
        assert isinstance(statement, cst.SimpleStatementLine)
        index = next((i for i, stmt in enumerate(body) if _joinable(stmt, module)), None)
        if index is None:
            insert_import(body, statement)
        else:
            line = body[index]
            assert isinstance(line, cst.SimpleStatementLine)
            target, incoming = line.body[0], statement.body[0]
            assert isinstance(target, cst.ImportFrom) and isinstance(incoming, cst.ImportFrom)
            assert not isinstance(incoming.names, cst.ImportStar)
            body[index] = line.with_changes(body=[join_names(target, incoming.names)])
    for lib in plain:
        if lib not in bound_plain:
            statement = cst.parse_statement(f"import {lib}\n")
            assert isinstance(statement, cst.SimpleStatementLine)
            insert_import(body, statement)
    return tree.with_changes(body=body).code
