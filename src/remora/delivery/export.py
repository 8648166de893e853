"""``review export``: the pending changes as a GitHub review, GitLab discussions, patch, SARIF."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal, get_args

from remora.delivery.forge_reviews import PullRequest, github_review, gitlab_review
from remora.delivery.pending import PendingChange, merged_files, pending_changes
from remora.delivery.sarif import sarif_log
from remora.errors import GitError, UsageError
from remora.git import (
    file_at,
    head_commit,
    lines_in_diff,
    pull_request_files,
    repo_top,
    resolve_base,
)
from remora.version import __version__
from remora.workspace.diff import FileChange, render_diff

__all__ = ["EXPORT_FORMATS", "ExportFormat", "Exported", "export_queue", "pull_request"]

ExportFormat = Literal["github", "gitlab", "patch", "sarif"]
EXPORT_FORMATS: tuple[ExportFormat, ...] = get_args(ExportFormat)


@dataclass
class Exported:
    """The exported text, how many changes it holds, and the changes left out with why."""

    text: str
    changes: int
    left_out: list[tuple[str, str]] = field(default_factory=list)


def _prefix(root: Path, top: Path) -> str:
    rel = root.relative_to(top).as_posix()
    return "" if rel == "." else rel + "/"


def _repo_prefix(root: Path) -> str:
    """Paths from the repository's top when there is one, else from the project's root."""
    try:
        return _prefix(root, repo_top(root))
    except GitError:
        return ""


def pull_request(root: Path, base: str | None, *, merge_base: bool = True) -> PullRequest:
    """The pull request HEAD would make against ``base`` (default: the default branch)."""
    top = repo_top(root)
    head = head_commit(top)
    if head is None:
        raise UsageError(
            f"the repository at {top} has no commit: a review needs the pull request's head",
            "commit the branch first",
        )
    chosen = resolve_base(top, base, merge_base=merge_base)
    return PullRequest(
        head_sha=head,
        base_sha=chosen.sha,
        shown=lines_in_diff(top, chosen.sha, head),
        head_file=lambda path: file_at(top, head, path),
        prefix=_prefix(root, top),
        files=pull_request_files(top, chosen.sha, head),
    )


def _patch(root: Path, changes: list[PendingChange]) -> Exported:
    paths = {f.path for c in changes for f in c.files}
    current = {p: (root / p).read_bytes() if (root / p).is_file() else None for p in paths}
    files, left_out = merged_files(changes, current)
    prefix = _repo_prefix(root)
    shifted = [FileChange(prefix + f.path, f.status, f.old, f.new, f.binary, f.mode) for f in files]
    return Exported(render_diff(shifted), len(changes) - len(left_out), left_out)


def export_queue(project: str | Path, export_format: str, *, base: str | None = None) -> Exported:
    """The project's pending changes in ``export_format`` (see the module's docstring).

    ``github`` and ``gitlab`` place suggestions on the diff between HEAD and
    ``base`` (its merge base with HEAD; default: the default branch), so they
    need the git repository; ``patch`` and ``sarif`` need none.
    """
    if export_format not in EXPORT_FORMATS:
        raise UsageError(
            f"unknown export format {export_format!r}",
            f"use one of {', '.join(EXPORT_FORMATS)}",
        )
    root = Path(project).resolve()
    changes = pending_changes(root)
    if export_format == "patch":
        return _patch(root, changes)
    if export_format == "sarif":
        log = sarif_log(changes, version=__version__, prefix=_repo_prefix(root))
        return Exported(json.dumps(log, indent=2) + "\n", len(changes))
    pull = pull_request(root, base)
    review = github_review if export_format == "github" else gitlab_review
    return Exported(json.dumps(review(changes, pull), indent=2) + "\n", len(changes))
