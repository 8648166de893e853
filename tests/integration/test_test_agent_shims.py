"""A definition an ``if`` chooses at import (a version shim) gets no test.

hjson's ``compat`` defines ``fromhex`` twice, under ``if sys.version_info[0] < 3`` and
``else``: a test of it pins the branch this interpreter takes and retests
``bytes.fromhex`` (a blind reviewer: "only retests the standard library"). The same
function defined once is tested. The sandbox, the probe and pytest are real; no model.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from bundled_agents_support import search_tests_on

pytestmark = pytest.mark.integration

COMPAT = """\
import sys

if sys.version_info[0] < 3:
    def fromhex(s):
        return s.decode("hex")
else:
    def fromhex(s):
        return bytes.fromhex(s)


def shout(text):
    return text.upper() + "!"
"""


async def test_a_version_shim_gets_no_test(tmp_path: Path) -> None:
    found, written = await search_tests_on(
        tmp_path, {"compat.py": COMPAT}, "compat.py", "fromhex", "tests/test_compat.py"
    )
    assert written is None, written
    assert "chooses between at import" in str(found.get("reason")), found


async def test_a_function_defined_once_is_tested(tmp_path: Path) -> None:
    found, _ = await search_tests_on(
        tmp_path, {"compat.py": COMPAT}, "compat.py", "shout", "tests/test_compat.py"
    )
    assert found["kept"], found
