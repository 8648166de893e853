"""The lint agent's draft: a statement ruff cannot fix safely, rewritten by the model as code.

Everything but the model is real (ruff, the ``.pym`` tools, Monty, the workspace);
the completions and turns are scripted.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from bundled_agents_support import run_scripted_on_file, write_project

from remora.config import SandboxConfig
from remora.providers.scripted import tool_turn
from remora.sandbox import SandboxRuntime

pytestmark = pytest.mark.integration

SOURCE = "def check(x):\n    if x == None:\n        return 0\n    return x\n"
# E711 is not among ruff's default rules.
FILES = {"m.py": SOURCE, "ruff.toml": '[lint]\nselect = ["E", "F"]\n'}


@pytest.fixture
async def runtime() -> AsyncIterator[SandboxRuntime]:
    async with SandboxRuntime(SandboxConfig(workers=1)) as rt:
        yield rt


async def test_a_drafted_fix_that_passes_the_checks_needs_no_model_turn(
    tmp_path: Path, runtime: SandboxRuntime
) -> None:
    root = write_project(tmp_path, FILES)
    result, provider, written = await run_scripted_on_file(
        runtime, root, "lint", "check", [], completions=["    if x is None:\n"]
    )
    assert result.status == "success", result.to_dict()
    assert written.decode() == SOURCE.replace("x == None", "x is None")
    assert provider.requests == []
    (asked,) = provider.completion_requests
    assert asked.instruction is not None and "E711" in asked.instruction
    assert "    if x == None:" in asked.instruction and asked.prefix == "```python\n"


async def test_a_refused_draft_leaves_the_finding_to_the_model_with_the_reason(
    tmp_path: Path, runtime: SandboxRuntime
) -> None:
    root = write_project(tmp_path, FILES)
    turns = [tool_turn(("edit_node", {"issue_code": "E711", "replacement": "    if x is None:"}))]
    result, provider, written = await run_scripted_on_file(
        runtime, root, "lint", "check", turns, completions=["    if x == None:  # fine\n"]
    )
    assert result.status == "success", result.to_dict()
    assert written.decode() == SOURCE.replace("x == None", "x is None")
    (turn,) = provider.requests
    # The model's turn shows the finding still there, as after the draft.
    assert "E711 at line 2" in turn.messages[1].text
