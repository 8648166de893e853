"""Which labelled docstring changes each rule keeps out of the queue, and what is left.

A rule keeps a change out in one of two ways: the node is left alone
(``left_alone.py``: no proposal at all) or its summary is refused (``check_pieces``).
:func:`outcomes` gives every labelled docstring change of the exports (each label once,
however many exports hold it) today's decision with every rule, and with each of
``RULES`` turned off one at a time; :func:`precision_table` reports, per rule, the
rejects, the false ("wrong") changes and the accepts that only it keeps out, the
merged-as-is share among what is still proposed, and how many of the public
definitions (functions, methods, classes; pydocstyle's public) the runs proposed a
docstring for still get it (every docstring change of the exports, labelled or not).
The exports hold the runs' proposals only, so this is the share of what the runs
wrote, not of every undocumented definition; and a summary refused offline may pass
on the run's second ask.
"""

from __future__ import annotations

import ast
import contextlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from remora.code.docstring import claims, copied, left_alone, pieces, prose, restating
from remora.code.parsing import NodeRef, locate, parse
from review_lib.export import read_index
from review_lib.kept_exports import project_before
from review_lib.labels import LABELS_DIR, change_key, load_labels
from review_lib.summary_checks import added_line, proposed_summary, refusal, start_line

_OFF: dict[str, tuple[Any, str, Callable[..., Any]]] = {
    "not public": (left_alone, "not_public", lambda *_: ""),
    "stub": (left_alone, "is_stub", lambda *_: False),
    "import shim": (left_alone, "alternative_definitions", lambda *_: frozenset()),
    "hands back": (left_alone, "_hands_back", lambda *_: ""),
    "tool directive": (copied, "_directive", lambda *_: ""),
    "copied comment": (copied, "file_comments", lambda *_: ()),
    "returned type": (claims, "unshown_kind", lambda *_: ""),
    "returned None": (claims, "unshown_none", lambda *_: ""),
    "returned thing": (claims, "unnamed_return", lambda *_: ""),
    "outside place": (claims, "unfounded_places", lambda *_: []),
    "noun phrase": (claims, "names_a_thing", lambda *_: ""),
    "unpicked position": (claims, "unpicked_position", lambda *_: ""),
    "uncounted repeats": (claims, "uncounted_repeats", lambda *_: ""),
    "unfounded order": (claims, "unfounded_order", lambda *_: ""),
    "unread parameter": (claims, "named_unread", lambda *_: ""),
    "removal source": (claims, "unfounded_source", lambda *_: []),
    "vacuous words": (restating, "vacuous", lambda *_: False),
    "vague subject": (pieces, "vague_subject", lambda *_: ""),
    "unnamed result": (restating, "_returns_nothing_named", lambda *_: False),
    "feedback echo": (pieces, "echoed", lambda *_: ""),
    "builtin meaning": (claims, "builtin_meaning", lambda *_: ""),
    "new from builder": (claims, "_new_from_builder", lambda *_: ""),
    "returned function": (claims, "unsaid_returned_function", lambda *_: ""),
    "unsaid deprecation": (claims, "unsaid_deprecation", lambda *_: ""),
    "name as verb": (claims, "name_as_verb", lambda *_: ""),
    "context manager": (claims, "yielding_context_manager", lambda *_: ""),
    "open quote": (prose, "_left_open", lambda *_: ""),
    "random parameter": (claims, "chosen_by_chance", lambda *_: ""),
    "shown text": (copied, "_shown_text", lambda *_: ""),
    "lent phrase": (copied, "_lent_phrase", lambda *_: ""),
    "unanswered question": (claims, "unanswered_question", lambda *_: ""),
}
RULES = tuple(_OFF)


@contextlib.contextmanager
def _without(rules: tuple[str, ...]) -> Iterator[None]:
    saved = [
        (module, name, getattr(module, name)) for module, name, _ in map(_OFF.__getitem__, rules)
    ]
    try:
        for rule in rules:
            module, name, stand_in = _OFF[rule]
            setattr(module, name, stand_in)
        yield
    finally:
        for module, name, value in saved:
            setattr(module, name, value)


@dataclass(frozen=True, slots=True)
class Change:
    project: str
    export: str
    node: str
    node_type: str
    file: str
    summary: str
    verdict: str  # '' when unlabeled
    category: str
    labelled_once: bool  # the first export that holds this label
    public: bool  # a public function, method or class
    near: int = 0  # the line the change adds at, for a name defined twice (under try/except)


