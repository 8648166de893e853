"""Shared by the coordinator tests: a small project, a note-writing agent, a model double.

Everything is real (discovery, Monty sandbox, sqlite workspaces and results)
except the model, which is a FunctionProvider: a real Provider whose turns are
computed from the request.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from remora.config import ModelConfig, RemoraConfig
from remora.conversation import ModelRequest, ModelTurn
from remora.discovery import discover
from remora.discovery.node import CSTNode
from remora.providers.base import Provider
from remora.providers.scripted import FunctionProvider, tool_turn

__all__ = [
    "ConcurrencyGate",
    "make_config",
    "make_project",
    "node_name_of",
    "nodes_of",
    "note_model",
    "provider_factory",
]

SOURCE = {
    "pkg/alpha.py": "def one():\n    return 1\n\n\ndef two():\n    return 2\n",
    "pkg/beta.py": "class Box:\n    def open(self):\n        return True\n\n\n"
    "def three():\n    return 3\n",
}

NOTE_AGENT = """\
name: note
description: Writes a note file about a node.
node_types: [function, method]
max_turns: 3
without_change: skipped
initial_context:
  system_prompt: You write notes about code.
  node_context: "Note on {{ node_type }} {{ full_name }}"
tools:
  - name: write_note
    pym: tools/write_note.pym
    description: Write the note.
    parameters:
      type: object
      properties:
        text: {type: string}
        style: {type: string}
      required: [text]
      additionalProperties: false
  - name: submit_result
    pym: tools/submit.pym
    description: Finish.
    parameters:
      type: object
      properties:
        summary: {type: string}
      required: [summary]
      additionalProperties: false
"""

WRITE_NOTE = """\
from typing import Any

from remora.pym import Input, external

text: str = Input("text")
style: str = Input("style", default="plain")


@external
async def get_node_metadata() -> dict[str, Any]: ...


@external
async def write_file(path: str, content: str) -> bool: ...


meta = await get_node_metadata()
path = "notes/" + str(meta["full_name"]) + ".txt"
await write_file(path, style + ": " + text + "\\n")
{"written": path}
"""

SUBMIT = """\
from remora.pym import Input

summary: str = Input("summary")

{"summary": summary}
"""


def make_project(tmp_path: Path, *, broken_agent: bool = False) -> Path:
    root = tmp_path / "project"
    for rel, text in SOURCE.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    (root / "pyproject.toml").write_text('[project]\nname = "demo"\nversion = "0.1"\n')
    agents = root / "agents"
    (agents / "note" / "tools").mkdir(parents=True)
    (agents / "note" / "agent.yaml").write_text(NOTE_AGENT)
    (agents / "note" / "tools" / "write_note.pym").write_text(WRITE_NOTE)
    (agents / "note" / "tools" / "submit.pym").write_text(SUBMIT)
    if broken_agent:
        (agents / "broken").mkdir()
        (agents / "broken" / "agent.yaml").write_text(
            "name: broken\ndescription: x\ninitial_context:\n  system_prompt: s\n"
            "  node_context: n\ntools:\n  - name: submit_result\n"
            "    pym: tools/missing.pym\n    description: Finish.\n"
        )
    return root


def make_config(root: Path, **sections: Any) -> RemoraConfig:
    data: dict[str, Any] = {
        "agents_dir": str(root / "agents"),
        "model": {"provider": "scripted", "id": "note-model"},
        "operations": {"note": {"options": {"style": "fancy"}}},
    }
    for key, value in sections.items():
        data[key] = {**data.get(key, {}), **value} if isinstance(value, dict) else value
    return RemoraConfig.model_validate(data)


def nodes_of(root: Path) -> list[CSTNode]:
    return discover([root / "pkg"], project_root=root).nodes


def node_name_of(request: ModelRequest) -> str:
    """The node's full name, from the rendered node context."""
    for message in request.messages:
        found = re.search(r"Note on \w+ (\S+)", message.text)
        if found:
            return found.group(1)
    raise AssertionError("no node context in the request")


def _step(request: ModelRequest) -> int:
    return sum(1 for m in request.messages if m.role == "assistant" and m.tool_calls)


def note_model(
    before: Callable[[ModelRequest], Any] | None = None,
) -> Callable[[ModelRequest], Any]:
    """A model that writes a note and submits; ``before`` may raise or wait first."""

    async def turn(request: ModelRequest) -> ModelTurn:
        if before is not None:
            waited = before(request)
            if asyncio.iscoroutine(waited):
                await waited
        name = node_name_of(request)
        if _step(request) == 0:
            return tool_turn(("write_note", {"text": f"about {name}"}))
        return tool_turn(("submit_result", {"summary": f"noted {name}"}))

    return turn


def provider_factory(
    fn: Callable[[ModelRequest], Any], created: list[Provider] | None = None
) -> Callable[[ModelConfig, str | None], Provider]:
    def factory(model: ModelConfig, profile: str | None) -> Provider:
        provider = FunctionProvider(fn, model_name=model.id)
        if created is not None:
            created.append(provider)
        return provider

    return factory


class ConcurrencyGate:
    """Holds each model call until ``width`` calls are in flight (or all are)."""

    def __init__(self, width: int) -> None:
        self.width = width
        self.in_flight = 0
        self.peak = 0
        self._opened = asyncio.Event()

    async def __call__(self, request: ModelRequest) -> None:
        self.in_flight += 1
        self.peak = max(self.peak, self.in_flight)
        if self.in_flight >= self.width:
            self._opened.set()
        try:
            # Bounded: a coordinator that runs fewer at once fails the test, never hangs it.
            await asyncio.wait_for(self._opened.wait(), timeout=5)
        except TimeoutError:
            self._opened.set()
        finally:
            self.in_flight -= 1
