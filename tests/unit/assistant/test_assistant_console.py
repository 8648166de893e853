"""The console, the script runner and the loop bridge, in process.

The console gets real typed lines through ``push``; questions go to a real
service over a scripted model. The pseudo-terminal tests in
tests/integration/test_assistant_pty.py drive the same console as a user would.
"""

from __future__ import annotations

import asyncio
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

from remora.assistant.bridge import LoopBridge
from remora.assistant.capabilities import Capabilities
from remora.assistant.repl import AssistantConsole
from remora.assistant.script import new_namespace, run_script
from remora.assistant.service import AssistantService
from remora.assistant.session import AssistantLimits
from remora.config import ModelConfig
from remora.errors import RemoraError
from remora.providers.scripted import ScriptedProvider, call, text_turn, tool_turn


def service(*turns: Any) -> AssistantService:
    model = ModelConfig(provider="scripted", id="scripted")
    return AssistantService(
        ScriptedProvider(list(turns)),
        model,
        # The loop from the first step: these turns call functions before answering.
        AssistantLimits(step_timeout_s=5, total_timeout_s=10, answer_first=False),
    )


def test_question_lines_go_to_the_assistant(capsys: pytest.CaptureFixture[str]) -> None:
    svc = service(tool_turn(call("get_repr", {"expr": "total"})), text_turn("total is 7"))
    console = AssistantConsole(new_namespace("__console__"), svc.ask_text)
    try:
        assert console.push("total = 3 + 4") is False
        assert console.push("??  what is total?") is False
    finally:
        svc.close()
    assert capsys.readouterr().out == "total is 7\n"
    provider = svc.provider
    assert isinstance(provider, ScriptedProvider)
    assert provider.requests[0].messages[1].text.startswith("what is total?\n\nFacts")
    (result,) = provider.requests[1].messages[-1].results
    assert result.payload["result"]["repr"] == "7"


def test_question_mark_inside_a_block_is_python(capsys: pytest.CaptureFixture[str]) -> None:
    console = AssistantConsole(new_namespace("__console__"), lambda q, c: "never")
    assert console.push("if True:") is True
    # Inside a block ?? is not a question: Python reports the syntax error.
    console.push("    ?? nope")
    console.push("")
    captured = capsys.readouterr()
    assert "never" not in captured.out
    assert "SyntaxError" in captured.err
    assert isinstance(console.last_error, SyntaxError)


def test_empty_question_prints_usage(capsys: pytest.CaptureFixture[str]) -> None:
    console = AssistantConsole(new_namespace("__console__"), lambda q, c: "never")
    console.push("??")
    assert "usage: ?? QUESTION" in capsys.readouterr().err


def test_last_error_is_kept_without_the_console_frame(capsys: pytest.CaptureFixture[str]) -> None:
    console = AssistantConsole(new_namespace("__console__"), lambda q, c: "")
    console.push("def f(d):")
    console.push("    return d['missing']")
    console.push("")
    console.push("f({})")
    shown = capsys.readouterr().err
    assert shown.startswith('Traceback (most recent call last):\n  File "<console>"')
    assert "code.py" not in shown
    envelope = console.capabilities.call("get_last_exception", {})
    exception = envelope["result"]["exception"]
    assert exception["exc_type"] == "KeyError" and exception["message"] == "'missing'"
    assert "code.py" not in exception["traceback"]
    assert "in f" in exception["traceback"]


def test_script_keeps_its_session_and_error(tmp_path: Path) -> None:
    script = tmp_path / "job.py"
    script.write_text(
        "import sys\nrows = [1, 2]\nargv = list(sys.argv)\n"
        "def mean(xs):\n    return sum(xs) / len(xs)\nmean([])\nafter = 1\n"
    )
    before = list(sys.path)
    run = run_script(script)
    assert sys.path == before
    assert run.namespace["rows"] == [1, 2] and "after" not in run.namespace
    assert run.namespace["argv"] == [str(script)]
    assert run.namespace["__name__"] == "__main__"
    assert isinstance(run.error, ZeroDivisionError)
    text = run.traceback_text()
    assert f'File "{script}", line 6' in text and "in mean" in text
    assert "script.py" not in text  # remora's own frame is cut
    caps = Capabilities(run.namespace, last_exception=lambda: run.error)
    assert caps.call("get_last_exception", {})["result"]["exception"]["exc_type"] == (
        "ZeroDivisionError"
    )


def test_script_exit_status_and_syntax_error(tmp_path: Path) -> None:
    exits = tmp_path / "exits.py"
    exits.write_text("import sys\nsys.exit(4)\n")
    assert run_script(exits).exit_code == 4
    broken = tmp_path / "broken.py"
    broken.write_text("x = (\n")
    assert isinstance(run_script(broken).error, SyntaxError)


def test_missing_script_is_a_usage_error(tmp_path: Path) -> None:
    with pytest.raises(RemoraError) as caught:
        run_script(tmp_path / "nope.py")
    assert "cannot read script" in caught.value.message and "--exec" in caught.value.hint


def test_bridge_reuses_one_loop_on_the_calling_thread() -> None:
    bridge = LoopBridge()
    seen: list[tuple[int, asyncio.AbstractEventLoop]] = []

    async def where() -> None:
        seen.append((threading.get_ident(), asyncio.get_running_loop()))

    bridge.run(where)
    bridge.run(where)
    bridge.close()
    assert seen[0] == seen[1] and seen[0][0] == threading.get_ident()


async def test_bridge_inside_a_running_loop_uses_a_helper_thread() -> None:
    bridge = LoopBridge()

    async def value() -> int:
        return threading.get_ident()

    try:
        ident = bridge.run(value)  # as from a magic inside a Jupyter kernel's loop
    finally:
        bridge.close()
    assert ident != threading.get_ident()


def test_service_close_closes_the_provider() -> None:
    svc = service(text_turn("x"))
    svc.close()
    provider = svc.provider
    assert isinstance(provider, ScriptedProvider) and provider.closed
    svc.close()  # twice is harmless
