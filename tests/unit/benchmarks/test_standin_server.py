"""benchmarks/standin_server.py: valid tool calls from the request's schemas, over real HTTP,
and the requests in flight counted."""

from __future__ import annotations

import asyncio
import json
import sys
import time
from pathlib import Path
from typing import Any

import openai
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "benchmarks"))

from standin_server import MODEL_ID, StandIn, minimal_arguments, tool_call_for


def tool(name: str, properties: dict[str, Any], required: list[str]) -> dict[str, Any]:
    parameters = {"type": "object", "properties": properties, "required": required}
    return {"type": "function", "function": {"name": name, "parameters": parameters}}


READ = tool("read_docstring", {}, [])
WRITE = tool(
    "write_docstring",
    {"summary": {"type": "string", "maxLength": 5}, "style": {"enum": ["google", "numpy"]}},
    ["summary", "style"],
)
SUBMIT = tool("submit_result", {}, [])


def test_minimal_arguments_satisfy_the_schema() -> None:
    schema = {
        "type": "object",
        "properties": {
            "sets": {"type": "array", "minItems": 1, "items": {"type": "integer", "minimum": 2}},
            "flag": {"type": ["null", "boolean"]},
            "kind": {"const": "x"},
            "optional": {"type": "string"},
        },
        "required": ["sets", "flag", "kind"],
    }
    assert minimal_arguments(schema) == {"sets": [2], "flag": False, "kind": "x"}


def test_the_first_turn_calls_the_writing_tool_then_submit() -> None:
    first = {"messages": [{"role": "user", "content": "x"}], "tools": [READ, WRITE, SUBMIT]}
    assert tool_call_for(first) == ("write_docstring", {"summary": "Stand", "style": "google"})
    later = {**first, "messages": [*first["messages"], {"role": "tool", "content": "{}"}]}
    assert tool_call_for(later) == ("submit_result", {})
    forced = {**first, "tool_choice": {"type": "function", "function": {"name": "read_docstring"}}}
    assert tool_call_for(forced) == ("read_docstring", {})
    assert tool_call_for({"messages": []}) is None


async def test_answers_the_openai_client_and_counts_requests_in_flight() -> None:
    with StandIn(latency_ms=200) as server:
        client = openai.AsyncOpenAI(base_url=server.base_url, api_key="none", max_retries=0)
        models = await client.models.list()
        assert [m.id for m in models.data] == [MODEL_ID]
        started, sent_at = time.monotonic(), time.time()
        answers = await asyncio.gather(
            *(
                client.chat.completions.create(
                    model=MODEL_ID,
                    messages=[{"role": "user", "content": "x"}],
                    tools=[READ, WRITE, SUBMIT],  # type: ignore[list-item]
                )
                for _ in range(4)
            )
        )
        elapsed = time.monotonic() - started
        await client.close()
    calls = [a.choices[0].message.tool_calls[0] for a in answers]  # type: ignore[index]
    assert {c.function.name for c in calls} == {"write_docstring"}  # type: ignore[union-attr]
    assert json.loads(calls[0].function.arguments)["style"] == "google"  # type: ignore[union-attr]
    assert elapsed >= 0.2  # each answer waits its latency; together: in_flight_max below
    summary = server.in_flight.summary()
    assert summary["requests"] == 4 and summary["in_flight_max"] == 4
    assert summary["in_flight_mean"] == pytest.approx(4, abs=1.0)
    # Second by second, from the first request's second: never more than the four sent.
    by_second = summary["in_flight_by_second"]
    assert by_second and by_second[0] > 0 and max(by_second) <= 4
    # On the events' clock (time.time), to set beside a run's start: within the gather.
    assert sent_at <= summary["first_request_at"] <= sent_at + elapsed
    server.in_flight.reset()  # an unchanged second run sends none
    assert server.in_flight.summary()["in_flight_by_second"] == []
    assert server.in_flight.summary()["first_request_at"] is None
