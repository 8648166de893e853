"""A capable model, scripted, drives the bundled docstring and lint agents end to end.

Everything but the model is real: the bundled YAML and ``.pym`` tools, Monty,
``remora_code`` on a sqlite workspace, ruff. Each script gives the rich
arguments, gets one piece refused with its reason, tries again, and leaves a
change that is checked byte for byte.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import pytest
from bundled_agents_support import run_scripted_on_file, write_project

from remora.providers.scripted import ScriptedProvider, tool_turn
from remora.sandbox import SandboxRuntime

pytestmark = pytest.mark.integration

PRICES = """\
import math


def total(prices: list[float], tax: float = 0.1) -> float:
    # raise KeyError would be a comment, not code
    if tax < 0:
        raise ValueError("tax must not be negative")
    return math.fsum(prices) * (1 + tax)
"""

CHECKS = """\
def pick(items, fallback=None):
    label = f"items"
    if items == None:
        return fallback
    return items[0]
"""


async def drive(
    runtime: SandboxRuntime, root: Path, agent: str, qualname: str, turns: list[Any]
) -> tuple[Any, ScriptedProvider, bytes]:
    # The model's sections are checked too; nothing is drafted: a capable model's words
    # are its own (`draft: false`, as docs/agents.md advises for one).
    options = {"style": "google", "details": True, "draft": False}
    return await run_scripted_on_file(runtime, root, agent, qualname, turns, options)


def last_result(provider: ScriptedProvider, request: int) -> dict[str, Any]:
    """The tool result the model saw before its turn number ``request``."""
    tool_messages = [m for m in provider.requests[request].messages if m.role == "tool"]
    payload: dict[str, Any] = tool_messages[-1].results[0].payload
    assert payload["ok"], payload
    result: dict[str, Any] = payload["result"]
    return result


async def test_docstring_pieces_are_checked_refused_and_retried(
    tmp_path: Path, runtime: SandboxRuntime
) -> None:
    root = write_project(tmp_path, {"m.py": PRICES})
    pieces = {
        "params": {
            "prices": "Net prices to add up.",
            "tax": "Rate added on top.",
            "discount": "Not a parameter.",
        },
        "returns": "The gross total.",
        "raises": {"ValueError": "If tax is negative.", "KeyError": "Never."},
    }
    result, provider, written = await drive(
        runtime,
        root,
        "docstring",
        "total",
        [
            tool_turn(("write_docstring", {"summary": "Total: 10.000.000.000.000", **pieces})),
            tool_turn(("write_docstring", {"summary": "Add up prices and apply tax.", **pieces})),
            tool_turn(("submit_result", {})),
        ],
    )
    assert result.status == "success", result.to_dict()
    first = last_result(provider, 1)
    assert first["written"] is False
    assert first["to_fix"] == [
        "summary: it is mostly digits or punctuation; write it in words; start with a verb "
        "in the imperative: 'Return …', 'Build …', 'Check …'",
        "params.discount: no such parameter (prices, tax); describe only these",
        "raises.KeyError: KeyError is not raised by this code (it raises ValueError)",
    ]
    # The third turn is the host's: only submit_result is left, so the model is not asked.
    assert len(provider.requests) == 2
    expected = (
        "Add up prices and apply tax.\n\n"
        "Args:\n"
        "    prices (list[float]): Net prices to add up.\n"
        "    tax (float): Rate added on top.\n\n"  # issue 57: not "Defaults to ``0.1``."
        "Returns:\n"
        "    float: The gross total.\n\n"
        "Raises:\n"
        "    ValueError: If tax is negative."  # the model's words, not the condition as code
    )
    text = written.decode()
    function = ast.parse(text).body[1]
    assert isinstance(function, ast.FunctionDef)
    assert ast.get_docstring(function) == expected
    # Only the docstring's lines were added: removing them gives the original back.
    docstring_lines = range(function.body[0].lineno - 1, function.body[0].end_lineno or 0)
    kept = [line for i, line in enumerate(text.splitlines(True)) if i not in docstring_lines]
    assert "".join(kept) == PRICES
    assert result.details["has_docstring"] is True


async def test_lint_safe_fix_then_checked_edit_refused_then_accepted(
    tmp_path: Path, runtime: SandboxRuntime
) -> None:
    root = write_project(tmp_path, {"m.py": "import os\n\n\n" + CHECKS + "\n\nos.getcwd()\n"})
    (root / "pyproject.toml").write_text(
        '[project]\nname = "demo"\nversion = "0.1"\n\n[tool.ruff.lint]\nselect = ["E", "F"]\n'
    )
    fixed = CHECKS.replace('f"items"', '"items"').replace("items == None", "items is None")
    adds_a_finding = fixed.replace("None):\n", "None):\n    import sys\n", 1)
    result, provider, written = await drive(
        runtime,
        root,
        "lint",
        "pick",
        [
            tool_turn(("edit_node", {"issue_code": "E711", "replacement": adds_a_finding})),
            tool_turn(("edit_node", {"issue_code": "E711", "replacement": fixed})),
            tool_turn(("submit_result", {})),
        ],
    )
    assert result.status == "success", result.to_dict()
    # The host applied ruff's safe fix for F541 before the first turn (fix_safe): the
    # model saw the text after it and only the findings left, and spent no turn on it.
    first = provider.requests[0].messages[1].text
    assert "(ruff's safe fixes for F541 applied)" in first and 'f"items"' not in first
    assert "E711 at line 6:" in first and "F841 at line 5:" in first
    assert "lines 6-6:\n```python\n    if items == None:\n```" in first
    refused = last_result(provider, 1)
    assert refused["written"] is False
    assert refused["reason"] == "the replacement adds F401"
    assert last_result(provider, 2)["written"] is True
    assert len(provider.requests) == 3
    assert written.decode() == "import os\n\n\n" + fixed + "\n\nos.getcwd()\n"
    left = {f["code"] for f in result.details["remaining"]}
    assert left == {"F841"}  # `label` is still unused: the model did not touch it
