"""The review benchmark's figures: verdicts per part, model and operation, and docstring coverage.

Shares are of the labelled changes; the unlabeled ones are counted beside them
(a change whose diff no label matches is unlabeled, never guessed).
"""

from __future__ import annotations

import ast
import json
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from review_lib.export import OPERATIONS, IndexEntry
from review_lib.labels import Label


@dataclass(slots=True)
class Row:
    """One line of the table: the changes of one part, model and operation."""

    part: str
    model: str
    operation: str
    changes: int = 0
    accept: int = 0
    edit: int = 0
    reject: int = 0
    wrong: int = 0
    unlabeled: int = 0
    categories: Counter[str] = field(default_factory=Counter)

    @property
    def labelled(self) -> int:
        return self.changes - self.unlabeled

    def add(self, label: Label | None) -> None:
        self.changes += 1
        if label is None:
            self.unlabeled += 1
            return
        setattr(self, label.verdict, getattr(self, label.verdict) + 1)
        self.wrong += label.category == "wrong"
        self.categories[label.category] += 1

    def to_dict(self) -> dict[str, Any]:
        return {
            "part": self.part,
            "model": self.model,
            "operation": self.operation,
            "changes": self.changes,
            "labelled": self.labelled,
            "merged_as_is": self.accept,
            "merged_as_is_share": round(self.accept / self.labelled, 3) if self.labelled else None,
            "edit": self.edit,
            "reject": self.reject,
            "wrong": self.wrong,
            "unlabeled": self.unlabeled,
            "categories": dict(sorted(self.categories.items())),
        }


@dataclass(frozen=True, slots=True)
class Joined:
    """One exported change of one project, with its label (None when unlabeled)."""

    project: str
    part: str
    model: str
    entry: IndexEntry
    label: Label | None


def rows(joined: list[Joined]) -> list[Row]:
    """One row per part, model and operation (in OPERATIONS order), and an 'all' row each."""
    table: dict[tuple[str, str, str], Row] = {}
    for item in joined:
        for operation in (item.entry.operation, "all"):
            key = (item.part, item.model, operation)
            table.setdefault(key, Row(*key)).add(item.label)
    order = {op: i for i, op in enumerate((*OPERATIONS, "all"))}
    return sorted(table.values(), key=lambda r: (r.part, r.model, order.get(r.operation, 99)))


def _share(count: int, total: int) -> str:
    return f"{count} ({100 * count / total:.0f}%)" if total else f"{count}"


def markdown(table: list[Row]) -> str:
    """The table as Markdown, one block per part."""
    out: list[str] = []
    for part in sorted({r.part for r in table}):
        name = {"dev": "development part", "heldout": "held-out part"}.get(part, part)
        out += [
            f"### {name}",
            "",
            "| model | operation | changes | merged as is (% of labelled) | edit | reject | wrong "
            "| unlabeled |",
            "|---|---|---|---|---|---|---|---|",
        ]
        for r in (r for r in table if r.part == part):
            op = f"**{r.operation}**" if r.operation == "all" else r.operation
            out.append(
                f"| {r.model} | {op} | {r.changes} | {_share(r.accept, r.labelled)} | {r.edit} "
                f"| {r.reject} | {r.wrong} | {r.unlabeled} |"
            )
        out.append("")
    return "\n".join(out)


# -- docstring coverage -------------------------------------------------------

_Def = ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef


def _shown_by_python(node: _Def) -> bool:
    """False for property setters and deleters: ``help()`` shows the getter's docstring."""
    for decorator in getattr(node, "decorator_list", []):
        if isinstance(decorator, ast.Attribute) and decorator.attr in ("setter", "deleter"):
            return False
    return True


