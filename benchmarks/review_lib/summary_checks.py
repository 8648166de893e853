"""The docstring checks of the current tree, applied offline to labelled changes' summaries.

An export (``OUT/<project>/index.json``, ``changes/``, ``project-before/``) holds the
summary each docstring change proposed; the labels say what a blind reviewer made of
it. :func:`checked_changes` runs today's summary checks (``check_pieces``, the same
checks a run applies before it writes) on each labelled change's summary against the
node in ``project-before/``, and :func:`table` counts, per verdict and category, how
many the checks refuse, and how many of those as restating the name. So a new check
is measured on the reviewers' verdicts before any model runs again.

The folder's other files are read as the run reads them (up to eight, test files left
out); a change that keeps an existing summary (it only adds sections) has none to check.
"""

from __future__ import annotations

import ast
from collections import Counter
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any

from remora.code.docstring.draft import FIXED_EXAMPLES, file_examples
from remora.code.docstring.left_alone import left_alone
from remora.code.docstring.overrides import ImportedClass
from remora.code.docstring.pieces import Pieces, check_pieces
from remora.code.docstring.siblings import MAX_SIBLING_FILES
from remora.code.parsing import NodeRef, locate, parse
from remora.code.values.project_imports import imported_names
from review_lib.export import read_index
from review_lib.kept_exports import project_before
from review_lib.labels import LABELS_DIR, change_key, load_labels

# The opening words of the reason the restating check gives (claims.py).
RESTATING = "it restates the name"


@dataclass(frozen=True, slots=True)
class CheckedChange:
    """One labelled docstring change: its proposed summary and what today's checks say."""

    project: str
    node: str
    summary: str
    verdict: str
    category: str
    model: str
    refusal: str  # '' when every check passes
    file: str = ""  # the node's file, relative to project-before/
    node_type: str = ""


def proposed_summary(diff: str) -> str:
    """The summary line a docstring change adds ('' when it adds no new docstring)."""
    added = [
        line[1:] for line in diff.splitlines() if line.startswith("+") and not line.startswith("++")
    ]
    if not added:
        return ""
    first = added[0].strip()
    for quote in ('"""', "'''"):
        if first.startswith((quote, "r" + quote)):
            text = first.split(quote, 1)[1]
            return text.split(quote, 1)[0].strip()
    return ""


def siblings(root: Path, file: str) -> tuple[str, ...]:
    """The texts of the folder's other files a run reads beside ``file``."""
    own = root / file
    names = sorted(p for p in own.parent.glob("*.py") if not p.name.startswith("test"))
    return tuple(p.read_text("utf-8") for p in names[:MAX_SIBLING_FILES] if p != own)


def added_line(diff: str) -> int:
    """The line of the file before a change where its first added line goes (0: none)."""
    line = 0
    for row in diff.splitlines():
        if row.startswith("@@"):
            line = int(row.split()[1].lstrip("-").split(",")[0])
        elif row.startswith("+") and not row.startswith("+++"):
            return line
        elif line and not row.startswith(("-", "\\")):
            line += 1
    return 0


_DEFINITION = ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef


def _named(
    body: list[ast.stmt], name: str
) -> list[ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef]:
    """The definitions called ``name`` in ``body``, those under ``try``/``if``/``with`` too (a
    function defined one way or another, by what imports)."""
    found: list[ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef] = []
    for statement in body:
        if isinstance(statement, _DEFINITION):
            found += [statement] if statement.name == name else []
        else:
            for field in ("body", "orelse", "finalbody", "handlers"):
                inner = getattr(statement, field, [])
                # an ``except`` clause's statements are its handler's body
                inner = [
                    s for i in inner for s in (i.body if isinstance(i, ast.excepthandler) else [i])
                ]
                found += _named([s for s in inner if isinstance(s, ast.stmt)], name)
    return found


