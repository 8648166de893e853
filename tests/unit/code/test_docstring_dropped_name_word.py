"""A summary that leaves out a short word of the name (an abbreviation, a code) is refused.

The refused cases are excerpts of validators 0.35.0 (review corpus, development part),
whose summaries blind reviewers rejected: "says less than the function name" (``fi_ssn``,
``fr_ssn``, ``ipv4``) or false (``trx_address``: TRON, not "transaction").
"""

from __future__ import annotations

import pytest

from remora.code.docstring.pieces import Pieces, check_pieces
from remora.code.parsing import NodeRef, SourceNode, locate, parse

VALIDATORS = """\
import re


def fi_ssn(value: str, /, *, allow_temporal_ssn: bool = True):
    if not value:
        return False
    return bool(re.match(r"^\\d{6}[+-A]\\d{3}[0-9A-Y]$", value))


def trx_address(value: str, /):
    if not value:
        return False
    return re.compile(r"^[T][a-km-zA-HJ-NP-Z1-9]{33}$").match(value)


def ipv4(value: str, /, *, cidr: bool = True):
    return value.count(".") == 3


def max_items(items):
    return max(len(i) for i in items)


class Reader:
    def get_pos(self):
        return self.pos

    def __len__(self):
        return 0
"""


def summary_reason(name: str, summary: str) -> str:
    text = VALIDATORS
    line = next(
        i for i, row in enumerate(text.splitlines(), 1) if f"def {name.split('.')[-1]}(" in row
    )
    kind = "method" if "." in name else "function"
    node: SourceNode = locate(parse(text, "validators/ids.py"), NodeRef(kind, name, line))
    _, refused = check_pieces(node, Pieces(summary=summary))
    return "; ".join(r["reason"] for r in refused if r["field"] == "summary")


@pytest.mark.parametrize(
    ("name", "summary", "dropped"),
    [
        ("fi_ssn", "Check if the SSN is valid.", "'fi'"),
        ("trx_address", "Validate a transaction address.", "'trx'"),
        ("ipv4", "Check if the IP address is valid.", "'ipv'"),
    ],
)
def test_a_summary_that_drops_an_abbreviation_of_the_name_is_refused(
    name: str, summary: str, dropped: str
) -> None:
    reason = summary_reason(name, summary)
    assert reason.startswith(f"it leaves out {dropped} of the name {name!r}; say what the name")


@pytest.mark.parametrize(
    ("name", "summary"),
    [
        # Spelled out: "fi" is "Finnish" (its letters in order, from the same first one).
        ("fi_ssn", "Check that the value is a valid Finnish SSN, checksum included."),
        ("trx_address", "Validate a TRX (TRON) address: a T and 33 base58 characters."),
        # A builtin's name (max) and a general word (get, pos as position) need not be said.
        ("max_items", "Return the length of the longest of the items."),
        ("Reader.get_pos", "Return the reader's current position in its text."),
        # A special method's name is Python's.
        ("Reader.__len__", "Return zero: a reader holds no items of its own."),
    ],
)
def test_a_summary_that_says_each_short_word_passes_the_rule(name: str, summary: str) -> None:
    assert "leaves out" not in summary_reason(name, summary)