def undocumented_public(text: str, classes: bool = True) -> list[str]:
    """Qualified names of the public functions, methods and (unless ``classes`` is False)
    classes without a docstring.

    Public: no part of the name starts with ``_``; defined at module level or in a
    class (a function nested in a function is no API); property setters and
    deleters left out. Same-named definitions (overloads, redefinitions) count once.
    """
    found: list[str] = []

    def visit(body: list[ast.stmt], prefix: str) -> None:
        for node in body:
            if not isinstance(node, _Def):
                continue
            name = f"{prefix}{node.name}"
            if node.name.startswith("_"):
                continue
            counted = classes or not isinstance(node, ast.ClassDef)
            shown = _shown_by_python(node) and ast.get_docstring(node) is None
            if counted and shown and name not in found:
                found.append(name)
            if isinstance(node, ast.ClassDef):
                visit(node.body, f"{name}.")

    visit(ast.parse(text).body, "")
    return found


@dataclass(slots=True)
class Coverage:
    """Undocumented public definitions of a project, and how many got a docstring change;
    beside them the functions and methods alone (classes are documented only on request,
    the operation's ``classes`` option)."""

    project: str
    part: str
    model: str
    undocumented: int
    proposed: int
    functions: int
    functions_proposed: int

    def to_dict(self) -> dict[str, Any]:
        def share(part: int, whole: int) -> float | None:
            return round(part / whole, 3) if whole else None

        return {
            "project": self.project,
            "part": self.part,
            "model": self.model,
            "undocumented_public": self.undocumented,
            "with_docstring_change": self.proposed,
            "share": share(self.proposed, self.undocumented),
            "undocumented_public_functions": self.functions,
            "functions_with_docstring_change": self.functions_proposed,
            "functions_share": share(self.functions_proposed, self.functions),
        }


def docstring_coverage(
    project: str, part: str, model: str, before: Path, files: list[str], index: list[IndexEntry]
) -> Coverage:
    """How many of the undocumented public definitions in ``files`` got a docstring change,
    of all of them and of their functions and methods."""
    texts = {rel: (before / rel).read_text(encoding="utf-8") for rel in files}
    targets = {(rel, name) for rel, text in texts.items() for name in undocumented_public(text)}
    functions = {
        (rel, name)
        for rel, text in texts.items()
        for name in undocumented_public(text, classes=False)
    }
    changed = {(e.file, e.node) for e in index if e.operation == "docstring"}
    return Coverage(
        project,
        part,
        model,
        len(targets),
        len(changed & targets),
        len(functions),
        len(changed & functions),
    )


def coverage_markdown(coverage: list[Coverage]) -> str:
    out = [
        "| part | model | project | undocumented public functions, methods, classes "
        "| with a docstring change | of them functions and methods | with a docstring change |",
        "|---|---|---|---|---|---|---|",
    ]
    for c in coverage:
        out.append(
            f"| {c.part} | {c.model} | {c.project} | {c.undocumented} "
            f"| {_share(c.proposed, c.undocumented)} | {c.functions} "
            f"| {_share(c.functions_proposed, c.functions)} |"
        )
    return "\n".join(out) + "\n"


def write_json(
    path: Path,
    table: list[Row],
    coverage: list[Coverage],
    joined: list[Joined],
    extra: dict[str, Any],
) -> None:
    changes = [
        {
            "project": j.project,
            "part": j.part,
            "model": j.model,
            **{k: getattr(j.entry, k) for k in ("id", "operation", "node", "file", "diff_sha256")},
            "label": None
            if j.label is None
            else {k: getattr(j.label, k) for k in ("verdict", "category", "reason", "reviewer")},
        }
        for j in joined
    ]
    report = {
        **extra,
        "rows": [r.to_dict() for r in table],
        "docstring_coverage": [c.to_dict() for c in coverage],
        "changes": changes,
    }
    path.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")


__all__ = [
    "Coverage",
    "Joined",
    "Row",
    "coverage_markdown",
    "docstring_coverage",
    "markdown",
    "rows",
    "undocumented_public",
    "write_json",
]
