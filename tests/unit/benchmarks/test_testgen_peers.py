"""testgen_peers' pure parts: figures, table, corpus pins (no network, no peer tools)."""

from __future__ import annotations

import hashlib
import io
import json
import sys
import tarfile
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "benchmarks"))

from competence_lib.corpus import CorpusError, Project, fetch
from testgen_lib.corpus import MODULES, PROJECTS, Module, check_corpus, public_functions
from testgen_lib.measure import code_lines, coverage_figures, junit_outcomes, passing_twice
from testgen_lib.report import medians, model_cases_added, model_cases_table, table
from testgen_lib.tools import HOST_ONLY_TURNS, host_only_options, no_model_cases_options

from remora.agents import AgentRegistry
from remora.config import default_operations, load_config
from remora.coordinator import check_options
from remora.providers.scripted import load_turns

COVERAGE_JSON = {
    "meta": {"branch_coverage": True},
    "files": {
        "src/roman/__init__.py": {
            "summary": {
                "num_statements": 50,
                "covered_lines": 40,
                "num_branches": 20,
                "covered_branches": 15,
            }
        }
    },
}

JUNIT = """<?xml version="1.0" encoding="utf-8"?>
<testsuites><testsuite name="pytest">
<testcase classname="generated_tests.test_a" name="test_one"/>
<testcase classname="generated_tests.test_a" name="test_two"><failure message="x"/></testcase>
<testcase classname="generated_tests.test_a" name="test_three">
<skipped type="pytest.xfail"/></testcase>
<testcase classname="generated_tests.test_b" name="test_one"/>
</testsuite></testsuites>
"""


def test_coverage_figures_reads_the_module_entry() -> None:
    got = coverage_figures(COVERAGE_JSON, "src/roman/__init__.py")
    assert got == {
        "statements": 50,
        "statements_covered": 40,
        "branches": 20,
        "branches_covered": 15,
        "line_coverage": 0.8,
        "branch_coverage": 0.75,
    }


def test_coverage_figures_without_branches_gives_none_not_zero() -> None:
    report = {"files": {"a/m.py": {"summary": {"num_statements": 4, "covered_lines": 1}}}}
    got = coverage_figures(report, "m.py")
    assert got["branch_coverage"] is None
    assert got["line_coverage"] == 0.25


def test_coverage_figures_names_the_files_when_the_module_is_missing() -> None:
    with pytest.raises(ValueError, match=r"src/roman/__init__.py.*other.py"):
        coverage_figures({"files": {"other.py": {}}}, "src/roman/__init__.py")


def test_junit_outcomes_keeps_same_names_in_different_files_apart() -> None:
    got = junit_outcomes(JUNIT)
    assert got == {
        "generated_tests.test_a::test_one": True,
        "generated_tests.test_a::test_two": False,
        "generated_tests.test_a::test_three": False,  # an expected failure is not a pass
        "generated_tests.test_b::test_one": True,
    }


def test_passing_twice_needs_a_pass_in_both_runs() -> None:
    first = {"a": True, "b": True, "c": False, "d": True}
    second = {"a": True, "b": False, "c": True}
    assert passing_twice(first, second) == 1


def test_code_lines_skips_blanks_and_comments_and_counts_multiline_strings() -> None:
    text = '"""Doc\nstring."""\n\n# a comment\nimport x  # trailing\n\n\ndef f():\n    return 1\n'
    assert code_lines(text) == 5


def test_public_functions_are_module_level_and_not_underscored() -> None:
    text = "def a(): ...\ndef _b(): ...\nclass C:\n    def d(self): ...\nasync def e(): ...\n"
    assert public_functions(text) == ["a", "e"]


def test_module_names_follow_the_layout() -> None:
    assert Module("roman", "src/roman/__init__.py").name == "roman"
    assert Module("roman", "src/roman/__init__.py").import_root == "src"
    assert Module("toolz", "toolz/dicttoolz.py").name == "toolz.dicttoolz"
    assert Module("toolz", "toolz/dicttoolz.py").import_root == "."


def test_the_corpus_declarations_are_consistent() -> None:
    assert check_corpus() == []
    assert len({m.project for m in MODULES}) >= 5
    assert len(PROJECTS) >= 5


