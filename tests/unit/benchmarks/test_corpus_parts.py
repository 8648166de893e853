"""The competence and test-generation corpora: a development part and a held-out part.

Issue 57 ("No tuning to measured code"): the toolkit may be developed against
the development part; the held-out part is only measured, reported apart, and
no code or comment of the toolkit (``src/``) names one of its projects.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "benchmarks"))

import competence
import testgen_peers
from competence_lib.corpus import CORPUS, PARTS
from review_lib.corpus import CORPUS as REVIEW_CORPUS
from testgen_lib.corpus import MODULES, check_corpus

ROOT = Path(__file__).resolve().parents[3]


def test_every_project_and_module_is_in_a_part_and_each_part_has_some() -> None:
    assert {p.part for p in CORPUS} == set(PARTS)
    assert {m.part for m in MODULES} == set(PARTS)
    assert check_corpus() == []


def test_the_toolkit_cites_no_held_out_project() -> None:
    held_out = {p.name for p in CORPUS if p.part == "heldout"}
    held_out |= {m.project for m in MODULES if m.part == "heldout"}
    # A module by its dotted name: a last part such as ``keys`` is a common word.
    held_out |= {m.name for m in MODULES if m.part == "heldout"}
    cited = [
        (str(path.relative_to(ROOT)), name)
        for path in (ROOT / "src").rglob("*")
        if path.is_file() and path.suffix in {".py", ".pym", ".yaml", ".scm", ".md"}
        for name in held_out
        if name.lower() in path.read_text(encoding="utf-8").lower()
    ]
    assert cited == []


def test_held_out_modules_are_neither_dev_projects_nor_shared_with_them() -> None:
    dev = {m.project for m in MODULES if m.part == "dev"}
    held_out = {m.project for m in MODULES if m.part == "heldout"}
    assert not dev & held_out


def test_a_held_out_project_is_in_no_other_benchmark() -> None:
    # Developing against it through the review benchmark would tune on what is measured.
    held_out = {p.name for p in CORPUS if p.part == "heldout"}
    held_out |= {m.project for m in MODULES if m.part == "heldout"}
    assert not held_out & {p.name for p in REVIEW_CORPUS}
    assert not {p.name for p in REVIEW_CORPUS if p.part == "heldout"} & {m.project for m in MODULES}


@pytest.mark.parametrize("part", [*PARTS, "all"])
def test_testgen_peers_measures_the_part_asked_for(part: str) -> None:
    chosen = testgen_peers.chosen_modules(testgen_peers.parse_args(["--part", part]))
    assert chosen and all(part in ("all", m.part) for m in chosen)


def test_the_parts_are_reported_apart() -> None:
    rows = [
        {"module": m.key, "tool": "remora", "line_coverage": 1.0, "branch_coverage": 1.0}
        | {"tests": 1, "passed_twice": 1, "test_lines": 3, "wall_s": 1.0, "cpu_s": 1.0}
        for m in MODULES
    ]
    held_out = testgen_peers.rows_of_part(rows, list(MODULES), "heldout")
    assert {r["module"] for r in held_out} == {m.key for m in MODULES if m.part == "heldout"}
    args = competence.parse_args(["--part", "heldout"])
    assert args.part == "heldout"


def test_a_project_s_own_tests_are_left_out_wherever_they_are(tmp_path: Path) -> None:
    from competence_lib.corpus import remove_own_tests

    files = [
        "pkg/core.py",
        "pkg/testing_tools.py",  # named test*, outside a test folder: the project's code
        "pkg/tests/__init__.py",  # a test package's helpers stay
        "pkg/tests/tests.py",  # unittest's test*.py in a test folder
        "pkg/tests/test_core.py",
        "tests/test_top.py",
        "tests.py",
        "pkg/sub/tests.py",  # a package's suite in one module (humanfriendly/tests.py)
        "pkg/test.py",  # a module of the package's code so named (pytoml's)
    ]
    suites = {
        "tests.py": "import unittest\n",
        "pkg/sub/tests.py": "class TestSub:\n    pass\n",
        "pkg/tests/tests.py": "def test_it():\n    pass\n",
    }
    for name in files:
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(suites.get(name, "x = 1\n"))
    remove_own_tests(tmp_path)
    left = sorted(str(p.relative_to(tmp_path)) for p in tmp_path.rglob("*.py"))
    assert left == ["pkg/core.py", "pkg/test.py", "pkg/testing_tools.py", "pkg/tests/__init__.py"]
