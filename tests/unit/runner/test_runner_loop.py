"""The loop's core semantics (docs/agents.md, "The agent loop")."""

from __future__ import annotations

from pathlib import Path

from loop_kit import (
    InProcessExecutor,
    config,
    definition,
    profile,
    run,
    runner_for,
    tool_payloads,
    user_texts,
)

from remora.agents import SubagentDefinition
from remora.conversation import Usage
from remora.events import RecordingEmitter
from remora.providers.scripted import ScriptedProvider, call, text_turn, tool_turn
from remora.runner import AgentResult

NO_POLICY = {
    "no_submit_before_tools": False,
    "repeat_guard": False,
    "final_turn_submit_only": False,
}


async def test_submit_on_first_turn_succeeds_after_one_turn() -> None:
    provider = ScriptedProvider([tool_turn(("submit_result", {"summary": "nothing to do"}))])
    result = await run(definition(), provider, cfg=config(policy=NO_POLICY))
    assert result.status == "success"
    assert result.turns == 1
    assert result.summary == "nothing to do"
    assert result.error is None and not result.degraded


async def test_three_tools_then_submit_takes_four_turns() -> None:
    provider = ScriptedProvider(
        [
            tool_turn(("run_linter", {})),
            tool_turn(("apply_fix", {"issue_code": "F401"})),
            tool_turn(("read_file", {})),
            tool_turn(("submit_result", {"summary": "fixed F401", "issues_fixed": 1})),
        ]
    )
    executor = InProcessExecutor()
    result = await run(definition(), provider, executor)
    assert result.status == "success"
    assert result.turns == 4
    assert [name for name, _ in executor.calls] == [
        "run_linter",
        "apply_fix",
        "read_file",
        "submit_result",
    ]
    assert result.details == {"issues_fixed": 1}
    assert result.usage.requests == 4


async def test_never_submitting_hits_turn_limit_with_agent_003() -> None:
    provider = ScriptedProvider(
        [
            tool_turn(("run_linter", {})),
            tool_turn(("apply_fix", {"issue_code": "E501"})),
            tool_turn(("read_file", {})),
        ]
    )
    executor = InProcessExecutor({"run_linter": lambda a: {"issues": ["E501 line too long"]}})
    result = await run(definition(max_turns=3), provider, executor, cfg=config(policy=NO_POLICY))
    assert result.status == "failed"
    assert result.error is not None and result.error.code == "AGENT_003"
    assert "turn limit (3)" in result.error.message
    assert result.turns == 3
    # Degraded, but useful: what the calls established.
    assert result.degraded
    assert "E501 line too long" in result.summary
    assert [f["tool"] for f in result.details["established"]] == [
        "run_linter",
        "apply_fix",
        "read_file",
    ]


async def test_agent_max_turns_is_capped_by_config() -> None:
    provider = ScriptedProvider([tool_turn(("run_linter", {}))] * 5)
    result = await run(definition(max_turns=5), provider, cfg=config(max_turns=2, policy=NO_POLICY))
    assert result.turns == 2 and result.error is not None
    assert result.error.code == "AGENT_003"


async def test_plain_text_stop_is_a_success_with_no_changed_files() -> None:
    provider = ScriptedProvider([text_turn("The code is already clean.")])
    result = await run(definition(), provider)
    assert result.status == "success"
    assert result.summary == "The code is already clean."
    assert result.changed_files == []
    assert result.turns == 1


async def test_text_json_matching_submit_schema_is_the_submission() -> None:
    provider = ScriptedProvider(
        [
            tool_turn(("run_linter", {})),
            text_turn('```json\n{"summary": "all clean", "issues_fixed": 0}\n```'),
        ]
    )
    executor = InProcessExecutor()
    result = await run(definition(), provider, executor)
    assert result.status == "success"
    assert result.summary == "all clean"
    assert result.details == {"issues_fixed": 0}
    # The submit script ran, as for a real submit_result call.
    assert executor.calls[-1] == ("submit_result", {"summary": "all clean", "issues_fixed": 0})