def _decision(root: Path, change: Change) -> str:
    """Why the change is kept out ('' when it is still proposed)."""
    text = (root / change.file).read_text("utf-8")
    line = 1 if change.node_type == "file" else start_line(text, change.node, change.near)
    node = locate(parse(text, change.file), NodeRef(change.node_type, change.node, line))
    if why := left_alone.left_alone(node):
        return "left alone: " + why
    if not change.summary:
        return ""
    return refusal(root, change.file, change.node_type, change.node, change.summary, change.near)


def _changes(exports: list[tuple[Path, str]], labels_dir: Path) -> list[Change]:
    found, seen = [], set()
    for out, project in exports:
        labels = load_labels(project, labels_dir)
        for entry in read_index(out, project):
            if entry.operation != "docstring":
                continue
            key = change_key(entry.operation, entry.file, entry.node, entry.diff_sha256)
            label = labels.get(key)
            diff = (out / project / "changes" / f"{entry.id}.diff").read_text("utf-8")
            found.append(
                Change(
                    project,
                    f"{out}:{project}",
                    entry.node,
                    entry.node_type,
                    entry.file,
                    proposed_summary(diff),
                    label.verdict if label else "",
                    label.category if label else "",
                    label is not None and key not in seen,
                    _public(
                        project_before(out, project),
                        entry.file,
                        entry.node_type,
                        entry.node,
                        added_line(diff),
                    ),
                    added_line(diff),
                )
            )
            seen.add(key)
    return found


def outcomes(
    exports: list[tuple[Path, str]], labels_dir: Path = LABELS_DIR
) -> tuple[list[Change], dict[str, list[str]]]:
    """Every docstring change, and per setting ('all', 'without RULE', 'none') each change's
    decision ('' when proposed)."""
    changes = _changes(exports, labels_dir)
    settings = {"all": (), **{f"without {r}": (r,) for r in RULES}, "none": RULES}
    decided: dict[str, list[str]] = {}
    for setting, off in settings.items():
        with _without(off):
            decided[setting] = [
                _decision(project_before(Path(c.export.rpartition(":")[0]), c.project), c)
                for c in changes
            ]
    return changes, decided


def _public(root: Path, file: str, node_type: str, full_name: str, near: int) -> bool:
    """A public function, method or class (pydocstyle's public: no underscore name, not in
    a function), special methods aside."""
    if node_type == "file" or full_name.rsplit(".", 1)[-1].startswith("__"):
        return False
    text = (root / file).read_text("utf-8")
    line = start_line(text, full_name, near)
    definition = next(
        d
        for d in ast.walk(ast.parse(text))
        if isinstance(d, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
        and (d.decorator_list[0].lineno if d.decorator_list else d.lineno) == line
    )
    return not left_alone.not_public(text, full_name, definition)


def _summary(changes: list[Change], decisions: list[str]) -> dict[str, Any]:
    kept = [c for c, d in zip(changes, decisions, strict=True) if c.labelled_once and not d]
    accept = sum(c.verdict == "accept" for c in kept)
    public = [(c.export, c.node) for c in changes if c.public]
    written = {
        (c.export, c.node) for c, d in zip(changes, decisions, strict=True) if c.public and not d
    }
    return {
        "proposed": len(kept),
        "accept": accept,
        "edit": sum(c.verdict == "edit" for c in kept),
        "reject": sum(c.verdict == "reject" for c in kept),
        "wrong": sum(c.category == "wrong" for c in kept),
        "merged_as_is": round(accept / len(kept), 3) if kept else None,
        "public_still_written": f"{len(written)}/{len(set(public))}",
    }


def precision_table(changes: list[Change], decided: dict[str, list[str]]) -> dict[str, Any]:
    """Per setting, what is still proposed; per rule, what only it keeps out."""
    report: dict[str, Any] = {s: _summary(changes, d) for s, d in decided.items()}
    every = decided["all"]
    for rule in RULES:
        alone = [
            c
            for c, with_rule, without in zip(
                changes, every, decided[f"without {rule}"], strict=True
            )
            if c.labelled_once and with_rule and not without
        ]
        report[f"only {rule}"] = {
            "rejects_removed": sum(c.verdict == "reject" for c in alone),
            "wrong_removed": sum(c.category == "wrong" for c in alone),
            "edits_removed": sum(c.verdict == "edit" for c in alone),
            "accepts_lost": [f"{c.project}:{c.node}" for c in alone if c.verdict == "accept"],
        }
    return report


__all__ = ["RULES", "Change", "outcomes", "precision_table"]
