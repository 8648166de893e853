"""Blind reviewers' labels, keyed by operation, node and the diff's hash, and their join.

A label is ``benchmarks/review_labels/<project>.json``: a list of rows with the
key (operation, file, node, diff_sha256), the verdict (accept/edit/reject), a
category (wrong, misleading, noise, style, useless, ok), a one-line reason, the
model and Remora commit the change was made at, and who reviewed it. The hash
is the sha256 of the exported diff text with only its line endings normalised,
so a change whose text differs in any other byte finds no label: it is counted
as unlabeled, never given the old verdict.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

LABELS_DIR = Path(__file__).resolve().parents[1] / "review_labels"
# The model that wrote a docstring, by a label's ``model`` (export.model_label's names).
DOCSTRING_MODELS = {
    "default (embedded qwen2.5-coder-0.5b)": "0.5B",
    "qwen2.5-coder-0.5b": "0.5B",
    "qwen2.5-coder-1.5b": "1.5B",
    "default (embedded qwen2.5-coder-0.5b, docstrings qwen2.5-coder-1.5b)": "1.5B",
}
VERDICTS = ("accept", "edit", "reject")
CATEGORIES = ("wrong", "misleading", "noise", "style", "useless", "ok")


class LabelError(Exception):
    """A verdicts or labels file that does not fit; the message names it and the row."""


def diff_sha256(text: str) -> str:
    """The hash a label is keyed by: the diff's text, CRLF and CR read as LF, nothing else."""
    normalised = text.replace("\r\n", "\n").replace("\r", "\n")
    return hashlib.sha256(normalised.encode("utf-8")).hexdigest()


Key = tuple[str, str, str, str]


@dataclass(frozen=True, slots=True)
class Label:
    """One reviewer's verdict on one change text."""

    operation: str
    file: str
    node: str
    diff_sha256: str
    verdict: str
    category: str
    reason: str
    model: str
    remora_commit: str
    reviewer: str

    @property
    def key(self) -> Key:
        return (self.operation, self.file, self.node, self.diff_sha256)


def change_key(operation: str, file: str, node: str, sha: str) -> Key:
    return (operation, file, node, sha)


def labels_path(project: str, labels_dir: Path = LABELS_DIR) -> Path:
    return labels_dir / f"{project}.json"


def load_labels(project: str, labels_dir: Path = LABELS_DIR) -> dict[Key, Label]:
    """The committed labels of ``project`` by key (none when it has no file yet)."""
    path = labels_path(project, labels_dir)
    if not path.is_file():
        return {}
    try:
        rows = json.loads(path.read_text(encoding="utf-8"))["labels"]
        labels = [Label(**row) for row in rows]
    except (json.JSONDecodeError, KeyError, TypeError) as error:
        raise LabelError(f"{path}: not a labels file ({error}); restore it from git") from error
    return {label.key: label for label in labels}


def save_labels(project: str, labels: dict[Key, Label], labels_dir: Path = LABELS_DIR) -> Path:
    path = labels_path(project, labels_dir)
    path.parent.mkdir(parents=True, exist_ok=True)
    rows = [asdict(labels[k]) for k in sorted(labels)]
    path.write_text(json.dumps({"project": project, "labels": rows}, indent=1) + "\n", "utf-8")
    return path


def _checked(row: Any, where: str, known: dict[str, Any]) -> dict[str, str]:
    if not isinstance(row, dict):
        raise LabelError(
            f"{where}: expected an object with id, operation, verdict, category, reason"
        )
    missing = [k for k in ("id", "operation", "verdict", "category", "reason") if k not in row]
    if missing:
        raise LabelError(f"{where}: missing {', '.join(missing)}")
    out = {k: str(row[k]).strip() for k in ("id", "operation", "verdict", "category", "reason")}
    if out["id"] not in known:
        raise LabelError(f"{where}: id {out['id']} is not in the export's index.json")
    if out["operation"] != known[out["id"]].operation:
        raise LabelError(
            f"{where}: id {out['id']} is a {known[out['id']].operation} change, "
            f"not {out['operation']}"
        )
    if out["verdict"] not in VERDICTS:
        raise LabelError(f"{where}: verdict {out['verdict']!r}: one of {', '.join(VERDICTS)}")
    if out["category"] not in CATEGORIES:
        raise LabelError(f"{where}: category {out['category']!r}: one of {', '.join(CATEGORIES)}")
    if "\n" in out["reason"]:
        raise LabelError(f"{where}: the reason must be one line")
    return out


def import_verdicts(
    verdicts: list[Any],
    index: list[Any],
    *,
    model: str,
    remora_commit: str,
    reviewer: str,
    source: str = "verdicts",
) -> list[Label]:
    """Labels from a reviewer's JSON list, keyed through the export's index entries."""
    known = {entry.id: entry for entry in index}
    labels: list[Label] = []
    seen: set[str] = set()
    for number, row in enumerate(verdicts):
        got = _checked(row, f"{source}[{number}]", known)
        if got["id"] in seen:
            raise LabelError(f"{source}[{number}]: id {got['id']} judged twice")
        seen.add(got["id"])
        entry = known[got["id"]]
        labels.append(
            Label(
                entry.operation,
                entry.file,
                entry.node,
                entry.diff_sha256,
                got["verdict"],
                got["category"],
                got["reason"],
                model,
                remora_commit,
                reviewer,
            )
        )
    return labels


def merge(old: dict[Key, Label], new: list[Label]) -> dict[Key, Label]:
    """``old`` with ``new`` added; a new label replaces an old one of the same key."""
    merged = dict(old)
    for label in new:
        merged[label.key] = label
    return merged


def join(index: list[Any], labels: dict[Key, Label]) -> list[tuple[Any, Label | None]]:
    """Each exported change with its label, or None when no label has its exact diff."""
    return [
        (entry, labels.get(change_key(entry.operation, entry.file, entry.node, entry.diff_sha256)))
        for entry in index
    ]


__all__ = [
    "CATEGORIES",
    "DOCSTRING_MODELS",
    "LABELS_DIR",
    "VERDICTS",
    "Label",
    "LabelError",
    "change_key",
    "diff_sha256",
    "import_verdicts",
    "join",
    "labels_path",
    "load_labels",
    "merge",
    "save_labels",
]
