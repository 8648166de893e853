"""The small-model turn policy (docs/agents.md) and per-call guards of the dispatcher."""

from __future__ import annotations

from typing import Any

from loop_kit import (
    InProcessExecutor,
    config,
    definition,
    profile,
    run,
    runner_for,
    tool_payloads,
)

from remora.agents import SubagentDefinition
from remora.conversation import ToolCall
from remora.events import RecordingEmitter
from remora.providers.scripted import ScriptedProvider, text_turn, tool_turn

ALL_TOOLS = ["run_linter", "apply_fix", "read_file", "submit_result"]


def _tools(provider: ScriptedProvider, index: int) -> list[str]:
    return [t.name for t in provider.requests[index].tools]


# ------------------------------------------------------------ no submit before tools


async def test_first_turn_does_not_offer_submit_result() -> None:
    provider = ScriptedProvider(
        [tool_turn(("run_linter", {})), tool_turn(("submit_result", {"summary": "ok"}))]
    )
    await run(definition(), provider)
    assert _tools(provider, 0) == ["run_linter", "apply_fix", "read_file"]
    assert _tools(provider, 1) == ALL_TOOLS


async def test_early_submit_is_refused_until_another_tool_ran() -> None:
    provider = ScriptedProvider(
        [
            tool_turn(("submit_result", {"summary": "nothing to do"})),
            tool_turn(("run_linter", {})),
            tool_turn(("submit_result", {"summary": "clean"})),
        ]
    )
    executor = InProcessExecutor()
    runner = runner_for(definition(), provider, executor)
    result = await runner.run()
    assert result.status == "success" and result.summary == "clean"
    refused = tool_payloads(runner)[0][0]
    assert refused["ok"] is False and refused["error"]["code"] == "submit_too_early"
    assert "run_linter" in refused["error"]["message"]
    assert [name for name, _ in executor.calls] == ["run_linter", "submit_result"]


