"""``remora repl``, ``remora ask`` and IPython's ``%ask`` as a user runs them.

The consoles run in a pseudo-terminal (pexpect): typed input, real readline
history and completion, asserted screen output. The model is the scripted
provider reading its turns from a file (``--provider scripted --model-path``).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pexpect  # type: ignore[import-untyped]
import pytest

pytestmark = pytest.mark.integration

BIN = Path(sys.executable).parent
REMORA = str(BIN / "remora")
PROMPT = ">>> "

# The answer step finds nothing in the facts; the loop calls functions, then answers.
WHY_TURNS = """\
- text: I could not find that out.
- calls:
    - {name: get_type, arguments: {expr: rows}, id: c1}
    - {name: get_last_exception, id: c2}
- text: "rows is a list and is empty, so mean(rows) divides by zero."
"""


def _env(tmp_path: Path) -> dict[str, str]:
    env = dict(os.environ)
    env.update(TERM="xterm", HOME=str(tmp_path), PYTHONUNBUFFERED="1")
    return env


def _scripted(tmp_path: Path, turns: str) -> list[str]:
    path = tmp_path / "turns.yaml"
    path.write_text(turns)
    return ["--provider", "scripted", "--model", "scripted", "--model-path", str(path)]


def _spawn(tmp_path: Path, *args: str) -> pexpect.spawn:
    child = pexpect.spawn(
        REMORA,
        list(args),
        cwd=str(tmp_path),
        env=_env(tmp_path),
        encoding="utf-8",
        timeout=20,
        dimensions=(50, 200),
    )
    return child


def _finish(child: pexpect.spawn) -> int:
    child.expect(pexpect.EOF)
    child.close()
    status: int = child.exitstatus if child.exitstatus is not None else -1
    return status


def test_repl_question_completion_and_history(tmp_path: Path) -> None:
    history = tmp_path / "hist"
    child = _spawn(tmp_path, "repl", "--history", str(history), *_scripted(tmp_path, WHY_TURNS))
    child.expect("Start a line with \\?\\? to ask about this session")
    child.expect_exact(PROMPT)
    child.sendline("rows = []")
    child.expect_exact(PROMPT)
    child.sendline("def mean(xs):")
    child.expect_exact("... ")
    child.sendline("    return sum(xs) / len(xs)")
    child.expect_exact("... ")
    child.sendline("")
    child.expect_exact(PROMPT)
    child.sendline("mean(rows)")
    child.expect_exact("ZeroDivisionError: division by zero")
    child.expect_exact(PROMPT)
    child.sendline("?? why did mean(rows) fail?")
    child.expect_exact("  · get_type(expr='rows')")
    child.expect_exact("  · get_last_exception()")
    child.expect_exact("rows is a list and is empty, so mean(rows) divides by zero.")
    child.expect_exact(PROMPT)
    # Tab completion over the live namespace: "mea<TAB>" completes to "mean(".
    child.send("mea\t")
    child.expect_exact("mean(")
    child.sendline("[4, 8])")
    child.expect_exact("6.0")
    child.expect_exact(PROMPT)
    child.sendline("print('forty', 6 * 7)")
    child.expect_exact("forty 42")
    child.expect_exact(PROMPT)
    child.sendeof()
    assert _finish(child) == 0
    lines = history.read_text().splitlines()
    assert "?? why did mean(rows) fail?" in lines
    assert "mean([4, 8])" in lines

    # A new console reads that history: Up recalls the last line.
    again = _spawn(tmp_path, "repl", "--history", str(history), *_scripted(tmp_path, "[]"))
    again.expect_exact(PROMPT)
    again.send("\x1b[A")  # arrow up
    again.expect_exact("print('forty', 6 * 7)")
    again.send("\r")
    again.expect_exact("forty 42")
    again.expect_exact(PROMPT)
    again.sendeof()
    assert _finish(again) == 0


def test_repl_default_history_lives_in_the_project_state_dir(tmp_path: Path) -> None:
    child = _spawn(tmp_path, "repl", *_scripted(tmp_path, "[]"))
    child.expect_exact(PROMPT)
    child.sendline("value = 7")
    child.expect_exact(PROMPT)
    child.sendeof()
    assert _finish(child) == 0
    assert (tmp_path / ".remora" / "repl_history").read_text().splitlines()[-1] == "value = 7"


def test_repl_exec_script_then_ask(tmp_path: Path) -> None:
    script = tmp_path / "job.py"
    script.write_text("rows = []\ndef mean(xs):\n    return sum(xs) / len(xs)\nmean(rows)\n")
    child = _spawn(
        tmp_path,
        "repl",
        "--exec",
        str(script),
        "--history",
        str(tmp_path / "h"),
        *_scripted(tmp_path, WHY_TURNS),
    )
    child.expect_exact("ZeroDivisionError: division by zero")
    child.expect_exact("its session is kept for the assistant")
    child.expect_exact(PROMPT)
    child.sendline("rows")
    child.expect_exact("[]")
    child.expect_exact(PROMPT)
    child.sendline("?? why?")
    child.expect_exact("rows is a list and is empty")
    child.expect_exact(PROMPT)
    child.sendline("exit()")
    assert _finish(child) == 0


def test_repl_degraded_answer_names_the_limit(tmp_path: Path) -> None:
    # The answer step, one loop step that calls, and a last answer step with no text.
    turns = "- text: I could not find that out.\n"
    turns += "- calls: [{name: get_repr, arguments: {expr: total}}]\n" * 3
    child = _spawn(
        tmp_path,
        "repl",
        "--max-steps",
        "3",
        "--history",
        str(tmp_path / "h"),
        *_scripted(tmp_path, turns),
    )
    child.expect_exact(PROMPT)
    child.sendline("total = 41 + 1")
    child.expect_exact(PROMPT)
    child.sendline("?? what is total?")
    child.expect_exact("No complete answer: the step limit (3 model steps) was reached.")
    child.expect_exact("- total: type int, value 42")  # the host's facts
    child.expect_exact("What the calls confirmed:")
    child.expect_exact("get_repr(expr='total') ->")
    child.expect_exact('"repr": "42"')
    child.expect_exact(PROMPT)
    child.sendeof()
    assert _finish(child) == 0


def test_ctrl_c_stops_the_question_not_the_console(tmp_path: Path) -> None:
    turns = "- {text: late, delay_s: 60}\n- {text: second answer}\n"
    child = _spawn(
        tmp_path,
        "repl",
        "--step-timeout",
        "120",
        "--total-timeout",
        "120",
        "--history",
        str(tmp_path / "h"),
        *_scripted(tmp_path, turns),
    )
    child.expect_exact(PROMPT)
    child.sendline("?? a slow question")
    child.expect_exact("?? a slow question")
    time.sleep(1.0)  # let the question reach the model before interrupting it
    child.sendintr()
    child.expect_exact("question interrupted")
    child.expect_exact(PROMPT)
    child.sendline("?? the next one")
    child.expect_exact("second answer")
    child.expect_exact(PROMPT)
    child.sendeof()
    assert _finish(child) == 0


def test_repl_refuses_to_start_without_a_usable_model(tmp_path: Path) -> None:
    child = _spawn(tmp_path, "repl", "--provider", "scripted", "--model", "scripted")
    # (the CLI colours "error[...]:" on a terminal, so match around it)
    child.expect_exact("AGENT_002")
    child.expect_exact("model scripted (scripted) is not available: no script")
    child.expect_exact("hint:")
    assert _finish(child) == 2
    assert PROMPT not in (child.before or "")


def _ask(
    tmp_path: Path, *args: str, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [REMORA, "ask", *args],
        cwd=tmp_path,
        env=env or _env(tmp_path),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_ask_exec_answers_on_stdout_and_shows_calls_on_stderr(tmp_path: Path) -> None:
    script = tmp_path / "job.py"
    script.write_text("rows = []\nprint('started')\nsum(rows) / len(rows)\n")
    done = _ask(
        tmp_path, "why did it fail?", "--exec", str(script), *_scripted(tmp_path, WHY_TURNS)
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == "started\nrows is a list and is empty, so mean(rows) divides by zero.\n"
    assert "ZeroDivisionError: division by zero" in done.stderr
    assert "· get_type(expr='rows')" in done.stderr


def test_ask_json(tmp_path: Path) -> None:
    script = tmp_path / "job.py"
    script.write_text("rows = []\n{}['k']\n")
    done = _ask(
        tmp_path, "why?", "--exec", str(script), "--format", "json", *_scripted(tmp_path, WHY_TURNS)
    )
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["degraded"] is False and data["steps"] == 3
    assert [c["name"] for c in data["calls"]] == ["get_type", "get_last_exception"]
    exception = data["calls"][1]["envelope"]["result"]["exception"]
    assert exception["exc_type"] == "KeyError"
    assert 'File "' in exception["traceback"] and "line 2" in exception["traceback"]


def test_ask_degraded_exits_1(tmp_path: Path) -> None:
    turns = "- text: I could not find that out.\n- calls: [{name: list_globals}]\n"
    turns += "- text: ''\n- text: ''\n"
    done = _ask(tmp_path, "q", *_scripted(tmp_path, turns))
    assert done.returncode == 1
    assert done.stdout.startswith("No complete answer: the model's replies could not be used")
    assert "list_globals() ->" in done.stdout


def test_ask_fails_fast_on_a_model_without_function_calling(tmp_path: Path) -> None:
    env = _env(tmp_path)
    env["OPENAI_API_KEY"] = "sk-test-not-used"
    done = _ask(tmp_path, "q", "--provider", "llm", "--model", "gpt-3.5-turbo-instruct", env=env)
    assert done.returncode == 2
    assert "does not support function calling" in done.stderr
    assert "hint:" in done.stderr and "--model" in done.stderr
    assert done.stdout == ""


def test_ipython_ask_magic_in_a_terminal(tmp_path: Path) -> None:
    (tmp_path / "turns.yaml").write_text(WHY_TURNS)
    (tmp_path / "remora.yaml").write_text(
        "model:\n  provider: scripted\n  id: scripted\n  path: turns.yaml\n"
    )
    child = pexpect.spawn(
        str(BIN / "ipython"),
        ["--simple-prompt", "--no-banner", "--colors=nocolor"],
        cwd=str(tmp_path),
        env=_env(tmp_path),
        encoding="utf-8",
        timeout=20,
        dimensions=(50, 200),
    )
    child.expect_exact("In [1]: ")
    child.sendline("%load_ext remora.assistant")
    child.expect_exact("In [2]: ")
    child.sendline("rows = []")
    child.expect_exact("In [3]: ")
    child.sendline("sum(rows) / len(rows)")
    child.expect_exact("ZeroDivisionError")
    child.expect_exact("In [4]: ")
    child.sendline("%ask why did it fail?")
    child.expect_exact("  · get_last_exception()")
    child.expect_exact("rows is a list and is empty")
    child.expect_exact("In [5]: ")
    child.sendline("exit")
    assert _finish(child) == 0


INVENTED_TURNS = """\
- text: The value of total is 100.
- text: total is 100.
"""


def test_ask_does_not_print_a_value_no_function_returned(tmp_path: Path) -> None:
    script = tmp_path / "s.py"
    script.write_text("items = [3, 1, 2]\ntotal = sum(items)\n")
    args = ("What is the value of total?", "--exec", str(script))
    done = _ask(tmp_path, *args, *_scripted(tmp_path, INVENTED_TURNS))
    assert done.returncode == 1
    assert done.stdout == "I could not find that out.\n"
    assert "100" not in done.stderr  # why, only with --debug
    debug_env = {**_env(tmp_path), "REMORA_DEBUG": "1"}
    done = _ask(tmp_path, *args, *_scripted(tmp_path, INVENTED_TURNS), env=debug_env)
    assert done.stdout == "I could not find that out.\n"
    assert "the answer states values no function returned: number 100" in done.stderr
    assert "the model answered: 'total is 100.'" in done.stderr
    done = _ask(tmp_path, *args, "--format", "json", *_scripted(tmp_path, INVENTED_TURNS))
    data = json.loads(done.stdout)
    assert data["answer"] == "I could not find that out."
    assert data["stopped_by"] == "unsupported_answer" and data["model_answer"] == "total is 100."
    assert "number 100" in data["error"]
    assert [f["name"] for f in data["facts"]] == ["get_type", "get_repr", "get_last_exception"]
    assert data["facts"][1]["envelope"]["result"]["repr"] == "6"
