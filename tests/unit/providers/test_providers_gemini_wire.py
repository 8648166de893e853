"""Gemini's wire traffic against recorded REST responses.

A local replay server answers generateContent with fixtures from
``tests/fixtures/gemini`` and records what google-genai sent, so these tests pin
the request bodies: functionDeclarations, the functionCallingConfig mode, every
functionCall part in order, all functionResponse parts in one user content with
ids echoed, and thought signatures sent back byte for byte.
"""

from __future__ import annotations

import base64
from collections.abc import Iterator
from typing import Any

import pytest
from providers_http_doubles import GeminiReplay, load_fixture

from remora.config import ModelConfig
from remora.conversation import Message, ModelRequest, ToolResult, ToolSpec
from remora.providers.factory import create_provider
from remora.providers.gemini import GeminiProvider

MODEL = "gemini-2.5-flash"
KEY = "test-key-not-real"

TOOLS = (
    ToolSpec(
        "get_type",
        "Type of a global.",
        {
            "type": "object",
            "properties": {"name": {"type": "string", "description": "Global name"}},
            "required": ["name"],
            "additionalProperties": False,
        },
    ),
    ToolSpec(
        "get_last_exception",
        "The last exception, if any.",
        {"type": "object", "properties": {}, "additionalProperties": False},
    ),
)
SYSTEM = "You answer questions about a live Python session."
QUESTION = "Why did my last call fail?"


@pytest.fixture
def replay() -> Iterator[GeminiReplay]:
    server = GeminiReplay().start()
    try:
        yield server
    finally:
        server.close()


@pytest.fixture
def provider(replay: GeminiReplay, monkeypatch: pytest.MonkeyPatch) -> Iterator[GeminiProvider]:
    monkeypatch.setenv("GEMINI_API_KEY", KEY)
    config = ModelConfig(provider="gemini", id=MODEL, base_url=f"{replay.url}/v1beta")
    made = create_provider(config)
    assert isinstance(made, GeminiProvider)
    yield made


def _request(*messages: Message, tool_choice: str = "auto") -> ModelRequest:
    base = (Message.system(SYSTEM), Message.user(QUESTION))
    return ModelRequest(base + messages, TOOLS, tool_choice, max_tokens=300, temperature=0.0)


def _b64(text: str) -> bytes:
    # google-genai sends bytes as URL-safe base64; the API accepts both alphabets.
    return base64.urlsafe_b64decode(text.replace("+", "-").replace("/", "_"))


async def test_first_turn_request_and_both_calls_in_order(
    replay: GeminiReplay, provider: GeminiProvider
) -> None:
    replay.enqueue("two_calls_with_ids.json")
    turn = await provider.complete(_request())

    sent = replay.requests[0]
    assert sent.method == "POST"
    assert sent.path == f"/v1beta/models/{MODEL}:generateContent"
    assert sent.headers["x-goog-api-key"] == KEY
    body: dict[str, Any] = sent.body
    assert body["systemInstruction"]["parts"] == [{"text": SYSTEM}]
    assert body["contents"] == [{"role": "user", "parts": [{"text": QUESTION}]}]
    declarations = body["tools"][0]["functionDeclarations"]
    assert len(body["tools"]) == 1
    assert [d["name"] for d in declarations] == ["get_type", "get_last_exception"]
    assert declarations[0]["description"] == "Type of a global."
    # The JSON schema travels as is, strictness included.
    assert declarations[0]["parameters_json_schema"] == TOOLS[0].parameters
    assert body["toolConfig"] == {"functionCallingConfig": {"mode": "AUTO"}}
    assert body["generationConfig"] == {"temperature": 0.0, "maxOutputTokens": 300}

    assert turn.finish == "tool_calls"
    calls = turn.message.tool_calls
    assert [(c.id, c.name, c.arguments) for c in calls] == [
        ("fc_7b1d2a9e", "get_type", {"name": "df"}),
        ("fc_c40e55f3", "get_last_exception", {}),
    ]
    recorded = load_fixture("two_calls_with_ids.json")
    signature = recorded["candidates"][0]["content"]["parts"][0]["thoughtSignature"]
    assert calls[0].provider_data is not None
    assert calls[0].provider_data["gemini"]["thought_signature"] == signature
    assert calls[1].provider_data == {"gemini": {"id": "fc_c40e55f3"}}
    assert turn.usage.prompt_tokens == 211
    assert turn.usage.completion_tokens == 34 + 82  # answer + thinking tokens
    assert turn.usage.cached_tokens == 128


