"""The assistant's question loop on the shared runner, with scripted models.

Scripted cases: happy path, several calls in one turn,
unknown function, empty and malformed replies, step cap, timeouts, capability
exceptions; plus memory per question, AUTO mode and the system prompt.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from remora.assistant.capabilities import Capabilities
from remora.assistant.session import (
    SYSTEM_PROMPT,
    AssistantLimits,
    ask,
    assistant_definition,
    assistant_profile,
)
from remora.conversation import Message, ModelRequest, ModelTurn, Text, ToolResult
from remora.errors import InvalidModelOutputError
from remora.events import RecordingEmitter
from remora.profiles import BUILTIN_PROFILES
from remora.providers.base import ProviderError
from remora.providers.scripted import FunctionProvider, ScriptedProvider, call, text_turn, tool_turn

# These cases drive the agent loop itself: no plain-text answer step before it.
FAST = AssistantLimits(step_timeout_s=2.0, total_timeout_s=5.0, answer_first=False)


def session() -> Capabilities:
    ns: dict[str, Any] = {"__builtins__": __builtins__}
    exec("data = []\ncount = 3\nlabel = 'abc'\n", ns)
    return Capabilities(ns, last_exception=lambda: None)


def results_of(message: Message) -> list[ToolResult]:
    assert message.role == "tool"
    return message.results


async def test_happy_path_call_then_text() -> None:
    provider = ScriptedProvider(
        [
            tool_turn(call("get_type", {"expr": "count"}, id="t1")),
            text_turn("count is an int (3)."),
        ]
    )
    answer = await ask("what is count?", provider, session(), FAST)
    assert answer.text == "count is an int (3)."
    assert not answer.degraded and answer.stopped_by is None
    assert answer.steps == 2
    assert [c.name for c in answer.calls] == ["get_type"]
    second = provider.requests[1].messages
    # question -> model call -> function response -> final text
    assert [m.role for m in second] == ["system", "user", "assistant", "tool"]
    (result,) = results_of(second[-1])
    assert result.call_id == "t1" and result.name == "get_type"
    assert result.payload == {
        "ok": True,
        "result": {"name": "int", "module": "builtins", "qualified": "builtins.int"},
    }


async def test_direct_answer_without_calls() -> None:
    provider = ScriptedProvider([text_turn("Nothing to look up.")])
    answer = await ask("hello?", provider, session(), FAST)
    assert answer.text == "Nothing to look up." and answer.calls == () and answer.steps == 1


async def test_several_calls_run_in_order_and_answer_together() -> None:
    order: list[str] = []
    caps = session()

    def trace(tag: str) -> str:
        order.append(tag)
        return tag

    caps.namespace["trace"] = trace
    provider = ScriptedProvider(
        [
            tool_turn(
                call("eval_expr", {"expr": "trace('first')"}, id="a"),
                call("eval_expr", {"expr": "trace('second')"}, id="b"),
                call("get_repr", {"expr": "label"}, id="c"),
            ),
            text_turn("done"),
        ]
    )
    answer = await ask("run them", provider, caps, FAST)
    assert order == ["first", "second"]
    assert [c.arguments.get("expr") for c in answer.calls] == [
        "trace('first')",
        "trace('second')",
        "label",
    ]
    messages = provider.requests[1].messages
    # All three responses in ONE follow-up message, ids echoed in call order.
    assert sum(1 for m in messages if m.role == "tool") == 1
    results = results_of(messages[-1])
    assert [r.call_id for r in results] == ["a", "b", "c"]
    assert [
        r.payload["result"].get("value_repr", r.payload["result"].get("repr")) for r in results
    ] == ["'first'", "'second'", "'abc'"]


async def test_ids_pass_through_unchanged() -> None:
    odd_id = "functionCall/7::ζ"
    provider = ScriptedProvider([tool_turn(call("list_globals", {}, id=odd_id)), text_turn("ok")])
    await ask("globals?", provider, session(), FAST)
    (result,) = results_of(provider.requests[1].messages[-1])
    assert result.call_id == odd_id
    call_part = provider.requests[1].messages[-2].tool_calls[0]
    assert call_part.id == odd_id


async def test_unknown_function_is_reported_and_loop_converges() -> None:
    provider = ScriptedProvider(
        [
            tool_turn(call("read_memory", {"address": 1}, id="x")),
            tool_turn(call("get_repr", {"expr": "data"}, id="y")),
            text_turn("data is an empty list."),
        ]
    )
    answer = await ask("what is data?", provider, session(), FAST)
    assert answer.text == "data is an empty list." and not answer.degraded
    (result,) = results_of(provider.requests[1].messages[-1])
    assert result.payload["ok"] is False
    assert result.payload["error"]["code"] == "unknown_function"
    assert "get_repr" in str(result.payload["error"])  # says what exists


async def test_invalid_args_are_reported_and_loop_converges() -> None:
    provider = ScriptedProvider(
        [
            tool_turn(call("get_repr", {"name": "data"}, id="x")),
            tool_turn(call("get_repr", {"expr": "data"}, id="y")),
            text_turn("empty"),
        ]
    )
    answer = await ask("data?", provider, session(), FAST)
    assert not answer.degraded
    (result,) = results_of(provider.requests[1].messages[-1])
    assert result.payload["error"]["code"] == "invalid_args"


async def test_capability_exception_is_returned_and_loop_continues() -> None:
    provider = ScriptedProvider(
        [
            tool_turn(call("eval_expr", {"expr": "sum(data) / len(data)"}, id="z")),
            text_turn("Dividing by len(data) fails: data is empty."),
        ]
    )
    answer = await ask("mean of data?", provider, session(), FAST)
    assert not answer.degraded
    (result,) = results_of(provider.requests[1].messages[-1])
    err = result.payload["error"]
    assert err["code"] == "python_exception"
    assert err["message"] == "ZeroDivisionError: division by zero"
    assert set(err["details"]) >= {"exc_type", "message", "traceback"}


async def test_empty_reply_is_retried_once_then_answers() -> None:
    provider = ScriptedProvider([text_turn(""), text_turn("Recovered answer.")])
    answer = await ask("q", provider, session(), FAST)
    assert answer.text == "Recovered answer." and not answer.degraded
    correction = provider.requests[1].messages[-1]
    assert correction.role == "user" and "could not be used" in correction.text


async def test_empty_reply_twice_soft_fails() -> None:
    provider = ScriptedProvider(
        [tool_turn(call("get_type", {"expr": "label"})), text_turn(""), text_turn("   ")]
    )
    answer = await ask("q", provider, session(), FAST)
    assert answer.degraded and answer.stopped_by == "invalid_response"
    assert len(provider.requests) == 3  # one call turn, the bad reply, one retry
    assert answer.text.startswith("No complete answer: the model's replies could not be used")
    assert "What the calls confirmed:" in answer.text
    assert "get_type(expr='label')" in answer.text and "builtins.str" in answer.text


async def test_malformed_call_payload_retries_once_then_soft_fails() -> None:
    bad = text_turn("", finish="invalid", error="arguments of 'get_type' are not JSON")
    provider = ScriptedProvider([bad, bad])
    answer = await ask("q", provider, session(), FAST)
    assert answer.degraded and answer.stopped_by == "invalid_response"
    assert "arguments of 'get_type' are not JSON" in answer.text
    assert "No function call completed before the stop." in answer.text


async def test_provider_reported_malformed_output_is_recoverable() -> None:
    turns: Iterator[ProviderError | ModelTurn] = iter(
        [
            InvalidModelOutputError("tool call arguments are not JSON"),
            text_turn("fine now"),
        ]
    )

    def next_turn(request: ModelRequest) -> ModelTurn:
        item = next(turns)
        if isinstance(item, ProviderError):
            raise item
        return item

    answer = await ask("q", FunctionProvider(next_turn), session(), FAST)
    assert answer.text == "fine now" and not answer.degraded


async def test_blocked_candidate_counts_as_invalid() -> None:
    provider = ScriptedProvider(
        [text_turn("", finish="blocked", error="SAFETY"), text_turn("answer after retry")]
    )
    answer = await ask("q", provider, session(), FAST)
    assert answer.text == "answer after retry"


async def test_step_cap_soft_fails_with_findings() -> None:
    limits = AssistantLimits(
        max_steps=3, step_timeout_s=2.0, total_timeout_s=5.0, answer_first=False
    )
    provider = ScriptedProvider(
        [tool_turn(call("eval_expr", {"expr": f"count + {i}"})) for i in range(5)]
    )
    answer = await ask("q", provider, session(), limits)
    assert answer.degraded and answer.stopped_by == "step_limit"
    assert len(provider.requests) == 3
    assert answer.text.startswith("No complete answer: the step limit (3 model steps)")
    for i in range(3):
        assert f"eval_expr(expr='count + {i}')" in answer.text
    assert '"value_repr": "5"' in answer.text


async def test_degraded_answer_lists_failed_calls_once() -> None:
    limits = AssistantLimits(
        max_steps=3, step_timeout_s=2.0, total_timeout_s=5.0, answer_first=False
    )
    provider = ScriptedProvider([tool_turn(call("get_repr", {"expr": "NoneType"}))] * 3)
    answer = await ask("q", provider, session(), limits)
    assert answer.stopped_by == "step_limit"
    assert "No function call completed before the stop." in answer.text
    failed = "- get_repr(expr='NoneType') -> python_exception: NameError: name 'NoneType'"
    assert answer.text.count(failed) == 1
    assert answer.text.index("Calls that failed:") < answer.text.index(failed)


async def test_per_step_timeout_soft_fails() -> None:
    limits = AssistantLimits(step_timeout_s=0.2, total_timeout_s=5.0, answer_first=False)
    provider = ScriptedProvider(
        [
            tool_turn(call("get_repr", {"expr": "label"})),
            (text_turn("too late"), 3.0),
        ]
    )
    answer = await ask("q", provider, session(), limits)
    assert answer.degraded and answer.stopped_by == "step_timeout"
    assert "per-step timeout (0.2 s)" in answer.text
    assert "get_repr(expr='label')" in answer.text


async def test_total_timeout_soft_fails() -> None:
    # Each step is well inside its own limit; together they outrun the total.
    limits = AssistantLimits(step_timeout_s=1.0, total_timeout_s=1.0, answer_first=False)
    slow = [(tool_turn(call("eval_expr", {"expr": f"{i}"})), 0.3) for i in range(6)]
    provider = ScriptedProvider(slow)
    answer = await ask("q", provider, session(), limits)
    assert answer.degraded and answer.stopped_by == "total_timeout"
    assert "total time limit (1 s)" in answer.text
    assert "eval_expr(expr='0')" in answer.text


async def test_unreachable_model_is_a_degraded_answer_not_an_exception() -> None:
    provider = ScriptedProvider([])  # raises ModelUnavailableError on the first request
    answer = await ask("q", provider, session(), FAST)
    assert answer.degraded and answer.stopped_by == "model_error"
    assert "no turn left" in answer.text


async def test_memory_is_per_question() -> None:
    provider = ScriptedProvider(
        [tool_turn(call("get_type", {"expr": "count"})), text_turn("first"), text_turn("second")]
    )
    caps = session()
    await ask("first question", provider, caps, FAST)
    await ask("second question", provider, caps, FAST)
    third = provider.requests[2].messages
    assert [m.role for m in third] == ["system", "user"]
    # The second question's own facts, nothing of the first question's calls.
    assert third[1].text.startswith("second question\n\nFacts the functions returned")
    assert "get_type" not in third[1].text and "first" not in third[1].text


async def test_auto_mode_and_system_prompt_on_every_step() -> None:
    limits = AssistantLimits(
        max_steps=2, step_timeout_s=2.0, total_timeout_s=5.0, answer_first=False
    )
    provider = ScriptedProvider(
        [
            tool_turn(call("list_globals", {})),
            tool_turn(call("list_globals", {"include_private": True})),
        ]
    )
    await ask("q", provider, session(), limits)
    assert [r.tool_choice for r in provider.requests] == ["auto", "auto"]
    for request in provider.requests:
        assert request.messages[0].role == "system"
        assert request.messages[0].parts == (Text(SYSTEM_PROMPT),)
        assert [t.name for t in request.tools] == [
            "list_globals",
            "get_type",
            "get_repr",
            "get_dir",
            "get_doc",
            "eval_expr",
            "get_last_exception",
        ]
    assert "call functions instead of guessing" in SYSTEM_PROMPT


async def test_question_text_is_not_a_template() -> None:
    provider = ScriptedProvider([text_turn("ok")])
    await ask("what is {{ data }} and {% raw %}?", provider, session(), FAST)
    first = provider.requests[0].messages[1].text
    assert first.startswith("what is {{ data }} and {% raw %}?\n")
    assert "- data: type list, value [], 0 items (its len)" in first


async def test_events_are_emitted() -> None:
    emitter = RecordingEmitter()
    provider = ScriptedProvider([tool_turn(call("get_type", {"expr": "count"})), text_turn("int")])
    await ask("q", provider, session(), FAST, emitter=emitter)
    assert emitter.kinds() == [
        "run_start",
        "model_request",
        "model_response",
        "tool_call",
        "tool_result",
        "model_request",
        "model_response",
        "run_end",
    ]


async def test_on_call_sees_calls_in_order() -> None:
    seen: list[tuple[str, dict[str, Any]]] = []
    provider = ScriptedProvider(
        [
            tool_turn(call("get_type", {"expr": "count"}), call("get_doc", {"expr": "label"})),
            text_turn("ok"),
        ]
    )
    await ask("q", provider, session(), FAST, on_call=lambda n, a: seen.append((n, a)))
    # The host's calls for the facts first ("q" names no global: the list of them).
    assert seen == [
        ("list_globals", {}),
        ("get_last_exception", {}),
        ("get_type", {"expr": "count"}),
        ("get_doc", {"expr": "label"}),
    ]


def test_profiles_that_require_calls_allow_text_for_the_assistant() -> None:
    smollm = BUILTIN_PROFILES["smollm"]
    assert smollm.requires_tool_calls
    relaxed = assistant_profile(smollm)
    assert not relaxed.requires_tool_calls
    assert relaxed.max_tool_calls_per_turn == smollm.max_tool_calls_per_turn
    assert assistant_profile(BUILTIN_PROFILES["default"]) is BUILTIN_PROFILES["default"]


def test_definition_answers_in_text_with_the_seven_capabilities() -> None:
    definition = assistant_definition()
    assert definition.final_answer == "text" and definition.submit_tool is None
    assert len(definition.tools) == 7


async def test_profile_call_cap_still_answers_every_call() -> None:
    provider = ScriptedProvider(
        [
            tool_turn(
                call("get_type", {"expr": "count"}, id="1"),
                call("get_type", {"expr": "label"}, id="2"),
            ),
            text_turn("ok"),
        ],
        profile=BUILTIN_PROFILES["mistral"],
    )
    await ask("q", provider, session(), FAST)
    results = results_of(provider.requests[1].messages[-1])
    assert [r.call_id for r in results] == ["1", "2"]  # every call gets its response
    assert results[1].payload["ok"] is False


# ---------------------------------------------------------------- the answer step

ANSWER_FIRST = AssistantLimits(step_timeout_s=2.0, total_timeout_s=5.0)


def totals() -> Capabilities:
    ns: dict[str, Any] = {"__builtins__": __builtins__}
    exec("items = [3, 1, 2]\ntotal = sum(items)\n", ns)
    return Capabilities(ns, last_exception=lambda: None)


async def test_the_facts_answer_at_once_in_plain_text() -> None:
    provider = ScriptedProvider([text_turn("The value of total is 6.")])
    answer = await ask("What is the value of total?", provider, totals(), ANSWER_FIRST)
    assert answer.text == "The value of total is 6." and not answer.degraded
    assert answer.steps == 1 and answer.calls == ()
    (request,) = provider.requests
    assert request.tools == ()  # the answer step offers no functions
    assert [m.role for m in request.messages] == ["system", "user"]
    assert "- total: type int, value 6" in request.messages[1].text
    assert [(f.name, f.by) for f in answer.facts] == [
        ("get_type", "host"),
        ("get_repr", "host"),
        ("get_last_exception", "host"),
    ]
    assert answer.to_dict()["facts"][1]["envelope"]["result"]["repr"] == "6"


async def test_a_value_no_capability_returned_is_not_printed() -> None:
    # The answer step and then the loop both give the invented value.
    provider = ScriptedProvider(
        [text_turn("The value of total is 100."), text_turn("total is 100.")]
    )
    answer = await ask("What is the value of total?", provider, totals(), ANSWER_FIRST)
    assert answer.text == "I could not find that out."
    assert answer.degraded and answer.stopped_by == "unsupported_answer"
    assert answer.model_answer == "total is 100."
    assert answer.error is not None and "number 100" in answer.error
    assert answer.to_dict()["model_answer"] == "total is 100."
    # The loop got the facts in its first message, and the functions.
    loop_request = provider.requests[1]
    assert loop_request.tools and "- total: type int, value 6" in loop_request.messages[1].text


async def test_when_the_facts_do_not_answer_the_model_calls_and_answers() -> None:
    provider = ScriptedProvider(
        [
            text_turn("I could not find that out."),
            tool_turn(call("eval_expr", {"expr": "total * 7"})),
            text_turn("total * 7 is 42."),
        ]
    )
    answer = await ask("What is total times seven?", provider, totals(), ANSWER_FIRST)
    assert answer.text == "total * 7 is 42." and not answer.degraded
    assert answer.steps == 3 and [c.name for c in answer.calls] == ["eval_expr"]


async def test_after_the_loop_the_answer_step_reads_the_models_calls() -> None:
    limits = AssistantLimits(max_steps=3, step_timeout_s=2.0, total_timeout_s=5.0)
    provider = ScriptedProvider(
        [
            text_turn("I could not find that out."),
            tool_turn(call("eval_expr", {"expr": "max(items) - min(items)"})),
            text_turn("The spread of items is 2."),
        ]
    )
    answer = await ask("What is the spread of items?", provider, totals(), limits)
    assert answer.text == "The spread of items is 2." and answer.steps == 3
    final = provider.requests[-1]
    assert final.tools == ()
    assert "- eval_expr(expr='max(items) - min(items)') returned" in final.messages[1].text
    assert '"value_repr": "2"' in final.messages[1].text


async def test_an_answer_step_that_times_out_is_a_degraded_answer_with_the_facts() -> None:
    limits = AssistantLimits(step_timeout_s=0.2, total_timeout_s=5.0)
    provider = ScriptedProvider([(text_turn("too late"), 3.0)])
    answer = await ask("What is the value of total?", provider, totals(), limits)
    assert answer.degraded and answer.stopped_by == "step_timeout"
    assert "per-step timeout (0.2 s)" in answer.text
    assert "- total: type int, value 6" in answer.text
