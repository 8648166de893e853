"""The llm provider through llm's own OpenAI-compatible model configuration,
pointed at a real llama.cpp server; and the FunctionGemma grammar on that server.

``extra-openai-models.yaml`` in a temporary ``LLM_USER_PATH`` registers the local
server twice: once with ``supports_tools: true`` (llm's native tool path) and
once without (schemas in the prompt, calls parsed from text). The small default model cannot
be relied on to call a tool, so the model-independent facts are asserted: the
request and a follow-up carrying tool calls and results go through llm, the
plugin and the server, usage is reported, and every outcome is a ModelTurn or a
ProviderError with a code.
"""

from __future__ import annotations

import json
import socket
import urllib.request
from pathlib import Path

import pytest

from remora.config import ModelConfig
from remora.conversation import Message, ModelRequest, ToolCall, ToolResult, ToolSpec
from remora.errors import AGENT_MODEL_UNAVAILABLE
from remora.providers import functiongemma as fg
from remora.providers.base import ProviderError
from remora.providers.factory import create_provider
from remora.providers.model_store import DEFAULT_MODEL

pytestmark = [pytest.mark.integration, pytest.mark.model]

TOOLS = (
    ToolSpec(
        "run_linter",
        "Run ruff on the code and list the issues.",
        {"type": "object", "properties": {}, "additionalProperties": False},
    ),
    ToolSpec(
        "apply_fix",
        "Apply ruff's fix for one rule code.",
        {
            "type": "object",
            "properties": {
                "issue_code": {"type": "string", "description": "Rule code, e.g. F401"},
                "line": {"type": "integer"},
            },
            "required": ["issue_code"],
            "additionalProperties": False,
        },
    ),
)
FIRST = (
    Message.system("You fix Python lint issues. Call one tool per turn."),
    Message.user("function f in a.py:\n```python\ndef f():\n    import os\n    pass\n```"),
)
CALL = ToolCall("call-1", "run_linter", {})
RESULT = ToolResult("call-1", "run_linter", {"ok": True, "result": {"issues": ["F401"]}})


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
    return port


@pytest.fixture
def llm_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, llama_server_url: str) -> Path:
    user_dir = tmp_path / "llm"
    user_dir.mkdir()
    down = f"http://127.0.0.1:{_closed_port()}/v1"
    (user_dir / "extra-openai-models.yaml").write_text(
        f"- model_id: remora-local\n"
        f"  model_name: {DEFAULT_MODEL}\n"
        f"  api_base: {llama_server_url}\n"
        f"  supports_tools: true\n"
        f"- model_id: remora-local-text\n"
        f"  model_name: {DEFAULT_MODEL}\n"
        f"  api_base: {llama_server_url}\n"
        f"- model_id: remora-down\n"
        f"  model_name: {DEFAULT_MODEL}\n"
        f"  api_base: {down}\n"
        f"  supports_tools: true\n"
    )
    monkeypatch.setenv("LLM_USER_PATH", str(user_dir))
    return user_dir


def _request(*extra: Message) -> ModelRequest:
    return ModelRequest(FIRST + extra, TOOLS, "auto", max_tokens=48, temperature=0.0)


@pytest.mark.parametrize("model_id", ["remora-local", "remora-local-text"])
async def test_two_turns_through_llm_and_the_local_server(llm_config: Path, model_id: str) -> None:
    provider = create_provider(ModelConfig(provider="llm", id=model_id, timeout=300))
    assert (await provider.check()).ok

    first = await provider.complete(_request())
    second = await provider.complete(
        _request(Message.assistant("", (CALL,)), Message.tool_results((RESULT,)))
    )
    for turn in (first, second):
        assert turn.finish in {"stop", "length", "tool_calls", "invalid"}
        assert turn.usage.requests == 1 and turn.usage.completion_tokens > 0
        assert (turn.finish == "invalid") == (turn.error is not None)
        assert {c.name for c in turn.message.tool_calls} <= {t.name for t in TOOLS}
    # The follow-up carries the call and its result, so its prompt is longer.
    assert second.usage.prompt_tokens > first.usage.prompt_tokens
    await provider.aclose()


async def test_text_mode_puts_the_schemas_in_the_prompt(llm_config: Path) -> None:
    text = create_provider(ModelConfig(provider="llm", id="remora-local-text", timeout=300))
    text_turn = await text.complete(_request())
    bare_turn = await text.complete(ModelRequest(FIRST, (), "auto", max_tokens=1, temperature=0.0))
    # In text mode the JSON schemas of both tools are part of the system prompt.
    # (Compared with no tools, not with native tools: Qwen's chat template writes
    # native tools into the prompt as well.)
    assert text_turn.usage.prompt_tokens > bare_turn.usage.prompt_tokens + 40


async def test_unknown_model_is_agent_002(llm_config: Path) -> None:
    provider = create_provider(ModelConfig(provider="llm", id="no-such-model-anywhere"))
    with pytest.raises(ProviderError) as caught:
        await provider.complete(_request())
    assert caught.value.code == AGENT_MODEL_UNAVAILABLE
    assert "no-such-model-anywhere" in caught.value.message
    assert not (await provider.check()).ok


async def test_unreachable_server_is_agent_002(llm_config: Path) -> None:
    provider = create_provider(ModelConfig(provider="llm", id="remora-down"))
    with pytest.raises(ProviderError) as caught:
        await provider.complete(_request())
    assert caught.value.code == AGENT_MODEL_UNAVAILABLE
    assert caught.value.retryable


def _chat(url: str, body: dict[str, object]) -> dict[str, object]:
    request = urllib.request.Request(
        f"{url}/chat/completions",
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=120) as response:
        answer: dict[str, object] = json.loads(response.read())
    return answer


def test_functiongemma_grammar_constrains_a_real_model(llama_server_url: str) -> None:
    """llama.cpp accepts the GBNF grammar, and what it lets the model write parses."""
    grammar = fg.build_grammar(TOOLS, max_calls=2)
    keys = {t.name: set(t.parameters["properties"]) for t in TOOLS}
    stopped = 0
    for question in ("Run the linter.", "Fix F401 on line 3.", "Fix E501."):
        answer = _chat(
            llama_server_url,
            {
                "model": DEFAULT_MODEL,
                "messages": [
                    {
                        "role": "system",
                        "content": fg.DEVELOPER_PROMPT + fg.render_declarations(TOOLS),
                    },
                    {"role": "user", "content": question},
                ],
                "max_tokens": 96,
                "temperature": 0.0,
                "grammar": grammar,
            },
        )
        choice = answer["choices"][0]  # type: ignore[index]
        text = choice["message"]["content"]
        result = fg.parse_calls(text)
        assert text.startswith(fg.CALL_START + "call:")
        if choice["finish_reason"] == "stop":
            stopped += 1
            assert result.errors == [], text
            assert 1 <= len(result.calls) <= 2
            for call in result.calls:
                assert set(call.arguments) <= keys[call.name]
        else:  # cut off mid-string by max_tokens: an error, never an exception
            assert result.errors
    assert stopped >= 1
