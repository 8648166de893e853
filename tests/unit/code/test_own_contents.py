"""A method's test asserts what it changed in the container its instance is.

Made-up module: a dict subclass whose methods store, remove and merge items (through
``self[key] = ...``, ``del self[key]``, ``super().__setitem__``, a nested value's
``update``) and one that stores a clock's value; a ``MutableSequence`` (it compares
equal to no list) whose method appends; a ``MutableSet`` whose own ``__eq__`` holds for
any shared item. The probe runs as the sandbox runs it (its
program text on a Python subprocess) and sees each change by comparing the instance's
contents before and after the call; the tests written from its outcomes pass under
pytest on the module and fail with the store removed, where a test asserting only the
returned value would pass.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

from probe_support import failed_tests, probe_outcome

from remora.code.testgen.written_tests import observed_piece
from remora.code.values import observed_contents
from remora.code.values.own_contents import changes_own_items

PANTRY = """\
import time
from collections.abc import MutableSequence, MutableSet


class Pantry(dict):
    def __init__(self, stock):
        super().__init__(stock)

    def stock(self, item, count=1):
        now = self.get(item, 0) + count
        self[item] = now
        return now

    def use_up(self, item):
        del self[item]

    def restock(self, counts):
        for item, count in counts.items():
            if isinstance(count, dict) and isinstance(self.get(item), dict):
                self[item].update(count)
            else:
                super().__setitem__(item, count)

    def stamp(self, item):
        self[item] = time.time()

    def count(self, item):
        return self.get(item, 0)


class Tray(MutableSequence):
    def __init__(self, cups):
        self._cups = list(cups)

    def __getitem__(self, index):
        return self._cups[index]

    def __setitem__(self, index, cup):
        self._cups[index] = cup

    def __delitem__(self, index):
        del self._cups[index]

    def __len__(self):
        return len(self._cups)

    def insert(self, index, cup):
        self._cups.insert(index, cup)

    def top_up(self, cup):
        self.append(cup)


class Bag(MutableSet):
    def __init__(self, things):
        self._things = list(things)

    def __contains__(self, thing):
        return thing in self._things

    def __iter__(self):
        return iter(self._things)

    def __len__(self):
        return len(self._things)

    def add(self, thing):
        if thing not in self._things:
            self._things.append(thing)

    def discard(self, thing):
        if thing in self._things:
            self._things.remove(thing)

    def __eq__(self, other):
        return not self.isdisjoint(other)

    def put(self, thing):
        self.add(thing)
"""
OWNERS: dict[str, dict[str, Any]] = {
    "Pantry": {"stock": {"tea": 2, "herbs": {"mint": 1, "sage": 2}}},
    "Tray": {"cups": ["red", "blue"]},
    "Bag": {"things": ["pen"]},
}


def _definition(qualname: str) -> ast.FunctionDef:
    owner, name = qualname.split(".")
    classes = [n for n in ast.parse(PANTRY).body if isinstance(n, ast.ClassDef)]
    body = next(c for c in classes if c.name == owner).body
    return next(n for n in body if isinstance(n, ast.FunctionDef) and n.name == name)


def _target(qualname: str) -> dict[str, Any]:
    function = _definition(qualname)
    parameters = [{"name": a.arg, "kind": "positional_or_keyword"} for a in function.args.args[1:]]
    return {
        "module": "pantry",
        "qualname": qualname,
        "name": function.name,
        "kind": "method",
        "owner": qualname.split(".")[0],
        "method_kind": "instance",
        "is_async": False,
        "is_generator": False,
        "parameters": parameters,
    }


def _written(tmp_path: Path, qualname: str, args: dict[str, Any]) -> tuple[dict[str, Any], str]:
    """The probe's outcome of one call and the test written from it."""
    target = _target(qualname)
    owner = target["owner"]
    owner_args = OWNERS[owner]
    contents = observed_contents(target, _definition(qualname), PANTRY)  # type: ignore[arg-type]
    outcome = probe_outcome(
        tmp_path, "pantry", qualname, args, owner=owner, owner_args=owner_args, contents=contents
    )
    row = {"args": args, "ok": True, "reason": "", **outcome}
    procedure = "return" not in ast.unparse(_definition(qualname))
    name = f"test_{target['name']}"
    piece = observed_piece(
        target, {"Pantry", "Tray", "Bag"}, owner_args, row, name, procedure=procedure
    )
    return outcome, f"from pantry import {', '.join(piece['imports'])}\n\n\n{piece['source']}"


