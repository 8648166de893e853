"""A predicate's tests show both outcomes; a raised class is named as the code imports it.

An invented kit (issue 56): ``Registry.holds``/``has_suffix`` return whether one argument
is in (or ends) the other, called in the kit with its own texts (a made-up text the code
reads gives no test); ``mirrored`` a condition the value search cannot make true;
``Registry.run`` raises a class of the kit's ``errors`` module, imported as ``from kit
import errors``. Blind reviewers marked ``assert holds(...) is False`` alone "return False
would pass" and ``pytest.raises(Exception)`` "name the class". The sandbox, the probe,
pytest and the mutation check are real; no model.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from bundled_agents_support import search_tests_on

pytestmark = pytest.mark.integration

ERRORS = '''\
class KitError(Exception):
    """Base of the kit's errors."""


class UnknownCommand(KitError):
    pass
'''

COMMANDS = """\
from kit import errors


class Registry:
    TABLE = {"size": len}

    def run(self, name, args):
        try:
            command = self.TABLE[name]
        except KeyError:
            raise errors.UnknownCommand("no command named %r" % name)
        return command(*args)

    def holds(self, subject, search):
        return search in subject

    def has_suffix(self, text, suffix):
        return text.endswith(suffix)

    def mirrored(self, a, b):
        return a[::-1] == b and len(a) > 3


def checks():
    registry = Registry()
    found = registry.holds("spam and eggs", "eggs"), registry.holds("spam and eggs", "ham")
    return found, registry.has_suffix("notes.txt", ".txt"), registry.has_suffix("notes.txt", ".md")
"""

FILES = {"kit/__init__.py": "", "kit/errors.py": ERRORS, "kit/commands.py": COMMANDS}


async def _search(tmp_path: Path, node: str) -> tuple[dict[str, Any], str]:
    found, data = await search_tests_on(
        tmp_path, FILES, "kit/commands.py", node, "tests/test_commands.py"
    )
    return found, (data or b"").decode()


@pytest.mark.parametrize("node", ["Registry.holds", "Registry.has_suffix"])
async def test_a_predicate_keeps_a_test_of_each_outcome(tmp_path: Path, node: str) -> None:
    found, written = await _search(tmp_path, node)
    assert len(found["kept"]) == 2, found
    assert "assert result is True" in written and "assert result is False" in written, written


async def test_a_predicate_whose_true_outcome_is_never_reached_gets_no_test(
    tmp_path: Path,
) -> None:
    found, written = await _search(tmp_path, "Registry.mirrored")
    assert found["kept"] == [] and written == "", found
    reasons = ("no test shows the other outcome", "shows made-up")
    assert any(r in d for d in found["dropped"] for r in reasons), found


async def test_a_raised_class_of_another_module_is_named_as_the_code_imports_it(
    tmp_path: Path,
) -> None:
    found, written = await _search(tmp_path, "Registry.run")
    assert found["kept"], found
    assert "from kit import errors" in written, written
    assert "pytest.raises(errors.UnknownCommand" in written, written
    assert "pytest.raises(Exception" not in written, written


VALIDATORS = """\
import re

MATCHER = re.compile("^[a-z]+$")


def is_valid(value, matcher, require):
    if require:
        return value is not None and matcher.match(value)
    return value is None or matcher.match(value)


def scheme_is_valid(scheme, require=False):
    return is_valid(scheme, MATCHER, require)
"""


async def test_a_node_whose_tests_saw_only_one_boolean_gets_no_test(tmp_path: Path) -> None:
    # rfc3986's scheme_is_valid(None, require=None) is True, handing on another function's
    # answer: "only passes None, skips all the actual checking" (blind review). A None
    # handed on is no candidate; what is left shows made-up values or one outcome.
    found, data = await search_tests_on(
        tmp_path, {"checks.py": VALIDATORS}, "checks.py", "scheme_is_valid", "tests/test_checks.py"
    )
    assert found["kept"] == [] and data is None, found
    reasons = ("no test shows the other outcome", "shows made-up")
    assert any(r in d for d in found["dropped"] for r in reasons), found


CALENDAR = """\
def has_leftover_days(days, week=7):
    return days > 0 and days % week


FORTNIGHT_ENDS_A_WEEK = not has_leftover_days(14)
"""


async def test_an_answer_by_truth_is_asserted_as_truth(tmp_path: Path) -> None:
    # jdcal's is_leap(2024) is 24: "== pytest.approx(24.0)" locked in what the and/or chain
    # handed back (its blind reviewer), where a plain bool is as right. Here the module's
    # own call leaves 0 of 14 days (the identity mutant's 14 fails `assert not result`).
    found, data = await search_tests_on(
        tmp_path, {"dates.py": CALENDAR}, "dates.py", "has_leftover_days", "tests/test_dates.py"
    )
    written = (data or b"").decode()
    assert found["kept"], found
    assert "result ==" not in written and "approx" not in written, written
    assert "has_leftover_days(14)\n    assert not result\n" in written, written
