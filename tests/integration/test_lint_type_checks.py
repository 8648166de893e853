"""A safe fix that changes what a type checker accepts is kept only when the project's mypy
finds no new error in the changed file.

A blind maintainer rejected PYI032's ``other: Any`` → ``other: object`` in an ``__eq__``
whose body calls ``set(other)``: the project's mypy rejects that call once ``other`` is
an ``object``. Everything is real: ruff, mypy in the command sandbox, the ``.pym``
tools, Monty and the workspace.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from bundled_agents_support import run_scripted_on_file, write_project

from remora.providers.scripted import tool_turn
from remora.sandbox import SandboxRuntime

pytestmark = pytest.mark.integration

RUFF = '\n[tool.ruff.lint]\nselect = ["F", "PYI", "UP"]\n'
MYPY = "\n[tool.mypy]\nwarn_unused_ignores = true\n"
HEAD = "from typing import Any, List\n\n\nclass Tally:\n"
INIT = "    def __init__(self, counts: set[int]) -> None:\n        self.counts = counts\n\n"
# `set(other)` takes an iterable: with `other: object` mypy finds no overload.
CALLS_SET = "    def __eq__(self, other: Any) -> bool:\n        return self.counts == set(other)\n"
NARROWS = (
    "    def __eq__(self, other: Any) -> bool:\n"
    "        return isinstance(other, Tally) and self.counts == other.counts\n"
)
LISTS = "\n\ndef first(values: List[int]) -> int:\n    return values[0]\n"


def project(tmp_path: Path, source: str, settings: str) -> Path:
    root = write_project(tmp_path, {"m.py": source})
    with (root / "pyproject.toml").open("a") as handle:
        handle.write(RUFF + settings)
    return root


async def _run(runtime: SandboxRuntime, root: Path, name: str) -> tuple[str, dict[str, Any]]:
    """(the file after a lint run on ``name``, the run's details): the host's safe fixes,
    no model for drafts, the model's one turn a submit."""
    turns = [tool_turn(("submit_result", {}))]
    result, _, written = await run_scripted_on_file(runtime, root, "lint", name, turns)
    assert result.status == "success", result.to_dict()
    return written.decode(), result.details


def _codes(rows: list[dict[str, Any]]) -> list[str]:
    return [row["code"] for row in rows]


async def test_a_fix_that_gives_mypy_a_new_error_is_refused_with_mypys_reason(
    tmp_path: Path, runtime: SandboxRuntime
) -> None:
    source = HEAD + INIT + CALLS_SET
    text, details = await _run(runtime, project(tmp_path, source, MYPY), "Tally.__eq__")
    assert text == source
    assert _codes(details["remaining"]) == ["PYI032"]
    [refusal] = details["refused"]
    assert refusal["code"] == "PYI032" and refusal["line"] == 8, refusal
    assert "Tally.__eq__ parameter other: Any -> object" in refusal["reason"], refusal
    assert "[call-overload]" in refusal["reason"], refusal


async def test_mypy_among_the_dev_requirements_only_is_the_projects_checker(
    tmp_path: Path, runtime: SandboxRuntime
) -> None:
    source = HEAD + INIT + CALLS_SET
    root = write_project(tmp_path, {"m.py": source})
    dev = '\n[project.optional-dependencies]\ndev = ["mypy>=1.8", "pytest"]\n'
    (root / "pyproject.toml").write_text('[project]\nname = "demo"\nversion = "0.1"\n' + dev + RUFF)
    text, details = await _run(runtime, root, "Tally.__eq__")
    assert text == source and _codes(details["refused"]) == ["PYI032"], details


async def test_a_fix_mypy_accepts_is_kept(tmp_path: Path, runtime: SandboxRuntime) -> None:
    source = HEAD.replace("Any, List", "Any") + INIT + NARROWS
    text, details = await _run(runtime, project(tmp_path, source, MYPY), "Tally.__eq__")
    # `Any` is no longer used: ruff's F401 fix takes its import out in the same change,
    # with the blank lines it would leave at the file's start.
    expected = source.replace("other: Any", "other: object")
    assert text == expected.replace("from typing import Any\n\n\n", "")
    assert details["remaining"] == [] and details["refused"] == []


async def test_without_a_type_checker_the_fix_is_kept(
    tmp_path: Path, runtime: SandboxRuntime
) -> None:
    source = HEAD.replace("Any, List", "Any") + INIT + CALLS_SET
    text, details = await _run(runtime, project(tmp_path, source, ""), "Tally.__eq__")
    assert "other: object" in text
    assert details["remaining"] == [] and details["refused"] == []


async def test_the_refused_fix_leaves_the_nodes_other_fixes_made(
    tmp_path: Path, runtime: SandboxRuntime
) -> None:
    # A method with both: UP006 spells the same type (no check), PYI032 changes it.
    method = (
        "    def __eq__(self, other: Any) -> bool:\n"
        "        seen: List[int] = sorted(self.counts)\n"
        "        return seen == sorted(set(other))\n"
    )
    source = HEAD + INIT + method
    text, details = await _run(runtime, project(tmp_path, source, MYPY), "Tally.__eq__")
    assert text == source.replace("List[int]", "list[int]").replace("Any, List", "Any")
    assert _codes(details["remaining"]) == ["PYI032"]
    assert _codes(details["refused"]) == ["PYI032"]  # once, though fix_safe asked again


async def test_a_rewrite_that_keeps_each_annotations_meaning_needs_no_checker(
    tmp_path: Path, runtime: SandboxRuntime
) -> None:
    # UP006 under pyright, which Remora never runs: `List[int]` and `list[int]` are one
    # type, so no checker is asked and the fix is made.
    source = "from typing import List\n" + LISTS
    text, details = await _run(runtime, project(tmp_path, source, "\n[tool.pyright]\n"), "first")
    assert text == LISTS.lstrip("\n").replace("List[int]", "list[int]")
    assert details["refused"] == []
