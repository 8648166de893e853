"""A call that leaves files where it runs is tested in a folder of its own (issue 56).

An invented store opens its file by a relative name, as sqlitedict's README builds a
``SqliteDict("example.sqlite")``: the probe runs it in the project's root, where it makes
the file, reports it and removes it. A test that ran it there would make it in the project
too, for the next test to find; so the test takes pytest's ``tmp_path`` and moves there
first, and nothing but the test file is left in the project. A project whose tests are
``TestCase`` methods has no such fixture: the call gives it no test. The sandbox, the
probe and pytest are real; no model.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from bundled_agents_support import bench, find_node, search_tests_on, write_project

pytestmark = pytest.mark.integration

STORE = """\
class Store:
    def __init__(self, filename="store.log"):
        self.filename = filename
        with open(filename, "a", encoding="utf-8") as handle:
            handle.write("opened\\n")

    def opened(self):
        with open(self.filename, encoding="utf-8") as handle:
            return handle.read().count("opened")


def padded(count: int) -> int:
    return count * 2 + 1
"""


async def test_a_call_that_leaves_a_file_is_tested_in_a_folder_of_its_own(
    tmp_path: Path,
) -> None:
    root = write_project(tmp_path, {"shelf/store.py": STORE})
    node = find_node(root, "shelf/store.py", "Store.opened")
    async with bench(root) as b:
        found = await b.run("test", "search_tests", node)
        workspace = b.workspace("test", node)
        written = workspace.read("tests/test_store.py")
        changed = workspace.changed_files()
    assert found["kept"] and written is not None, found
    text = written.decode()
    assert "(tmp_path, monkeypatch):\n    monkeypatch.chdir(tmp_path)\n" in text, text
    assert changed == ["tests/test_store.py"], changed  # no store.log left by the runs


async def test_a_project_of_test_case_classes_gets_no_test_of_such_a_call(
    tmp_path: Path,
) -> None:
    old = "import unittest\n\n\nclass TestPadded(unittest.TestCase):\n    def test_one(self):\n"
    old += "        self.assertTrue(True)\n"
    files = {"shelf/store.py": STORE, "tests/test_old.py": old}
    found, written = await search_tests_on(
        tmp_path, files, "shelf/store.py", "Store.opened", "tests/test_store.py"
    )
    assert found["kept"] == [] and written is None, found
    assert any("are TestCase methods" in d for d in found["dropped"]), found


async def test_a_call_that_makes_nothing_keeps_its_test(tmp_path: Path) -> None:
    found, written = await search_tests_on(
        tmp_path, {"shelf/store.py": STORE}, "shelf/store.py", "padded", "tests/test_store.py"
    )
    assert found["kept"] and written is not None, found
