"""A turn made only of repeats: the host ends the run instead of asking again.

The agents here have the shape of the bundled docstring and lint agents (a host
step, a writing tool that may refuse, submit_result without arguments);
tests/unit/bundled/ runs the bundled ones themselves.
"""

from __future__ import annotations

from typing import Any

import pytest
from loop_kit import OBJ, InProcessExecutor, config, definition, run, runner_for, tool_payloads

from remora.agents import SubagentDefinition
from remora.errors import WorkspaceNotFoundError
from remora.providers.scripted import ScriptedProvider, tool_turn
from remora.runner import RepeatGuard, envelope_error

SUBMIT_NO_ARGS: dict[str, Any] = {
    "name": "submit_result",
    "description": "Finish.",
    "parameters": {"type": "object", "properties": {}},
}


def agent(
    writer: dict[str, Any],
    step: str,
    max_turns: int,
    reader: str | None = None,
    without_change: str = "success",
) -> SubagentDefinition:
    tools = [{"name": reader or step, "description": "Read.", "parameters": OBJ}]
    return SubagentDefinition.model_validate(
        {
            "name": "docstring",
            "max_turns": max_turns,
            "without_change": without_change,
            "initial_context": {"system_prompt": "You write.", "node_context": "{{ node_name }}"},
            "tools": [*tools, writer, SUBMIT_NO_ARGS],
            "host_steps": [{"tool": step}],
        }
    )


WRITE_DOCSTRING: dict[str, Any] = {
    "name": "write_docstring",
    "description": "Write the docstring.",
    "parameters": {
        "type": "object",
        "properties": {"summary": {"type": "string", "maxLength": 20}},
        "required": ["summary"],
        "additionalProperties": False,
    },
}
EDIT_NODE: dict[str, Any] = {
    "name": "edit_node",
    "description": "Fix one finding.",
    "finish_if_empty": "remaining",
    "parameters": {
        "type": "object",
        "properties": {"issue_code": {"type": "string"}, "replacement": {"type": "string"}},
        "required": ["issue_code", "replacement"],
    },
}


def docstring_agent(max_turns: int = 3) -> SubagentDefinition:
    return agent(WRITE_DOCSTRING, "read_docstring", max_turns, without_change="skipped")


def lint_agent() -> SubagentDefinition:
    return agent(EDIT_NODE, "fix_safe", 5)


class Docstrings:
    """write_docstring refuses summaries that repeat the name; submit reports the file."""

    def __init__(self) -> None:
        self.written: str | None = None
        # What the workspace reports changed: the file once a docstring is written.
        self.changed: list[str] = []

    def write(self, arguments: dict[str, Any]) -> dict[str, Any]:
        if arguments["summary"].startswith("f"):
            return {"written": False, "reason": "the summary only repeats the name", "refused": []}
        self.written = arguments["summary"]
        self.changed[:] = ["f.py"]
        return {"written": True, "refused": []}

    def submit(self, arguments: dict[str, Any]) -> dict[str, Any]:
        if self.written is None:
            return {"summary": "no docstring written on f"}
        return {"summary": f"docstring of f: {self.written}"}

    def executor(self) -> InProcessExecutor:
        handlers = {"write_docstring": self.write, "submit_result": self.submit}
        return InProcessExecutor(handlers, changed=self.changed)


def names(executor: InProcessExecutor) -> list[str]:
    return [name for name, _ in executor.calls]


# ------------------------------------------------------------------- docstring


@pytest.mark.parametrize("max_turns", [3, 5])
async def test_repeated_refused_write_ends_skipped_with_the_reason(max_turns: int) -> None:
    same = tool_turn(("write_docstring", {"summary": "f does f"}))
    provider = ScriptedProvider([same, same, same, same, same])
    docstrings = Docstrings()
    executor = docstrings.executor()
    runner = runner_for(docstring_agent(max_turns), provider, executor)
    result = await runner.run()
    # Turn 2 repeated turn 1 word for word: no third request, whatever the limit.
    assert len(provider.requests) == 2 and result.turns == 2
    assert tool_payloads(runner)[1][0]["result"]["already_done"] is True
    assert names(executor) == ["read_docstring", "write_docstring", "submit_result"]
    assert result.status == "skipped" and not result.degraded
    assert result.summary == (
        "no docstring written on f (the model repeated a refused write_docstring call)"
    )
    [repeated] = result.details["host_finished"]["repeated"]
    assert repeated["tool"] == "write_docstring"
    assert repeated["reason"] == "the summary only repeats the name"


