"""A node whose module imports a package the environment lacks gets no test, and says why.

jsonpatch imports jsonpointer at its top; where jsonpointer is not installed, every call
of the search fails at the import, and the result names the missing module (what to
install) instead of "could not run the node". The sandbox and the probe are real; no model.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from bundled_agents_support import search_tests_on

pytestmark = pytest.mark.integration

PATCHER = """\
import remora_absent_dependency


def apply(doc, patch):
    return remora_absent_dependency.apply(doc, patch)
"""


async def test_a_missing_import_is_named_in_the_reason(tmp_path: Path) -> None:
    found, data = await search_tests_on(
        tmp_path, {"patcher.py": PATCHER}, "patcher.py", "apply", "tests/test_patcher.py"
    )
    assert not found["kept"] and data is None, found
    assert found["reason"].startswith("the search could not run the node"), found
    assert "No module named 'remora_absent_dependency'" in found["reason"], found