def _asserts(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines() if line.strip().startswith("assert")]


def test_the_items_a_method_stores_or_removes_are_asserted_and_fail_without_the_store(
    tmp_path: Path,
) -> None:
    (tmp_path / "pantry.py").write_text(PANTRY)
    calls = {
        "stock": ("Pantry.stock", {"item": "rice", "count": 3}),
        "use_up": ("Pantry.use_up", {"item": "tea"}),
        "restock": ("Pantry.restock", {"counts": {"herbs": {"mint": 5}, "salt": 1}}),
        "top_up": ("Tray.top_up", {"cup": "green"}),
        "put": ("Bag.put", {"thing": "ink"}),
    }
    tests = {name: _written(tmp_path, *call)[1] for name, call in calls.items()}
    # Its own __eq__ holds for any shared item: `bag == {'ink', 'pen'}` would pass on a bag
    # holding the pen alone, so the items are read into a set (its repr in hash order).
    [bag] = _asserts(tests["put"])
    compared = ast.parse(bag).body[0].test  # type: ignore[attr-defined]
    assert ast.unparse(compared.left) == "set(bag)"
    assert ast.literal_eval(compared.comparators[0]) == {"ink", "pen"}
    assert {name: _asserts(text) for name, text in tests.items() if name != "put"} == {
        "stock": ["assert result == 3", "assert pantry['rice'] == 3"],
        "use_up": ["assert 'tea' not in pantry"],
        # The nested dict changed in place: its key is a changed item too.
        "restock": [
            "assert pantry['herbs'] == {'mint': 5, 'sage': 2}",
            "assert pantry['salt'] == 1",
        ],
        # A MutableSequence compares equal to no list: its contents are read into one.
        "top_up": ["assert list(tray) == ['red', 'blue', 'green']"],
    }
    assert failed_tests(tmp_path / "code", "pantry", PANTRY, tests) == set()
    # Each fails with its store removed; `assert result == 3` alone passes without it.
    removed = {
        "stock": ("        self[item] = now\n", ""),
        "use_up": ("        del self[item]\n", "        pass\n"),
        "restock": ("                self[item].update(count)\n", "                pass\n"),
        "top_up": ("        self.append(cup)\n", "        pass\n"),
        "put": ("        self.add(thing)\n", "        pass\n"),
    }
    for name, (line, instead) in removed.items():
        mutant = PANTRY.replace(line, instead)
        assert failed_tests(tmp_path / f"without_{name}", "pantry", mutant, tests) == {name}


def test_a_clock_s_value_is_stored_by_key_and_a_read_changes_no_items(tmp_path: Path) -> None:
    (tmp_path / "pantry.py").write_text(PANTRY)
    outcome, text = _written(tmp_path, "Pantry.stamp", {"item": "bread"})
    assert outcome["contents"]["items"] == [{"key": _literal("'bread'")}]  # no value
    assert _asserts(text) == ["assert 'bread' in pantry"]
    outcome, _ = _written(tmp_path, "Pantry.count", {"item": "tea"})
    assert "contents" not in outcome


def _literal(text: str) -> dict[str, Any]:
    return {"repr": text, "literal": True, "type": "str", "type_module": "builtins"}


def test_a_method_changing_its_own_items_directly_or_through_a_sibling_is_told() -> None:
    methods = {
        name: _definition(f"{owner}.{name}")
        for owner, names in (("Pantry", ("stock", "use_up", "restock", "count")),)
        for name in names
    }
    changing = {n for n, m in methods.items() if changes_own_items(m, methods)}
    assert changing == {"stock", "use_up", "restock"}
    tray = {n: _definition(f"Tray.{n}") for n in ("__getitem__", "insert", "top_up", "__len__")}
    assert changes_own_items(tray["top_up"], tray) is True  # self.append(cup)
    assert changes_own_items(tray["__getitem__"], tray) is False
