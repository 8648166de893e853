"""A bad operation option in remora.yaml: one error before any run, naming what is allowed.

The real ``remora`` entry point in a subprocess, on a copy of the example project.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from cli_support import remora

from remora.project import STATE_DIR

EXAMPLE = Path(__file__).resolve().parents[3] / "examples/sample_project"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "sample_project"
    # Without the state an earlier main job left in the example (README's first command).
    shutil.copytree(EXAMPLE, root, ignore=shutil.ignore_patterns(STATE_DIR))
    return root


def test_a_value_the_input_does_not_take_fails_once_with_the_allowed_range(project: Path) -> None:
    config = project / "remora.yaml"
    config.write_text("operations:\n  test:\n    options:\n      max_tests: many\n")
    code, out = remora(project, "analyze", "inventory")
    assert code == 3
    assert out.count("error[") == 1  # once, not per node
    assert (
        f"error[CONFIG_002]: invalid value for 'operations.test.options.max_tests' ({config}:4): "
        '"many"; it takes an integer from 1 to 50'
    ) in out
    assert "hint: the option fills the input 'max_tests' of the tools" in out
    assert not (project / STATE_DIR / "remora.db").exists()  # no run was recorded


def test_an_unknown_option_is_named_with_a_suggestion(project: Path) -> None:
    config = project / "remora.yaml"
    config.write_text("operations:\n  test:\n    options:\n      max_test: 5\n")
    # Checked whatever -o chooses: the file is checked as a whole.
    code, out = remora(project, "analyze", "-o", "lint", "inventory")
    assert code == 3
    assert (
        f"error[CONFIG_003]: unknown config key 'operations.test.options.max_test' ({config}:4)"
    ) in out
    assert "hint: did you mean 'max_tests'?" in out


def test_processes_with_the_embedded_model_is_refused_before_any_run(project: Path) -> None:
    code, out = remora(project, "analyze", "-o", "lint", "--processes", "4", "inventory")
    assert code == 2
    assert "error[USAGE]: --processes 4 (sandbox.host_processes) shards analyze" in out
    assert "'lint' uses the embedded model 'qwen2.5-coder-0.5b'" in out
    assert "hint: use --processes 1" in out and "remora models serve" in out
    assert not (project / STATE_DIR / "remora.db").exists()  # no run was recorded


def test_processes_must_be_a_number_or_auto(project: Path) -> None:
    code, out = remora(project, "analyze", "--processes", "two", "inventory")
    assert code == 2
    assert "error[USAGE]: --processes 'two' is not a number of processes" in out


def test_an_unknown_embedded_model_of_an_operation_names_its_setting(project: Path) -> None:
    config = project / "remora.yaml"
    config.write_text("operations:\n  docstring:\n    embedded_model: qwen-9000\n")
    code, out = remora(project, "analyze", "-o", "lint", "inventory")
    assert code == 3
    assert (
        "error[CONFIG_002]: unknown embedded model 'qwen-9000' for "
        f"'operations.docstring.embedded_model' ({config}:3)"
    ) in out
    assert "hint: set it to one of: qwen2.5-coder-0.5b, qwen2.5-coder-1.5b" in out
    assert "model.path" not in out  # the model section is not what is wrong
    assert not (project / STATE_DIR / "remora.db").exists()  # no run was recorded