async def test_repeated_invalid_arguments_end_the_run_after_the_second_refusal() -> None:
    too_long = tool_turn(("write_docstring", {"summary": "x" * 30}))
    provider = ScriptedProvider([too_long, too_long, too_long, too_long])
    executor = Docstrings().executor()
    runner = runner_for(docstring_agent(5), provider, executor)
    result = await runner.run()
    assert len(provider.requests) == 2
    codes = [payloads[0]["error"]["code"] for payloads in tool_payloads(runner)]
    assert codes == ["invalid_args", "invalid_args"]
    assert names(executor) == ["read_docstring", "submit_result"]
    assert result.status == "skipped"
    assert result.summary.endswith("(the model repeated a refused write_docstring call)")
    assert "is too long" in result.details["host_finished"]["repeated"][0]["reason"]


async def test_retry_with_changed_arguments_gets_its_turn() -> None:
    provider = ScriptedProvider(
        [
            tool_turn(("write_docstring", {"summary": "f does f"})),
            tool_turn(("write_docstring", {"summary": "Adds two numbers."})),
            tool_turn(("submit_result", {})),
        ]
    )
    docstrings = Docstrings()
    executor = docstrings.executor()
    result = await run(docstring_agent(5), provider, executor)
    assert len(provider.requests) == 3
    assert [args for name, args in executor.calls if name == "write_docstring"] == [
        {"summary": "f does f"},
        {"summary": "Adds two numbers."},
    ]
    assert result.status == "success" and result.summary == "docstring of f: Adds two numbers."
    assert "host_finished" not in result.details


async def test_repeating_an_accepted_write_is_submitted_by_the_host() -> None:
    good = tool_turn(("write_docstring", {"summary": "Adds two numbers."}))
    provider = ScriptedProvider([good, good, good, good])
    docstrings = Docstrings()
    executor = docstrings.executor()
    result = await run(docstring_agent(5), provider, executor)
    assert len(provider.requests) == 2
    assert result.status == "success" and result.summary == "docstring of f: Adds two numbers."


# ------------------------------------------------------------------------ lint


async def test_lint_model_repeating_an_accepted_edit_gets_the_host_submit() -> None:
    edit = tool_turn(("edit_node", {"issue_code": "F841", "replacement": "pass"}))
    provider = ScriptedProvider([edit, edit, edit, edit])
    left = [{"code": "E501", "line": 3}]
    executor = InProcessExecutor(
        {
            "fix_safe": lambda a: {"remaining": left},
            "edit_node": lambda a: {"written": True, "remaining": left},
            "submit_result": lambda a: {"summary": "1 ruff finding(s) left on f: E501"},
        }
    )
    result = await run(lint_agent(), provider, executor)
    # Was four requests (turns 1-4, the host's submit in turn 5's slot).
    assert len(provider.requests) == 2 and provider.remaining == 2
    assert names(executor) == ["fix_safe", "edit_node", "submit_result"]
    assert result.status == "success" and result.turns == 2
    assert result.summary == "1 ruff finding(s) left on f: E501"


async def test_lint_model_repeating_a_host_step_read_is_finished_too() -> None:
    provider = ScriptedProvider([tool_turn(("read_lint", {}))] * 4)
    defn = agent(EDIT_NODE, "read_lint", 5)
    executor = InProcessExecutor({"read_lint": lambda a: {"remaining": [{"code": "E501"}]}})
    result = await run(defn, provider, executor)
    assert len(provider.requests) == 1
    assert names(executor) == ["read_lint", "submit_result"]
    assert result.status == "success"


# --------------------------------------------- refusals and what is no repeat


def refusing_fix(arguments: dict[str, Any]) -> dict[str, Any]:
    return envelope_error("not_fixable", f"{arguments['issue_code']} cannot be fixed here")


async def test_repeated_refusal_with_an_argument_submit_is_skipped_if_nothing_written() -> None:
    # loop_kit's submit_result requires a summary: the host cannot submit for the model.
    fix = tool_turn(("apply_fix", {"issue_code": "E1"}))
    provider = ScriptedProvider([fix, fix, fix, fix, fix])
    executor = InProcessExecutor({"apply_fix": refusing_fix})
    result = await run(definition(max_turns=5), provider, executor)
    assert len(provider.requests) == 2
    assert names(executor) == ["apply_fix", "apply_fix"]
    assert result.status == "skipped"
    assert result.summary == (
        "nothing written: the model repeated a refused call (E1 cannot be fixed here)"
    )


async def test_repeated_refusal_after_a_write_goes_on_when_the_host_cannot_submit() -> None:
    fix = tool_turn(("apply_fix", {"issue_code": "E1"}))
    provider = ScriptedProvider([fix, fix, tool_turn(("submit_result", {"summary": "done"}))])
    executor = InProcessExecutor({"apply_fix": refusing_fix}, changed=["m.py"])
    result = await run(definition(max_turns=5), provider, executor)
    assert len(provider.requests) == 3 and result.summary == "done"


