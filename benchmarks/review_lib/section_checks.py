"""Today's docstring composition, applied offline to labelled changes' whole docstrings.

Each labelled docstring change of an export proposed a docstring: a summary and perhaps
Args, Returns and Raises sections. :func:`recomposed` gives its pieces back to today's
:func:`remora.code.docstring.text.compose` (the checks and section rules a run applies
before it writes) on the node of ``project-before/``, and :func:`section_table` counts:

- for the edit labels whose reason is about a section (it names ``Args``/``Raises``/
  ``Returns``, an entry or the signature), how many come out without the proposed part
  the reason names (the section gone, or its entries' texts changed), and how many of
  those lose the whole docstring;
- for the accepted changes, how many come out changed at all (the risk), quoted.

A Raises text of the form ``If ``…``.`` is the run's own (the guard of the ``raise``,
read again by today's rules), not the model's, so it is not given back as the model's
text; everything else the proposal says is. A change is counted once per label, however
many exports hold it.
"""

from __future__ import annotations

import inspect
import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from remora.code.docstring.draft import FIXED_EXAMPLES, file_examples
from remora.code.docstring.pieces import Pieces, existing_pieces
from remora.code.docstring.text import compose
from remora.code.parsing import NodeRef, locate, parse
from review_lib.export import read_index
from review_lib.kept_exports import project_before
from review_lib.labels import LABELS_DIR, Key, change_key, load_labels
from review_lib.summary_checks import siblings, start_line

__all__ = ["SectionChange", "proposed_docstring", "recomposed", "section_changes", "section_table"]

# A reason about a section: the names reviewers use for them, or "entry"/"signature".
_SECTION_WORDS = {"params": r"\bArgs\b", "raises": r"\bRaises\b", "returns": r"\bReturns\b"}
_ANY_SECTION = re.compile(r"\b(Args|Raises|Returns|entry|entries|signature)\b")
_RUN_OWN_RAISES = re.compile(r"^If ``")


@dataclass(frozen=True, slots=True)
class SectionChange:
    """One labelled docstring change: what it proposed and what today's rules make of it."""

    project: str
    node: str
    verdict: str
    category: str
    reason: str
    proposed: str
    today: str | None  # None: today's rules write no docstring
    sections: tuple[str, ...]  # the sections the reason is about ('' none)


def proposed_docstring(diff: str) -> str:
    """The docstring a change adds, cleaned as ``inspect.cleandoc`` does ('' when none)."""
    added = "\n".join(
        line[1:] for line in diff.splitlines() if line.startswith("+") and not line.startswith("++")
    )
    for quote in ('"""', "'''"):
        start = added.find(quote)
        if start >= 0 and (end := added.find(quote, start + 3)) >= 0:
            return inspect.cleandoc(added[start + 3 : end])
    return ""


def _shape(text: str | None) -> dict[str, dict[str, str]]:
    """Per section, its entries and their texts."""
    pieces, _ = existing_pieces(text)
    return {
        "params": pieces.params,
        "raises": pieces.raises,
        "returns": {"": pieces.returns} if pieces.returns else {},
    }


def recomposed(root: Path, file: str, node_type: str, full_name: str, proposed: str) -> str | None:
    """The docstring today's rules write from what ``proposed`` says (None: none)."""
    text = (root / file).read_text("utf-8")
    line = 1 if node_type == "file" else start_line(text, full_name)
    node = locate(parse(text, file), NodeRef(node_type, full_name, line))
    shown = () if file_examples(text, skip_line=line) else FIXED_EXAMPLES
    given, _ = existing_pieces(proposed)
    model_raises = {k: v for k, v in given.raises.items() if not _RUN_OWN_RAISES.match(v)}
    pieces = Pieces(given.summary, given.description, given.params, given.returns, model_raises)
    out = compose(node, pieces, "google", None, (*shown, *siblings(root, file)))
    return out["text"]  # type: ignore[no-any-return]


def _sections(reason: str) -> tuple[str, ...]:
    named = tuple(name for name, pattern in _SECTION_WORDS.items() if re.search(pattern, reason))
    if named or not _ANY_SECTION.search(reason):
        return named
    return ("params", "raises")


def section_changes(
    exports: list[tuple[Path, str]], labels_dir: Path = LABELS_DIR
) -> list[SectionChange]:
    """Each labelled docstring change of the exports (``(out, project)``: ``out/project``),
    recomposed today; a label held by several exports once."""
    seen: set[Key] = set()
    return [c for out, project in exports for c in _changes(out, project, labels_dir, seen)]


def _changes(out: Path, project: str, labels_dir: Path, seen: set[Key]) -> list[SectionChange]:
    labels = load_labels(project, labels_dir)
    found = []
    for entry in read_index(out, project):
        key = change_key(entry.operation, entry.file, entry.node, entry.diff_sha256)
        label = labels.get(key)
        if entry.operation != "docstring" or label is None or key in seen:
            continue
        seen.add(key)
        diff = (out / project / "changes" / f"{entry.id}.diff").read_text("utf-8")
        if not (proposed := proposed_docstring(diff)):
            continue
        root = project_before(out, project)
        today = recomposed(root, entry.file, entry.node_type, entry.node, proposed)
        sections = _sections(label.reason)
        found.append(
            SectionChange(
                project,
                entry.node,
                label.verdict,
                label.category,
                label.reason,
                proposed,
                today,
                sections,
            )
        )
    return found


def _without_part(change: SectionChange) -> bool:
    """Today's docstring has none of the proposed entries of the sections the reason names
    with the text they had."""
    before, after = _shape(change.proposed), _shape(change.today)
    return all(
        after[section].get(name) != text
        for section in change.sections
        for name, text in before[section].items()
    )


def section_table(changes: list[SectionChange]) -> dict[str, Any]:
    """Edit labels about sections: fixed or not; accepted changes: changed or not."""
    about = [
        c
        for c in changes
        if c.verdict == "edit" and c.sections and any(_shape(c.proposed)[s] for s in c.sections)
    ]
    fixed = [c for c in about if _without_part(c)]
    accepted = [c for c in changes if c.verdict == "accept"]
    changed = [c for c in accepted if c.today != c.proposed]
    counts = Counter(f"{c.verdict}/{_outcome(c)}" for c in changes)
    return {
        "changes": len(changes),
        "outcomes": dict(sorted(counts.items())),
        "edit_about_sections": {
            "changes": len(about),
            "without_the_part": len(fixed),
            "of_which_no_docstring": sum(c.today is None for c in fixed),
            "still_there": [_quoted(c) for c in about if c not in fixed],
        },
        "accepted": {
            "changes": len(accepted),
            "changed": len(changed),
            "of_which_no_docstring": sum(c.today is None for c in changed),
            "quoted": [_quoted(c) for c in changed],
        },
    }


def _outcome(change: SectionChange) -> str:
    if change.today is None:
        return "none"
    return "same" if change.today == change.proposed else "changed"


def _quoted(change: SectionChange) -> dict[str, Any]:
    return {
        "project": change.project,
        "node": change.node,
        "reason": change.reason,
        "proposed": change.proposed,
        "today": change.today,
    }