def _sdist(tmp_path: Path) -> Path:
    data = b"def f():\n    return 1\n"
    archive = tmp_path / "pin-1.0.tar.gz"
    with tarfile.open(archive, "w:gz") as tar:
        info = tarfile.TarInfo("pin-1.0/pin.py")
        info.size = len(data)
        tar.addfile(info, io.BytesIO(data))
    return archive


def test_fetch_accepts_an_sdist_that_matches_its_pin(tmp_path: Path) -> None:
    archive = _sdist(tmp_path)
    cache = tmp_path / "cache"
    (cache / "sdists").mkdir(parents=True)
    archive.rename(cache / "sdists" / archive.name)
    digest = hashlib.sha256((cache / "sdists" / archive.name).read_bytes()).hexdigest()
    unpacked = fetch(Project("pin", "1.0", digest, ("pin.py",)), cache)
    assert (unpacked / "pin.py").read_text() == "def f():\n    return 1\n"


def test_fetch_refuses_an_sdist_that_does_not_match_its_pin(tmp_path: Path) -> None:
    archive = _sdist(tmp_path)
    cache = tmp_path / "cache"
    (cache / "sdists").mkdir(parents=True)
    archive.rename(cache / "sdists" / archive.name)
    with pytest.raises(CorpusError, match="does not match the pin"):
        fetch(Project("pin", "1.0", "0" * 64, ("pin.py",)), cache)


def test_check_corpus_names_a_bad_pin(monkeypatch: pytest.MonkeyPatch) -> None:
    bad = Project("roman", "5.2", "not-a-digest", ("src/roman/__init__.py",))
    monkeypatch.setitem(PROJECTS, "roman", bad)
    assert check_corpus() == ["roman-5.2: sha256 'not-a-digest' is not 64 hex digits"]


ROWS = [
    {
        "module": "m1",
        "tool": "remora",
        "line_coverage": 0.5,
        "branch_coverage": 0.25,
        "mutation_score": 0.4,
        "tests": 3,
        "passed_twice": 3,
        "test_lines": 20,
        "wall_s": 61.5,
        "cpu_s": 30.0,
    },
    {
        "module": "m1",
        "tool": "pynguin",
        "line_coverage": 0.9,
        "branch_coverage": None,
        "tests": 12,
        "passed_twice": 11,
        "test_lines": 140,
        "wall_s": 130.0,
        "cpu_s": 70.2,
    },
    {
        "module": "m2",
        "tool": "remora",
        "line_coverage": 0.7,
        "branch_coverage": 0.75,
        "mutation_score": 0.8,
        "tests": 4,
        "passed_twice": 4,
        "test_lines": 30,
        "wall_s": 60.0,
        "cpu_s": 40.0,
    },
]


def test_medians_skip_modules_without_branches() -> None:
    assert medians(ROWS, "remora")["branch_coverage"] == 0.5
    assert medians(ROWS, "remora")["tests"] == 3.5
    assert medians(ROWS, "pynguin")["branch_coverage"] is None


def test_table_groups_tools_per_module_in_the_order_asked_then_medians() -> None:
    text = table(ROWS, ["remora", "pynguin", "ghostwriter"]).splitlines()
    assert text[0].startswith("| module | tool | line cov | branch cov | mutation |")
    assert text[2] == "| m1 | remora | 0.50 | 0.25 | 0.40 | 3 | 3 | 20 | 62 | 30 |"
    # A row without a mutation score (an earlier report's, reused) shows none.
    assert text[3] == "| m1 | pynguin | 0.90 | – | – | 12 | 11 | 140 | 130 | 70 |"
    assert text[4].startswith("| m2 | remora | 0.70 | 0.75 | 0.80 |")
    assert text[5] == "| **median** | remora | 0.60 | 0.50 | 0.60 | 3.5 | 3.5 | 25 | 61 | 35 |"
    assert text[6].startswith("| **median** | pynguin |")
    assert len(text) == 7  # no ghostwriter rows: it did not run


def _earlier_report(tmp_path: Path, budget: float) -> Path:
    runs = [
        {"module": MODULES[0].key, "tool": "pynguin", "tests": 6},
        {"module": MODULES[0].key, "tool": "remora", "tests": 3},
        {"module": MODULES[1].key, "tool": "ghostwriter", "tests": 2},
    ]
    report = {"budget_s": budget, "date": "2026-11-25", "git_commit": "abc", "runs": runs}
    path = tmp_path / "earlier.json"
    path.write_text(json.dumps(report))
    return path


