"""Which files are test code: one rule, read the same by the coordinator and the toolkit."""

from __future__ import annotations

from pathlib import Path

import pytest

from remora.code.context import CodeContext
from remora.code.probes.calls import node_call_target
from remora.config import SandboxConfig
from remora.coordinator.tasks import file_filter_reason
from remora.discovery import CSTNode, make_node_id
from remora.test_code import TEST_CODE_PATTERNS, is_test_code
from remora.workspace import WorkspaceStore

PATHS = [
    ("pkg/tests/x.py", True),
    ("tests/x.py", True),
    ("test_x.py", True),
    ("pkg/test_x.py", True),
    ("x_test.py", True),
    ("conftest.py", True),
    ("pkg/sub/conftest.py", True),
    ("pkg/testing.py", False),
    ("pkg/contest.py", False),
    ("latest_tests.py", False),
    ("pkg/x.py", False),
]


@pytest.mark.parametrize(("path", "expected"), PATHS)
def test_is_test_code(path: str, expected: bool) -> None:
    assert is_test_code(path) is expected


@pytest.mark.parametrize(("path", "expected"), PATHS)
def test_the_coordinators_default_exclude_agrees(path: str, expected: bool) -> None:
    reason = file_filter_reason(path, "docstring", (), TEST_CODE_PATTERNS)
    assert bool(reason) is expected


@pytest.mark.parametrize(("path", "expected"), PATHS)
def test_the_toolkit_does_not_call_a_function_in_test_code(
    tmp_path: Path, path: str, expected: bool
) -> None:
    text = "def f(a):\n    return a\n"
    (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
    (tmp_path / path).write_text(text)
    node = CSTNode(
        make_node_id(path, "f", "function"), "function", "f", "f", path,
        0, len(text), 1, 2, text,
    )  # fmt: skip
    with WorkspaceStore(tmp_path).create("test", node.node_id) as workspace:
        target = node_call_target(CodeContext(workspace, node, SandboxConfig()))
    assert (target["reason"] == "this is test code") is expected
    assert target["reason"] in ("", "this is test code")
