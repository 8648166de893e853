"""A call that leaves files where it runs gives no test (issue 56).

An invented store opens its file by a relative name, as sqlitedict's README builds a
``SqliteDict("example.sqlite")``: the probe runs it in the project's root, where it makes
the file, and a test would make it in the project too, for the next test to find. The
probe reports the file and removes it; the search keeps no such call. A reader that
makes nothing keeps its test. The sandbox, the probe and pytest are real; no model.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from bundled_agents_support import search_tests_on

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


async def test_a_call_that_leaves_a_file_in_the_project_gives_no_test(tmp_path: Path) -> None:
    found, written = await search_tests_on(
        tmp_path, {"shelf/store.py": STORE}, "shelf/store.py", "Store.opened", "tests/test_store.py"
    )
    assert found["kept"] == [] and written is None, found
    assert any("leaves files in the folder it runs in" in d for d in found["dropped"]), found


async def test_a_call_that_makes_nothing_keeps_its_test(tmp_path: Path) -> None:
    found, written = await search_tests_on(
        tmp_path, {"shelf/store.py": STORE}, "shelf/store.py", "padded", "tests/test_store.py"
    )
    assert found["kept"] and written is not None, found
