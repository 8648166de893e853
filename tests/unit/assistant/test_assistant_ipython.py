"""``%load_ext remora.assistant`` in a real IPython shell, in process."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from IPython.core.interactiveshell import InteractiveShell

# The answer step from the first message's facts finds nothing, then the loop runs.
TURNS = """\
- text: I could not find that out.
- calls:
    - {name: list_globals, id: g1}
    - {name: get_last_exception, id: g2}
- text: "prices is a dict; the last error was KeyError 'banana'."
"""


@pytest.fixture
def shell(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    (tmp_path / "turns.yaml").write_text(TURNS)
    (tmp_path / "remora.yaml").write_text(
        "model:\n  provider: scripted\n  id: scripted\n  path: turns.yaml\n"
    )
    monkeypatch.chdir(tmp_path)
    ip = InteractiveShell.instance()
    try:
        yield ip
    finally:
        ip.run_line_magic("unload_ext", "remora.assistant")
        InteractiveShell.clear_instance()


def test_ask_magic_answers_about_the_session(
    shell: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    shell.run_line_magic("load_ext", "remora.assistant")
    shell.run_cell("prices = {'apple': 1}")
    shell.run_cell("prices['banana']")
    capsys.readouterr()
    shell.run_cell("%ask why did the lookup fail?")
    out = capsys.readouterr().out
    assert "  · list_globals()\n  · get_last_exception()\n" in out
    assert out.rstrip().endswith("prices is a dict; the last error was KeyError 'banana'.")
    service = shell._remora_assistant_service
    listed, last = service.provider.requests[2].messages[-1].results
    names = [g["name"] for g in listed.payload["result"]["globals"]]
    assert names == ["prices"]  # In, Out, get_ipython, exit, quit are hidden
    assert last.payload["result"]["exception"]["exc_type"] == "KeyError"


def test_load_fails_clearly_without_a_usable_model(
    shell: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "remora.yaml").write_text("model:\n  provider: scripted\n  id: scripted\n")
    shell.run_line_magic("load_ext", "remora.assistant")
    err = capsys.readouterr().err
    assert "error[AGENT_002]: model scripted (scripted) is not available" in err
    assert "hint:" in err and "%ask is not available" in err
    assert "ask" not in shell.magics_manager.magics["line"]


def test_cell_magic_takes_a_long_question(shell: Any, capsys: pytest.CaptureFixture[str]) -> None:
    shell.run_line_magic("load_ext", "remora.assistant")
    shell.run_cell("prices = {'apple': 1}")
    shell.run_cell("prices['banana']")
    shell.run_cell("%%ask\nLook at the session.\nWhy did it fail?")
    assert "KeyError 'banana'" in capsys.readouterr().out
    answer_step, loop_first = shell._remora_assistant_service.provider.requests[:2]
    assert answer_step.tools == ()
    assert answer_step.messages[1].text.startswith("Facts the functions returned")
    assert answer_step.messages[1].text.endswith("Question: Look at the session.\nWhy did it fail?")
    assert loop_first.messages[1].text.startswith("Look at the session.\nWhy did it fail?\n\n")


@pytest.mark.parametrize(
    ("line", "kept"),
    [
        ("%asking x?", True),
        ("%%ask", True),
        ("x = 1", True),
        ("%ask why?", False),
        ("  %ask   what is 'x'?", False),
    ],
)
def test_only_ask_lines_are_rewritten(line: str, kept: bool) -> None:
    from remora.assistant.ipython import protect_question_marks

    out = protect_question_marks([line + "\n", "more\n"])
    assert (out[0] == line + "\n") is kept
    assert out[1] == "more\n"
    if not kept:
        assert "run_line_magic('ask', " in out[0]
        assert eval(out[0].strip().split(", ", 1)[1][:-1]) == line.strip()[4:].strip()
