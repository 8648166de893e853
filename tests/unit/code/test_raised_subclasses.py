"""An exception the project subclasses is asserted by its exact class too.

voluptuous' ``validate_with_humanized_errors`` catches a ``MultipleInvalid`` and raises an
``Error`` with a readable message; ``MultipleInvalid`` is itself an ``Error``, so
``pytest.raises(Error)`` passed with the conversion removed (three blind rejects: "pins
nothing about the humanized message"). Where the project subclasses the class raised,
the test asserts ``excinfo.type is Error`` beside it, and catches that change; not beside
the whole message of an exception raised outright, where it only repeats
``pytest.raises``.
"""

from __future__ import annotations

from pathlib import Path

from probe_support import failed_tests, observed_test

ERRORS = """\
class Error(Exception):
    pass


class Invalid(Error):
    pass


def check(value):
    if not value:
        raise Invalid("an empty value")
    return value


def humanized(value):
    try:
        return check(value)
    except Invalid as error:
        raise Error(f"{error}, got {value!r}")
"""


def test_a_subclassed_exception_is_asserted_by_its_exact_class(tmp_path: Path) -> None:
    (tmp_path / "errors.py").write_text(ERRORS)
    names = {"Error", "Invalid", "check", "humanized"}
    tests = {
        "humanized": observed_test(tmp_path, "errors", "humanized", {"value": ""}, names),
        "check": observed_test(tmp_path, "errors", "check", {"value": ""}, names),
    }
    asserts = {n: [x.strip() for x in t.splitlines() if "assert" in x] for n, t in tests.items()}
    assert "assert excinfo.type is Error" in asserts["humanized"], tests["humanized"]
    assert not any("excinfo.type" in line for line in asserts["check"]), tests["check"]
    assert failed_tests(tmp_path / "code", "errors", ERRORS, tests) == set()
    unconverted = ERRORS.replace("raise Error(", "raise Invalid(")
    assert failed_tests(tmp_path / "changed", "errors", unconverted, tests) == {"humanized"}


def test_a_plain_raise_with_its_whole_message_is_not_asserted_by_class_again(
    tmp_path: Path,
) -> None:
    # pyjwt's decode_complete raises DecodeError (which the project subclasses) itself:
    # the whole message tells it apart, and a blind reviewer read the class check as
    # redundant with pytest.raises.
    names = {"Error", "Invalid", "check", "humanized", "plain"}
    plain = ERRORS + '\n\ndef plain(value):\n    raise Error(f"no {value!r}")\n'
    (tmp_path / "errors.py").write_text(plain)
    test = observed_test(tmp_path, "errors", "plain", {"value": ""}, names)
    assert "excinfo.type" not in test and "assert str(excinfo.value) == \"no ''\"" in test, test
