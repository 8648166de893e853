"""Retries that stopped paying: after the model spent its last retries of an agent
repeating itself, that agent's refusals end its runs without another turn."""

from __future__ import annotations

from typing import Any

import pytest
from loop_kit import OBJ, InProcessExecutor, config, definition, profile, runner_for

from remora.agents import SubagentDefinition
from remora.providers.scripted import ScriptedProvider, tool_turn
from remora.runner import AgentResult, RetryRecord, envelope_error

# The bundled docstring agent's shape: a summary that the tool may leave to fix.
WRITE: dict[str, Any] = {
    "name": "write_docstring",
    "description": "Write the docstring.",
    "finish_if_empty": "to_fix",
    "parameters": {
        "type": "object",
        "properties": {"summary": {"type": "string"}},
        "required": ["summary"],
        "additionalProperties": False,
    },
}
AGENT = SubagentDefinition.model_validate(
    {
        "name": "docstring",
        "max_turns": 3,
        "without_change": "skipped",
        "initial_context": {"system_prompt": "You write.", "node_context": "{{ node_name }}"},
        "tools": [
            {"name": "read_docstring", "description": "Read.", "parameters": OBJ},
            WRITE,
            {"name": "submit_result", "description": "Finish.", "parameters": OBJ},
        ],
        "host_steps": [{"tool": "read_docstring"}],
    }
)
BAD = {"summary": "The function f."}
GOOD = {"summary": "Add two numbers."}


def write(arguments: dict[str, Any]) -> dict[str, Any]:
    if arguments["summary"] == BAD["summary"]:
        return {"written": False, "to_fix": ["summary: say what it does"], "reason": "no summary"}
    return {"written": True, "to_fix": []}


def submit(arguments: dict[str, Any]) -> dict[str, Any]:
    return {"summary": "no docstring written on f"}


async def one_run(
    record: RetryRecord, *turns: dict[str, Any]
) -> tuple[AgentResult, ScriptedProvider]:
    provider = ScriptedProvider([tool_turn(("write_docstring", args)) for args in turns])
    executor = InProcessExecutor({"write_docstring": write, "submit_result": submit})
    result = await runner_for(AGENT, provider, executor, retries=record).run()
    return result, provider


async def test_after_the_limit_of_repeated_retries_a_refusal_ends_the_run() -> None:
    record = RetryRecord(limit=2)
    for _ in range(2):  # each retry repeats the refused call: the repeat guard ends it
        result, provider = await one_run(record, BAD, BAD, BAD)
        assert len(provider.requests) == 2
        assert "repeated" in result.details["host_finished"]
    assert record.spent("docstring") == 2
    result, provider = await one_run(record, BAD, BAD, BAD)
    # The third run is not asked to retry: one request, the same outcome.
    assert len(provider.requests) == 1 and result.turns == 1
    assert result.status == "skipped"
    assert result.summary == (
        "no docstring written on f (not asked to retry: the model only repeated its calls "
        "in its last 2 retries)"
    )
    not_retried = result.details["host_finished"]["not_retried"]
    assert not_retried["repeated_retries"] == 2
    assert not_retried["left"] == [
        {
            "tool": "write_docstring",
            "arguments": '{"summary": "The function f."}',
            "reason": "no summary",
        }
    ]


async def test_a_retry_that_changes_its_call_keeps_the_retries_coming() -> None:
    record = RetryRecord(limit=2)
    await one_run(record, BAD, BAD)
    assert record.spent("docstring") is None
    result, provider = await one_run(record, BAD, GOOD)  # fixed on retry: the streak resets
    assert len(provider.requests) == 2 and result.details.get("host_finished") is None
    await one_run(record, BAD, BAD)
    result, provider = await one_run(record, BAD, BAD)
    assert len(provider.requests) == 2  # 1 repeat in a row since the fix: still asked
    assert record.spent("docstring") == 2


async def test_the_record_is_kept_per_agent() -> None:
    record = RetryRecord(limit=1)
    await one_run(record, BAD, BAD)
    assert record.spent("docstring") == 1 and record.spent("lint") is None


async def test_limit_zero_always_retries() -> None:
    record = RetryRecord(limit=0)
    for _ in range(3):
        _, provider = await one_run(record, BAD, BAD)
        assert len(provider.requests) == 2
    assert record.spent("docstring") is None


async def test_a_run_without_a_record_always_retries() -> None:
    provider = ScriptedProvider([tool_turn(("write_docstring", BAD))] * 3)
    executor = InProcessExecutor({"write_docstring": write, "submit_result": submit})
    await runner_for(AGENT, provider, executor).run()
    assert len(provider.requests) == 2


async def test_a_refusal_with_an_argument_submit_is_skipped_when_nothing_was_written() -> None:
    # loop_kit's agent: submit_result needs a summary, so the host cannot submit for the model.
    record = RetryRecord(limit=1)
    record.note("lint", changed=False)
    provider = ScriptedProvider([tool_turn(("apply_fix", {"issue_code": "E1"}))] * 3)

    def refuse(arguments: dict[str, Any]) -> dict[str, Any]:
        return envelope_error("not_fixable", "E1 cannot be fixed here")

    executor = InProcessExecutor({"apply_fix": refuse})
    agent = definition(max_turns=5)
    result = await runner_for(agent, provider, executor, retries=record).run()
    assert len(provider.requests) == 1
    assert result.status == "skipped"
    assert result.summary == (
        "nothing written: E1 cannot be fixed here (not asked to retry: the model only "
        "repeated its calls in its last retry)"
    )


async def test_after_a_write_the_model_still_gets_its_turn_when_the_host_cannot_submit() -> None:
    record = RetryRecord(limit=1)
    record.note("lint", changed=False)
    provider = ScriptedProvider(
        [
            tool_turn(("apply_fix", {"issue_code": "E1"})),
            tool_turn(("submit_result", {"summary": "done"})),
        ]
    )

    def refuse(arguments: dict[str, Any]) -> dict[str, Any]:
        return envelope_error("not_fixable", "E1 cannot be fixed here")

    executor = InProcessExecutor({"apply_fix": refuse}, changed=["m.py"])
    result = await runner_for(definition(max_turns=5), provider, executor, retries=record).run()
    assert len(provider.requests) == 2 and result.summary == "done"


def test_config_default_and_bounds() -> None:
    assert config().policy.max_repeated_retries == 3
    with pytest.raises(ValueError, match="max_repeated_retries"):
        config(policy={"max_repeated_retries": -1})


async def test_a_call_past_the_turn_limit_is_no_refusal_to_fix() -> None:
    # "call it again next turn" is no fix: the spent record must not end the run there.
    record = RetryRecord(limit=1)
    record.note("lint", changed=False)
    provider = ScriptedProvider(
        [
            tool_turn(("run_linter", {}), ("read_file", {})),
            tool_turn(("read_file", {})),
            tool_turn(("submit_result", {"summary": "ok"})),
        ],
        profile=profile("mistral"),  # one call per turn
    )
    executor = InProcessExecutor()
    result = await runner_for(definition(), provider, executor, retries=record).run()
    assert len(provider.requests) == 3 and result.summary == "ok"
    assert [name for name, _ in executor.calls] == ["run_linter", "read_file", "submit_result"]
