"""Values from a clock or a random source are not pinned, however many steps away."""

from __future__ import annotations

import ast

from remora.code.samples.instance_sets import instance_members
from remora.code.values.method_state import own_methods
from remora.code.values.unstable_sources import returns_unstable, unstable_members

STOPWATCH = """import time


class Stopwatch:
    def __init__(self, laps=()):
        self.began = time.perf_counter()
        self.laps = list(laps)

    @property
    def running_for(self):
        spent = 0.0
        now = time.perf_counter()
        spent += now - self.began
        return spent

    @property
    def minutes(self):
        return int(self.running_for // 60)

    def summary(self):
        return f"{len(self.laps)} laps"

    @property
    def lap_count(self):
        return len(self.laps)
"""


def _methods() -> dict[str, ast.FunctionDef | ast.AsyncFunctionDef]:
    cls = next(n for n in ast.parse(STOPWATCH).body if isinstance(n, ast.ClassDef))
    return own_methods(cls)


def test_a_local_summed_from_a_clock_and_a_member_reading_it_are_unstable() -> None:
    methods = _methods()
    # running_for adds a clock's local into another (+=); minutes reads running_for.
    assert unstable_members(methods) == {"running_for", "minutes"}
    assert returns_unstable(methods["running_for"])
    assert not returns_unstable(methods["minutes"])  # alone, nothing says where it reads
    assert returns_unstable(methods["minutes"], methods)
    assert not returns_unstable(methods["summary"], methods)


def test_an_instance_fixture_observes_only_members_whose_value_is_not_a_clocks() -> None:
    members = [m.name for m in instance_members(STOPWATCH, "Stopwatch")]
    assert members == ["summary", "lap_count"]