async def test_context_providers_run_before_the_tool_and_are_injected_in_order() -> None:
    defn = definition(
        tools=[
            {
                "name": "apply_fix",
                "description": "Fix.",
                "parameters": {
                    "type": "object",
                    "properties": {"issue_code": {"type": "string"}},
                    "required": ["issue_code"],
                },
                "context_providers": ["ctx/ruff_config.pym", "ctx/style.pym"],
            },
            {
                "name": "submit_result",
                "description": "Finish.",
                "parameters": {"type": "object", "properties": {"summary": {"type": "string"}}},
            },
        ]
    )
    executor = InProcessExecutor(
        contexts={
            "ruff_config.pym": lambda: "line-length = 100",
            "style.pym": lambda: "google style",
        }
    )
    provider = ScriptedProvider(
        [
            tool_turn(("apply_fix", {"issue_code": "F401"})),
            tool_turn(("submit_result", {"summary": "done"})),
        ]
    )
    runner = runner_for(defn, provider, executor)
    result = await runner.run()
    assert result.status == "success"
    assert executor.order[:3] == ["context:ruff_config.pym", "context:style.pym", "tool:apply_fix"]
    # Injected as user messages, after the tool results, in provider order.
    second_request = provider.requests[1].messages
    roles = [m.role for m in second_request]
    assert roles == ["system", "user", "assistant", "tool", "user", "user"]
    assert [m.text for m in second_request[-2:]] == [
        "[Context] line-length = 100",
        "[Context] google style",
    ]
    assert user_texts(runner)[1:] == ["[Context] line-length = 100", "[Context] google style"]


async def test_same_context_output_is_injected_once() -> None:
    defn = definition(
        tools=[
            {
                "name": "apply_fix",
                "description": "Fix.",
                "parameters": {"type": "object", "properties": {"issue_code": {"type": "string"}}},
                "context_providers": ["ctx/ruff_config.pym"],
            },
            {
                "name": "submit_result",
                "description": "Finish.",
                "parameters": {"type": "object", "properties": {"summary": {"type": "string"}}},
            },
        ]
    )
    outputs = iter(["line-length = 100", "line-length = 100", "line-length = 88"])
    executor = InProcessExecutor(contexts={"ruff_config.pym": lambda: next(outputs)})
    provider = ScriptedProvider(
        [
            tool_turn(("apply_fix", {"issue_code": "F401"})),
            tool_turn(("apply_fix", {"issue_code": "E501"})),
            tool_turn(("apply_fix", {"issue_code": "W291"})),
            tool_turn(("submit_result", {"summary": "done"})),
        ]
    )
    emitter = RecordingEmitter()
    runner = runner_for(defn, provider, executor, emitter=emitter)
    await runner.run()
    contexts = [t for t in user_texts(runner) if t.startswith("[Context]")]
    assert contexts == ["[Context] line-length = 100", "[Context] line-length = 88"]


async def test_unknown_tool_gets_an_error_result_and_the_loop_goes_on() -> None:
    provider = ScriptedProvider(
        [
            tool_turn(("format_code", {"style": "black"})),
            tool_turn(("run_linter", {})),
            tool_turn(("submit_result", {"summary": "done"})),
        ]
    )
    runner = runner_for(definition(), provider)
    result = await runner.run()
    assert result.status == "success" and result.turns == 3
    first = tool_payloads(runner)[0][0]
    assert first["ok"] is False
    assert first["error"]["code"] == "unknown_function"
    assert "submit_result" in first["error"]["details"]["available"]


async def test_multiple_calls_in_one_turn_run_in_order_and_answer_together() -> None:
    first, second, third = (
        call("read_file", {}, id="a"),
        call("apply_fix", {"issue_code": "F401"}, id="b"),
        call("run_linter", {}, id="c"),
    )
    provider = ScriptedProvider(
        [tool_turn(first, second, third), tool_turn(("submit_result", {"summary": "ok"}))]
    )
    executor = InProcessExecutor()
    runner = runner_for(definition(), provider, executor)
    await runner.run()
    assert [n for n, _ in executor.calls[:3]] == ["read_file", "apply_fix", "run_linter"]
    tool_messages = [m for m in provider.requests[1].messages if m.role == "tool"]
    assert len(tool_messages) == 1  # one message with all three results
    assert [r.call_id for r in tool_messages[0].results] == ["a", "b", "c"]
    assert [r.name for r in tool_messages[0].results] == ["read_file", "apply_fix", "run_linter"]


