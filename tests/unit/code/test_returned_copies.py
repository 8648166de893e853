"""A returned copy or conversion is told apart from what it equals, by the probe and the tests.

Made-up module: a list subclass whose methods return a shallow copy, a deep copy and a
plain-list conversion of the instance, and a function that converts its argument. Each
result equals what the call was given, so ``assert result == [...]`` alone would pass
were the node to hand back its instance (or argument) unchanged. The probe runs as the
sandbox runs it (its program text on a Python subprocess); the tests written from its
outcomes pass under pytest on the module, and fail on the identity mutant
(:func:`remora.code.testgen.mutants.node_mutants`) and on a deep copy made shallow.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

from probe_support import failed_tests, observed_test

from remora.code.testgen.mutants import node_mutants

SHELVES = """\
import copy


class Shelf(list):
    def __init__(self, boxes):
        super().__init__(boxes)

    def shallow(self):
        return Shelf(self)

    def deep(self):
        return copy.deepcopy(self)

    def plain(self):
        return [list(box) for box in self]


def unwrapped(shelf):
    return list(shelf)
"""
BOXES = {"boxes": [[1, 2], [3]]}


def _written(tmp_path: Path, name: str, args: dict[str, Any]) -> str:
    owner = "Shelf" if name != "unwrapped" else None
    names = {"Shelf", "unwrapped"}
    return observed_test(tmp_path, "shelves", name, args, names, owner=owner, owner_args=BOXES)


def _identity(name: str) -> str:
    """The module with ``name``'s identity mutant (its body: ``return`` its first parameter)."""
    function = next(
        n for n in ast.walk(ast.parse(SHELVES)) if isinstance(n, ast.FunctionDef) and n.name == name
    )
    return next(m.source for m in node_mutants(SHELVES, function) if m.kind == "identity")


def test_the_written_tests_tell_copies_and_conversions_from_what_they_equal(tmp_path: Path) -> None:
    (tmp_path / "shelves.py").write_text(SHELVES)
    tests = {name: _written(tmp_path, name, {}) for name in ("shallow", "deep", "plain")}
    tests["unwrapped"] = _written(
        tmp_path, "unwrapped", {"shelf": {"__class__": "Shelf", "args": BOXES}}
    )
    asserts = {n: [x.strip() for x in t.splitlines() if "assert" in x] for n, t in tests.items()}
    assert asserts == {
        "shallow": [
            "assert result == [[1, 2], [3]]",
            "assert type(result) is Shelf",  # a plain list would pass the ==
            "assert result is not shelf",
            "assert result[0] is shelf[0]",
        ],
        "deep": [
            "assert result == [[1, 2], [3]]",
            "assert type(result) is Shelf",
            "assert result is not shelf",
            "assert result[0] is not shelf[0]",
        ],
        "plain": ["assert result == [[1, 2], [3]]", "assert type(result) is list"],
        "unwrapped": ["assert result == [[1, 2], [3]]", "assert type(result) is list"],
    }
    assert failed_tests(tmp_path / "code", "shelves", SHELVES, tests) == set()
    # Each fails were its node to hand back its instance or argument unchanged ...
    for name in tests:
        assert failed_tests(tmp_path / f"identity_{name}", "shelves", _identity(name), tests) == {
            name
        }
    # ... and the deep copy's fails were it shallow.
    shallow_deep = SHELVES.replace("copy.deepcopy(self)", "Shelf(self)")
    assert failed_tests(tmp_path / "shallow_deep", "shelves", shallow_deep, tests) == {"deep"}
