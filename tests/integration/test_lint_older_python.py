"""The lint agent judges a project at the oldest Python it supports.

A blind maintainer rejected UP010's fix removing ``from __future__ import division``
from a module of a project that still supports Python 2.7 (setup.py, tox.ini): on
Python 2 that import decides what ``/`` does. Such a project gets none of the fixes
of rules that assume a newer Python, with the reason in the result; a project on
Python 3 gets the fix, and the removed line leaves no doubled blank line. Everything
is real: ruff, the ``.pym`` tools, Monty and the workspace; only the model is scripted.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from bundled_agents_support import run_scripted_on_file, write_project

from remora.providers.scripted import tool_turn
from remora.sandbox import SandboxRuntime

pytestmark = pytest.mark.integration

RUFF = '\n[tool.ruff.lint]\nselect = ["F", "UP"]\n'
SOURCE = (
    '"""Ratios."""\n\n'
    "from __future__ import division\n\n"
    "import os\n\n\n"
    "def ratio(a, b):\n    return os.sep and a / b\n"
)
SETUP_27 = "from setuptools import setup\n\nsetup(name='ratios', python_requires='>=2.7')\n"


async def _file_run(runtime: SandboxRuntime, root: Path) -> tuple[str, dict[str, Any]]:
    """(m.py after a lint run on the file node, the run's details and summary)."""
    turns = [tool_turn(("submit_result", {}))]
    result, _, written = await run_scripted_on_file(runtime, root, "lint", None, turns)
    assert result.status == "success", result.to_dict()
    return written.decode(), {**result.details, "summary": result.summary}


@pytest.mark.parametrize(
    "settings",
    [{"setup.py": SETUP_27}, {"tox.ini": "[tox]\nenvlist = py27, py38\n"}],
)
async def test_a_project_on_python_2_keeps_its_future_import(
    tmp_path: Path, runtime: SandboxRuntime, settings: dict[str, str]
) -> None:
    root = write_project(tmp_path, {"m.py": SOURCE, **settings})
    with (root / "pyproject.toml").open("a") as handle:
        handle.write(RUFF)
    text, details = await _file_run(runtime, root)
    assert text == SOURCE
    [refusal] = details["refused"]
    assert refusal["code"] == "UP010" and refusal["line"] == 3, refusal
    assert "supports Python 2.7" in refusal["reason"], refusal
    assert "UP010 not fixed: the project supports Python 2.7" in details["summary"], details


async def test_a_project_on_python_3_gets_the_fix_and_no_doubled_blank_line(
    tmp_path: Path, runtime: SandboxRuntime
) -> None:
    root = write_project(tmp_path, {"m.py": SOURCE})
    with (root / "pyproject.toml").open("a") as handle:
        handle.write('requires-python = ">=3.8"\n' + RUFF)
    text, details = await _file_run(runtime, root)
    assert text == SOURCE.replace("from __future__ import division\n\n", ""), text
    assert details["refused"] == [] and details["remaining"] == []
