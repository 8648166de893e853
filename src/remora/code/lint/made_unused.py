"""The imports a file's accepted changes made unused, removed when they are written.

Each lint change is right alone: ``Optional[int]`` becomes ``int | None`` in one
function while another still uses ``Optional``, so no change removes the import. Only
their sum leaves it unused (F401), and the reviewers then owe a cleanup commit. So an
accept asks ruff (the project's, through :mod:`.ruff_runs`) about the file before and
after the accepted change, and removes an import only when ruff finds it unused after and
not before, the file had the same import before (an import the change itself added is
the change's own business), and the module does not export it: never in an
``__init__.py``, never a name its ``__all__`` lists. An import that was already unused
stays: the project's business.

Ruff's own safe fix removes a statement's unused names together; where the statement
also holds a name that was already unused, only the names made unused are dropped from
it (LibCST), so the other stays as it was. Nothing here reads the Python text but ruff
and the parsers.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import Any

import libcst as cst
from libcst.helpers import get_full_name_for_node

from remora import python_ast
from remora.code.context import CodeContext
from remora.code.lint.caused_findings import apply_edits, new_records
from remora.code.lint.record_edits import Edit, byte_offset, fix_edits
from remora.code.lint.ruff_runs import ruff_json
from remora.code.parsing import ParsedFile, line_starts

__all__ = ["MadeUnused", "made_unused", "remove_made_unused"]

_UNUSED = "F401"
ImportNode = cst.Import | cst.ImportFrom


@dataclass(frozen=True, slots=True)
class MadeUnused:
    """One imported name the changes made unused: ruff's record, and where it stands."""

    record: dict[str, Any]
    statement: ImportNode
    alias: cst.ImportAlias
    # the import as a line would write it: "from typing import Optional"
    label: str


def _module_of(statement: cst.ImportFrom) -> str:
    module = "" if statement.module is None else get_full_name_for_node(statement.module)
    return "." * len(statement.relative) + (module or "")


def _asname(alias: cst.ImportAlias) -> str:
    bound = alias.asname.name if alias.asname is not None else None
    return bound.value if isinstance(bound, cst.Name) else ""


def _key(statement: ImportNode, alias: cst.ImportAlias) -> tuple[str, str, str]:
    """What the alias imports, whatever its spelling: (from-module or "", name, as-name)."""
    module = _module_of(statement) if isinstance(statement, cst.ImportFrom) else ""
    return module, get_full_name_for_node(alias.name) or "", _asname(alias)


def _label(statement: ImportNode, alias: cst.ImportAlias) -> str:
    module, name, asname = _key(statement, alias)
    named = f"{name} as {asname}" if asname else name
    return f"from {module} import {named}" if module else f"import {named}"


def _bound_name(alias: cst.ImportAlias) -> str:
    """The name the alias binds: ``x`` of ``import a as x``, ``a`` of ``import a.b``."""
    return _asname(alias) or (get_full_name_for_node(alias.name) or "").split(".")[0]


class _Imports(cst.CSTVisitor):
    """Every import statement's aliases, and the strings of the module's ``__all__``."""

    def __init__(self) -> None:
        self.aliases: list[tuple[ImportNode, cst.ImportAlias]] = []
        self.exported: set[str] = set()
        self._all_value = 0

    def visit_Import(self, node: cst.Import) -> None:
        self.aliases += [(node, alias) for alias in node.names]

    def visit_ImportFrom(self, node: cst.ImportFrom) -> None:
        if not isinstance(node.names, cst.ImportStar):
            self.aliases += [(node, alias) for alias in node.names]

    def visit_SimpleStatementLine(self, node: cst.SimpleStatementLine) -> None:
        for statement in node.body:
            targets: list[cst.BaseExpression] = []
            if isinstance(statement, cst.Assign):
                targets = [t.target for t in statement.targets]
            elif isinstance(statement, cst.AnnAssign | cst.AugAssign):
                targets = [statement.target]
            if any(isinstance(t, cst.Name) and t.value == "__all__" for t in targets):
                self._all_value += 1

    def leave_SimpleStatementLine(self, original_node: cst.SimpleStatementLine) -> None:
        self._all_value = 0

    def visit_SimpleString(self, node: cst.SimpleString) -> None:
        if self._all_value:
            value = python_ast.literal_eval(node.value)
            self.exported.add(value if isinstance(value, str) else value.decode())


def _imports(parsed: ParsedFile) -> _Imports:
    found = _Imports()
    parsed.module.visit(found)
    return found


