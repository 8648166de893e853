"""Where a module's tests go: its test file anywhere, else the project's own test folder."""

from __future__ import annotations

from pathlib import Path

import pytest

from remora.code import CodeContext
from remora.code.probes.pytest_files import module_test_file
from remora.code.probes.test_file_text import with_pieces
from remora.code.probes.test_runner import shared_futures
from remora.config import SandboxConfig
from remora.discovery import discover
from remora.workspace import WorkspaceStore

SOURCE = "class Span:\n    def __init__(self, low: int) -> None:\n        self.low = low\n"


def _test_file(root: Path, files: dict[str, str]) -> str:
    for name, text in {"spans/span.py": SOURCE, **files}.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    node = next(
        n
        for n in discover([root / "spans/span.py"], project_root=root).nodes
        if n.full_name == "Span"
    )
    with WorkspaceStore(root).create("t", node.node_id) as workspace:
        return str(module_test_file(CodeContext(workspace, node, SandboxConfig()))["path"])


@pytest.mark.parametrize(
    ("files", "path"),
    [
        # Nothing to go by: a new tests/ folder.
        ({}, "tests/test_span.py"),
        # The project keeps its tests in test/, nested and named *_test.py: there.
        ({"test/__init__.py": "", "test/methods/init_test.py": "x = 1\n"}, "test/test_span.py"),
        # A test folder inside the package, and none at the top.
        ({"spans/tests/test_other.py": "x = 1\n"}, "spans/tests/test_span.py"),
        # Named as unittest's default pattern finds them (test*.py), not as pytest's.
        (
            {"spans/tests/__init__.py": "", "spans/tests/testother.py": ""},
            "spans/tests/test_span.py",
        ),
        # A file named test* outside a test folder is not one.
        ({"spans/testing_tools.py": "x = 1\n"}, "tests/test_span.py"),
        # The shallowest folder first; a file of tests at the top names no folder.
        (
            {"spans/tests/test_a.py": "", "test/test_b.py": "", "tests.py": ""},
            "test/test_span.py",
        ),
        # A test package whose tests are not there yet (its helpers are): there.
        (
            {"spans/test/__init__.py": "", "spans/test/common.py": "x = 1\n"},
            "spans/test/test_span.py",
        ),
        # pytest collects only tests.py in its testpaths: the tests go there.
        (
            {
                "pyproject.toml": (
                    '[tool.pytest.ini_options]\npython_files = "tests.py"\n'
                    'testpaths = "spans/tests"\n'
                ),
                "spans/tests/__init__.py": "",
                "tests/helpers.py": "",
            },
            "spans/tests/tests.py",
        ),
        # Its files named <module>_test.py (setup.cfg's section): named so.
        ({"setup.cfg": "[tool:pytest]\npython_files = *_test.py\n"}, "tests/span_test.py"),
        # A pattern the usual name matches: the usual name.
        ({"pytest.ini": "[pytest]\npython_files = test_*.py check_*.py\n"}, "tests/test_span.py"),
        # The module's own test file wherever it is.
        ({"test/test_a.py": "", "checks/test_span.py": ""}, "checks/test_span.py"),
    ],
)
def test_a_new_test_file_goes_in_the_project_s_test_folder(
    tmp_path: Path, files: dict[str, str], path: str
) -> None:
    assert _test_file(tmp_path, files) == path


def _futures(root: Path, files: dict[str, str]) -> list[str]:
    for name, text in {"spans/span.py": SOURCE, **files}.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    node = next(
        n
        for n in discover([root / "spans/span.py"], project_root=root).nodes
        if n.full_name == "Span"
    )
    with WorkspaceStore(root).create("t", node.node_id) as workspace:
        return shared_futures(CodeContext(workspace, node, SandboxConfig()))


UNICODE = "from __future__ import absolute_import, unicode_literals\n\nx = 1\n"


@pytest.mark.parametrize(
    ("files", "futures"),
    [
        ({}, []),
        # hyperlink's test files all say unicode_literals: a new one starts with it too.
        (
            {
                "tests/test_a.py": UNICODE,
                "tests/test_b.py": UNICODE.replace("absolute_import, ", ""),
            },
            ["unicode_literals"],
        ),
        # Not every one says it: the project has no such rule.
        ({"tests/test_a.py": UNICODE, "tests/test_b.py": "x = 1\n"}, []),
        # A test file that does not parse says nothing.
        (
            {"tests/test_a.py": UNICODE, "tests/test_b.py": "def (:\n"},
            ["absolute_import", "unicode_literals"],
        ),
    ],
)
def test_a_new_test_file_takes_the_future_imports_every_test_file_has(
    tmp_path: Path, files: dict[str, str], futures: list[str]
) -> None:
    assert _futures(tmp_path, files) == futures


def test_a_new_test_file_starts_with_its_future_imports() -> None:
    piece = {"name": "test_x", "source": "def test_x():\n    assert s.x == 'a'\n", "imports": ["x"]}
    text = with_pieces("", "tests/test_s.py", "s", [piece], futures=["unicode_literals"])
    assert text.startswith('"""Tests for s."""\n\nfrom __future__ import unicode_literals\n\n')
    assert "from s import x\n" in text
    # An existing file keeps its own head.
    assert "__future__" not in with_pieces(
        '"""Mine."""\n', "t.py", "s", [piece], futures=["unicode_literals"]
    )
