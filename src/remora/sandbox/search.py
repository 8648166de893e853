"""search_files (glob) and search_content (regex, time-bounded) over a workspace's merged view.

search_content uses the ``regex`` engine for its per-call timeout: a pattern
with catastrophic backtracking such as ``(a|aa)+$`` stops at the time bound
instead of running for minutes, and the matching releases the GIL, so the
thread it runs in never keeps Ctrl-C waiting past the bound.
"""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Iterable
from pathlib import PurePosixPath
from typing import TYPE_CHECKING, Any

import regex as regex_engine

from remora.sandbox.envelope import ExternalRefused

if TYPE_CHECKING:
    from remora.workspace import Workspace

__all__ = ["glob_to_regex", "match_files", "search_content", "search_files"]

MAX_FILES = 2000
MAX_MATCHES = 200
# Longer lines are cut before matching: a regex's cost grows with the text.
MAX_LINE_CHARS = 2000
# No sane pattern needs this long on one (cut) line; catastrophic backtracking
# does. Bounding each call also bounds how long a cancelled search runs on.
MAX_LINE_SECONDS = 1.0


def _too_slow(rel: str, number: int) -> str:
    return (
        f"the pattern took over {MAX_LINE_SECONDS:g}s on {rel}:{number} "
        "(catastrophic backtracking? simplify nested quantifiers such as (a+)+)"
    )


def glob_to_regex(pattern: str) -> re.Pattern[str]:
    """``*`` within a path segment, ``**`` across segments, ``?``, ``[...]``."""
    out: list[str] = []
    i, n = 0, len(pattern)
    while i < n:
        if pattern.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
            continue
        if pattern.startswith("**", i):
            out.append(".*")
            i += 2
            continue
        char = pattern[i]
        if char == "*":
            out.append("[^/]*")
        elif char == "?":
            out.append("[^/]")
        elif char == "[" and (end := pattern.find("]", i + 2)) != -1:
            body = pattern[i + 1 : end]
            if body.startswith("!"):
                body = "^" + body[1:]
            out.append("[" + body.replace("\\", "\\\\") + "]")
            i = end
        else:
            out.append(re.escape(char))
        i += 1
    return re.compile("".join(out))


def _checked_glob(pattern: object) -> re.Pattern[str]:
    if not isinstance(pattern, str) or not pattern:
        raise TypeError("a glob pattern must be a non-empty string")
    if pattern.startswith(("/", "~")) or PurePosixPath(pattern).is_absolute():
        raise ExternalRefused(f"pattern {pattern!r} refused: absolute paths are not allowed")
    if ".." in pattern.split("/"):
        raise ExternalRefused(f"pattern {pattern!r} refused: it leaves the project ('..')")
    return glob_to_regex(pattern)


def search_files(ws: Workspace, pattern: object, limit: int = MAX_FILES) -> list[str]:
    """Files of the merged view whose project-relative path matches the glob, sorted."""
    return match_files(ws.iter_files(), pattern, limit)


def match_files(files: Iterable[str], pattern: object, limit: int = MAX_FILES) -> list[str]:
    """:func:`search_files` over a listing already made (``files``, sorted): one walk of
    the project serves several patterns."""
    regex = _checked_glob(pattern)
    found: list[str] = []
    for rel in files:
        if regex.fullmatch(rel):
            found.append(rel)
            if len(found) >= limit:
                break
    return found


def search_content(
    ws: Workspace,
    pattern: object,
    path: object,
    timeout_s: float,
    max_matches: int = MAX_MATCHES,
    *,
    stop: threading.Event | None = None,
) -> dict[str, Any]:
    """``{"matches": [{file, line, text}], "truncated": bool, "reason": str | None}``.

    Stops at ``timeout_s``, at ``max_matches``, on a line the pattern needs more
    than :data:`MAX_LINE_SECONDS` for, or when ``stop`` is set (the caller was
    cancelled), and says so: a partial answer the model can act on beats a
    tool that hangs.
    """
    if not isinstance(pattern, str):
        raise TypeError("search_content: pattern must be a string (a regular expression)")
    try:
        compiled = regex_engine.compile(pattern)
    except regex_engine.error as exc:
        raise ValueError(f"invalid regular expression {pattern!r}: {exc}") from None
    deadline = time.monotonic() + timeout_s
    out_of_time = f"time bound of {timeout_s:g}s reached"
    matches: list[dict[str, Any]] = []
    reason: str | None = None
    for rel in search_files(ws, path, limit=10 * MAX_FILES):
        if time.monotonic() > deadline:
            reason = out_of_time
            break
        data = ws.read(rel)
        if data is None or b"\0" in data[:8192]:
            continue
        text = data.decode("utf-8", errors="replace")
        for number, line in enumerate(text.splitlines(), 1):
            left = deadline - time.monotonic()
            if left <= 0:
                reason = out_of_time
                break
            if stop is not None and stop.is_set():
                reason = "cancelled"
                break
            slice_s = min(left, MAX_LINE_SECONDS)
            try:
                found = compiled.search(line[:MAX_LINE_CHARS], timeout=slice_s, concurrent=True)
            except TimeoutError:
                reason = out_of_time if slice_s == left else _too_slow(rel, number)
                break
            if found:
                matches.append({"file": rel, "line": number, "text": line[:500]})
                if len(matches) >= max_matches:
                    reason = f"stopped at {max_matches} matches"
                    break
        if reason:
            break
    return {"matches": matches, "truncated": reason is not None, "reason": reason}