async def test_a_failed_tool_counts_as_having_run() -> None:
    provider = ScriptedProvider(
        [tool_turn(("run_linter", {})), tool_turn(("submit_result", {"summary": "linter broken"}))]
    )
    executor = InProcessExecutor({"run_linter": lambda a: 1 // 0})
    result = await run(definition(), provider, executor)
    assert result.status == "success" and result.summary == "linter broken"


async def test_agent_with_only_submit_may_submit_at_once() -> None:
    defn = SubagentDefinition.model_validate(
        {
            "name": "x",
            "initial_context": {"system_prompt": "s", "node_context": "c"},
            "tools": [
                {
                    "name": "submit_result",
                    "description": "d",
                    "parameters": {"type": "object", "properties": {"summary": {"type": "string"}}},
                }
            ],
        }
    )
    provider = ScriptedProvider([tool_turn(("submit_result", {}))])
    result = await run(defn, provider)
    assert result.status == "success" and result.turns == 1
    assert _tools(provider, 0) == ["submit_result"]


async def test_early_submit_rule_can_be_switched_off() -> None:
    provider = ScriptedProvider([tool_turn(("submit_result", {"summary": "ok"}))])
    result = await run(definition(), provider, cfg=config(policy={"no_submit_before_tools": False}))
    assert result.status == "success"
    assert _tools(provider, 0) == ALL_TOOLS


# ------------------------------------------------------------ repeated identical calls


async def test_repeated_identical_call_gets_already_done_without_running() -> None:
    provider = ScriptedProvider(
        [
            tool_turn(("apply_fix", {"issue_code": "F401"})),
            tool_turn(("apply_fix", {"issue_code": "F401"})),
            tool_turn(("submit_result", {"summary": "ok"})),
        ]
    )
    executor = InProcessExecutor()
    runner = runner_for(definition(), provider, executor)
    await runner.run()
    assert [c for c in executor.calls if c[0] == "apply_fix"] == [
        ("apply_fix", {"issue_code": "F401"})
    ]
    repeat = tool_payloads(runner)[1][0]
    assert repeat["ok"] is True and repeat["result"]["already_done"] is True
    assert "turn 1" in repeat["result"]["message"]


async def test_same_call_runs_again_after_another_call_succeeded() -> None:
    provider = ScriptedProvider(
        [
            tool_turn(("run_linter", {})),
            tool_turn(("apply_fix", {"issue_code": "F401"})),
            tool_turn(("run_linter", {})),
            tool_turn(("submit_result", {"summary": "ok"})),
        ]
    )
    executor = InProcessExecutor()
    await run(definition(), provider, executor)
    assert [name for name, _ in executor.calls].count("run_linter") == 2


async def test_different_arguments_are_not_a_repeat() -> None:
    provider = ScriptedProvider(
        [
            tool_turn(("apply_fix", {"issue_code": "F401"}), ("apply_fix", {"issue_code": "E501"})),
            tool_turn(("submit_result", {"summary": "ok"})),
        ]
    )
    executor = InProcessExecutor()
    await run(definition(), provider, executor)
    assert [a for n, a in executor.calls if n == "apply_fix"] == [
        {"issue_code": "F401"},
        {"issue_code": "E501"},
    ]


async def test_a_failed_call_may_be_retried() -> None:
    provider = ScriptedProvider(
        [
            tool_turn(("run_linter", {})),
            tool_turn(("run_linter", {})),
            tool_turn(("submit_result", {"summary": "ok"})),
        ]
    )
    executor = InProcessExecutor({"run_linter": lambda a: 1 // 0})  # fails every time
    await run(definition(), provider, executor)
    assert [name for name, _ in executor.calls].count("run_linter") == 2


async def test_repeat_guard_can_be_switched_off() -> None:
    provider = ScriptedProvider(
        [tool_turn(("run_linter", {}))] * 2 + [tool_turn(("submit_result", {"summary": "ok"}))]
    )
    executor = InProcessExecutor()
    await run(definition(), provider, executor, cfg=config(policy={"repeat_guard": False}))
    assert [name for name, _ in executor.calls].count("run_linter") == 2


# ------------------------------------------------------------ the final turn


async def test_final_turn_forces_submit_by_tool_choice() -> None:
    provider = ScriptedProvider(
        [tool_turn(("run_linter", {})), tool_turn(("submit_result", {"summary": "ok"}))]
    )
    await run(definition(max_turns=2), provider)
    last = provider.requests[-1]
    assert last.tool_choice == "submit_result"
    assert [t.name for t in last.tools] == ALL_TOOLS  # unchanged prompt for the cache
    assert provider.requests[0].tool_choice == "auto"


async def test_final_turn_by_prompt_instruction_offers_only_submit() -> None:
    provider = ScriptedProvider(
        [
            tool_turn(("run_linter", {})),
            tool_turn(("read_file", {})),
            tool_turn(("submit_result", {"summary": "ok"})),
        ],
        profile=profile("functiongemma"),
    )
    result = await run(definition(max_turns=3), provider)
    assert result.status == "success"
    last = provider.requests[-1]
    assert [t.name for t in last.tools] == ["submit_result"]
    assert last.tool_choice == "auto"
    assert "last turn" in last.messages[-1].text and last.messages[-1].role == "user"
    assert all("last turn" not in m.text for m in provider.requests[1].messages)


async def test_final_turn_rule_can_be_switched_off() -> None:
    provider = ScriptedProvider([tool_turn(("run_linter", {})), text_turn("done")])
    await run(
        definition(max_turns=2), provider, cfg=config(policy={"final_turn_submit_only": False})
    )
    assert provider.requests[-1].tool_choice == "auto"
    assert _tools(provider, -1) == ALL_TOOLS


async def test_final_turn_of_a_text_agent_asks_for_text() -> None:
    provider = ScriptedProvider([tool_turn(("read_file", {})), text_turn("answer")])
    await run(definition(max_turns=2, final_answer="text"), provider)
    assert provider.requests[-1].tool_choice == "none"
    no_none = profile("default", supported_tool_choice=frozenset({"auto"}))
    provider = ScriptedProvider(
        [tool_turn(("read_file", {})), text_turn("answer")], profile=no_none
    )
    await run(definition(max_turns=2, final_answer="text"), provider)
    assert provider.requests[-1].tool_choice == "auto"
    assert "answer now in plain text" in provider.requests[-1].messages[-1].text


# ------------------------------------------------------------ tool_choice per profile


async def test_tool_choice_required_passes_through_when_supported() -> None:
    provider = ScriptedProvider([text_turn("done")], profile=profile("llama3"))
    await run(definition(), provider, cfg=config(tool_choice="required"))
    assert provider.requests[0].tool_choice == "required"


async def test_tool_choice_required_falls_back_to_auto_for_functiongemma() -> None:
    provider = ScriptedProvider([text_turn("done")], profile=profile("functiongemma"))
    await run(definition(), provider, cfg=config(tool_choice="required"))
    assert provider.requests[0].tool_choice == "auto"


# ------------------------------------------------------------ calls per turn


async def test_profile_without_parallel_calls_runs_one_call_per_turn() -> None:
    provider = ScriptedProvider(
        [
            tool_turn(("run_linter", {}), ("read_file", {})),
            tool_turn(("read_file", {})),
            tool_turn(("submit_result", {"summary": "ok"})),
        ],
        profile=profile("mistral"),
    )
    executor = InProcessExecutor()
    runner = runner_for(definition(), provider, executor)
    await runner.run()
    assert [name for name, _ in executor.calls] == ["run_linter", "read_file", "submit_result"]
    skipped = tool_payloads(runner)[0][1]
    assert skipped["error"]["code"] == "too_many_calls"


async def test_max_tool_calls_per_turn_from_the_profile() -> None:
    capped = profile("default", max_tool_calls_per_turn=2)
    provider = ScriptedProvider(
        [
            tool_turn(("run_linter", {}), ("read_file", {}), ("apply_fix", {"issue_code": "F"})),
            tool_turn(("submit_result", {"summary": "ok"})),
        ],
        profile=capped,
    )
    executor = InProcessExecutor()
    runner = runner_for(definition(), provider, executor)
    await runner.run()
    assert [p["ok"] for p in tool_payloads(runner)[0]] == [True, True, False]


async def test_calls_after_submit_in_the_same_turn_are_not_run() -> None:
    provider = ScriptedProvider(
        [
            tool_turn(("run_linter", {})),
            tool_turn(("submit_result", {"summary": "ok"}), ("apply_fix", {"issue_code": "F401"})),
        ]
    )
    executor = InProcessExecutor()
    result = await run(definition(), provider, executor)
    assert result.status == "success"
    assert [name for name, _ in executor.calls] == ["run_linter", "submit_result"]


# ------------------------------------------------------------ arguments and contexts


async def test_invalid_arguments_get_invalid_args_and_the_loop_goes_on() -> None:
    provider = ScriptedProvider(
        [
            tool_turn(("apply_fix", {"code": "F401"})),
            tool_turn(("apply_fix", {"issue_code": 401})),
            tool_turn(("apply_fix", {"issue_code": "F401"})),
            tool_turn(("submit_result", {"summary": "ok"})),
        ]
    )
    executor = InProcessExecutor()
    runner = runner_for(definition(), provider, executor)
    result = await runner.run()
    assert result.status == "success"
    first, second = tool_payloads(runner)[0][0], tool_payloads(runner)[1][0]
    assert first["error"]["code"] == "invalid_args"
    messages = [e["message"] for e in first["error"]["details"]["errors"]]
    assert any("'issue_code' is a required property" in m for m in messages)
    assert any("'code' was unexpected" in m for m in messages)
    assert second["error"]["details"]["errors"][0]["path"] == "/issue_code"
    assert [a for n, a in executor.calls if n == "apply_fix"] == [{"issue_code": "F401"}]


async def test_submit_result_with_invalid_arguments_does_not_end_the_run() -> None:
    provider = ScriptedProvider(
        [
            tool_turn(("run_linter", {})),
            tool_turn(("submit_result", {"issues_fixed": "two"})),
            tool_turn(("submit_result", {"summary": "fixed", "issues_fixed": 2})),
        ]
    )
    executor = InProcessExecutor()
    runner = runner_for(definition(), provider, executor)
    result = await runner.run()
    assert result.status == "success" and result.turns == 3
    refused = tool_payloads(runner)[1][0]
    assert refused["error"]["code"] == "invalid_args"
    assert [name for name, _ in executor.calls].count("submit_result") == 1


async def test_non_object_arguments_are_invalid_args() -> None:
    broken = ToolCall("c1", "run_linter", ["x"])  # type: ignore[arg-type]
    provider = ScriptedProvider(
        [tool_turn(broken), tool_turn(("submit_result", {"summary": "ok"}))]
    )
    runner = runner_for(definition(), provider)
    await runner.run()
    payload = tool_payloads(runner)[0][0]
    assert payload["error"]["code"] == "invalid_args"
    assert "must be an object" in payload["error"]["message"]


async def test_failing_context_provider_fails_the_call_not_the_run() -> None:
    defn = definition(
        tools=[
            {
                "name": "apply_fix",
                "description": "Fix.",
                "parameters": {"type": "object", "properties": {"issue_code": {"type": "string"}}},
                "context_providers": ["ctx/broken.pym"],
            },
            {"name": "read_file", "description": "Read.", "parameters": {"type": "object"}},
            {
                "name": "submit_result",
                "description": "Finish.",
                "parameters": {"type": "object", "properties": {"summary": {"type": "string"}}},
            },
        ]
    )

    def broken() -> str:
        raise LookupError("no pyproject.toml")

    executor = InProcessExecutor(contexts={"broken.pym": broken})
    provider = ScriptedProvider(
        [
            tool_turn(("apply_fix", {"issue_code": "F401"})),
            tool_turn(("read_file", {})),
            tool_turn(("submit_result", {"summary": "partial"})),
        ]
    )
    runner = runner_for(defn, provider, executor)
    result = await runner.run()
    assert result.status == "success"
    failed = tool_payloads(runner)[0][0]
    assert failed["error"]["code"] == "context_failed"
    assert "no pyproject.toml" in failed["error"]["message"]
    assert "tool:apply_fix" not in executor.order  # the tool did not run without its context


# ------------------------------------------------------------ events


async def test_every_step_emits_an_event() -> None:
    defn = definition(
        tools=[
            {
                "name": "apply_fix",
                "description": "Fix.",
                "parameters": {"type": "object", "properties": {"issue_code": {"type": "string"}}},
                "context_providers": ["ctx/cfg.pym"],
            },
            {
                "name": "submit_result",
                "description": "Finish.",
                "parameters": {"type": "object", "properties": {"summary": {"type": "string"}}},
            },
        ]
    )
    from remora.conversation import Usage

    provider = ScriptedProvider(
        [
            tool_turn(("apply_fix", {"issue_code": "F401"}), usage=Usage(120, 8, 0)),
            tool_turn(("submit_result", {"summary": "ok"}), usage=Usage(160, 9, 110)),
        ]
    )
    emitter = RecordingEmitter()
    executor = InProcessExecutor(contexts={"cfg.pym": lambda: "ruff settings"})
    await run(defn, provider, executor, emitter=emitter)
    assert emitter.kinds() == [
        "run_start",
        "model_request",
        "model_response",
        "tool_call",
        "tool_result",
        "context_injected",
        "model_request",
        "model_response",
        "tool_call",
        "tool_result",
        "run_end",
    ]
    assert {e.run_id for e in emitter.events} == {"run-1"}
    by_kind: dict[str, list[dict[str, Any]]] = {}
    for event in emitter.events:
        by_kind.setdefault(event.kind, []).append(event.data)
    response = by_kind["model_response"][1]
    assert response["cached_tokens"] == 110 and response["prompt_tokens"] == 160
    assert response["duration_s"] >= 0 and response["tool_calls"] == ["submit_result"]
    assert by_kind["tool_call"][0]["arguments"] == {"issue_code": "F401"}
    assert by_kind["tool_result"][0]["ok"] is True
    assert by_kind["context_injected"][0]["chars"] == len("ruff settings")
    end = by_kind["run_end"][0]
    assert end["status"] == "success" and end["turns"] == 2
    assert end["usage"]["cached_tokens"] == 110
    assert by_kind["run_start"][0]["tools"] == ["apply_fix", "submit_result"]
