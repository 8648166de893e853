"""The byte spans of a text re-parsed in part (reparse.py): the snippet's, the old ones.

Neither is copied: a file's new text is asked about a few of its nodes (the changed
node's, its neighbours'), so each span is made when it is looked up. Shifting every
span of a re-parsed definition up front was a tenth of a lint run's re-parsing.
"""

from __future__ import annotations

from collections.abc import Mapping

import libcst as cst
from libcst.metadata import CodeSpan

__all__ = ["NewSpans", "SnippetSpans"]


class SnippetSpans:
    """A snippet's byte spans moved ``shift`` bytes on into the new text, and spans set here
    (the rebuilt ancestors', already in the new text's offsets)."""

    def __init__(self, raw: Mapping[cst.CSTNode, CodeSpan], shift: int) -> None:
        self._raw, self._shift = raw, shift
        self._set: dict[cst.CSTNode, CodeSpan] = {}

    def get(self, node: cst.CSTNode) -> CodeSpan | None:
        span = self._set.get(node)
        if span is not None:
            return span
        span = self._raw.get(node)
        if span is None or not self._shift:
            return span
        return CodeSpan(span.start + self._shift, span.length)

    def __getitem__(self, node: cst.CSTNode) -> CodeSpan:
        span = self.get(node)
        if span is None:
            raise KeyError(node)
        return span

    def __setitem__(self, node: cst.CSTNode, span: CodeSpan) -> None:
        self._set[node] = span


class NewSpans(Mapping[cst.CSTNode, CodeSpan]):
    """The new tree's byte spans: the re-parsed snippet's (``own``), and the old ones around
    it, those from ``after`` on moved by ``delta`` (the change in length)."""

    def __init__(
        self, old: Mapping[cst.CSTNode, CodeSpan], own: SnippetSpans, after: int, delta: int
    ) -> None:
        self._old, self._own, self._after, self._delta = old, own, after, delta

    def __getitem__(self, node: cst.CSTNode) -> CodeSpan:
        own = self._own.get(node)
        if own is not None:
            return own
        span = self._old[node]
        if span.start >= self._after:
            return CodeSpan(span.start + self._delta, span.length)
        return span

    def __iter__(self):  # type: ignore[no-untyped-def]
        raise TypeError("the spans of a re-parsed file are looked up, not listed")

    def __len__(self) -> int:
        raise TypeError("the spans of a re-parsed file are looked up, not listed")
