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


FLUENT = """\
class Job:
    def __init__(self):
        self.unit = None
        self.start_day = None

    @property
    def weeks(self):
        self.unit = "weeks"
        return self

    @property
    def monday(self):
        if self.unit == "days":
            raise ValueError("weekly jobs only")
        self.start_day = "monday"
        return self.weeks

    def at(self, when):
        self.when = when
        return self.tag(when)

    def tag(self, name):
        self.tags = [name]
        return self

    def label(self):
        return self.start_day
"""


def _method(name: str) -> SourceNode:
    line = next(i for i, text in enumerate(FLUENT.splitlines(), 1) if f"def {name}(" in text)
    return locate(parse(FLUENT, "jobs.py"), NodeRef("method", f"Job.{name}", line))


def test_a_return_through_another_builder_of_the_class_is_a_builder() -> None:
    # ``return self.weeks`` and ``return self.tag(when)`` hand back the instance too.
    assert body_facts(_method("weeks")).builder
    assert body_facts(_method("monday")).builder
    assert body_facts(_method("at")).builder
    # An attribute that is no builder is a value like any other.
    assert not body_facts(_method("label")).builder