def made_unused(
    old: ParsedFile,
    new: ParsedFile,
    before_records: list[dict[str, Any]],
    after_records: list[dict[str, Any]],
) -> list[MadeUnused]:
    """The imports of ``new`` that ruff finds unused there (F401 records) and not in
    ``old``, that ``old`` imported too, and that the module does not export.

    The file's path (``new.path``) tells an ``__init__.py``, which re-exports: none of its
    imports is taken.
    """
    if PurePosixPath(new.path).name == "__init__.py":
        return []
    added = new_records(
        [r for r in before_records if r.get("code") == _UNUSED],
        [r for r in after_records if r.get("code") == _UNUSED],
    )
    if not added:
        return []
    old_keys = {_key(s, a) for s, a in _imports(old).aliases}
    imports = _imports(new)
    # ruff reports an alias at its name, or at the name it binds (``Optional as Opt``)
    at: dict[int, tuple[ImportNode, cst.ImportAlias]] = {}
    for statement, alias in imports.aliases:
        for part in (alias, alias.asname.name if alias.asname is not None else alias):
            at[new.spans[part].start] = statement, alias
    starts = line_starts(new.data)
    out: list[MadeUnused] = []
    for record in added:
        location = record["location"]
        found = at.get(byte_offset(new.data, starts, location["row"], location["column"]))
        if found is None:
            continue
        statement, alias = found
        if _key(statement, alias) in old_keys and _bound_name(alias) not in imports.exported:
            out.append(MadeUnused(record, statement, alias, _label(statement, alias)))
    return out


def _fix_key(record: dict[str, Any]) -> str:
    """Ruff gives every unused name of one statement the same fix: the statement's identity."""
    return repr((record.get("fix") or {}).get("edits"))


def _dropped(statement: ImportNode, gone: set[cst.ImportAlias]) -> ImportNode | None:
    """``statement`` without the aliases ``gone``; None when it would import nothing."""
    assert not isinstance(statement.names, cst.ImportStar)
    names = list(statement.names)
    kept = [alias for alias in names if alias not in gone]
    if not kept:
        return None
    if names[-1] in gone:  # the new last name ends as the old last one did
        kept[-1] = kept[-1].with_changes(comma=names[-1].comma)
    return statement.with_changes(names=kept)


def removal_edits(
    parsed: ParsedFile, chosen: list[MadeUnused], after_records: list[dict[str, Any]]
) -> list[Edit]:
    """Byte edits of the file ``parsed`` that remove the ``chosen`` imports and nothing else.

    A statement whose every unused name is chosen takes ruff's own safe fix (it removes
    the statement's unused names, the whole line when none is left); any other loses
    only the chosen aliases.
    """
    data = parsed.data
    unused_of: dict[str, int] = defaultdict(int)
    for record in after_records:
        if record.get("code") == _UNUSED:
            unused_of[_fix_key(record)] += 1
    by_statement: dict[ImportNode, list[MadeUnused]] = defaultdict(list)
    for item in chosen:
        by_statement[item.statement].append(item)
    edits: list[Edit] = []
    for statement, items in by_statement.items():
        record = items[0].record
        whole = all(_fix_key(i.record) == _fix_key(record) for i in items)
        safe = (record.get("fix") or {}).get("applicability") == "safe"
        if whole and safe and unused_of[_fix_key(record)] == len(items):
            edits += fix_edits(data, record)
            continue
        smaller = _dropped(statement, {i.alias for i in items})
        if smaller is None:
            continue  # every name goes but ruff offers no safe fix: left as it is
        span = parsed.spans[statement]
        code = parsed.module.code_for_node(smaller).encode("utf-8")
        edits.append((span.start, span.start + span.length, code))
    return edits


async def remove_made_unused(
    context: CodeContext, path: str, before: str, after: str
) -> tuple[str, list[str]]:
    """``after`` without the imports it made unused (:func:`made_unused`), and each one
    removed, named as its import line would name it (``from typing import Optional``).

    ``before`` is the file as it was, ``after`` as the accepted changes leave it. A file
    that is not Python, or whose text does not parse, is returned as it is.
    """
    if not path.endswith((".py", ".pyi")) or before == after:
        return after, []
    old = await ruff_json(context, path, before)
    new = await ruff_json(context, path, after)
    try:
        parsed = ParsedFile(before, path), ParsedFile(after, path)
    except ValueError:
        return after, []  # which imports a broken text uses is not known
    chosen = made_unused(*parsed, old, new)
    if not chosen:
        return after, []
    edits = removal_edits(parsed[1], chosen, new)
    text = apply_edits(parsed[1].data, edits).decode("utf-8")
    try:
        python_ast.parse(text, path)
    except SyntaxError:
        return after, []  # never written: ruff's fix and LibCST's print should parse
    return text, [item.label for item in chosen]
