"""A message an exception's class assembles is asserted by what the exception holds.

pathvalidate's ``ValidationError`` formats ``"[PV1100] invalid characters found: ...,
platform=universal, value=..."`` from its ``reason`` and ``platform``; a blind reviewer
edited the test comparing that whole text ("breaks when the wording changes") to assert
the reason and the platform instead. A message the exception holds as given, or one
with nothing beside it, is still compared whole.
"""

from __future__ import annotations

from pathlib import Path

from probe_support import failed_tests, observed_test, probe_outcome

CHECKS = """\
import enum


class Reason(enum.Enum):
    EMPTY = "V100"
    BAD_CHARACTER = "V200"


class Invalid(ValueError):
    def __init__(self, description, reason, where=None, hint=None):
        super().__init__(description)
        self._reason = reason
        self.where = where
        self.hint = hint
        self.text = description

    @property
    def reason(self):
        return self._reason

    @property
    def description(self):  # the same value as text: asserted once
        return self.args[0]

    def __str__(self):
        return f"[{self._reason.value}] {self.args[0]}: where={self.where}"


def check(name, where="anywhere"):
    if not name:
        raise Invalid("the name is empty", Reason.EMPTY, where)
    if "/" in name:
        raise Invalid(f"a bad character in {name!r}", Reason.BAD_CHARACTER, where)
    if name.startswith("-"):
        raise ValueError("a name cannot start with a dash")
    return name
"""


def test_the_probe_reports_the_exception_s_attributes_and_properties(tmp_path: Path) -> None:
    (tmp_path / "checks.py").write_text(CHECKS)
    raised = probe_outcome(tmp_path, "checks", "check", {"name": ""})["raised"]
    attributes = raised["attributes"]
    assert sorted(attributes) == ["description", "hint", "reason", "text", "where"]  # no args
    assert attributes["reason"]["constructed"]["text"] == "Reason.EMPTY"
    assert attributes["where"]["repr"] == "'anywhere'"


def _asserts(tmp_path: Path, name: str, key: str = "check") -> tuple[list[str], str]:
    test = observed_test(tmp_path, "checks", "check", {"name": name}, {"check", "Reason"})
    test = "import pytest\n" + test.replace("def test_check(", f"def test_{key}(")
    return [line.strip() for line in test.splitlines() if "assert" in line], test


def test_an_assembled_message_is_asserted_by_what_the_exception_holds(tmp_path: Path) -> None:
    (tmp_path / "checks.py").write_text(CHECKS)
    asserts, test = _asserts(tmp_path, "")
    assert asserts == [
        "assert excinfo.value.where == 'anywhere'",
        "assert excinfo.value.text == 'the name is empty'",
        "assert excinfo.value.reason == Reason.EMPTY",
    ]
    assert "from checks import Invalid, Reason, check" in test
    tests = {
        "empty": _asserts(tmp_path, "", "empty")[1],
        "dash": _asserts(tmp_path, "-a", "dash")[1],
    }
    assert failed_tests(tmp_path / "code", "checks", CHECKS, tests) == set()
    # Another reason, or a builtin's message changed: each test catches its own.
    changed = CHECKS.replace("Reason.EMPTY, where", "Reason.BAD_CHARACTER, where")
    changed = changed.replace("cannot start", "must not start")
    assert failed_tests(tmp_path / "changed", "checks", changed, tests) == {"empty", "dash"}


def test_a_builtin_exception_s_message_is_still_compared_whole(tmp_path: Path) -> None:
    (tmp_path / "checks.py").write_text(CHECKS)
    asserts, _ = _asserts(tmp_path, "-a")
    assert asserts == ["assert str(excinfo.value) == 'a name cannot start with a dash'"]