def start_line(text: str, full_name: str, near: int = 0) -> int:
    """The first line (decorators included) of the definition ``full_name`` names; of several
    (one under ``try:``, one under ``except``), the last that starts before line ``near``."""
    bodies = [ast.parse(text).body]
    found: list[ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef] = []
    for part in full_name.split("."):
        found = [d for body in bodies for d in _named(body, part)]
        bodies = [d.body for d in found]
    firsts = [d.decorator_list[0].lineno if d.decorator_list else d.lineno for d in found]
    before = [line for line in firsts if line <= near]
    return max(before) if before else (firsts[0] if firsts else 0)


def refusal(
    root: Path, file: str, node_type: str, full_name: str, summary: str, near: int = 0
) -> str:
    """Why today's checks refuse ``summary`` on the node of ``root/file`` ('' if none), or
    leave the node alone without asking (``left alone: …``);
    ``near``: the line the change adds at (:func:`added_line`), for a name defined twice."""
    text = (root / file).read_text("utf-8")
    line = 1 if node_type == "file" else start_line(text, full_name, near)
    node = locate(parse(text, file), NodeRef(node_type, full_name, line))
    if alone := left_alone(node, imported=_imported(root, file, text)):
        return f"left alone: {alone}"  # never asked with the operation's default options
    shown = () if file_examples(text, skip_line=line) else FIXED_EXAMPLES
    _, refused = check_pieces(node, Pieces(summary=summary), (*shown, *siblings(root, file)))
    return "; ".join(r["reason"] for r in refused if r["field"] == "summary")


def _imported(root: Path, file: str, text: str) -> ImportedClass:
    """What a run reads through ``remora.code.values.project_imports.imported_class``, from
    the files under ``root`` (the project's root is its import root)."""
    names = imported_names(ast.parse(text), list(PurePosixPath(file).parent.parts))

    def find(name: str) -> tuple[str, str] | None:
        if name not in names:
            return None
        module, original = names[name]
        stem = module.replace(".", "/")
        for path in (root / f"{stem}.py", root / stem / "__init__.py"):
            if path.is_file():
                return path.read_text("utf-8"), original
        return None

    return find


def checked_changes(out: Path, project: str, labels_dir: Path = LABELS_DIR) -> list[CheckedChange]:
    """Each labelled docstring change of the export ``out/project`` that proposes a summary."""
    labels = load_labels(project, labels_dir)
    found = []
    for entry in read_index(out, project):
        label = labels.get(change_key(entry.operation, entry.file, entry.node, entry.diff_sha256))
        if entry.operation != "docstring" or label is None:
            continue
        diff = (out / project / "changes" / f"{entry.id}.diff").read_text("utf-8")
        if not (summary := proposed_summary(diff)):
            continue
        root = project_before(out, project)
        near = added_line(diff)
        why = refusal(root, entry.file, entry.node_type, entry.node, summary, near)
        found.append(
            CheckedChange(
                project,
                entry.node,
                summary,
                label.verdict,
                label.category,
                label.model,
                why,
                entry.file,
                entry.node_type,
            )
        )
    return found


def table(changes: list[CheckedChange]) -> dict[str, Any]:
    """Per verdict/category: the changes, how many any check refuses, how many as restating;
    and the refused changes a reviewer accepted, quoted."""
    total: Counter[str] = Counter()
    refused: Counter[str] = Counter()
    restating: Counter[str] = Counter()
    for change in changes:
        key = f"{change.verdict}/{change.category}"
        total[key] += 1
        refused[key] += bool(change.refusal)
        restating[key] += change.refusal.startswith(RESTATING)
    rows = {
        key: {"changes": total[key], "refused": refused[key], "restating": restating[key]}
        for key in sorted(total)
    }
    accepted = [
        {"project": c.project, "node": c.node, "summary": c.summary, "refusal": c.refusal}
        for c in changes
        if c.verdict == "accept" and c.refusal
    ]
    return {"rows": rows, "refused_but_accepted": accepted}


__all__ = [
    "RESTATING",
    "CheckedChange",
    "checked_changes",
    "proposed_summary",
    "siblings",
    "start_line",
    "table",
]
