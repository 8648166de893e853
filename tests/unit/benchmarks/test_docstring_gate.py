"""The shape features of benchmarks/docstring_gate.py and its leave-one-project-out choice."""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "benchmarks"))

from docstring_gate import Row, choose, leave_one_project_out, shape

SOURCE = """\
class Kettle:
    def boil(self, seconds, loud=False):
        if seconds <= 0 or loud:
            raise ValueError(seconds)
        def tick():
            if self.on:
                return 1
            return 0
        for _ in range(seconds):
            self.heat(tick())
        return self

    def heat(self, amount):
        self.level += amount

    @property
    def hot(self):
        return self.level > 90

    def __len__(self):
        return self.level
"""


def _label(node: str) -> dict[str, str]:
    return {"node": node, "model": "qwen2.5-coder-1.5b", "verdict": "accept"}


def test_shape_reads_the_own_body_only() -> None:
    boil = shape("p", "kettle.py", SOURCE, _label("Kettle.boil"))
    # if, or, for: the nested tick's if and returns are its own
    assert (boil.kind, boil.branches, boil.returns, boil.raises) == ("method", 3, 1, 1)
    assert boil.returns_self and boil.parameters == 2 and boil.own_class_calls == 1
    # if, raise, def tick, for, expression, return
    assert (boil.statements, boil.lines) == (6, 10)


def test_shape_kinds() -> None:
    names = ("Kettle", "Kettle.hot", "Kettle.__len__", "kettle.py")
    kinds = [shape("p", "kettle.py", SOURCE, _label(n)).kind for n in names]
    assert kinds == ["class", "property", "special", "module"]


def _row(project: str, verdict: str, branches: int) -> Row:
    base = Row("p", "n", "1.5B", "accept", "method", 0, 1, 1, 0, 0, False, 2, 0, 0, True)
    return replace(base, project=project, verdict=verdict, branches=branches)


def test_the_gate_is_chosen_without_the_project_it_is_measured_on() -> None:
    # a and b: straight-line accepted, branchy rejected; c: the opposite
    data = [
        *(_row(p, "accept", 0) for p in ("a", "b") for _ in range(3)),
        *(_row(p, "reject", 3) for p in ("a", "b") for _ in range(3)),
        *(_row("c", "reject", 0) for _ in range(2)),
        *(_row("c", "accept", 3) for _ in range(2)),
    ]
    assert choose([r for r in data if r.project != "c"], 0.75)[0] == 0
    table = leave_one_project_out(data, 0.75)["per_project"]
    assert isinstance(table, dict)
    assert table["c"]["accepts_lost"] == 2 and table["c"]["kept"]["accept"] == 0
