"""Made-up arguments a kept call never reads (issue 56): the stand-in, the marks, the outcome.

The probe runs its real program text on a Python subprocess (``probe_support``) with an
argument replaced by ``{"__unread__": true}``; the snippets are invented.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from probe_support import probe_outcome

from remora.code.testgen.unread_arguments import made_up_arguments, same_outcome
from remora.code.values import CallTarget
from remora.code.values.derived_sets import sample_value
from remora.code.values.kind_samples import sample
from remora.code.values.placeholders import holds_made_up, made_up

STAND_IN = {"__unread__": True}

SNIPPETS = """\
def power(a, b):
    if a > 1000:
        raise ValueError("a is too big")
    return a ** b


def pick(flag, other):
    if flag:
        return 1
    return other.upper()


def parsed(text):
    try:
        return int(text)
    except Exception:
        return 0


def kind(obj):
    return "list" if isinstance(obj, list) else "other"


def handed_back(value):
    return [value]


def words(text):
    if isinstance(text, bytes):
        text = text.decode()
    return text.split()


class Shelf:
    def __init__(self):
        self.note = None

    def put(self, count, note):
        if count < 0:
            raise ValueError("negative count")
        self.note = note
"""


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "snippets.py").write_text(SNIPPETS)
    return tmp_path


def _call(project: Path, qualname: str, args: dict[str, Any], **kw: Any) -> dict[str, Any]:
    return probe_outcome(project, "snippets", qualname, args, **kw)


def test_a_guard_that_returns_first_never_uses_the_other_argument(project: Path) -> None:
    guarded = _call(project, "power", {"a": 1001, "b": STAND_IN})
    assert guarded["raised"]["message"] == "a is too big"
    assert "unread_used" not in guarded
    computed = _call(project, "power", {"a": 2, "b": STAND_IN})
    assert computed["unread_used"] == ["__rpow__"]


def test_an_argument_read_only_in_another_branch_is_unused_on_this_one(project: Path) -> None:
    assert "unread_used" not in _call(project, "pick", {"flag": True, "other": STAND_IN})
    used = _call(project, "pick", {"flag": False, "other": STAND_IN})
    assert used["unread_used"] == ["attribute upper"]


def test_storing_an_argument_is_no_use_but_a_test_asserting_it_is(project: Path) -> None:
    owner = {"owner": "Shelf", "owner_args": {}}
    stored = _call(project, "Shelf.put", {"count": 1, "note": STAND_IN}, **owner)
    assert stored["returned"]["repr"] == "None" and "unread_used" not in stored
    asserted = _call(
        project, "Shelf.put", {"count": 1, "note": STAND_IN}, observe=["note"], **owner
    )
    assert asserted["unread_used"] == ["repr"]
    guarded = _call(
        project, "Shelf.put", {"count": -1, "note": STAND_IN}, observe=["note"], **owner
    )
    assert guarded["raised"]["type"] == "ValueError" and "unread_used" not in guarded


@pytest.mark.parametrize(
    ("qualname", "first_use"),
    [
        ("parsed", "__int__"),  # the code swallowed the failure: still a use
        ("kind", "attribute __class__"),  # isinstance asks the value its class
        ("handed_back", "repr"),  # a test would assert what it returned
    ],
)
def test_a_use_is_recorded_however_the_code_reacts(
    project: Path, qualname: str, first_use: str
) -> None:
    parameter = {"parsed": "text", "kind": "obj", "handed_back": "value"}[qualname]
    outcome = _call(project, qualname, {parameter: STAND_IN})
    assert outcome["unread_used"][0] == first_use


def test_a_use_that_only_holds_the_value_lets_the_call_go_on_to_its_next(project: Path) -> None:
    # natsort's path_splitter: an isinstance check first, then the text is split. The
    # class is recorded and answered; the split after it is what reads the value.
    outcome = _call(project, "words", {"text": STAND_IN})
    assert outcome["unread_used"][0] == "attribute __class__"
    assert outcome["unread_used"][-1] == "attribute split"


def test_the_value_search_knows_the_strings_it_made_up_for_a_parameter() -> None:
    def no_class(_name: str) -> None:
        return None

    assert made_up("b", sample_value("b", None, 0, no_class))  # "sample b"
    assert made_up("label", sample_value("label", "str", 1, no_class))  # "other label"
    assert made_up("items", sample_value("items", None, 0, no_class))  # ["sample item"]
    assert not made_up("email", sample_value("email", "str", 0, no_class))  # a named value
    assert not made_up("b", sample_value("b", "str", 2, no_class))  # the edge case, ""
    assert not made_up("a", "sample b")  # another parameter's
    assert not made_up("b", "sample")
    # A path from the name table names no file: made up too (not a name or an email).
    assert made_up("dotenv_path", sample_value("dotenv_path", "str", 0, no_class))
    # A mapping of the made-up keys (mistune's ``append_token(token: Dict[str, Any])``
    # got ``{"alpha": ..., "beta": ...}``: "dicts that are not tokens at all").
    token = sample_value("token", "Dict[str, Any]", 0, no_class)
    assert made_up("token", token) and made_up("tokens", [token])
    assert not made_up("token", {"type": "paragraph"})
    assert not made_up("token", sample_value("token", "Dict[str, Any]", 2, no_class))  # {}
    assert not made_up("name", sample_value("name", "str", 0, no_class))
    # A mapping of placeholders is one; the dict kind's own sample is a value, not a name.
    assert not made_up("counts", sample("dict"))
    assert made_up("s", {"n": "sample s"}) and not made_up("s", {"n": "sample"})
    # A mapping holding, under a key, the value made up for that key (zxcvbn's match
    # dicts: "token": "sample token"), whatever the mapping's other values.
    assert made_up("match", {"token": "sample token", "rank": 3})
    assert made_up("match", {"pattern": "dictionary", "reversed": "other reversed"})
    assert not made_up("match", {"token": "sample", "rank": 3})
    assert not made_up("match", {"year": 2024, "separator": "/"})
    # A list with one placeholder of its own among another parameter's shows it all the same.
    assert holds_made_up("iterable", ["sample value", "sample iterable"])
    assert not made_up("iterable", ["sample value", "sample iterable"])
    assert not holds_made_up("iterable", ["sample value", "red"])


def _target(*names: str) -> CallTarget:
    rows = [
        {"name": n.lstrip("*"), "kind": "var_positional" if n.startswith("*") else "positional"}
        for n in names
    ]
    return {"parameters": rows}  # type: ignore[typeddict-item]


def test_made_up_arguments_are_the_marked_and_the_misfit_ones_never_star_args() -> None:
    args = {
        "a": 1001,
        "b": "sample b",
        "when": "2024-01-31",
        "rest": ["sample rest"],
    }

    def misfit(name: str, _value: Any) -> bool:
        return name == "when"

    assert made_up_arguments(_target("a", "b", "when", "*rest"), args, misfit) == ["b", "when"]


def test_the_same_outcome_is_the_same_value_exception_and_state() -> None:
    raised = {"ok": True, "raised": {"type": "ValueError", "module": "builtins", "message": "x"}}
    assert same_outcome(raised, {**raised, "name": "other"})
    other_message = {**raised, "raised": {**raised["raised"], "message": "y"}}
    assert not same_outcome(raised, other_message)
    assert not same_outcome(raised, {**raised, "unread_used": ["repr"]})
    returned = {"ok": True, "returned": {"repr": "1", "literal": True}, "state": {"n": 1}}
    assert same_outcome(returned, {**returned, "returned": {**returned["returned"], "twin": {}}})
    assert not same_outcome(returned, {**returned, "state": {"n": 2}})
