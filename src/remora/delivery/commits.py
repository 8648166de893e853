"""``review accept --commit``: accepted changes as git commits of exactly their files.

Each change is accepted through :func:`remora.review.accept` (its conflict
checks and journal), then committed with ``git commit --only -- PATHS``: git
commits those paths' work-tree content through a temporary index of its own,
so whatever else the user staged stays staged and out of the commit. A file the
change touches that already differs from HEAD (staged or not, or untracked
where the change adds it) would carry the user's own edits into Remora's
commit: such a change is refused before anything is written, the file named.
Hooks are skipped (``--no-verify``): the change was reviewed, and a hook that
rewrites files (a formatter, Remora's own) would leave the change written but
not committed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from remora import review
from remora.delivery.commit_message import commit_message
from remora.errors import GitError, RemoraError, UsageError, WorkspaceConflictError
from remora.git import GitFailed, current_branch, git, git_text, head_commit, repo_top
from remora.results import ResultsDB
from remora.results.db import ResultRecord

__all__ = ["CommitOutcome", "accept_as_commits"]


@dataclass
class CommitOutcome:
    """One commit made (``commit`` set), or the changes an error stopped."""

    workspace_ids: list[str]
    commit: str | None = None
    message: str = ""
    files: list[str] = field(default_factory=list)  # relative to the repository's top
    error: RemoraError | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "workspace_ids": self.workspace_ids,
            "commit": self.commit,
            "message": self.message,
            "files": self.files,
            "error": self.error.to_dict() if self.error is not None else None,
        }


def _checked_repository(root: Path) -> Path:
    top = repo_top(root)
    if current_branch(top) is None:
        raise GitError(
            f"HEAD is detached in {top}: a commit there would be on no branch",
            "switch to a branch (`git switch NAME`, or `git switch -c NAME` here), then accept",
        )
    if head_commit(top) is None:
        raise GitError(
            f"the branch in {top} has no commit yet",
            "make a first commit, then accept with --commit (or accept without it)",
        )
    return top


def _own_edits(top: Path, paths: Sequence[str]) -> WorkspaceConflictError | None:
    """An error naming the first path that differs from HEAD already, else None."""
    out = git(top, "status", "--porcelain=v1", "-z", "--untracked-files=all", "--", *paths)
    for entry in out.split(b"\0"):
        if len(entry) < 4:
            continue
        index, tree = chr(entry[0]), chr(entry[1])
        path = entry[3:].decode("utf-8", "surrogateescape")
        if index == "?":
            why = "is an untracked file of yours"
        elif index != " ":
            why = "has staged edits of your own"
        else:
            why = f"has edits of your own that are not committed ({tree})"
        return WorkspaceConflictError(
            f"{path} {why}: a commit of Remora's change would take them along",
            f"commit or set aside your edits to {path} first (`git commit`, "
            f"`git restore --staged {path}`), or accept without --commit",
        )
    return None


def _repo_paths(root: Path, top: Path, paths: Sequence[str]) -> list[str]:
    return [(root / p).resolve().relative_to(top).as_posix() for p in paths]


def _commit(top: Path, paths: list[str], message: str) -> str:
    tracked = git(top, "ls-files", "-z", "--", *paths).split(b"\0")
    known = {p.decode("utf-8", "surrogateescape") for p in tracked if p}
    added = [p for p in paths if p not in known]
    if added:  # `commit --only` takes a path git knows: an intent-to-add entry
        git(top, "add", "--intent-to-add", "--", *added, read_only=False)
    args = ["commit", "--only", "--no-verify", "--quiet", "--cleanup=whitespace", "-F", "-"]
    try:
        git(top, *args, "--", *paths, stdin=message.encode(), read_only=False)
    except GitFailed as exc:
        raise GitError(
            f"git commit of {', '.join(paths)} failed: {exc.stderr}",
            "the change is written into the project; commit it yourself, or fix what git says",
        ) from None
    return git_text(top, "rev-parse", "HEAD")


def _records(root: Path, ids: Sequence[str]) -> dict[str, ResultRecord]:
    with ResultsDB(root) as db:
        return {i: r for i in ids if (r := db.get(i)) is not None}


def _targets(root: Path, ids: Sequence[str], every: bool) -> list[str]:
    if every:
        return [item.id for item in review.list_changes(root) if item.state == "pending"]
    return list(ids)


def accept_as_commits(
    workspace_ids: Sequence[str] = (),
    *,
    project: str | Path = ".",
    every: bool = False,
    squash: bool = False,
    hunks: Sequence[int] | None = None,
) -> list[CommitOutcome]:
    """Accept changes and commit each one's files (``squash``: one commit for all).

    Errors about the repository (none, a detached HEAD, no commit yet) raise
    ``GitError`` before anything is written; a change whose files hold the
    user's own edits, or that conflicts, gets an outcome with its error and the
    others go on.
    """
    root = Path(project).resolve()
    top = _checked_repository(root)
    ids = _targets(root, workspace_ids, every)
    if hunks is not None and len(ids) != 1:
        raise UsageError(
            "choosing hunks (--hunks) needs exactly one workspace id", "e.g. accept ID --hunks 1,3"
        )
    outcomes: list[CommitOutcome] = []
    ready: list[tuple[str, list[str]]] = []
    for workspace_id in ids:
        try:
            files = [c.path for c in review.show(workspace_id, project=root).files]
        except RemoraError as exc:
            outcomes.append(CommitOutcome([workspace_id], error=exc))
            continue
        paths = _repo_paths(root, top, files)
        refused = _own_edits(top, paths)
        if refused is not None:
            outcomes.append(CommitOutcome([workspace_id], files=paths, error=refused))
            continue
        ready.append((workspace_id, paths))
    records = _records(root, [i for i, _ in ready])
    group: list[tuple[str, list[str]]] = []
    for workspace_id, paths in ready:
        [accepted] = review.accept([workspace_id], project=root, hunks=hunks)
        if not accepted.accepted:
            error = accepted.error or WorkspaceConflictError(
                f"{workspace_id} conflicts with the project: nothing committed",
                f"`remora review accept {workspace_id}` shows the files",
            )
            outcomes.append(CommitOutcome([workspace_id], files=paths, error=error))
            continue
        group.append((workspace_id, paths))
        records.update(_records(root, [workspace_id]))  # with what the accept also removed
        if not squash:
            outcomes.append(_commit_group(top, group, records))
            group = []
    if group:
        outcomes.append(_commit_group(top, group, records))
    return outcomes


def _commit_group(
    top: Path, group: list[tuple[str, list[str]]], records: dict[str, ResultRecord]
) -> CommitOutcome:
    ids = [workspace_id for workspace_id, _ in group]
    paths = sorted({p for _, files in group for p in files})
    message = commit_message([(i, records.get(i)) for i in ids])
    try:
        sha = _commit(top, paths, message)
    except GitError as exc:
        return CommitOutcome(ids, files=paths, message=message, error=exc)
    return CommitOutcome(ids, commit=sha, message=message, files=paths)