async def test_tool_failure_is_returned_to_the_model_and_the_loop_continues() -> None:
    provider = ScriptedProvider(
        [
            tool_turn(("run_linter", {})),
            tool_turn(("read_file", {})),
            tool_turn(("submit_result", {"summary": "read it"})),
        ]
    )
    executor = InProcessExecutor({"run_linter": lambda a: 1 // 0})
    runner = runner_for(definition(), provider, executor)
    result = await runner.run()
    assert result.status == "success"
    failed = tool_payloads(runner)[0][0]
    assert failed == {
        "ok": False,
        "error": {
            "code": "runtime_error",
            "message": "ZeroDivisionError: integer division or modulo by zero",
            "details": {},
        },
    }


async def test_submission_extras_go_to_details_and_changed_files_come_from_workspace() -> None:
    provider = ScriptedProvider(
        [
            tool_turn(("run_linter", {})),
            tool_turn(
                (
                    "submit_result",
                    {"summary": "fixed", "issues_fixed": 2, "changed_files": ["claimed.py"]},
                )
            ),
        ]
    )
    executor = InProcessExecutor(
        {"submit_result": lambda a: {"verified": True}},
        workspace_id="lint-abc",
        changed=["src/real.py"],
    )
    result = await run(definition(), provider, executor)
    assert result.workspace_id == "lint-abc"
    assert result.changed_files == ["src/real.py"]
    # Nothing dropped: the model's claim and the script's result are kept in details.
    assert result.details == {"issues_fixed": 2, "changed_files": ["claimed.py"], "verified": True}


async def test_submit_script_failure_is_a_tool_error_and_the_run_goes_on() -> None:
    attempts = iter(
        [
            {"ok": False, "error": {"code": "runtime_error", "message": "boom"}},
            {"ok": True, "result": None},
        ]
    )
    provider = ScriptedProvider(
        [
            tool_turn(("run_linter", {})),
            tool_turn(("submit_result", {"summary": "first"})),
            tool_turn(("submit_result", {"summary": "second"})),
        ]
    )
    executor = InProcessExecutor({"submit_result": lambda a: next(attempts)})
    result = await run(definition(), provider, executor)
    assert result.status == "success" and result.summary == "second"
    assert result.turns == 3


def status_agent(without_change: str) -> SubagentDefinition:
    return SubagentDefinition.model_validate(
        {
            "name": "x",
            "without_change": without_change,
            "initial_context": {"system_prompt": "s", "node_context": "c"},
            "tools": [
                {
                    "name": "submit_result",
                    "description": "d",
                    "parameters": {
                        "type": "object",
                        "properties": {"summary": {"type": "string"}, "status": {"type": "string"}},
                    },
                }
            ],
        }
    )


async def submitted(defn: SubagentDefinition, status: str) -> AgentResult:
    turn = tool_turn(("submit_result", {"summary": "not python", "status": status}))
    return await run(defn, ScriptedProvider([turn]))


async def test_a_reported_status_is_a_claim_and_the_agent_rule_decides_skipped() -> None:
    # A checking agent: a run without a change is a success, whatever the model says.
    checked = await submitted(status_agent("success"), "skipped")
    assert checked.status == "success" and checked.details == {"reported_status": "skipped"}
    odd = await submitted(status_agent("success"), "failed")
    assert odd.status == "success" and odd.details == {"reported_status": "failed"}
    # An agent whose work is a change: a run without one is skipped, even if the
    # model calls it a success; its summary says why.
    skipped = await submitted(status_agent("skipped"), "success")
    assert skipped.status == "skipped" and skipped.summary == "not python"


async def test_usage_is_summed_over_turns() -> None:
    provider = ScriptedProvider(
        [
            tool_turn(("run_linter", {}), usage=Usage(100, 10, 0)),
            tool_turn(("submit_result", {"summary": "ok"}), usage=Usage(150, 12, 90)),
        ]
    )
    result = await run(definition(), provider)
    assert result.usage == Usage(250, 22, 90, 2)


async def test_template_with_an_undefined_variable_fails_with_agent_001() -> None:
    defn = definition(node_context="{{ node_text }} in {{ nope }}")
    provider = ScriptedProvider([])
    runner = runner_for(defn, provider)
    runner.template_vars = {"node_text": "x"}
    result = await runner.run()
    assert result.status == "failed" and not result.degraded
    assert result.error is not None and result.error.code == "AGENT_001"
    assert "'nope' is undefined" in result.error.message
    assert provider.requests == []


async def test_text_answer_agent_ends_on_text() -> None:
    defn = definition(final_answer="text")
    provider = ScriptedProvider(
        [tool_turn(("read_file", {})), text_turn("x is an int")], profile=profile("smollm")
    )
    result = await run(defn, provider)
    # Even a profile that requires tools accepts text from a text-answer agent.
    assert result.status == "success" and result.summary == "x is an int"


async def test_result_to_dict_has_exactly_the_design_fields(tmp_path: Path) -> None:
    result = await run(definition(), ScriptedProvider([text_turn("fine")]))
    assert set(result.to_dict()) == {
        "status",
        "workspace_id",
        "changed_files",
        "summary",
        "details",
        "error",
        "turns",
        "usage",
        "duration_s",
        "degraded",
    }
