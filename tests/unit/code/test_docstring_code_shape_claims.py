"""Summaries held to what deprecation, a noun-named function, a context manager and a
returned argument show."""

from __future__ import annotations

import pytest

from remora.code.docstring.pieces import Pieces, check_pieces
from remora.code.parsing import NodeRef, locate, parse

SOURCE = """\
import warnings
from contextlib import contextmanager

from typing_extensions import deprecated

from .shapes import Circle


class Channel:
    def __init__(self):
        self.listeners = []


class Board:
    def __init__(self):
        self.channels = {}

    def channel(self, name):
        if name not in self.channels:
            self.channels[name] = Channel()
        return self.channels[name]

    def circle(self, radius):
        return Circle(radius)

    def clear(self):
        self.channels.clear()

    def listen(self, listener):
        self.channel("all").listeners.append(listener)

    def old_listen(self, listener):
        warnings.warn("'old_listen' is renamed to 'listen'.", DeprecationWarning, stacklevel=2)
        return self.listen(listener)

    @deprecated("Use listen instead.")
    def older_listen(self, listener):
        return self.listen(listener)

    def noisy_listen(self, listener):
        warnings.warn("listening twice", UserWarning)
        return self.listen(listener)

    def tagged(self, channel, tag):
        channel.listeners.append(tag)
        return channel

    def renewed(self, channel):
        channel = Channel()
        return channel

    @contextmanager
    def listening(self, listener):
        self.listen(listener)
        try:
            yield None
        finally:
            self.channel("all").listeners.remove(listener)


class OldBoard(Board):
    def __init__(self):
        warnings.warn("OldBoard is deprecated; use Board.", category=FutureWarning)
        super().__init__()
"""


def summary_refusal(kind: str, name: str, summary: str) -> str:
    node = locate(parse(SOURCE, "pkg/board.py"), NodeRef(kind, name, 0))
    _, refused = check_pieces(node, Pieces(summary=summary))
    return "; ".join(r["reason"] for r in refused if r["field"] == "summary")


@pytest.mark.parametrize(
    ("kind", "name", "summary", "reason"),
    [
        (
            "method",
            "Board.old_listen",
            "Add a listener to every channel.",
            "it leaves out that old_listen is deprecated: it warns (\"'old_listen' is renamed "
            "to 'listen'.\"); say so",
        ),
        ("method", "Board.older_listen", "Add a listener.", "it leaves out that older_listen"),
        ("class", "OldBoard", "A board of channels.", "it leaves out that OldBoard"),
        # The name is a class of the module (or one it imports), and a value comes back.
        ("method", "Board.channel", "Channel a named event.", "it reads 'channel' as an action"),
        ("method", "Board.circle", "Circle the radius.", "it reads 'circle' as an action"),
        (
            "method",
            "Board.listening",
            "Add the listener and yield None when done.",
            "listening is used in a with block, not iterated",
        ),
        # The argument changed and handed back is no new object (cssselect's
        # ``xpath_empty_pseudo`` "Return a new XPathExpr that matches …": reviewer, false).
        (
            "method",
            "Board.tagged",
            "Return a new channel holding the tag.",
            "it says a new object is returned, but the code hands back the argument it was",
        ),
    ],
)
def test_a_summary_that_hides_what_the_code_shows_is_refused(
    kind: str, name: str, summary: str, reason: str
) -> None:
    assert summary_refusal(kind, name, summary).startswith(reason)


@pytest.mark.parametrize(
    ("kind", "name", "summary"),
    [
        ("method", "Board.old_listen", "Deprecated: use listen instead."),
        ("class", "OldBoard", "A board, deprecated in favour of Board."),
        # Another warning is no deprecation.
        ("method", "Board.noisy_listen", "Add a listener and warn that it listens twice."),
        ("method", "Board.channel", "Return the channel of that name, made on first use."),
        # Not a class's name, or nothing returned: the name may be the verb.
        ("method", "Board.listen", "Listen on every channel with the listener."),
        ("method", "Board.clear", "Clear the board's channels."),
        ("method", "Board.listening", "Keep the listener listening for the with block."),
        # A parameter bound anew is another object.
        ("method", "Board.renewed", "Return a new channel."),
        # A plain function: nothing to refuse.
        ("method", "Board.circle", "Return a new circle of the radius."),
    ],
)
def test_a_summary_that_says_what_the_code_shows_stands(kind: str, name: str, summary: str) -> None:
    assert summary_refusal(kind, name, summary) == ""
