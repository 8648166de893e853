"""The queue as a pull-request review: GitHub's review body and GitLab's discussions.

GitHub: the JSON body of "create a review for a pull request"
(``POST /repos/{owner}/{repo}/pulls/{pull_number}/reviews``): one comment per
change that can be a suggestion on lines of the pull request's diff (``line``,
``start_line``, ``side: RIGHT``, a ```suggestion block), the rest in the
review's body with their patches. GitLab: one discussion per suggestion
(``POST /projects/:id/merge_requests/:iid/discussions`` with a text
``position`` and a ```suggestion:-0+N block) and one note with the rest.
A suggestion goes on the lines only when the file at the pull request's head
is the file the agent read; otherwise its line numbers would not hold.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from remora.delivery.pending import PendingChange
from remora.delivery.suggestions import (
    Suggestion,
    change_note,
    fence,
    patch_section,
    suggestion_for,
    within,
)
from remora.git import ChangedFile

__all__ = ["PullRequest", "github_review", "gitlab_review"]

# GitHub refuses a body or comment over 65,536 characters.
_MAX_BODY = 60_000


@dataclass(frozen=True, slots=True)
class PullRequest:
    """Where the review goes: the head commit, its base, and what its diff shows."""

    head_sha: str
    base_sha: str
    shown: Mapping[str, Sequence[tuple[int, int]]]  # repository path -> new-side line ranges
    head_file: Callable[[str], bytes | None]  # repository path -> bytes at the head
    prefix: str = ""  # the project's folder inside the repository, "" or "sub/"
    files: Mapping[str, ChangedFile] = field(default_factory=dict)  # the diff, no context


def _placed(change: PendingChange, pull: PullRequest) -> tuple[Suggestion | None, str]:
    """The change's suggestion when it can sit on the diff's lines, else why not."""
    suggestion = suggestion_for(change)
    if suggestion is None:
        kinds = {f.status for f in change.files}
        if len(change.files) > 1:
            return None, "it changes several files"
        return None, "a new file" if "added" in kinds else "not a change of existing lines"
    path = pull.prefix + suggestion.path
    if pull.head_file(path) != change.files[0].old:
        return None, "the file at the pull request's head is not the one the agent read"
    if not within(suggestion, pull.shown.get(path, ())):
        return None, "its lines are outside the pull request's diff"
    return suggestion, ""


def _summary(count: int, inline: int, sections: list[str], platform: str) -> str:
    head = [
        "## Remora",
        "",
        f"{count} change(s) proposed by Remora's agents on the code this {platform} changed: "
        f"{inline} as suggestions on the lines, {count - inline} below with their patches.",
    ]
    if not count:
        head = ["## Remora", "", f"Remora proposes no change to the code this {platform} changed."]
    body = "\n".join(head)
    for section in sections:
        if len(body) + len(section) > _MAX_BODY:
            body += "\n\n---\n\n(more changes: too long for one review; see the exported file)"
            break
        body += "\n\n---\n\n" + section
    return body


def github_review(changes: Sequence[PendingChange], pull: PullRequest) -> dict[str, Any]:
    """The body of GitHub's "create a review for a pull request" request."""
    comments: list[dict[str, Any]] = []
    sections: list[str] = []
    for change in changes:
        suggestion, why = _placed(change, pull)
        if suggestion is None:
            sections.append(patch_section(change, why))
            continue
        comment: dict[str, Any] = {
            "path": pull.prefix + suggestion.path,
            "body": change_note(change) + "\n\n" + fence(suggestion.text, "suggestion"),
            "line": suggestion.end_line,
            "side": "RIGHT",
        }
        if suggestion.start_line < suggestion.end_line:
            comment["start_line"] = suggestion.start_line
            comment["start_side"] = "RIGHT"
        comments.append(comment)
    return {
        "commit_id": pull.head_sha,
        "body": _summary(len(changes), len(comments), sections, "pull request"),
        "event": "COMMENT",
        "comments": comments,
    }


def gitlab_review(changes: Sequence[PendingChange], pull: PullRequest) -> dict[str, Any]:
    """GitLab merge-request discussions, one per suggestion, and one note with the rest."""
    discussions: list[dict[str, Any]] = []
    sections: list[str] = []
    for change in changes:
        suggestion, why = _placed(change, pull)
        if suggestion is None:
            sections.append(patch_section(change, why))
            continue
        path = pull.prefix + suggestion.path
        below = suggestion.end_line - suggestion.start_line
        block = fence(suggestion.text, f"suggestion:-0+{below}")
        position: dict[str, Any] = {
            "position_type": "text",
            "base_sha": pull.base_sha,
            "start_sha": pull.base_sha,
            "head_sha": pull.head_sha,
            "old_path": path,
            "new_path": path,
            "new_line": suggestion.start_line,
        }
        # An unchanged line of the diff is named on both sides; an added one on the new only.
        changed = pull.files.get(path)
        old_line = changed.old_line(suggestion.start_line) if changed is not None else None
        if changed is not None and old_line is not None:
            position["old_path"], position["old_line"] = changed.old_path or path, old_line
        discussions.append({"body": change_note(change) + "\n\n" + block, "position": position})
    note = _summary(len(changes), len(discussions), sections, "merge request")
    return {"discussions": discussions, "note": {"body": note}}
