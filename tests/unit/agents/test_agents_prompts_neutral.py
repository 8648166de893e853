"""What every bundled agent puts before the model (its system prompt and its tools'
names, descriptions and schemas) holds nothing of the example project Remora is
measured on: no function, class or parameter name and no literal of its source."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path
from typing import Any

import pytest

from remora.agents.definition import InitialContext, SubagentDefinition
from remora.agents.registry import BUNDLED_AGENTS_DIR, AgentRegistry
from remora.providers.schema_calls import render_tools_prompt

EXAMPLE = Path(__file__).resolve().parents[3] / "examples" / "sample_project"
# Everyday words that are also names or strings in the example and that the prompts
# need in their own sense ("the tool's name", "write tests", "a finding left").
EVERYDAY_WORDS = frozenset({"add", "data", "label", "left", "lines", "name", "write"})
# 0 and 1 say nothing about the example; bounds in the schemas (maxLength) are
# structure, not shown as values, and are not among the texts checked for numbers.
TRIVIAL_NUMBERS = frozenset({0.0, 1.0})


def _example_vocabulary() -> tuple[set[str], set[float], set[str]]:
    """(function/class/parameter names, numbers, strings) of the example's source."""
    names: set[str] = set()
    numbers: set[float] = set()
    strings: set[str] = set()
    for path in sorted(EXAMPLE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                names.add(node.name)
            elif isinstance(node, ast.arg):
                names.add(node.arg)
            elif isinstance(node, ast.Constant) and not isinstance(node.value, bool):
                if isinstance(node.value, int | float):
                    numbers.add(float(node.value))
                elif isinstance(node.value, str) and len(node.value.strip()) >= 3:
                    strings.add(node.value.strip())
    names -= {"self", "cls"} | EVERYDAY_WORDS
    return names, numbers - TRIVIAL_NUMBERS, strings - EVERYDAY_WORDS


def _descriptions(schema: Any) -> list[str]:
    """Every text in a JSON schema the model reads as words (descriptions, enums, defaults)."""
    found: list[str] = []
    if isinstance(schema, dict):
        for key, value in schema.items():
            if key in ("description", "title", "default", "const") and isinstance(value, str):
                found.append(value)
            elif key in ("enum", "examples") and isinstance(value, list):
                found.extend(str(v) for v in value)
            else:
                found.extend(_descriptions(value))
    elif isinstance(schema, list):
        for item in schema:
            found.extend(_descriptions(item))
    return found


def _model_facing_text(definition: SubagentDefinition) -> tuple[str, str]:
    """(everything the model is shown, the prose parts of it) for one agent."""
    # The system prompt as rendered; the node context is the node's own code and is
    # left out on purpose.
    system, _ = InitialContext(
        system_prompt=definition.initial_context.system_prompt, node_context="-"
    ).render({})
    specs = definition.tool_specs
    schemas = json.dumps([spec.parameters for spec in specs])
    prose = [system, *(spec.description for spec in specs)]
    prose += [text for spec in specs for text in _descriptions(spec.parameters)]
    everything = "\n".join([system, render_tools_prompt(specs), schemas])
    return everything, "\n".join(prose)


BUNDLED = AgentRegistry(None, bundled_dir=BUNDLED_AGENTS_DIR)


def test_the_example_vocabulary_is_collected() -> None:
    names, numbers, strings = _example_vocabulary()
    # What the test looks for: the example's own names and values.
    assert {"apply_discount", "price", "percent", "sku", "StockItem"} <= names
    assert {25.0, 200.0, 9.99} <= numbers
    assert "unknown SKU" in strings


@pytest.mark.parametrize("agent", BUNDLED.names())
def test_the_prompts_hold_nothing_of_the_example_project(agent: str) -> None:
    names, numbers, strings = _example_vocabulary()
    everything, prose = _model_facing_text(BUNDLED.get(agent))
    words = set(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", everything))
    assert not names & words, f"{agent}: names of the example in its prompts"
    # A number in prose: 25 in "percent=25." and 150.0 in "e.g. 150.0 or".
    shown = {float(n) for n in re.findall(r"(?<![\w.])\d+(?:\.\d+)?(?!\w|\.\d)", prose)}
    assert not numbers & shown, f"{agent}: numbers of the example in its prompts"
    quoted = [s for s in strings if re.search(rf"(?<!\w){re.escape(s)}(?!\w)", everything)]
    assert not quoted, f"{agent}: strings of the example in its prompts"


def test_the_check_finds_a_worked_example(monkeypatch: pytest.MonkeyPatch) -> None:
    """An agent whose argument description shows a call from the example is caught."""
    definition = BUNDLED.get("test")
    leaky = definition.model_copy(
        update={
            "initial_context": definition.initial_context.model_copy(
                update={"system_prompt": "Write cases such as price=200.0, percent=25."}
            )
        }
    )
    names, numbers, _ = _example_vocabulary()
    everything, prose = _model_facing_text(leaky)
    assert {"price", "percent"} <= names & set(re.findall(r"\w+", everything))
    assert {200.0, 25.0} <= numbers & {
        float(n) for n in re.findall(r"(?<![\w.])\d+(?:\.\d+)?(?!\w|\.\d)", prose)
    }
