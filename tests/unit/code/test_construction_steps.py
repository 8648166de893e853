"""A method ``__init__`` runs, without arguments, as a step of building every instance
gets no test of its own: a second call pins what a rerun does to the state it filled."""

from __future__ import annotations

import pytest

from remora.code.testgen.construction_steps import construction_step_reason

MODULE = """\
class Spec:
    def __init__(self, text, width=80):
        self.text = text
        self.parts = []
        self.parse()
        self.set_width(width)
        if text:
            self.normalise()
        self.helper = lambda: self.render()

    def parse(self):
        self.parts.extend(self.text.split(","))

    def set_width(self, width):
        self.width = width

    def normalise(self):
        self.text = self.text.strip()

    def render(self):
        return ",".join(self.parts)


class Other:
    def parse(self):
        return 1


def parse():
    return 2
"""


@pytest.mark.parametrize(
    ("qualname", "step"),
    [
        ("Spec.parse", True),
        # Called with a value: its users call it with others.
        ("Spec.set_width", False),
        # Under a condition: not every instance ran it.
        ("Spec.normalise", False),
        # Not called by __init__'s own body.
        ("Spec.render", False),
        ("Spec.__init__", False),
        # Another class's method of the same name, and a function.
        ("Other.parse", False),
        ("parse", False),
    ],
)
def test_only_an_unconditional_argument_free_call_in_init_is_a_step(
    qualname: str, step: bool
) -> None:
    reason = construction_step_reason(MODULE, qualname)
    assert (reason is not None) is step
    if step:
        assert reason is not None and reason.startswith("Spec.__init__ calls it")


def test_a_module_that_does_not_parse_has_no_step() -> None:
    assert construction_step_reason("class Spec(:\n", "Spec.parse") is None
