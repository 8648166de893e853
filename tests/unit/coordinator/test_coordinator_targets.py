"""Which files an operation runs on: test code is left out of docstring, test and sample_data."""

from __future__ import annotations

import pytest

from remora.agents import AgentRegistry
from remora.config import RemoraConfig
from remora.coordinator.tasks import file_filter_reason, plan_operations, plan_tasks
from remora.discovery.node import CSTNode, make_node_id
from remora.errors import ConfigValueError
from remora.test_code import TEST_CODE_PATTERNS


def function_in(path: str) -> CSTNode:
    return CSTNode(
        node_id=make_node_id(path, "f", "function"),
        node_type="function",
        name="f",
        full_name="f",
        file_path=path,
        start_byte=0,
        end_byte=10,
        start_line=1,
        end_line=1,
        text="def f(): 1",
    )


@pytest.mark.parametrize(
    ("path", "is_test_code"),
    [
        ("tests/test_pricing.py", True),
        ("pkg/tests/helpers.py", True),
        ("test_app.py", True),
        ("pkg/app_test.py", True),
        ("conftest.py", True),
        ("pkg/sub/conftest.py", True),
        ("pkg/testing.py", False),
        ("pkg/contest.py", False),
        ("latest_tests.py", False),
        ("inventory/pricing.py", False),
    ],
)
def test_test_code_patterns(path: str, is_test_code: bool) -> None:
    assert bool(file_filter_reason(path, "docstring", (), TEST_CODE_PATTERNS)) is is_test_code


def skipped(config: RemoraConfig, path: str) -> dict[str, str]:
    names = ["lint", "docstring", "test", "sample_data"]
    plans = plan_operations(names, config, AgentRegistry())
    return {t.operation: t.skip_reason for t in plan_tasks([function_in(path)], plans)}


def test_by_default_only_lint_runs_on_test_code() -> None:
    reasons = skipped(RemoraConfig(), "tests/test_pricing.py")
    assert reasons["lint"] == ""
    for name in ("docstring", "test", "sample_data"):
        assert reasons[name] == (
            f"tests/test_pricing.py matches operations.{name}.exclude 'tests/*'"
        )
    assert set(skipped(RemoraConfig(), "inventory/pricing.py").values()) == {""}


def test_an_operations_own_settings_keep_the_default_exclude_unless_they_set_one() -> None:
    config = RemoraConfig.model_validate(
        {
            "operations": {
                "lint": {"include": ["inventory/*"]},
                "docstring": {"options": {"style": "numpy"}},
                "test": {"exclude": []},
                "sample_data": {"exclude": ["*/generated/*"]},
            }
        }
    )
    reasons = skipped(config, "tests/test_pricing.py")
    assert reasons["lint"] == "tests/test_pricing.py matches none of operations.lint.include"
    assert reasons["docstring"].endswith("exclude 'tests/*'")
    assert reasons["test"] == ""
    assert reasons["sample_data"] == ""
    assert skipped(config, "pkg/generated/x.py")["sample_data"] == (
        "pkg/generated/x.py matches operations.sample_data.exclude '*/generated/*'"
    )


def test_an_option_the_tool_cannot_take_ends_the_planning_naming_the_key() -> None:
    config = RemoraConfig.model_validate(
        {"operations": {"docstring": {"options": {"style": "google", "draft": "maybe"}}}}
    )
    with pytest.raises(ConfigValueError) as info:
        plan_operations(["docstring", "lint"], config, AgentRegistry())
    assert info.value.message == (
        "invalid value for 'operations.docstring.options.draft': \"maybe\"; it takes true or false"
    )
    good = RemoraConfig.model_validate({"operations": {"docstring": {"options": {"draft": False}}}})
    assert plan_operations(["docstring"], good, AgentRegistry())["docstring"].error is None
