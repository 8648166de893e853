"""``remora models serve`` in a real process: prints its URL, serves, stops on a signal."""

from __future__ import annotations

import asyncio
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from remora.config import ModelConfig
from remora.conversation import Message, ModelRequest, ToolSpec
from remora.providers.factory import create_provider

pytestmark = [pytest.mark.integration, pytest.mark.model]

TOOL = ToolSpec(
    "lookup",
    "Look a word up in the dictionary.",
    {"type": "object", "properties": {"word": {"type": "string"}}, "required": ["word"]},
)


async def _tool_call_names(url: str, model_id: str) -> list[str]:
    provider = create_provider(
        ModelConfig(provider="openai", base_url=url, id=model_id), "qwen_small"
    )
    try:
        assert (await provider.check()).ok
        turn = await provider.complete(
            ModelRequest((Message.user("What does 'cat' mean?"),), (TOOL,), max_tokens=64)
        )
        assert turn.error is None, turn.error
        return [c.name for c in turn.message.tool_calls]
    finally:
        await provider.aclose()


@pytest.mark.parametrize("stop_signal", [signal.SIGINT, signal.SIGTERM])
def test_serve_until_signalled(
    embedded_model_path: Path, tmp_path: Path, stop_signal: signal.Signals
) -> None:
    proc = subprocess.Popen(
        [
            str(Path(sys.executable).parent / "remora"),
            "models",
            "serve",
            "--port",
            "0",
            "--model-path",
            str(embedded_model_path),
            "--project",
            str(tmp_path),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout is not None
        first = proc.stdout.readline()
        assert "serving" in first, first + (proc.stderr.read() if proc.stderr else "")
        url = first.split(" at ", 1)[1].split()[0]
        assert url.startswith("http://127.0.0.1:") and url.endswith("/v1")
        assert asyncio.run(_tool_call_names(url, embedded_model_path.stem)) == ["lookup"]
        proc.send_signal(stop_signal)
        assert proc.wait(timeout=30) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
