"""The competence benchmark's per-change checks, corpus rules and figures (no network, no model)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "benchmarks"))

from competence_lib.checks import (
    check_change,
    check_docstring,
    own_rows,
    ruff_safe_fix,
    strip_docstring,
)
from competence_lib.corpus import CorpusError, Project, choose_targets, fetch
from competence_lib.report import figures, table

MODULE = '''\
import os


class Box(object):
    """A box."""

    def put(self, item, *args, limit=3, **kw):
        """Put an item in the box.

        Longer text.
        """
        return [item, args, limit, kw]  # keep


def helper(path):
    """Join a path."""
    def inner():
        return 1
    return os.path.join(path, str(inner()))


def only_doc():
    """Nothing else."""
'''


def test_strip_docstring_removes_only_its_lines() -> None:
    stripped = strip_docstring(MODULE, "Box.put")
    assert "Put an item" not in stripped
    assert stripped.replace("\n", "") == MODULE.replace(
        '        """Put an item in the box.\n\n        Longer text.\n        """\n', ""
    ).replace("\n", "")
    assert '"""A box."""' in stripped and "# keep" in stripped


def test_strip_docstring_refuses_a_docstring_that_is_the_whole_body() -> None:
    with pytest.raises(ValueError, match="whole body"):
        strip_docstring(MODULE, "only_doc")


def test_check_docstring_accepts_exact_google_sections() -> None:
    before = strip_docstring(MODULE, "Box.put")
    good = MODULE.replace(
        "Longer text.\n",
        "Args:\n            item: The item.\n            *args: More.\n"
        "            limit: Most.\n            **kw: Options.\n",
    )
    checked = check_docstring(before, good, "Box.put", "google")
    assert checked.problems == [] and checked.params_match and checked.code_unchanged
    assert checked.summary == "Put an item in the box."


def test_check_docstring_reports_missing_parameters_and_changed_code() -> None:
    before = strip_docstring(MODULE, "Box.put")
    missing = MODULE.replace("Longer text.\n", "Args:\n            item: The item.\n")
    assert [p.kind for p in check_docstring(before, missing, "Box.put", "google").problems] == [
        "parameters differ"
    ]
    changed = MODULE.replace("limit, kw]", "kw]")
    kinds = {p.kind for p in check_docstring(before, changed, "Box.put", "google").problems}
    assert "code changed" in kinds
    broken = MODULE.replace("def put(", "def put((")
    assert check_docstring(before, broken, "Box.put", "google").problems[0].kind == (
        "does not parse"
    )


def test_own_rows_leave_out_nested_definitions() -> None:
    assert own_rows(MODULE, "helper") == [(15, 16), (19, 19)]


def test_ruff_safe_fix_touches_only_the_node(tmp_path: Path) -> None:
    (tmp_path / "ruff.toml").write_text('[lint]\nselect = ["UP004"]\n')
    text = "class A(object):\n    pass\n\n\nclass B(object):\n    pass\n"
    fixed = ruff_safe_fix(text, "m.py", tmp_path, "A")
    assert fixed == "class A:\n    pass\n\n\nclass B(object):\n    pass\n"
    assert ruff_safe_fix(text, "m.py", tmp_path, None) == text  # no finding at module level


def test_check_change_flags_files_an_operation_may_not_touch(tmp_path: Path) -> None:
    changes = {"pkg/other.py": ("x = 1\n", "x = 2\n"), "tests/fixtures/m/f.json": (None, "{")}
    problems = check_change("docstring", "pkg/m.py", "f", changes, project=tmp_path)
    kinds = sorted(p.kind for p in problems)
    assert kinds == ["file not allowed", "file not allowed", "not JSON"]
    fixture = {"tests/fixtures/m/f_samples.json": (None, '{"samples": []}')}
    assert check_change("sample_data", "pkg/m.py", "f", fixture, project=tmp_path) == []


def test_choose_targets_follows_the_rules(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "mod.py").write_text(MODULE)
    project = Project("demo", "0", "0" * 64, ("pkg/mod.py",))
    counts = {"docstring": 5, "test": 5, "sample_data": 5, "lint": 5}
    chosen = choose_targets(project, tmp_path, counts)
    assert [t.full_name for t in chosen["docstring"]] == ["Box.put", "helper"]
    assert chosen["docstring"][0].docstring == "Put an item in the box.\n\nLonger text."
    assert [t.full_name for t in chosen["sample_data"]] == ["Box", "helper", "only_doc"]
    assert [t.full_name for t in chosen["lint"]] == ["Box"]  # UP004, a safe fix


def test_fetch_refuses_an_archive_that_does_not_match_its_pin(tmp_path: Path) -> None:
    project = Project("demo", "1.0", "0" * 64, ("demo.py",))
    (tmp_path / "sdists").mkdir()
    (tmp_path / "sdists" / "demo-1.0.tar.gz").write_bytes(b"not the pinned file")
    with pytest.raises(CorpusError, match="does not match the pin"):
        fetch(project, cache=tmp_path)


def _run(operation: str, status: str, **extra: object) -> dict[str, object]:
    base: dict[str, object] = {
        "operation": operation,
        "status": status,
        "error_code": None if status == "success" else "AGENT_002",
        "degraded": status != "success",
        "turns": 2,
        "prompt_tokens": 100,
        "completion_tokens": 10,
        "duration_s": 1.0,
        "changed_files": ["m.py"] if status == "success" else [],
        "problems": [],
    }
    return {**base, **extra}


def test_a_failed_run_counts_against_the_figures() -> None:
    lint = [_run("lint", "success", equals_ruff_fix=True), _run("lint", "failed")]
    lint[1]["equals_ruff_fix"] = False
    got = figures(lint, {"lint": 3.0})["lint"]
    assert got["runs"] == 2 and got["failed_by_code"] == {"AGENT_002": 1}
    assert got["equals_ruff_fix_share"] == 0.5 and got["changes_correct"] == 1
    assert "| lint | 2 | 1 | 1 (AGENT_002 1) |" in table({"lint": got})


def test_a_lint_change_past_ruffs_fix_passes_only_by_removing_findings(tmp_path: Path) -> None:
    (tmp_path / "ruff.toml").write_text('[lint]\nselect = ["E", "F", "UP"]\n')
    before = 'def f(x):\n    if x == None:\n        return "%s" % x\n    return x\n'
    fixed = before.replace("x == None", "x is None")  # E711 has no safe fix; UP031 is left
    kinds = [
        p.kind
        for p in check_change("lint", "m.py", "f", {"m.py": (before, fixed)}, project=tmp_path)
    ]
    assert kinds == []
    # Past ruff's safe fix, but adding a finding (an unused name): refused.
    worse = fixed.replace("    return x\n", "    y = 1\n    return x\n")
    problems = check_change("lint", "m.py", "f", {"m.py": (before, worse)}, project=tmp_path)
    assert [p.kind for p in problems] == ["not ruff's fix"] and "F841" in problems[0].message
