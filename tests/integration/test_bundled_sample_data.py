"""The sample_data agent on real files: a class's fixtures in the tests' conftest, read by tests
that pass; a function's table (asked for) as a parametrized test.

The host's value search runs the code in the command sandbox under coverage; what
it keeps becomes a parametrized fixture in ``tests/conftest.py`` and the test
that reads it in the module's test file (a class), or a parametrized test (a function).
Each change is materialized here and its tests run with pytest, twice, in a subprocess.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from bundled_agents_support import bench, copy_sample, find_node, run_bundled_agent, write_project

from remora.providers.scripted import ScriptedProvider
from remora.workspace import Workspace
from remora.workspace.sync import materialize

pytestmark = pytest.mark.integration

PAGES = """\
def place(part: str, width: int = 10) -> int:
    if part not in ("head", "body", "tail"):
        raise ValueError(f"no part {part!r}")
    if part == "head":
        return 0
    if part == "body":
        return width
    return 2 * width


def settle(interval: int) -> int:
    if interval == 0:
        while True:
            pass
    if interval < 0:
        return 0
    if interval > 60:
        return 120
    return 2 * interval


def greet(name: str = "world") -> str:
    return "hello " + name


class Counter:
    def __init__(self, start: int, step: int = 1) -> None:
        self.start = start
        self.step = step

    @property
    def negative(self) -> bool:
        return self.start < 0

    def following(self) -> int:
        return self.start + self.step


class Pager:
    def __init__(self, rows, first_row=1):
        self.rows = rows if isinstance(rows, list) else list(rows)
        self.first_row = first_row
        self._at = -1

    def ahead(self):
        if self._at + 1 < len(self.rows):
            return self.rows[self._at + 1]
        return None
