"""The constant part of every bundled agent's prompt is byte-identical for every node,
so the engine's prompt cache serves it across runs, not only across turns of one run."""

from __future__ import annotations

from typing import Any

import pytest
from loop_kit import InProcessExecutor

from remora.agents import AgentRegistry, node_template_vars
from remora.config import ModelConfig, RemoraConfig
from remora.conversation import ModelRequest, ModelTurn
from remora.coordinator.binding import bind_options
from remora.discovery.node import CSTNode, make_node_id
from remora.profiles import resolve_profile
from remora.providers.embedded import EmbeddedProvider
from remora.providers.scripted import FunctionProvider, tool_turn
from remora.runner import AgentRunner


def function_node(name: str, text: str) -> CSTNode:
    return CSTNode(
        node_id=make_node_id("pkg/mod.py", name, "function"),
        node_type="function",
        name=name,
        full_name=name,
        file_path="pkg/mod.py",
        start_byte=0,
        end_byte=len(text),
        start_line=1,
        end_line=text.count("\n") + 1,
        text=text,
    )


NODES = (
    function_node("total", "def total(prices):\n    return sum(prices)\n"),
    function_node("greet", "def greet(name: str) -> str:\n    return 'hi ' + name\n"),
)


async def first_request(operation: str, node: CSTNode) -> ModelRequest:
    config = RemoraConfig()
    definition, _ = bind_options(
        AgentRegistry().get(operation), config.operations[operation].options
    )
    requests: list[ModelRequest] = []

    def answer(request: ModelRequest) -> ModelTurn:
        requests.append(request)
        return tool_turn(("submit_result", {}))

    # Host steps answer the same for both nodes: only the node may differ.
    executor = InProcessExecutor({t.name: _fixed for t in definition.tools})
    runner = AgentRunner(
        definition,
        FunctionProvider(answer, profile=resolve_profile(None, config.model.id)),
        config.runner,
        executor,
        template_vars=node_template_vars(node),
    )
    await runner.run()
    if not requests:
        pytest.skip(f"{operation} asked no model on this node (the host finished it)")
    return requests[0]


def _fixed(arguments: dict[str, Any]) -> dict[str, Any]:
    return {"issues": ["E1"], "failed": 1, "fixable_codes": ["E1"]}


@pytest.mark.parametrize("operation", ["lint", "docstring", "test", "sample_data"])
async def test_the_system_prompt_and_tool_declarations_are_the_same_for_every_node(
    operation: str,
) -> None:
    provider = EmbeddedProvider(ModelConfig(), resolve_profile(None, ModelConfig().id))
    systems = []
    for node in NODES:
        body, _ = provider.build_request(await first_request(operation, node))
        system = body["messages"][0]
        assert system["role"] == "system"
        assert node.name not in system["content"]
        systems.append(system["content"])
    assert systems[0] == systems[1]