class UnreadableWorkspace(InProcessExecutor):
    """A workspace whose changed files cannot be read (its overlay is gone)."""

    async def changed_files(self) -> list[str]:
        raise WorkspaceNotFoundError("workspace ws-1: its overlay database is gone")


async def test_repeated_refusal_in_an_unreadable_workspace_fails_the_run_naming_it() -> None:
    # Was a next turn for the model: the workspace failure went unreported.
    fix = tool_turn(("apply_fix", {"issue_code": "E1"}))
    provider = ScriptedProvider([fix, fix, fix, fix, fix])
    executor = UnreadableWorkspace({"apply_fix": refusing_fix}, workspace_id="ws-1")
    result = await run(definition(max_turns=5), provider, executor)
    assert len(provider.requests) == 2
    assert result.status == "failed" and not result.degraded
    assert result.error is not None and result.error.code == "WORKSPACE_003"
    assert result.error.message.startswith("lint: the workspace's changed files could not be read")
    assert "after the model repeated a refused call" in result.error.message
    assert result.error.message.endswith("workspace ws-1: its overlay database is gone")
    assert result.summary == result.error.message
    finished = result.details["host_finished"]
    assert finished["error"]["code"] == "WORKSPACE_003"
    assert finished["repeated"][0]["reason"] == "E1 cannot be fixed here"


async def test_same_reason_for_a_different_call_is_no_repeat() -> None:
    provider = ScriptedProvider(
        [
            tool_turn(("apply_fix", {"issue_code": "E1"})),
            tool_turn(("apply_fix", {"issue_code": "E2"})),
            tool_turn(("submit_result", {"summary": "gave up"})),
        ]
    )
    executor = InProcessExecutor({"apply_fix": lambda a: envelope_error("no", "cannot")})
    result = await run(definition(max_turns=5), provider, executor)
    assert len(provider.requests) == 3 and result.summary == "gave up"


async def test_refused_call_repeated_after_another_success_is_no_repeat() -> None:
    fix = tool_turn(("apply_fix", {"issue_code": "E1"}))
    provider = ScriptedProvider(
        [fix, tool_turn(("read_file", {})), fix, tool_turn(("submit_result", {"summary": "s"}))]
    )
    executor = InProcessExecutor({"apply_fix": refusing_fix})
    result = await run(definition(max_turns=5), provider, executor)
    assert len(provider.requests) == 4 and result.summary == "s"


async def test_failure_with_a_new_reason_is_no_repeat() -> None:
    reasons = iter(["first reason", "second reason"])
    fix = tool_turn(("apply_fix", {"issue_code": "E1"}))
    provider = ScriptedProvider([fix, fix, tool_turn(("submit_result", {"summary": "s"}))])
    executor = InProcessExecutor({"apply_fix": lambda a: envelope_error("x", next(reasons))})
    result = await run(definition(max_turns=5), provider, executor)
    assert len(provider.requests) == 3 and result.summary == "s"


async def test_a_turn_with_a_new_call_beside_a_repeat_is_no_repeat() -> None:
    fix = ("apply_fix", {"issue_code": "E1"})
    provider = ScriptedProvider(
        [
            tool_turn(fix),
            tool_turn(fix, ("apply_fix", {"issue_code": "E2"})),
            tool_turn(("submit_result", {"summary": "s"})),
        ]
    )
    executor = InProcessExecutor({"apply_fix": refusing_fix})
    result = await run(definition(max_turns=5), provider, executor)
    assert len(provider.requests) == 3 and result.summary == "s"


async def test_without_the_repeat_guard_the_model_keeps_its_turns() -> None:
    fix = tool_turn(("apply_fix", {"issue_code": "E1"}))
    provider = ScriptedProvider([fix, fix, tool_turn(("submit_result", {"summary": "s"}))])
    executor = InProcessExecutor({"apply_fix": refusing_fix})
    cfg = config(policy={"repeat_guard": False})
    result = await run(definition(max_turns=5), provider, executor, cfg=cfg)
    assert len(provider.requests) == 3 and result.summary == "s"


def test_guard_knows_a_refusal_again_only_with_no_success_between() -> None:
    guard = RepeatGuard()
    assert guard.record_refusal("a", "why") is False
    assert guard.record_refusal("a", "why") is True
    assert guard.record_refusal("a", "other") is False
    guard.record_success("b", 1)
    assert guard.record_refusal("a", "other") is False
    assert guard.record_refusal("a", "other") is True
