"""The assistant over the real Gemini provider and google-genai, against a local
HTTP server that answers like the Gemini REST API (no network here).

Checks the wire contract: functionDeclarations, mode AUTO, the
system instruction, candidate selection past an unusable first candidate, the
model content echoed unchanged, and all functionResponse parts in one message
with the call ids echoed.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from remora.assistant.capabilities import Capabilities
from remora.assistant.session import SYSTEM_PROMPT, AssistantLimits, ask
from remora.config import ModelConfig
from remora.providers.factory import create_provider

MODEL = "gemini-2.5-flash"


class GeminiDouble:
    """Answers generateContent from a queue and records each request body."""

    def __init__(self) -> None:
        self.replies: list[dict[str, Any]] = []
        self.bodies: list[dict[str, Any]] = []
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                outer.bodies.append(json.loads(raw))
                reply = (
                    outer.replies.pop(0)
                    if outer.replies
                    else {
                        "error": {"code": 500, "message": "no reply queued", "status": "INTERNAL"}
                    }
                )
                data = json.dumps(reply).encode()
                self.send_response(500 if "error" in reply else 200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}"

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
        self.thread.join()


def candidate(
    parts: list[dict[str, Any]] | None, finish: str = "STOP", index: int = 0
) -> dict[str, Any]:
    data: dict[str, Any] = {"finishReason": finish, "index": index}
    if parts is not None:
        data["content"] = {"role": "model", "parts": parts}
    return data


def response(*candidates: dict[str, Any]) -> dict[str, Any]:
    return {
        "candidates": list(candidates),
        "usageMetadata": {
            "promptTokenCount": 100,
            "candidatesTokenCount": 10,
            "totalTokenCount": 110,
        },
        "modelVersion": MODEL,
    }


@pytest.fixture
def gemini(monkeypatch: pytest.MonkeyPatch) -> Iterator[GeminiDouble]:
    monkeypatch.setenv("GEMINI_API_KEY", "test-key")
    server = GeminiDouble()
    try:
        yield server
    finally:
        server.close()


# These cases drive the agent loop over Gemini's native calls from the first step.
LOOP_FIRST = AssistantLimits(step_timeout_s=10, total_timeout_s=20, answer_first=False)


def session() -> Capabilities:
    try:
        {"a": 1}["price"]
    except KeyError as exc:
        error: BaseException = exc
    return Capabilities({"df": {"a": 1}}, last_exception=lambda: error)


async def test_gemini_native_round_trip(gemini: GeminiDouble) -> None:
    gemini.replies = [
        response(
            candidate(None, "SAFETY", 0),  # unusable first candidate
            candidate(
                [
                    {
                        "functionCall": {"id": "fc_1", "name": "get_type", "args": {"expr": "df"}},
                        "thoughtSignature": "c2lnbmF0dXJl",
                    },
                    {"functionCall": {"id": "fc_2", "name": "get_last_exception", "args": {}}},
                ],
                index=1,
            ),
        ),
        response(candidate([{"text": "df is a dict; the last error was KeyError 'price'."}])),
    ]
    model = ModelConfig(provider="gemini", id=MODEL, base_url=gemini.url)
    provider = create_provider(model)
    try:
        answer = await ask(
            "what is df and what failed?",
            provider,
            session(),
            LOOP_FIRST,
        )
    finally:
        await provider.aclose()
    assert answer.text == "df is a dict; the last error was KeyError 'price'."
    assert not answer.degraded
    assert [c.name for c in answer.calls] == ["get_type", "get_last_exception"]

    first, second = gemini.bodies
    declarations = first["tools"][0]["functionDeclarations"]
    assert [d["name"] for d in declarations][:2] == ["list_globals", "get_type"]
    assert first["toolConfig"]["functionCallingConfig"]["mode"] == "AUTO"
    assert first["systemInstruction"]["parts"][0]["text"] == SYSTEM_PROMPT
    ((question_part,),) = [c["parts"] for c in first["contents"]]
    assert question_part["text"].startswith("what is df and what failed?\n\nFacts")
    assert "- df: type dict, value {'a': 1}, 1 items (its len)" in question_part["text"]

    question, model_turn, results = second["contents"]
    assert question == first["contents"][0]
    # The chosen candidate's content goes back unchanged (ids, thought signature).
    assert model_turn["role"] == "model"
    assert model_turn["parts"][0]["functionCall"]["id"] == "fc_1"
    assert model_turn["parts"][0]["thoughtSignature"] == "c2lnbmF0dXJl"
    # All responses in one message, in call order, ids echoed, envelopes as response.
    assert results["role"] == "user"
    responses = [p["functionResponse"] for p in results["parts"]]
    assert [(r["id"], r["name"]) for r in responses] == [
        ("fc_1", "get_type"),
        ("fc_2", "get_last_exception"),
    ]
    assert responses[0]["response"] == {
        "ok": True,
        "result": {"name": "dict", "module": "builtins", "qualified": "builtins.dict"},
    }
    exception = responses[1]["response"]["result"]["exception"]
    assert exception["exc_type"] == "KeyError" and exception["message"] == "'price'"


async def test_gemini_malformed_call_is_retried_once(gemini: GeminiDouble) -> None:
    malformed = response(candidate(None, "MALFORMED_FUNCTION_CALL"))
    gemini.replies = [malformed, response(candidate([{"text": "Answer after retry."}]))]
    model = ModelConfig(provider="gemini", id=MODEL, base_url=gemini.url)
    provider = create_provider(model)
    try:
        answer = await ask("q", provider, session(), LOOP_FIRST)
    finally:
        await provider.aclose()
    assert answer.text == "Answer after retry." and not answer.degraded
    assert len(gemini.bodies) == 2
    correction = gemini.bodies[1]["contents"][-1]
    assert correction["role"] == "user" and "could not be used" in correction["parts"][0]["text"]