async def test_follow_up_echoes_model_turn_and_sends_all_results_in_one_content(
    replay: GeminiReplay, provider: GeminiProvider
) -> None:
    replay.enqueue("two_calls_with_ids.json")
    replay.enqueue("final_text.json")
    first = await provider.complete(_request())
    results = (
        ToolResult(
            first.message.tool_calls[0].id,
            "get_type",
            {
                "ok": True,
                "result": {
                    "name": "DataFrame",
                    "module": "pandas.core.frame",
                    "qualified": "pandas.core.frame.DataFrame",
                },
            },
        ),
        ToolResult(
            first.message.tool_calls[1].id,
            "get_last_exception",
            {"ok": True, "result": {"exception": None}},
        ),
    )
    final = await provider.complete(_request(first.message, Message.tool_results(results)))

    contents = replay.requests[1].body["contents"]
    assert len(contents) == 3  # question, the model's turn, ONE content of results
    recorded = load_fixture("two_calls_with_ids.json")["candidates"][0]["content"]
    model_turn = contents[1]
    assert model_turn["role"] == "model"
    assert [p["functionCall"] for p in model_turn["parts"]] == [
        p["functionCall"] for p in recorded["parts"]
    ]
    sent_signature = model_turn["parts"][0]["thoughtSignature"]
    assert _b64(sent_signature) == base64.b64decode(recorded["parts"][0]["thoughtSignature"])
    assert "thoughtSignature" not in model_turn["parts"][1]

    answer = contents[2]
    assert answer["role"] == "user"
    assert answer["parts"] == [
        {
            "functionResponse": {
                "id": "fc_7b1d2a9e",
                "name": "get_type",
                "response": results[0].payload,
            }
        },
        {
            "functionResponse": {
                "id": "fc_c40e55f3",
                "name": "get_last_exception",
                "response": results[1].payload,
            }
        },
    ]
    assert final.finish == "stop"
    assert final.message.text.startswith("`df` is a pandas DataFrame")
    assert final.message.tool_calls == []


async def test_calls_without_ids_get_stable_local_ids_that_never_reach_the_wire(
    replay: GeminiReplay, provider: GeminiProvider
) -> None:
    replay.enqueue("calls_without_ids.json")
    replay.enqueue("final_text.json")
    first = await provider.complete(_request())
    assert [c.id for c in first.message.tool_calls] == ["gemini-0-0", "gemini-0-1"]
    assert first.message.text == "Let me look at both."
    # Text and calls keep the candidate's order.
    assert [type(p).__name__ for p in first.message.parts] == ["Text", "ToolCall", "ToolCall"]

    results = tuple(
        ToolResult(c.id, c.name, {"ok": True, "result": {}}) for c in first.message.tool_calls
    )
    await provider.complete(_request(first.message, Message.tool_results(results)))
    model_turn, answer = replay.requests[1].body["contents"][1:]
    assert model_turn["parts"][0] == {"text": "Let me look at both."}
    assert model_turn["parts"][1]["functionCall"] == {
        "name": "get_repr",
        "args": {"name": "config", "max_len": 200},
    }
    assert [p["functionResponse"] for p in answer["parts"]] == [
        {"name": "get_repr", "response": {"ok": True, "result": {}}},
        {"name": "get_doc", "response": {"ok": True, "result": {}}},
    ]


async def test_second_model_turn_synthesises_different_ids(
    replay: GeminiReplay, provider: GeminiProvider
) -> None:
    replay.enqueue("calls_without_ids.json")
    earlier = Message.assistant("thinking")
    turn = await provider.complete(_request(earlier, Message.user("go on")))
    assert [c.id for c in turn.message.tool_calls] == ["gemini-1-0", "gemini-1-1"]


@pytest.mark.parametrize(
    ("choice", "expected"),
    [
        ("required", {"mode": "ANY"}),
        ("none", {"mode": "NONE"}),
        ("get_type", {"mode": "ANY", "allowedFunctionNames": ["get_type"]}),
    ],
)
async def test_tool_choice_maps_to_function_calling_mode(
    replay: GeminiReplay, provider: GeminiProvider, choice: str, expected: dict[str, Any]
) -> None:
    replay.enqueue("final_text.json")
    await provider.complete(_request(tool_choice=choice))
    assert replay.requests[0].body["toolConfig"] == {"functionCallingConfig": expected}


async def test_no_tools_sends_no_tool_config(
    replay: GeminiReplay, provider: GeminiProvider
) -> None:
    replay.enqueue("final_text.json")
    await provider.complete(ModelRequest((Message.user("hi"),), stop=("END",)))
    body = replay.requests[0].body
    assert "tools" not in body and "toolConfig" not in body and "systemInstruction" not in body
    assert body["generationConfig"]["stopSequences"] == ["END"]


async def test_blocked_first_candidate_is_skipped(
    replay: GeminiReplay, provider: GeminiProvider
) -> None:
    replay.enqueue("first_candidate_blocked.json")
    turn = await provider.complete(_request())
    assert turn.finish == "tool_calls"
    assert [c.id for c in turn.message.tool_calls] == ["fc_91aa04c2"]


@pytest.mark.parametrize(
    ("fixture", "finish", "mentions"),
    [
        ("malformed_function_call.json", "invalid", "MALFORMED_FUNCTION_CALL"),
        ("all_candidates_blocked.json", "blocked", "RECITATION"),
        ("prompt_blocked.json", "blocked", "prompt blocked: SAFETY"),
        ("empty_text.json", "invalid", "no text and no function call"),
        ("max_tokens_while_thinking.json", "invalid", "raise runner.max_tokens"),
    ],
)
async def test_unusable_responses_become_blocked_or_invalid_turns(
    replay: GeminiReplay, provider: GeminiProvider, fixture: str, finish: str, mentions: str
) -> None:
    replay.enqueue(fixture)
    turn = await provider.complete(_request())
    assert turn.finish == finish
    assert turn.error is not None and mentions in turn.error
    assert turn.message.parts == ()
    assert turn.usage.requests == 1


async def test_max_tokens_is_length(replay: GeminiReplay, provider: GeminiProvider) -> None:
    replay.enqueue("max_tokens.json")
    turn = await provider.complete(_request())
    assert turn.finish == "length"
    assert turn.message.text.endswith("and")
