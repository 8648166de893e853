"""testgen_peers' mutation score: the same mutants of a tiny module run against tiny suites.

Real pytest and coverage.py runs (Remora's own venv stands in for the measure venv):
a suite that asserts values kills mutants, one that only calls the code kills none,
and both meet the same mutants.
"""

from __future__ import annotations

import json
import sys
import textwrap
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "benchmarks"))

from testgen_lib.corpus import Module
from testgen_lib.measure import SuiteFigures, measure_copy
from testgen_lib.mutation import (
    EVERY_LINE,
    junit_items,
    lines_by_context,
    module_functions,
    module_mutants,
    reach,
)

MODULE = textwrap.dedent(
    '''\
    """A tiny module."""


    def clamp(value, low, high):
        if value < low:
            return low
        if value > high:
            return high
        return value


    class Counter:
        def __init__(self):
            self.count = 0

        def add(self, step=1):
            self.count += step
            return self.count

        def _reset(self):
            def inner():
                return 0

            self.count = inner()
    '''
)

ASSERTING = textwrap.dedent(
    """\
    from pkg.tiny import Counter, clamp


    def test_clamp_below():
        assert clamp(-5, 0, 10) == 0


    def test_clamp_inside():
        assert clamp(5, 0, 10) == 5


    class TestCounter:
        def test_add(self):
            counter = Counter()
            assert counter.add(2) == 2
            assert counter.count == 2
    """
)

CALLING = textwrap.dedent(
    """\
    import pytest

    from pkg.tiny import Counter, clamp


    @pytest.mark.parametrize("value", [-5, 5, 50])
    def test_clamp_runs(value):
        clamp(value, 0, 10)


    def test_add_runs():
        Counter().add()
    """
)

# A package's own module (its ``__init__.py``) with a private method, stored in its
# class under the mangled name ``_Stack__check``.
PACKAGE = textwrap.dedent(
    """\
    class Stack:
        def __init__(self):
            self.items = []

        def push(self, item):
            self.__check(item)
            self.items.append(item)
            return len(self.items)

        def __check(self, item):
            if item is None:
                raise ValueError("no None")
    """
)

PACKAGE_TESTS = textwrap.dedent(
    """\
    import pytest

    from stack import Stack


    def test_push_counts():
        assert Stack().push(3) == 1


    def test_push_refuses_none():
        with pytest.raises(ValueError):
            Stack().push(None)
    """
)


def _project(tmp_path: Path, suites: dict[str, str]) -> Path:
    copy = tmp_path / "project"
    (copy / "pkg").mkdir(parents=True)
    (copy / "pkg" / "__init__.py").write_text("")
    (copy / "pkg" / "tiny.py").write_text(MODULE)
    (copy / "generated_tests").mkdir()
    for name, text in suites.items():
        (copy / "generated_tests" / name).write_text(text)
    return copy


def _measure(tmp_path: Path, suites: dict[str, str]) -> tuple[SuiteFigures, Path]:
    copy = _project(tmp_path, suites)
    work = tmp_path / "work"
    work.mkdir()
    figures = SuiteFigures()
    measure_copy(figures, Path(sys.executable), Module("tiny", "pkg/tiny.py"), copy, work, True)
    return figures, work


def test_functions_and_methods_by_qualified_name_nested_functions_inside_their_own() -> None:
    assert list(module_functions(MODULE)) == ["clamp", "Counter.__init__", "Counter.add",
                                              "Counter._reset"]  # fmt: skip
    assert {m.line for m in module_mutants(MODULE)["clamp"]} == {5, 6, 7, 8, 9}


def test_junit_ids_and_contexts_name_the_test_file_class_and_function() -> None:
    xml = """<testsuites><testsuite>
    <testcase classname="generated_tests.test_a.TestX" name="test_y[1]"/>
    <testcase classname="generated_tests.test_a" name="test_z"/>
    <testcase classname="elsewhere.test_b" name="test_w"/>
    </testsuite></testsuites>"""
    assert junit_items(xml, "generated_tests") == {
        "test_a": [
            ("TestX::test_y[1]", "generated_tests.test_a.TestX.test_y"),
            ("test_z", "generated_tests.test_a.test_z"),
        ]
    }


def test_a_test_without_a_coverage_context_runs_on_every_mutant() -> None:
    lines = {"5": ["", "ctx.test_a"], "6": ["ctx.test_a"]}
    report = {"files": {"pkg/tiny.py": {"contexts": lines}}}
    contexts = lines_by_context(report, "pkg/tiny.py")
    assert contexts == {"ctx.test_a": {5, 6}}
    got = reach({"f": [("test_a", "ctx.test_a"), ("test_b", "ctx.test_b")]}, contexts)
    assert got == {"f": {"test_a": frozenset({5, 6}), "test_b": EVERY_LINE}}


def test_the_same_mutants_killed_by_asserting_tests_and_only_the_crash_by_calling_ones(
    tmp_path: Path,
) -> None:
    # Two files of the same asserting tests: each mutant they kill is counted once.
    strong, work = _measure(tmp_path / "strong", {"test_a.py": ASSERTING, "test_b.py": ASSERTING})
    weak, _ = _measure(tmp_path / "weak", {"test_call.py": CALLING})
    assert strong.problems == [] and weak.problems == []
    assert strong.passed_twice == 6 and weak.passed_twice == 4
    # Every test's lines come from its coverage context (the class's method too).
    items = junit_items((work / "run1.xml").read_text(), "generated_tests")
    contexts = lines_by_context(json.loads((work / "cov.json").read_text()), "pkg/tiny.py")
    assert reach(items, contexts)["test_a"] == {
        "test_clamp_below": {5, 6},
        "test_clamp_inside": {5, 7, 9},
        "TestCounter::test_add": {14, 17, 18},
    }
    # The same twelve mutants for both suites, whatever they reach.
    assert strong.mutants == weak.mutants == 12
    # Killed: both returns reached, count = None, 0 -> 1, += -> -=, the returned count,
    # and the two identity mutants (clamp returning `value`, add returning `self`);
    # `<`/`>` at the values tested, `return high` and `_reset` (never run) survive.
    assert (strong.mutants_killed, strong.mutation_score) == (8, 0.667)
    # Calls without asserts kill only the mutant that makes add raise (count = None).
    assert (weak.mutants_killed, weak.mutation_score) == (1, 0.083)


def test_a_package_module_with_a_private_method_has_all_its_mutants_run(tmp_path: Path) -> None:
    copy = tmp_path / "project"
    (copy / "stack").mkdir(parents=True)
    (copy / "stack" / "__init__.py").write_text(PACKAGE)
    (copy / "generated_tests").mkdir()
    (copy / "generated_tests" / "test_stack.py").write_text(PACKAGE_TESTS)
    work = tmp_path / "work"
    work.mkdir()
    figures = SuiteFigures()
    measure_copy(figures, Path(sys.executable), Module("t", "stack/__init__.py"), copy, work, True)
    assert figures.problems == []
    # Every function's mutants are counted, the private method's too: none left out.
    made = module_mutants(PACKAGE)
    assert sorted(made) == ["Stack.__check", "Stack.__init__", "Stack.push"]
    assert (figures.mutants, figures.mutants_left_out) == (sum(map(len, made.values())), 0)
    assert figures.mutants_killed > 0
