"""The fixed style examples' noun ("the stack") names a subject only where the node is so
called (docstring/style_nouns.py).

sqlitedict's ``SqliteDict`` keeps a ``self._outer_stack``; seven of its methods were
drafted about "the stack", the fixed ``Stack`` example's subject, and each was sent back.
The code here is invented.
"""

from __future__ import annotations

import pytest
from summary_support import summary_refusal

from remora.code.docstring.pieces import Pieces, check_pieces
from remora.code.parsing import NodeRef, locate, parse

SOURCE = """\
class Ledger:
    def __init__(self, path, outer_stack=True):
        self.path = path
        self._outer_stack = outer_stack
        self.rows = []

    def entries(self):
        return iter(self.rows)

    def close(self):
        self.rows = None


class CallStack:
    def __init__(self):
        self.frames = []

    def depth(self):
        return len(self.frames)


def push_frame(stack, frame):
    stack.append(frame)
"""


def refused_for(kind: str, name: str, summary: str) -> str:
    return summary_refusal(SOURCE, "pkg/ledger.py", kind, name, summary)


@pytest.mark.parametrize(
    ("name", "summary"),
    [
        ("Ledger.entries", "Return an iterator over the items in the stack."),
        ("Ledger.close", "Close the stack."),
    ],
)
def test_the_examples_noun_for_a_subject_nothing_calls_so_is_refused(
    name: str, summary: str
) -> None:
    assert "the style example's noun" in refused_for("method", name, summary)


@pytest.mark.parametrize(
    ("kind", "name", "summary"),
    [
        ("method", "CallStack.depth", "Return how many frames the stack holds."),  # its class
        ("function", "push_frame", "Put the frame on top of the stack."),  # its parameter
        ("method", "Ledger.entries", "Return an iterator over the ledger's rows."),
    ],
)
def test_a_subject_so_called_may_be_the_stack(kind: str, name: str, summary: str) -> None:
    assert "the style example's noun" not in refused_for(kind, name, summary)


def test_without_the_fixed_examples_shown_the_word_is_the_code_s() -> None:
    # A module with documented code of its own is shown that, not the fixed examples.
    node = locate(parse(SOURCE, "pkg/ledger.py"), NodeRef("method", "Ledger.close", 0))
    _, refused = check_pieces(node, Pieces(summary="Close the stack."), others=())
    assert not any("style example" in r["reason"] for r in refused)
