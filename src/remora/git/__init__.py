"""Git, through the ``git`` command: changed lines, bases, commits of exactly some paths."""

from remora.git.command import GitFailed, git, git_text
from remora.git.diffs import (
    ChangedFile,
    changed_files,
    file_at,
    lines_in_diff,
    pull_request_files,
)
from remora.git.repo import (
    Base,
    current_branch,
    head_commit,
    on_a_branch,
    repo_top,
    resolve_base,
)

__all__ = [
    "Base",
    "ChangedFile",
    "GitFailed",
    "changed_files",
    "current_branch",
    "file_at",
    "git",
    "git_text",
    "head_commit",
    "lines_in_diff",
    "on_a_branch",
    "pull_request_files",
    "repo_top",
    "resolve_base",
]
