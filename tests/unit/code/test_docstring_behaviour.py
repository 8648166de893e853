"""A call's callee is read as a chain of names (``values.annotations.dotted_name``), never
through a call: ``sys.stdout.write`` prints, ``self.rows().append`` stores nothing known."""

from __future__ import annotations

from remora.code.docstring.behaviour import body_facts
from remora.code.parsing import NodeRef, SourceNode, locate, parse

SOURCE = """\
import sys


def report(rows):
    sys.stdout.write(str(rows))


def through_a_call(self, row):
    self.rows().append(row)


def keeps(self, row):
    self.rows.append(row)
"""


def _node(name: str) -> SourceNode:
    line = next(i for i, text in enumerate(SOURCE.splitlines(), 1) if f"def {name}(" in text)
    return locate(parse(SOURCE, "beds.py"), NodeRef("function", name, line))


def test_a_chain_of_names_is_read_whole() -> None:
    facts = body_facts(_node("report"))
    assert facts.prints and not facts.writes
    assert facts.calls == {"write", "str"}
    assert body_facts(_node("keeps")).stores


def test_a_chain_through_a_call_names_no_callee() -> None:
    facts = body_facts(_node("through_a_call"))
    assert facts.calls == {"rows"}
    assert not facts.stores
