"""The repository around a project: its top folder, HEAD, refs and the base to compare with."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from remora.errors import GitError
from remora.git.command import GitFailed, git_text

__all__ = [
    "EMPTY_TREE",
    "Base",
    "current_branch",
    "default_base",
    "head_commit",
    "is_shallow",
    "repo_top",
    "resolve_base",
    "resolve_commit",
]

# git's well-known empty tree: the base of a repository without a commit yet.
EMPTY_TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904"

# The default branch, in the order tried: what the remote says, then the usual names.
_DEFAULT_BRANCHES = ("main", "master", "origin/main", "origin/master")


@dataclass(frozen=True, slots=True)
class Base:
    """What changes are measured against: a commit (or the empty tree) and how it was chosen."""

    sha: str
    label: str  # "origin/main (merge base)", "HEAD", "v1.2"

    @property
    def short(self) -> str:
        return self.sha[:10]


def repo_top(path: Path) -> Path:
    """The top folder of the git work tree holding ``path``; a clear error outside one."""
    where = path if path.is_dir() else path.parent
    try:
        return Path(git_text(where, "rev-parse", "--show-toplevel")).resolve()
    except GitFailed:
        raise GitError(
            f"{path} is not inside a git repository",
            "run it inside a git work tree (`git init`, `git clone`), or leave out "
            "--changed/--commit",
        ) from None


def is_shallow(top: Path) -> bool:
    return git_text(top, "rev-parse", "--is-shallow-repository") == "true"


def head_commit(top: Path) -> str | None:
    """HEAD's commit, or None in a repository without a commit yet."""
    try:
        return git_text(top, "rev-parse", "--verify", "--quiet", "HEAD^{commit}")
    except GitFailed:
        return None


def current_branch(top: Path) -> str | None:
    """The branch HEAD is on (``refs/heads/...`` without the prefix), or None when detached."""
    try:
        return git_text(top, "symbolic-ref", "--quiet", "--short", "HEAD")
    except GitFailed:
        return None


def on_a_branch(path: Path) -> bool:
    """Whether ``path`` is in a git work tree whose HEAD is on a branch (a commit can go
    there); False outside one, or with git missing."""
    try:
        return current_branch(repo_top(path)) is not None
    except GitError:
        return False


def _fetch_hint(top: Path, ref: str) -> str:
    remotes = set(git_text(top, "remote").split())
    remote, _, branch = ref.partition("/")
    fetch = (
        f"git fetch {remote} {branch}"
        if remote in remotes and branch
        else f"git fetch origin {ref}"
    )
    if is_shallow(top):
        return (
            f"this is a shallow clone that lacks it: fetch it (`{fetch}`, or `git fetch "
            "--unshallow`; in GitHub Actions `fetch-depth: 0`), or name another with --base"
        )
    return f"fetch it (`{fetch}`) or name a ref that exists with --base"


def resolve_commit(top: Path, ref: str) -> str:
    """The commit ``ref`` names; an error naming the ref and how to fetch it."""
    try:
        return git_text(
            top, "rev-parse", "--verify", "--quiet", "--end-of-options", f"{ref}^{{commit}}"
        )
    except GitFailed:
        raise GitError(
            f"git ref {ref!r} is not a commit in the repository at {top}", _fetch_hint(top, ref)
        ) from None


def default_base(top: Path) -> str:
    """The default branch's ref: the remote's HEAD (``origin/HEAD``), else main or master."""
    try:
        return git_text(top, "symbolic-ref", "--quiet", "--short", "refs/remotes/origin/HEAD")
    except GitFailed:
        pass
    for name in _DEFAULT_BRANCHES:
        try:
            git_text(top, "rev-parse", "--verify", "--quiet", f"{name}^{{commit}}")
        except GitFailed:
            continue
        return name
    shallow = " (this is a shallow clone: fetch the default branch)" if is_shallow(top) else ""
    raise GitError(
        f"no default branch to compare with in {top}: no origin/HEAD, main or master{shallow}",
        "name the base with --base REF (a branch, tag or commit), or fetch the default branch",
    )


def _merge_base(top: Path, ref: str, sha: str) -> str:
    try:
        return git_text(top, "merge-base", "HEAD", sha)
    except GitFailed:
        pass
    if is_shallow(top):
        raise GitError(
            f"HEAD and {ref} have no common commit in this shallow clone of {top}",
            f"fetch more history (`git fetch --unshallow`, or `git fetch --deepen=50 origin`; "
            f"in GitHub Actions `fetch-depth: 0`), or compare with {ref} itself: --base {ref}",
        )
    raise GitError(
        f"HEAD and {ref} share no history in {top}",
        "name the base to compare with: --base REF",
    )


def resolve_base(
    top: Path, ref: str | None, *, staged: bool = False, merge_base: bool = False
) -> Base:
    """The commit changes are measured against.

    ``ref`` given: that commit itself, or with ``merge_base`` the merge base of
    HEAD and it (a pull request's diff). Otherwise the index is compared with
    HEAD (``staged``: what the next commit adds), and the work tree with the
    merge base of HEAD and the default branch (what a pull request of this
    branch would show). A repository without a commit compares with the empty tree.
    """
    if ref is not None:
        sha = resolve_commit(top, ref)
        if merge_base:
            return Base(_merge_base(top, ref, sha), f"{ref} (merge base)")
        return Base(sha, ref)
    head = head_commit(top)
    if head is None:
        return Base(EMPTY_TREE, "the empty tree (no commit yet)")
    if staged:
        return Base(head, "HEAD")
    branch = default_base(top)
    return Base(_merge_base(top, branch, resolve_commit(top, branch)), f"{branch} (merge base)")
