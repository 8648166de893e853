"""An exception a probed call raised, told from the node's behaviour (probes/own_raises)."""

from __future__ import annotations

from remora.code.probes.own_raises import raises_no_exception

STRATEGY = """\
class Strategy:
    def merge(self, base, head):
        raise NotImplemented

    def schema(self):
        raise TypeError("no schema")
"""


def test_the_type_error_of_raise_not_implemented_is_no_behaviour() -> None:
    # jsonmerge's Strategy.merge: two tests pinned "exceptions must derive from
    # BaseException" (its blind reviewer: "locks in the accidental TypeError").
    bug = {"type": "TypeError", "frame": {"function": "Strategy.merge", "line": 3}}
    assert raises_no_exception(STRATEGY, bug) is True
    stated = {"type": "TypeError", "frame": {"function": "Strategy.schema", "line": 6}}
    assert raises_no_exception(STRATEGY, stated) is False
    assert raises_no_exception(STRATEGY, {**bug, "type": "ValueError"}) is False
