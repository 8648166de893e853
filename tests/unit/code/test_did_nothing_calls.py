"""Calls whose test would show nothing of the node, and a generator's call that did nothing.

Made-up module: a rule list and a generator over it. Blind reviewers rejected tests that
drain a generator called with an empty collection (``list(kept([], rules)) == []``), that
loop over an empty list of rules, and that assert the ``None`` the test itself passed in:
each passes whatever the code does.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

from ast_support import first_function
from probe_support import failed_tests, probe_outcome

from remora.code.testgen.empty_results import YIELDS_NOTHING, nothing_results
from remora.code.testgen.mutants import node_mutants
from remora.code.testgen.no_op_calls import looped_parameters, shows_nothing
from remora.code.testgen.test_names import behaviour_name

RULES = """\
def verdict(rules, text):
    found = None
    for word, keep in rules:
        if word in text:
            found = keep
    return found


def kept(texts, rules):
    for text in texts:
        if verdict(rules, text):
            yield text


def pick(primary, backup, first=True):
    return primary if first else backup


def forget(store, key=None):
    store.pop(key, None)
"""


def _function(name: str) -> ast.FunctionDef:
    return next(
        n for n in ast.walk(ast.parse(RULES)) if isinstance(n, ast.FunctionDef) and n.name == name
    )


def test_a_generator_that_did_nothing_yields_nothing_and_a_kept_set_must_fail_it(
    tmp_path: Path,
) -> None:
    kept = _function("kept")
    assert nothing_results(kept) == [YIELDS_NOTHING]
    generator = ast.parse("async def f(x):\n    yield x\n").body[0]
    assert isinstance(generator, ast.AsyncFunctionDef)
    assert nothing_results(generator) == []
    empty = [m for m in node_mutants(RULES, kept) if m.must_fail]
    assert [(m.kind, m.must_fail) for m in empty] == [("empty", "empty")]
    tests = {
        "empty_input": "from rules import kept\n\n\ndef test_empty_input():\n"
        "    assert list(kept([], [('a', True)])) == []\n",
        "kept_one": "from rules import kept\n\n\ndef test_kept_one():\n"
        "    assert list(kept(['ab', 'c'], [('a', True)])) == ['ab']\n",
    }
    assert failed_tests(tmp_path / "code", "rules", RULES, tests) == set()
    # Only the call that did something fails where the generator yields nothing.
    assert failed_tests(tmp_path / "mutant", "rules", empty[0].source, tests) == {"kept_one"}


def test_a_generator_s_drained_items_are_named_as_what_it_yields() -> None:
    kept = _function("kept")
    row: dict[str, Any] = {"args": {"texts": ["ab", "c"]}, "returned": {"repr": "['ab']"}}
    row["returned"] |= {"literal": True, "type": "list", "type_module": "builtins"}
    assert behaviour_name("kept", row, "typical", set(), set(), function=kept) == "test_kept"
    every = {**row, "args": {"texts": ["ab"]}}  # all it was given: named by the parameter
    assert behaviour_name("kept", every, "typical", set(), set(), function=kept) == (
        "test_kept_yields_texts"
    )


def _row(args: dict[str, Any], returned: str, **more: Any) -> dict[str, Any]:
    literal = {"repr": returned, "literal": True, "type": "NoneType", "type_module": "builtins"}
    return {"args": args, "returned": literal, **more}


def test_a_call_that_gives_every_looped_parameter_nothing_shows_nothing() -> None:
    verdict = _function("verdict")
    assert looped_parameters(verdict) == {"rules"}
    assert shows_nothing(_row({"rules": [], "text": "ab"}, "None"), verdict, None, True)
    assert not shows_nothing(
        _row({"rules": [["a", True]], "text": "ab"}, "True"), verdict, None, True
    )
    # A loop over anything but a parameter may do the node's work: no judgement.
    over_self = first_function("def f(self, xs):\n    for x in self.items:\n        xs.append(x)\n")
    assert looped_parameters(over_self) == set()


def test_a_none_returned_where_the_test_passed_none_shows_nothing() -> None:
    pick = _function("pick")
    assert shows_nothing(_row({"primary": None, "backup": 1}, "None"), pick, None, True)
    assert shows_nothing(_row({"first": True}, "None"), pick, {"primary": None}, True)
    assert not shows_nothing(_row({"primary": "a", "backup": "b"}, "'a'"), pick, None, True)
    # A procedure returns None whatever it was given: what it changed is its outcome.
    forget = _function("forget")
    assert not shows_nothing(_row({"store": {}, "key": None}, "None"), forget, None, True)
    # A raise is an outcome of its own.
    raised = _row({"primary": None}, "None", raised={"type": "TypeError"})
    assert not shows_nothing(raised, pick, None, True)


QUERY = """\
class Query:
    def __init__(self, pairs=()):
        self.pairs = tuple(pairs)

    def __eq__(self, other):
        return isinstance(other, Query) and other.pairs == self.pairs

    def remove(self, name):
        return Query(p for p in self.pairs if p[0] != name)

    def copy(self):
        return Query(self.pairs)
"""


def test_a_copy_its_arguments_changed_nothing_in_shows_nothing(tmp_path: Path) -> None:
    # hyperlink's DecodedURL().remove("a"): no query pair to remove, an equal copy back.
    (tmp_path / "query.py").write_text(QUERY)
    function = next(
        n
        for n in ast.walk(ast.parse(QUERY))
        if isinstance(n, ast.FunctionDef) and n.name == "remove"
    )

    def row(qualname: str, args: dict[str, Any], pairs: list[Any]) -> dict[str, Any]:
        owner_args = {"pairs": pairs}
        outcome = probe_outcome(
            tmp_path, "query", qualname, args, owner="Query", owner_args=owner_args
        )
        return {"args": args, "ok": True, "reason": "", **outcome}

    assert shows_nothing(row("Query.remove", {"name": "a"}, []), function, {"pairs": []}, True)
    filled = [["a", "1"], ["b", "2"]]
    assert not shows_nothing(row("Query.remove", {"name": "a"}, filled), function, {}, True)
    copy = next(
        n for n in ast.walk(ast.parse(QUERY)) if isinstance(n, ast.FunctionDef) and n.name == "copy"
    )
    assert not shows_nothing(row("Query.copy", {}, filled), copy, {}, True)  # its work
