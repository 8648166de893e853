"""The mutation program on a real project folder: pytest, code swapped, kills and timeouts.

The program runs here in a subprocess of its own (as the sandbox runs it, less
the sandbox), on a module with a function, a method, a property and a loop.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from importlib import resources
from pathlib import Path
from typing import Any

from remora.code.testgen.mutants import node_mutants

MODULE = """class Counter:
    def __init__(self, start):
        self.value = start

    def bump(self, step):
        if step <= 0:
            raise ValueError("step must be positive")
        self.value += step
        return self

    @property
    def even(self):
        return self.value % 2 == 0


def countdown(n):
    while n > 0:
        n -= 1
    return n


class Gate:
    def opens(self, key):
        return self.__allowed(key)

    def __allowed(self, key):
        return key == "yes"
"""

TESTS = """from counter import Counter, Gate, countdown


def test_bump_adds_the_step():
    assert Counter(1).bump(2).value == 3


def test_bump_runs():
    Counter(1).bump(2)


def test_even_of_four():
    assert Counter(4).even is True


def test_countdown_ends_at_zero():
    assert countdown(3) == 0


def test_gate_opens_for_yes():
    assert Gate().opens("yes") is True
"""


def _run(tmp_path: Path, qualname: str, tests: list[str]) -> tuple[dict[str, Any], list[Any]]:
    (tmp_path / "counter.py").write_text(MODULE)
    (tmp_path / "test_counter.py").write_text(TESTS)
    tree = ast.parse(MODULE)
    function = next(
        n
        for n in ast.walk(tree)
        if isinstance(n, ast.FunctionDef) and n.name == qualname.rsplit(".", 1)[-1]
    )
    mutants = node_mutants(MODULE, function)
    request = {
        "args": ["-q", "-p", "no:cacheprovider", *(f"test_counter.py::{t}" for t in tests)],
        "module": "counter",
        "qualname": qualname,
        "mutants": [{"id": m.id, "source": m.source, "tests": tests} for m in mutants],
        "budget_s": 60.0,
        "first_limit_s": 10.0,
    }
    program = resources.files("remora.code.probes.programs").joinpath("mutation_run.py").read_text()
    text = f"{program}\n\nmain(json.loads({json.dumps(json.dumps(request))}))\n"
    done = subprocess.run(
        [sys.executable, "-"],
        input=text,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
        env={"PYTHONPATH": str(tmp_path), "PYTHONDONTWRITEBYTECODE": "1"},
    )
    line = next(x for x in done.stdout.splitlines() if x.startswith("REMORA_REPORT "))
    return json.loads(line.removeprefix("REMORA_REPORT ")), mutants


def _killed(report: dict[str, Any], mutants: list[Any]) -> dict[str, list[str]]:
    return {m.description: report["mutants"][m.id]["killed_by"] for m in mutants}


def test_a_test_that_asserts_kills_the_mutants_one_that_only_runs_the_code_does_not(
    tmp_path: Path,
) -> None:
    report, mutants = _run(tmp_path, "Counter.bump", ["test_bump_adds_the_step", "test_bump_runs"])
    assert report["error"] == ""
    assert report["baseline"]["test_bump_runs"]["passed"] is True
    killed = _killed(report, mutants)
    assert killed["line 8: `+=` -> `-=` in `self.value += step`"] == ["test_bump_adds_the_step"]
    assert killed["line 9: `return self` -> `return None`"] == ["test_bump_adds_the_step"]
    assert killed["line 6: 0 -> 1"] == []  # step 2 is on neither side of that boundary
    assert all("test_bump_runs" not in k for d, k in killed.items() if "return" not in d)
    # The code is itself again after each mutant: the last run on it still passes.
    assert all(entry["ran"] for entry in report["mutants"].values())


def test_a_property_s_getter_is_mutated(tmp_path: Path) -> None:
    report, mutants = _run(tmp_path, "Counter.even", ["test_even_of_four"])
    killed = _killed(report, mutants)
    assert killed["line 13: `==` -> `!=` in `self.value % 2 == 0`"] == ["test_even_of_four"]


def test_a_mutant_that_never_ends_is_killed_by_the_test_that_ran_into_the_limit(
    tmp_path: Path,
) -> None:
    report, mutants = _run(tmp_path, "countdown", ["test_countdown_ends_at_zero"])
    looping = next(m for m in mutants if m.description.startswith("line 18: `-=` -> `+=`"))
    entry = report["mutants"][looping.id]
    assert entry["timed_out_by"] == ["test_countdown_ends_at_zero"]
    assert entry["killed_by"] == ["test_countdown_ends_at_zero"]


def test_a_private_method_is_found_under_its_mangled_name(tmp_path: Path) -> None:
    # ``__allowed`` is stored in the class as ``_Gate__allowed``.
    report, mutants = _run(tmp_path, "Gate.__allowed", ["test_gate_opens_for_yes"])
    assert report["error"] == ""
    killed = _killed(report, mutants)
    assert killed["line 27: `==` -> `!=` in `key == 'yes'`"] == ["test_gate_opens_for_yes"]
