"""A shared helper's ``raise`` guarded by its instance's state alone is the set-up's.

The real call probe runs on an invented class (a selector built step by step, whose
methods all hand their check to one private helper that refuses a selector with no
steps): the probe's frame and line are what :func:`unusable_instance` reads. The other
cases are read from the syntax tree alone, each with one change from the first that
makes the exception the method's own again.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from probe_support import probe_outcome

from remora.code.probes.instance_guards import unusable_instance
from remora.code.probes.own_raises import is_node_behaviour

SELECTORS = """\
class Selector:
    def __init__(self):
        self._steps = ()

    def __getattr__(self, name):
        chosen = Selector()
        chosen._steps = self._steps + (name,)
        return chosen

    def _check(self, test, hashed=None, anywhere=False):
        if not self._steps and not anywhere:
            raise ValueError("the selector has no steps")
        return test

    def equals(self, value):
        return self._check(lambda v: v == value, ("==", value))

    def below(self, limit):
        return self._check(lambda v: v < limit)

    def anything(self):
        return self._check(lambda v: True, anywhere=True)

    def matches(self, pattern):
        if not pattern:
            raise ValueError("an empty pattern matches everything")
        return self._check(lambda v: pattern in v)

    def scoped(self, wide):
        return self._check(lambda v: True, anywhere=wide)

    def rooted(self, steps):
        self._steps = steps
        return self._check(lambda v: True)
"""


def _raised(tmp_path: Path, qualname: str, args: dict[str, Any]) -> Any:
    (tmp_path / "pickers.py").write_text(SELECTORS)
    outcome = probe_outcome(tmp_path, "pickers", qualname, args, owner="Selector")
    return outcome["raised"]


def test_a_shared_helpers_guard_on_the_bare_instance_is_its_set_up(tmp_path: Path) -> None:
    raised = _raised(tmp_path, "Selector.equals", {"value": 3})
    assert raised["frame"]["function"] == "Selector._check"
    # own_raises alone counts a private helper's raise as the method's own ...
    assert is_node_behaviour(raised, "Selector.equals", "pickers.py", frozenset())
    # ... but every method calls that helper and the guard reads only the instance.
    why = unusable_instance(SELECTORS, "Selector.equals", raised)
    assert why is not None
    assert "Selector._check" in why and "not self._steps" in why and "unusable" in why


def test_the_methods_own_raise_stays_its_behaviour(tmp_path: Path) -> None:
    raised = _raised(tmp_path, "Selector.matches", {"pattern": ""})
    assert raised["frame"]["function"] == "Selector.matches"
    assert unusable_instance(SELECTORS, "Selector.matches", raised) is None


def _frame(text: str, helper: str = "Selector._check") -> dict[str, Any]:
    """What the probe reports for the one ``raise`` of ``text``'s ``helper``."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if f"def {helper.split('.')[-1]}(" in line)
    line = next(i for i in range(start, len(lines)) if "raise " in lines[i]) + 1
    return {"type": "ValueError", "frame": {"function": helper, "line": line}, "stated": True}


CHECK = """\
    def _check(self, test, anywhere=False):
        if not self._steps and not anywhere:
            raise ValueError("the selector has no steps")
        return test
"""

TWO_CALLERS = """\
    def equals(self, value):
        return self._check(lambda v: v == value)

    def below(self, limit):
        return self._check(lambda v: v < limit)
"""


def _selector(check: str = CHECK, methods: str = TWO_CALLERS) -> str:
    return (
        f"class Selector:\n    def __init__(self):\n        self._steps = ()\n\n{check}\n{methods}"
    )


def test_the_invented_class_alone_is_the_set_up_s() -> None:
    text = _selector()
    assert unusable_instance(text, "Selector.equals", _frame(text)) is not None


@pytest.mark.parametrize(
    ("text", "method"),
    [
        # The method fills the guard's parameter from its own argument: the call decides.
        (SELECTORS, "Selector.scoped"),
        # The method sets the state the guard reads: its argument decides.
        (SELECTORS, "Selector.rooted"),
        # A constructor's call is what builds the instance (a dataclass's fields, then
        # its check): its arguments set the state the guard reads.
        (
            _selector(
                methods=TWO_CALLERS + "\n    def __post_init__(self):\n        self._check(None)\n"
            ),
            "Selector.__post_init__",
        ),
        # Only one method calls the helper: the method's own code, split out.
        (
            _selector(methods=TWO_CALLERS.replace("self._check(lambda v: v < limit)", "limit")),
            "Selector.equals",
        ),
        # An unguarded raise: the helper refuses every call, whatever the instance.
        (
            _selector(CHECK.replace("        if not self._steps and not anywhere:\n    ", "")),
            "Selector.equals",
        ),
        # A guard on none of the instance's state: how the method calls the helper.
        (
            _selector(CHECK.replace("not self._steps and not anywhere", "not anywhere")),
            "Selector.equals",
        ),
        # A guard on the helper's local: what it computed from the call, maybe.
        (
            _selector(
                CHECK.replace(
                    "if not self._steps",
                    "found = test(self._steps)\n        if not found or not self._steps",
                )
            ),
            "Selector.equals",
        ),
        # A raise in a loop: what it iterates may be the call's.
        (
            _selector(
                CHECK.replace(
                    "        if not", "        for step in test(self._steps):\n            if not"
                ).replace("            raise", "                raise")
            ),
            "Selector.equals",
        ),
    ],
)
def test_a_raise_the_call_or_the_method_decides_is_the_methods(text: str, method: str) -> None:
    assert unusable_instance(text, method, _frame(text)) is None


BASED = """\
class Base:
    def _check(self, test):
        if not self._steps:
            raise ValueError("no steps")
        return test


class Selector(Base):
    def __init__(self):
        self._steps = ()

    def equals(self, value):
        return self._check(lambda v: v == value)

    def below(self, limit):
        return self._check(lambda v: v < limit)
"""


def test_a_helper_of_a_base_class_guards_the_instance_and_another_classs_does_not() -> None:
    frame = _frame(BASED, "Base._check")
    assert unusable_instance(BASED, "Selector.equals", frame) is not None
    unrelated = BASED.replace("class Selector(Base):", "class Selector:")
    assert unusable_instance(unrelated, "Selector.equals", frame) is None
