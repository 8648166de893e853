"""OpenAIProvider through the real SDK against a scripted HTTP server on 127.0.0.1.

The well-behaved path runs against a real llama.cpp server in the integration
tests; this server exists to produce what llama.cpp never does: malformed tool
arguments, empty choices, HTTP errors, slow answers.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from remora.config import ModelConfig, RequestRetryConfig
from remora.conversation import Message, ModelRequest, ToolCall, ToolResult, ToolSpec
from remora.errors import AGENT_INVALID_OUTPUT, AGENT_MODEL_UNAVAILABLE
from remora.profiles import BUILTIN_PROFILES
from remora.providers.base import ProviderError
from remora.providers.openai_compat import OpenAIProvider


@dataclass
class Reply:
    status: int = 200
    body: Any = None
    delay_s: float = 0.0
    raw: bytes | None = None
    content_type: str = "application/json"


@dataclass
class Script:
    replies: dict[str, Reply] = field(default_factory=dict)
    requests: list[tuple[str, dict[str, Any], dict[str, str]]] = field(default_factory=list)


def _completion(message: dict[str, Any], finish: str = "stop") -> dict[str, Any]:
    return {
        "id": "x",
        "object": "chat.completion",
        "created": 0,
        "model": "m",
        "choices": [
            {"index": 0, "message": {"role": "assistant", **message}, "finish_reason": finish}
        ],
        "usage": {
            "prompt_tokens": 11,
            "completion_tokens": 3,
            "total_tokens": 14,
            "prompt_tokens_details": {"cached_tokens": 8},
        },
    }


@pytest.fixture
def server() -> Iterator[tuple[str, Script]]:
    script = Script()

    class Handler(BaseHTTPRequestHandler):
        def _answer(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            body = json.loads(self.rfile.read(length) or b"{}")
            path = self.path.removeprefix("/v1")
            script.requests.append((path, body, {k.lower(): v for k, v in self.headers.items()}))
            reply = script.replies.get(path, Reply(404, {"error": {"message": "no route"}}))
            time.sleep(reply.delay_s)
            payload = reply.raw if reply.raw is not None else json.dumps(reply.body).encode()
            try:
                self.send_response(reply.status)
                self.send_header("Content-Type", reply.content_type)
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)
            except (BrokenPipeError, ConnectionResetError):
                pass  # the client gave up (timeout tests)

        do_GET = do_POST = _answer

        def log_message(self, format: str, *args: Any) -> None:
            return None

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    httpd.daemon_threads = True
    thread = threading.Thread(target=httpd.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}/v1", script
    finally:
        httpd.shutdown()
        httpd.server_close()
        thread.join()


TOOL = ToolSpec(
    "lookup",
    "Look a word up.",
    {"type": "object", "properties": {"word": {"type": "string"}}, "required": ["word"]},
)
SUBMIT = ToolSpec("submit_result", "Finish.", {"type": "object", "properties": {}})
HISTORY = (
    Message.system("sys"),
    Message.user("define cat"),
    Message.assistant(calls=(ToolCall("call_1", "lookup", {"word": "cat"}),)),
    Message.tool_results((ToolResult("call_1", "lookup", {"ok": True, "result": "a pet"}),)),
)


def _provider(url: str, profile: str = "default", **model: Any) -> OpenAIProvider:
    config = ModelConfig(provider="openai", id="m", base_url=url, **model)
    return OpenAIProvider.from_config(config, BUILTIN_PROFILES[profile])


async def test_native_round_trip_translates_both_ways(server: tuple[str, Script]) -> None:
    url, script = server
    script.replies["/chat/completions"] = Reply(
        body=_completion(
            {
                "content": None,
                "tool_calls": [
                    {
                        "id": "call_9",
                        "type": "function",
                        "function": {"name": "submit_result", "arguments": '{"summary": "ok"}'},
                    }
                ],
            },
            "tool_calls",
        )
    )
    provider = _provider(url)
    turn = await provider.complete(
        ModelRequest(HISTORY, (TOOL, SUBMIT), tool_choice="submit_result")
    )
    assert turn.finish == "tool_calls"
    assert turn.message.tool_calls == [ToolCall("call_9", "submit_result", {"summary": "ok"})]
    assert (turn.usage.prompt_tokens, turn.usage.cached_tokens) == (11, 8)
    _, body, headers = script.requests[-1]
    assert headers["authorization"] == "Bearer sk-no-key"
    assert body["tool_choice"] == {"type": "function", "function": {"name": "submit_result"}}
    assert [t["function"]["name"] for t in body["tools"]] == ["lookup", "submit_result"]
    assistant, tool = body["messages"][2], body["messages"][3]
    assert assistant["tool_calls"][0]["function"] == {
        "name": "lookup",
        "arguments": '{"word": "cat"}',
    }
    assert tool == {
        "role": "tool",
        "tool_call_id": "call_1",
        "content": '{"ok": true, "result": "a pet"}',
    }
    assert "parallel_tool_calls" not in body
    await provider.aclose()


async def test_profile_shapes_tool_choice(server: tuple[str, Script]) -> None:
    url, script = server
    script.replies["/chat/completions"] = Reply(body=_completion({"content": "hi"}))
    mistral = _provider(url, "mistral")
    await mistral.complete(ModelRequest(HISTORY, (TOOL,), tool_choice="required"))
    assert script.requests[-1][1]["parallel_tool_calls"] is False
    gemma = _provider(url, "functiongemma")
    await gemma.complete(ModelRequest(HISTORY, (TOOL, SUBMIT), tool_choice="submit_result"))
    body = script.requests[-1][1]
    assert body["tool_choice"] == "auto"  # functiongemma cannot be forced
    assert [t["function"]["name"] for t in body["tools"]] == ["submit_result"]
    assert body["messages"][-1] == {"role": "user", "content": "Call the tool submit_result now."}
    await gemma.complete(ModelRequest(HISTORY, (TOOL,), tool_choice="required"))
    assert script.requests[-1][1]["tool_choice"] == "auto"  # unsupported → auto
    for provider in (mistral, gemma):
        await provider.aclose()


async def test_prompted_profile_sends_a_schema_and_parses_content(
    server: tuple[str, Script],
) -> None:
    url, script = server
    script.replies["/chat/completions"] = Reply(
        body=_completion({"content": '{"name": "lookup", "arguments": {"word": "dog"}}'})
    )
    provider = _provider(url, "smollm")
    turn = await provider.complete(ModelRequest(HISTORY, (TOOL,)))
    assert turn.finish == "tool_calls"
    assert [(c.name, c.arguments) for c in turn.message.tool_calls] == [("lookup", {"word": "dog"})]
    body = script.requests[-1][1]
    assert "tools" not in body and body["response_format"]["type"] == "json_schema"
    assert "- lookup: Look a word up." in body["messages"][0]["content"]
    assert body["messages"][3]["role"] == "user"  # results as text for tool-less templates
    await provider.aclose()


@pytest.mark.parametrize(
    ("message", "fragment"),
    [
        (
            {
                "content": None,
                "tool_calls": [
                    {
                        "id": "c",
                        "type": "function",
                        "function": {"name": "lookup", "arguments": '{"word": '},
                    }
                ],
            },
            "not valid JSON",
        ),
        (
            {
                "content": None,
                "tool_calls": [
                    {
                        "id": "c",
                        "type": "function",
                        "function": {"name": "lookup", "arguments": "[1, 2]"},
                    }
                ],
            },
            "must be a JSON object",
        ),
        (
            {
                "content": None,
                "tool_calls": [
                    {"id": "c", "type": "function", "function": {"name": "", "arguments": "{}"}}
                ],
            },
            "no function name",
        ),
    ],
)
async def test_malformed_tool_calls_are_invalid_turns(
    server: tuple[str, Script], message: dict[str, Any], fragment: str
) -> None:
    url, script = server
    script.replies["/chat/completions"] = Reply(body=_completion(message, "tool_calls"))
    provider = _provider(url)
    turn = await provider.complete(ModelRequest(HISTORY, (TOOL,)))
    assert turn.finish == "invalid"
    assert turn.error is not None and fragment in turn.error
    await provider.aclose()


async def test_response_without_choices_is_invalid(server: tuple[str, Script]) -> None:
    url, script = server
    script.replies["/chat/completions"] = Reply(
        body={"id": "x", "object": "chat.completion", "created": 0, "model": "m", "choices": []}
    )
    for profile in ("default", "smollm"):
        provider = _provider(url, profile)
        turn = await provider.complete(ModelRequest(HISTORY, (TOOL,)))
        assert turn.finish == "invalid" and turn.error is not None and "no choices" in turn.error
        await provider.aclose()


@pytest.mark.parametrize("content_type", ["application/json", "text/html"])
async def test_body_that_is_not_json_is_agent_004(
    server: tuple[str, Script], content_type: str
) -> None:
    url, script = server
    script.replies["/chat/completions"] = Reply(
        raw=b"<html>proxy error</html>", content_type=content_type
    )
    provider = _provider(url)
    with pytest.raises(ProviderError) as info:
        await provider.complete(ModelRequest(HISTORY, (TOOL,)))
    assert info.value.code == AGENT_INVALID_OUTPUT
    assert url in info.value.message and "malformed" in info.value.message
    await provider.aclose()


async def test_http_error_is_agent_002_with_status_and_body_and_not_retried(
    server: tuple[str, Script],
) -> None:
    url, script = server
    script.replies["/chat/completions"] = Reply(500, {"error": {"message": "KV cache full"}})
    provider = _provider(url, retry=RequestRetryConfig(max_attempts=3, backoff_s=0))
    with pytest.raises(ProviderError) as info:
        await provider.complete(ModelRequest(HISTORY))
    assert info.value.code == AGENT_MODEL_UNAVAILABLE and not info.value.retryable
    assert "HTTP 500" in info.value.message and "KV cache full" in info.value.message
    assert len(script.requests) == 1
    await provider.aclose()


async def test_timeouts_are_retried_with_the_configured_budget(server: tuple[str, Script]) -> None:
    url, script = server
    script.replies["/chat/completions"] = Reply(body=_completion({"content": "late"}), delay_s=1.0)
    provider = _provider(url, retry=RequestRetryConfig(max_attempts=2, backoff_s=0.01))
    with pytest.raises(ProviderError) as info:
        await provider.complete(ModelRequest(HISTORY, timeout_s=0.2))
    assert info.value.code == AGENT_MODEL_UNAVAILABLE and info.value.retryable
    assert "timed out after 2 attempt(s)" in info.value.message
    assert len(script.requests) == 2
    await provider.aclose()


async def test_unreachable_server(unused_tcp_port: int) -> None:
    provider = _provider(
        f"http://127.0.0.1:{unused_tcp_port}/v1",
        retry=RequestRetryConfig(max_attempts=2, backoff_s=0),
    )
    with pytest.raises(ProviderError) as info:
        await provider.complete(ModelRequest(HISTORY))
    assert info.value.code == AGENT_MODEL_UNAVAILABLE
    assert "unreachable after 2 attempt(s)" in info.value.message
    availability = await provider.check()
    assert not availability.ok and "cannot reach" in availability.reason
    assert "remora models serve" in availability.hint
    await provider.aclose()


async def test_check_lists_models_and_refusals(server: tuple[str, Script]) -> None:
    url, script = server
    script.replies["/models"] = Reply(
        body={
            "object": "list",
            "data": [{"id": "m", "object": "model", "created": 0, "owned_by": "me"}],
        }
    )
    provider = _provider(url)
    assert (await provider.check()).ok
    other = OpenAIProvider.from_config(
        ModelConfig(provider="openai", id="llama3:8b", base_url=url), BUILTIN_PROFILES["llama3"]
    )
    availability = await other.check()
    assert not availability.ok and "llama3:8b" in availability.reason
    assert "serves: m" in availability.reason
    script.replies["/models"] = Reply(401, {"error": {"message": "bad key"}})
    availability = await provider.check()
    assert not availability.ok and "HTTP 401" in availability.reason
    for p in (provider, other):
        await p.aclose()


async def test_key_comes_from_the_named_environment_variable(
    server: tuple[str, Script], monkeypatch: pytest.MonkeyPatch
) -> None:
    url, script = server
    script.replies["/chat/completions"] = Reply(body=_completion({"content": "hi"}))
    monkeypatch.delenv("REMORA_TEST_KEY", raising=False)
    missing = _provider(url, api_key_env="REMORA_TEST_KEY")
    availability = await missing.check()
    assert not availability.ok and "REMORA_TEST_KEY" in availability.reason
    with pytest.raises(ProviderError, match="REMORA_TEST_KEY"):
        await missing.complete(ModelRequest(HISTORY))
    monkeypatch.setenv("REMORA_TEST_KEY", "sk-secret")
    provider = _provider(url, api_key_env="REMORA_TEST_KEY")
    turn = await provider.complete(ModelRequest(HISTORY))
    assert turn.finish == "stop" and turn.message.text == "hi"
    assert script.requests[-1][2]["authorization"] == "Bearer sk-secret"
    for p in (missing, provider):
        await p.aclose()