"""


# A function's table is asked for (the test agent's tests reach its cases otherwise).
TABLES = {"argument_tables": True}
# Sample data is written only where the project says its tests run under pytest.
PYTEST_SETTINGS = '[project]\nname = "demo"\nversion = "0.1"\n\n[tool.pytest.ini_options]\n'


def pytest_project(tmp_path: Path, files: dict[str, str]) -> Path:
    return write_project(tmp_path, {"pyproject.toml": PYTEST_SETTINGS, **files})


def run_tests_twice(workspace: Workspace, tmp_path: Path) -> str:
    copy = tmp_path / "copy"
    materialize(workspace, copy)
    outputs = []
    for _ in range(2):
        done = subprocess.run(
            [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"],
            cwd=copy,
            env={**os.environ, "PYTHONPATH": str(copy)},
            capture_output=True,
            text=True,
            check=False,
        )
        assert done.returncode == 0, done.stdout + done.stderr
        outputs.append(done.stdout.strip().splitlines()[-1])
    assert outputs[0].split(" in ")[0] == outputs[1].split(" in ")[0]
    return outputs[0].split(" in ")[0]


async def test_the_values_the_code_compares_against_become_a_fixture_a_test_reads(
    tmp_path: Path,
) -> None:
    root = pytest_project(tmp_path, {"pages.py": PAGES})
    node = find_node(root, "pages.py", "place")
    # No model turn: the host's search writes the change and the run ends.
    result, workspace = await run_bundled_agent(
        "sample_data", root, node, ScriptedProvider([]), TABLES
    )
    assert result.status == "success", result.to_dict()
    # A function's table is its test's parameters: no conftest fixture for one test.
    assert result.changed_files == ["tests/test_pages.py"]
    tests = (workspace.read("tests/test_pages.py") or b"").decode()
    # Each branch once, by the strings the code names; nothing made up, no default alone.
    for part in ("head", "body", "tail"):
        assert f'pytest.param("{part}", ' in tests
    assert '"sample' not in tests and '"zz"' not in tests and '("", ' not in tests
    assert "def test_place_samples(part, expected):" in tests
    assert result.details["fixtures"] == [] and result.details["tests"] == ["test_place_samples"]
    assert "a parametrized table of its cases" in result.summary
    assert run_tests_twice(workspace, tmp_path) == "3 passed"


async def test_nothing_to_vary_and_the_defaults_alone_leave_no_change(tmp_path: Path) -> None:
    root = pytest_project(tmp_path, {"pages.py": PAGES})
    async with bench(root) as b:
        reasons = {}
        for name in ("greet", "Counter.negative", "Counter.following"):
            node = find_node(root, "pages.py", name)
            written = await b.run("sample_data", "write_fixture", node, TABLES)
            assert written["written"] is False, written
            assert b.workspace("sample_data", node).changed_files() == []
            reasons[name] = written["reason"]
    # `greet`: its default alone, or a name the project never uses ("Alice").
    assert reasons["greet"] == "no argument set has a source in the project"
    assert reasons["Counter.negative"] == "it takes no arguments: nothing to vary"
    assert reasons["Counter.following"] == "it takes no arguments: nothing to vary"


async def test_a_call_that_does_not_finish_is_never_offered(tmp_path: Path) -> None:
    root = pytest_project(tmp_path, {"pages.py": PAGES})
    node = find_node(root, "pages.py", "settle")
    async with bench(root) as b:
        written = await b.run("sample_data", "write_fixture", node, TABLES)
        tests = b.text("sample_data", node, "tests/test_pages.py")
    assert written["written"] is True, written
    assert "pytest.param(0, " not in tests and "def test_settle_samples(interval" in tests


async def test_a_class_gets_its_instances_and_a_test_of_its_members(tmp_path: Path) -> None:
    root = pytest_project(tmp_path, {"pages.py": PAGES})
    node = find_node(root, "pages.py", "Counter")
    async with bench(root) as b:
        written = await b.run("sample_data", "write_fixture", node)
        workspace = b.workspace("sample_data", node)
        conftest = b.text("sample_data", node, "tests/conftest.py")
    assert written["written"] is True, written
    assert written["fixtures"] == ["counter_sample", "counter"]
    # A negative start and another: both sides of the property's comparison.
    assert '"negative": True' in conftest and '"negative": False' in conftest
    assert run_tests_twice(workspace, tmp_path).endswith("passed")


async def test_a_kind_s_stand_in_or_a_none_the_code_never_tells_apart_is_no_fixture(
    tmp_path: Path,
) -> None:
    # mistletoe's FileWrapper(lines=[1], start_line=None) was rejected: "an integer as a
    # line", and a None stored for a reader that counts lines.
    root = pytest_project(tmp_path, {"pages.py": PAGES})
    node = find_node(root, "pages.py", "Pager")
    async with bench(root) as b:
        written = await b.run("sample_data", "write_fixture", node)
        changed = b.workspace("sample_data", node).changed_files()
    assert written["written"] is False and changed == [], written
    assert written["dropped"]["a kind's stand-in the project never uses"] >= 1, written
    assert written["dropped"]["a None the code never tells apart"] >= 1, written


async def test_a_models_placeholder_is_never_offered_and_json_is_only_an_export(
    tmp_path: Path,
) -> None:
    root = pytest_project(tmp_path, {"pages.py": PAGES})
    node = find_node(root, "pages.py", "place")
    sets = [{"name": "made_up", "args": "part='sample part'"}, {"name": "ok", "args": "'tail', 3"}]
    async with bench(root) as b:
        written = await b.run(
            "sample_data", "write_fixture", node, {"sets": sets, "export_json": True, **TABLES}
        )
        tests = b.text("sample_data", node, "tests/test_pages.py")
        exported = json.loads(
            b.text("sample_data", node, "tests/fixtures/pages/place_samples.json")
        )
    assert written["written"] is True and written["dropped"]["a string the project never uses"] >= 1
    assert "sample part" not in tests
    assert len(exported["samples"]) == written["sets"]


async def test_on_the_example_a_function_of_tiers_gets_one_set_per_tier(tmp_path: Path) -> None:
    root = copy_sample(tmp_path)
    node = find_node(root, "inventory/pricing.py", "bulk_discount")
    result, workspace = await run_bundled_agent(
        "sample_data", root, node, ScriptedProvider([]), TABLES
    )
    assert result.status == "success", result.to_dict()
    tests = (workspace.read("tests/test_pricing.py") or b"").decode()
    for tier in (0, 5, 10, 15):
        assert f", {tier}, id=" in tests, tests
    # The project's own tests and the new one, run twice.
    assert run_tests_twice(workspace, tmp_path).endswith("passed")


async def test_a_table_of_fewer_than_three_rows_is_not_offered(tmp_path: Path) -> None:
    # Two outcomes to reach: a table of two rows says nothing two asserts would not.
    source = "def sign(count: int) -> int:\n    return 1 if count > 0 else -1\n"
    root = pytest_project(tmp_path, {"pages.py": source})
    node = find_node(root, "pages.py", "sign")
    async with bench(root) as b:
        written = await b.run("sample_data", "write_fixture", node, TABLES)
    assert written["written"] is False, written
    assert written["reason"].startswith("fewer than 3 sets"), written


async def test_a_functions_cases_are_left_to_the_test_agent_unless_asked(tmp_path: Path) -> None:
    root = pytest_project(tmp_path, {"pages.py": PAGES})
    node = find_node(root, "pages.py", "place")
    result, workspace = await run_bundled_agent("sample_data", root, node, ScriptedProvider([]))
    assert result.status == "skipped", result.to_dict()
    assert workspace.changed_files() == []
    assert "test operation" in result.summary and "argument_tables" in result.summary


SHELF = """\
class Shelf:
    def __init__(self, capacity=3):
        self.capacity = capacity
        self.books = []

    def put(self, title):
        if len(self.books) >= self.capacity:
            raise ValueError("the shelf is full")
        self.books.append(title)

    def titles(self):
        return sorted(self.books)

    @property
    def free(self):
        return self.capacity - len(self.books)
