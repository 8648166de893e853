"""The bundled docstring agent end to end with a scripted model: what a run leaves.

Everything but the model is real (the YAML, the ``.pym`` tools, Monty,
``remora_code`` on a sqlite workspace). A run whose summaries are all refused
stops after the one retry and leaves nothing to review; a class gets the
parameters its constructor takes; a class not asked for is left alone, and its result says
so rather than that its drafts were refused.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import pytest
from bundled_agents_support import run_scripted_on_file, write_project

from remora.providers.scripted import ScriptedProvider, tool_turn
from remora.runner import AgentResult
from remora.sandbox import SandboxRuntime

pytestmark = pytest.mark.integration

SOURCE = """\
from dataclasses import dataclass, field


@dataclass
class Order:
    customer: str
    lines: list[str] = field(default_factory=list)
    total: float = field(init=False, default=0.0)

    def add(self, sku: str, *, count: int = 1) -> int:
        self.lines.append(sku)
        return count
"""


async def drive(
    runtime: SandboxRuntime, root: Path, qualname: str, turns: list[Any]
) -> tuple[AgentResult, ScriptedProvider, str]:
    # Classes are documented only on request (left_alone.py), and the model's sections
    # written only with `details`: these runs ask for both. Nothing is drafted: the words
    # are the model's (with drafts, a node whose drafts fail gives it no turn).
    options = {"style": "google", "classes": True, "details": True, "draft": False}
    result, provider, written = await run_scripted_on_file(
        runtime, root, "docstring", qualname, turns, options
    )
    return result, provider, written.decode()


async def test_refused_twice_the_run_ends_and_changes_nothing(
    tmp_path: Path, runtime: SandboxRuntime
) -> None:
    root = write_project(tmp_path, {"m.py": SOURCE})
    # What SmolLM2 wrote on toolz.unique: talk about "the function", past one sentence.
    said = "The function add returns a list of unique items. The function add returns"
    result, provider, text = await drive(
        runtime,
        root,
        "Order.add",
        [
            tool_turn(("write_docstring", {"summary": said, "params": {"sku": "The sku."}})),
            tool_turn(("write_docstring", {"summary": "12.000.000", "returns": "return"})),
            # Never reached: after the retry only submit_result is left, and the host calls it.
            tool_turn(("write_docstring", {"summary": "Add a line to the order."})),
        ],
    )
    assert len(provider.requests) == 2
    assert result.status == "skipped", result.to_dict()
    assert result.summary.startswith("no docstring written on Order.add")
    assert result.changed_files == [] and text == SOURCE


async def test_a_dataclass_documents_what_its_constructor_takes(
    tmp_path: Path, runtime: SandboxRuntime
) -> None:
    root = write_project(tmp_path, {"m.py": SOURCE})
    pieces = {
        "summary": "An order of one customer and its lines.",
        "params": {
            "total": "Sum of the lines.",
            "customer": "Who placed it.",
            "lines": "What was ordered, one entry a line.",
        },
    }
    result, provider, text = await drive(
        runtime,
        root,
        "Order",
        # Never reached: the docstring is written, and the host finishes the run.
        [tool_turn(("write_docstring", pieces)), tool_turn(("submit_result", {}))],
    )
    assert result.status == "success", result.to_dict()
    assert len(provider.requests) == 1
    # total is field(init=False): no caller passes it, so the section cannot name it
    # (the refused description is left out). Issue 57: every entry says something; a
    # bare "customer (str):" or "Defaults to ``list()``." was noise.
    order = ast.parse(text).body[1]
    assert isinstance(order, ast.ClassDef)
    assert ast.get_docstring(order) == (
        "An order of one customer and its lines.\n\n"
        "Args:\n"
        "    customer (str): Who placed it.\n"
        "    lines (list[str]): What was ordered, one entry a line."
    )


async def test_a_node_left_alone_says_so_and_why_not_that_drafts_were_refused(
    tmp_path: Path, runtime: SandboxRuntime
) -> None:
    root = write_project(tmp_path, {"m.py": SOURCE})
    result, provider, text = await run_scripted_on_file(
        runtime, root, "docstring", "Order", [], {"style": "google"}
    )
    assert provider.requests == [] and text.decode() == SOURCE
    assert result.status == "skipped", result.to_dict()
    assert result.summary == (
        "docstring of Order left alone: "
        "what a class is for is its author's to say (option classes: true)"
    ), result.summary
