"""Sample data only where the project's tests run under pytest, beside its own tests."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from remora.code import CodeContext
from remora.code.samples.pytest_projects import not_pytest_reason
from remora.code.samples.sample_tests import sample_tests_written, write_sample_fixtures
from remora.config import SandboxConfig
from remora.discovery import discover
from remora.discovery.node import CSTNode
from remora.workspace import WorkspaceStore

SOURCE = (
    "class Shelf:\n"
    "    def __init__(self, capacity: int) -> None:\n"
    "        self.capacity = capacity\n\n"
    "    def put(self, count: int) -> int:\n"
    "        return self.capacity - count\n"
)
NOSE_SETUP = (
    "from setuptools import setup\n\n"
    'tests_require = ["mock", "nose"]\n\n'
    'setup(name="shelves", tests_require=tests_require)\n'
)
PYTEST_SETTINGS = '[project]\nname = "shelves"\n\n[tool.pytest.ini_options]\naddopts = "-q"\n'


def _node(root: Path, files: dict[str, str], name: str) -> CSTNode:
    for rel, text in {"shelves.py": SOURCE, **files}.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    nodes = discover([root / "shelves.py"], project_root=root).nodes
    return next(n for n in nodes if n.full_name == name and n.node_type != "file")


@pytest.mark.parametrize(
    ("files", "words"),
    [
        ({"makefile": "test:\n\tpython3 -munittest\n"}, "run under unittest (makefile: a command)"),
        ({"setup.py": NOSE_SETUP}, "run under nose (setup.py lists nose among its requirements)"),
        ({"pyproject.toml": '[project]\nname = "shelves"\n'}, "nothing in the project says"),
    ],
)
async def test_a_project_pytest_does_not_run_gets_no_sample_data_and_says_why(
    tmp_path: Path, files: dict[str, str], words: str
) -> None:
    node = _node(tmp_path, files, "Shelf")
    with WorkspaceStore(tmp_path).create("s", node.node_id) as workspace:
        context = CodeContext(workspace, node, SandboxConfig(workers=1))
        written = await write_sample_fixtures(context, [{"name": "two", "args": "2"}])
        assert workspace.changed_files() == []
        facts = sample_tests_written(context)
    assert written["written"] is False and words in written["reason"], written["reason"]
    assert "run only under pytest" in written["reason"]
    assert facts["reason"] == written["reason"]


@pytest.mark.parametrize(
    "files",
    [
        {"pyproject.toml": PYTEST_SETTINGS},
        {"tox.ini": "[pytest]\naddopts = -q\n"},
        {"setup.cfg": "[tool:pytest]\naddopts = -q\n"},
        {"pytest.ini": "[pytest]\n"},
        {"tests/conftest.py": ""},
        {"requirements-dev.txt": "pytest\n"},
        {"tests/test_other.py": "import pytest\n"},
    ],
)
def test_any_sign_of_pytest_lets_sample_data_be_written(
    tmp_path: Path, files: dict[str, str]
) -> None:
    node = _node(tmp_path, files, "Shelf")
    with WorkspaceStore(tmp_path).create("s", node.node_id) as workspace:
        assert not_pytest_reason(CodeContext(workspace, node, SandboxConfig(workers=1))) == ""


async def test_the_conftest_and_the_test_go_in_the_project_s_test_folder(tmp_path: Path) -> None:
    files = {"pyproject.toml": PYTEST_SETTINGS, "test/__init__.py": "", "test/put_test.py": ""}
    node = _node(tmp_path, files, "Shelf.put")
    with WorkspaceStore(tmp_path).create("s", node.node_id) as workspace:
        context = CodeContext(workspace, node, SandboxConfig(workers=1))
        # A method's cases are the test operation's: nothing probed, the files still named.
        written = await write_sample_fixtures(context, [])
    assert "test operation" in written["reason"]
    assert (written["conftest"], written["test_file"]) == (
        "test/conftest.py",
        "test/test_shelves.py",
    )


def test_a_run_lists_the_project_once_until_it_writes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The test style, the test folder and the module's test file each searched the merged
    # view: nine walks of the project a sample_data run (SQLAlchemy's: ~17 ms each).
    node = _node(tmp_path, {"tests/test_shelves.py": "def test_one():\n    pass\n"}, "Shelf")
    with WorkspaceStore(tmp_path).create("s", node.node_id) as workspace:
        walks: list[int] = []
        real_iter_files = workspace.iter_files

        def iter_files() -> Iterator[str]:
            walks.append(1)
            return real_iter_files()

        monkeypatch.setattr(workspace, "iter_files", iter_files)
        context = CodeContext(workspace, node, SandboxConfig(workers=1))
        assert context.search_files("**/test_*.py") == ["tests/test_shelves.py"]
        assert context.search_files("tests/*") == ["tests/test_shelves.py"]
        assert not_pytest_reason(context)
        assert len(walks) == 1
        workspace.write("tests/test_more.py", b"def test_two():\n    pass\n")
        assert context.search_files("**/test_*.py") == [
            "tests/test_more.py",
            "tests/test_shelves.py",
        ]
        assert len(walks) == 2