def test_reuse_takes_the_other_tools_rows_of_the_chosen_modules(tmp_path: Path) -> None:
    from testgen_peers import reused_rows

    path = _earlier_report(tmp_path, 60.0)
    rows = reused_rows(path, [MODULES[0]], ["remora"], 60.0)
    assert [(r["module"], r["tool"]) for r in rows] == [(MODULES[0].key, "pynguin")]
    assert rows[0]["reused_from"].endswith("(2026-11-25, abc)")


def test_reuse_refuses_a_report_with_another_budget(tmp_path: Path) -> None:
    from testgen_peers import reused_rows

    path = _earlier_report(tmp_path, 30.0)
    with pytest.raises(CorpusError, match=r"its budget is 30\.0 s, this run.s 60\.0 s"):
        reused_rows(path, [MODULES[0]], ["remora"], 60.0)


def test_an_empty_suite_covers_nothing_and_runs_nothing(tmp_path: Path) -> None:
    from testgen_lib.measure import measure_suite

    suite = tmp_path / "suite"
    suite.mkdir()
    figures = measure_suite(Path(sys.executable), MODULES[0], suite, tmp_path / "work")
    assert (figures.tests, figures.line_coverage, figures.branch_coverage) == (0, 0.0, 0.0)
    assert not (tmp_path / "work").exists()  # no copy made, no process run


def test_the_host_alone_submits_at_every_turn(tmp_path: Path) -> None:
    options = host_only_options(tmp_path)
    assert options[:4] == ["--provider", "scripted", "--model", "host-only"]
    turns = load_turns(Path(options[options.index("--model-path") + 1]))
    assert len(turns) == HOST_ONLY_TURNS
    assert {call.name for turn, _ in turns for call in turn.message.tool_calls} == {"submit_result"}


def test_the_no_model_cases_config_turns_the_test_operations_option_off(tmp_path: Path) -> None:
    options = no_model_cases_options(tmp_path)
    assert options[0] == "--config"
    loaded = load_config(Path(options[1]), project_root=tmp_path)
    test_options = loaded.config.operations["test"].options
    # Only model_cases differs from the run with them: the other options keep their defaults.
    assert test_options == {**default_operations()["test"].options, "model_cases": False}
    # A value the test agent's tools take: `remora analyze` would start with it.
    check_options("test", AgentRegistry().get("test"), test_options)


def _figures(passed: int, branch: float, killed: int, score: float) -> dict[str, float]:
    keys = ("passed_twice", "branch_coverage", "mutants_killed", "mutation_score")
    return dict(zip(keys, (passed, branch, killed, score), strict=True))


def test_what_the_model_cases_add_is_remora_minus_the_run_without_them() -> None:
    rows = [
        {"module": "m1", "tool": "remora", **_figures(5, 0.9, 12, 0.6)},
        {"module": "m1", "tool": "remora-no-model-cases", **_figures(4, 0.8, 10, 0.5)},
        {"module": "m2", "tool": "remora", **_figures(3, 0.5, 4, 0.4)},
        {"module": "m2", "tool": "remora-no-model-cases", **_figures(3, 0.5, 4, 0.4)},
        # Only one of the two ran on m3: no difference to take.
        {"module": "m3", "tool": "remora", **_figures(9, 1.0, 9, 0.9)},
    ]
    added = model_cases_added(rows)
    assert [m["module"] for m in added["modules"]] == ["m1", "m2"]
    assert added["modules"][0]["mutants_killed"] == {"with": 12, "without": 10, "added": 2}
    assert added["median_added"] == {
        "passed_twice": 0.5,
        "branch_coverage": 0.05,
        "mutants_killed": 1.0,
        "mutation_score": 0.05,
    }
    text = model_cases_table(added).splitlines()
    assert text[2] == (
        "| m1 | 5 / 4 (+1) | 0.90 / 0.80 (+0.10) | 12 / 10 (+2) | 0.60 / 0.50 (+0.10) |"
    )
    assert text[-1] == "| **median added** | +0.5 | +0.05 | +1 | +0.05 |"
