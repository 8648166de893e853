"""A summary that gives a part to a parameter the code never reads is refused; one that
names only what the code reads, or says a parameter is ignored, stands."""

from __future__ import annotations

import pytest
from summary_support import summary_refusal

SOURCE = """\
class Keep:
    def choose(self, route, old, new):
        return new

    def merge(self, route, old, new):
        def pick():
            return old if new is None else new

        return pick()

    def trace(self, route, old, new):
        return dict(locals())

    def rename(self, base_path, suffix):
        return suffix

    def maximum(self, *sequences):
        return 1

    def draw(self, deck, count):
        while True:
            yield pick_card(deck, count)

    def tag(self, parent):
        LOG.info("tag for %s" % parent)
        return "item"

    def label(self, parent):
        LOG.info("label")
        return parent.name
"""


def refusal(name: str, summary: str) -> str:
    return summary_refusal(SOURCE, "pkg/keep.py", "method", name, summary)


@pytest.mark.parametrize(
    ("name", "summary", "refused"),
    [
        # deepmerge's strategy_override: "Override the strategy based on the path and base".
        ("Keep.choose", "Choose a value based on the route and the old one.", "route"),
        ("Keep.choose", "Return new, found from old.", "old"),
        ("Keep.rename", "Return the suffix based on the base path.", "base_path"),
        ("Keep.choose", "Return new in place of old, whatever the route.", ""),  # no input
        ("Keep.choose", "Return the new value.", ""),
        ("Keep.choose", "Return new, ignoring route and old.", ""),  # said to be left alone
        ("Keep.merge", "Pick old where new is None, else new.", ""),  # a closure reads them
        ("Keep.trace", "Return the route, old and new as a dict.", ""),  # locals() reads all
        # textdistance's maximum(self, *sequences): return 1.
        ("Keep.maximum", "Return the maximum value among the given sequences.", "sequences"),
        ("Keep.maximum", "Return the maximum value from the given sequences.", "sequences"),
        ("Keep.maximum", "Return 1, the largest score, whatever the sequences.", ""),
        # dicttoxml's default_item_func: `parent` only logged, "item" returned.
        ("Keep.tag", "Return a default tag for the given parent.", "parent"),
        ("Keep.label", "Return the label for the given parent.", ""),
    ],
)
def test_a_parameter_the_code_never_reads_is_given_no_part(
    name: str, summary: str, refused: str
) -> None:
    reason = refusal(name, summary)
    if refused:
        assert reason.startswith(f"it gives {refused!r} a part"), reason
    else:
        assert "never reads it" not in reason, reason


@pytest.mark.parametrize(
    ("summary", "refused"),
    [
        ("Yield a card from a random deck and count.", "'deck' random"),
        ("Draw cards from an arbitrary deck forever.", "'deck' arbitrary"),
        ("Yield random cards drawn from the deck.", ""),  # the cards are the code's pick
        ("Yield a random card of the deck, count at a time.", ""),  # "of" ends the phrase
    ],
)
def test_a_parameter_called_random_is_refused(summary: str, refused: str) -> None:
    reason = refusal("Keep.draw", summary)
    assert (f"it calls {refused}" in reason) if refused else reason == ""