"""

SHELF_README = """\
A shelf holds a few books:

```python
shelf = Shelf(capacity=2)
shelf.put("Emma")
shelf.put("Dune")
print(shelf.titles())
```
"""


async def test_an_instance_built_and_filled_as_the_docs_do_is_a_fixture_its_test_reads(
    tmp_path: Path,
) -> None:
    root = pytest_project(tmp_path, {"shelf.py": SHELF, "README.md": SHELF_README})
    node = find_node(root, "shelf.py", "Shelf")
    async with bench(root) as b:
        written = await b.run("sample_data", "write_fixture", node)
        workspace = b.workspace("sample_data", node)
        conftest = b.text("sample_data", node, "tests/conftest.py")
        tests = b.text("sample_data", node, "tests/test_shelf.py")
    assert written["written"] is True, written
    assert written["fixtures"] == ["shelf_as_documented"]
    # Built and filled as the README does, no value of its own.
    for line in ("shelf = Shelf(capacity=2)", 'shelf.put("Emma")', 'shelf.put("Dune")'):
        assert f"    {line}\n" in conftest, conftest
    assert "print(" not in conftest and "sample" not in conftest
    # What the calls changed: the titles in order and no room left (an empty shelf of two
    # has 2), read from the fixture.
    assert 'assert shelf_as_documented.titles() == ["Dune", "Emma"]' in tests, tests
    assert "assert shelf_as_documented.free == 0" in tests
    assert run_tests_twice(workspace, tmp_path) == "1 passed"


async def test_a_project_whose_tests_run_under_unittest_is_offered_nothing(
    tmp_path: Path,
) -> None:
    files = {
        "shelf.py": SHELF,
        "README.md": SHELF_README,
        "Makefile": "test:\n\tpython -m unittest\n",
    }
    root = write_project(tmp_path, files)
    node = find_node(root, "shelf.py", "Shelf")
    result, workspace = await run_bundled_agent("sample_data", root, node, ScriptedProvider([]))
    assert result.status == "skipped", result.to_dict()
    assert workspace.changed_files() == []
    assert "run under unittest (Makefile: a command)" in result.summary, result.summary
