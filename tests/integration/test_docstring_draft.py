"""The docstring agent's draft: the summary asked of the model as code, checked, written.

Everything but the model is real (the YAML, the ``.pym`` tools, Monty, ``remora_code``
on a sqlite workspace); the model's completions and turns are scripted, and what
the tools asked for is read back from the provider.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pytest
from bundled_agents_support import run_scripted_on_file, write_project

from remora.code.docstring.draft import FIXED_EXAMPLES
from remora.conversation import TokenLogprob
from remora.providers.scripted import CompletionAnswer, ScriptedProvider, tool_turn
from remora.runner import AgentResult
from remora.sandbox import SandboxRuntime

pytestmark = pytest.mark.integration

SOURCE = '''\
def total(prices):
    """Add up the prices of a basket."""
    return sum(prices)


def log(message, sink):
    sink.append(message)


def average(values):
    if not values:
        raise ValueError("no values")
    return sum(values) / len(values)
'''


async def drive(
    runtime: SandboxRuntime,
    root: Path,
    qualname: str,
    completions: list[CompletionAnswer],
    turns: list[Any] | None = None,
    details: bool = False,
    draft: bool = True,
) -> tuple[AgentResult, ScriptedProvider, str]:
    options = {"style": "google", "details": details, "draft": draft}
    result, provider, written = await run_scripted_on_file(
        runtime, root, "docstring", qualname, turns or [], options, completions
    )
    return result, provider, written.decode()


async def test_a_fim_draft_that_passes_is_written_without_a_model_turn(
    tmp_path: Path, runtime: SandboxRuntime
) -> None:
    root = write_project(tmp_path, {"m.py": SOURCE})
    result, provider, text = await drive(
        runtime, root, "average", ["Compute the mean of the values.\n    Examples"]
    )
    assert result.status == "success", result.to_dict()
    assert '    """Compute the mean of the values.' in text
    assert provider.requests == []  # no chat turn: the draft ended the run
    (asked,) = provider.completion_requests
    # Fill in the middle: the file's documented neighbour as the style, the node's
    # header and opening quotes before the gap, its body after it.
    assert asked.suffix is not None and asked.instruction is None
    assert '"""Add up the prices of a basket."""' in asked.prefix
    assert asked.prefix.endswith('def average(values):\n    """')
    assert asked.suffix.startswith('"""\n    if not values:')
    assert result.details["completions"]["requests"] == 1
    # The time the run waited for its completion: part of the run's, never more.
    assert 0 <= result.details["completions"]["waited_s"] <= result.duration_s


async def test_a_refused_draft_is_asked_again_as_a_chat(
    tmp_path: Path, runtime: SandboxRuntime
) -> None:
    root = write_project(tmp_path, {"m.py": SOURCE})
    result, provider, text = await drive(
        runtime,
        root,
        "log",
        # log returns nothing: a summary that says it returns something contradicts it.
        ["Return the message.", "Append the message to the sink."],
    )
    assert result.status == "success", result.to_dict()
    assert '"""Append the message to the sink."""' in text
    fim, chat = provider.completion_requests
    assert fim.suffix is not None and chat.instruction is not None
    assert chat.prefix.endswith('def log(message, sink):\n    """')
    assert "Add up the prices of a basket." in chat.instruction


@pytest.mark.parametrize(
    ("qualname", "drafts", "why"),
    [
        (
            "average",
            ["Add up the prices of a basket.", "add up the prices of a basket"],
            "it copies the docstring of total",
        ),
        ("log", ["Log the message.", "Log a message."], "it restates the name 'log'"),
        ("log", [], "the model did not answer"),
    ],
)
async def test_when_no_draft_passes_nothing_is_proposed_and_the_model_gets_no_turn(
    tmp_path: Path, runtime: SandboxRuntime, qualname: str, drafts: list[str], why: str
) -> None:
    # The model's own words after refused drafts were merged least of all (1 in 13).
    root = write_project(tmp_path, {"m.py": SOURCE})
    said = tool_turn(("write_docstring", {"summary": "Compute the mean of the values."}))
    result, provider, text = await drive(runtime, root, qualname, drafts, [said])
    assert result.status != "success", result.to_dict()
    assert provider.requests == [] and text == SOURCE
    assert len(provider.completion_requests) == 2 if drafts else 1
    # The run's summary says why: the last draft's refusal.
    assert f"{qualname}: no drafted summary passed the checks (" in result.summary
    assert why in result.summary


def _tokens(*pieces: tuple[str, float]) -> tuple[TokenLogprob, ...]:
    """A scripted completion's tokens, each with the probability the model gave it."""
    return tuple(TokenLogprob(text, math.log(p)) for text, p in pieces)


UNSURE = _tokens(
    ("Compute", 0.5),
    (" the", 0.6),
    (" median", 0.05),
    (" of", 0.7),
    (" the values", 0.6),
    (".", 0.9),
)
SURE = _tokens(("Compute", 0.7), (" the", 0.9), (" mean", 0.8), (" of the values", 0.7), (".", 0.9))


async def test_a_summary_the_model_was_unsure_of_is_not_proposed(
    tmp_path: Path, runtime: SandboxRuntime
) -> None:
    root = write_project(tmp_path, {"m.py": SOURCE})
    result, provider, text = await drive(runtime, root, "average", [UNSURE])
    assert result.status != "success" and text == SOURCE
    assert provider.requests == []  # no turn of its own either
    (asked,) = provider.completion_requests  # not asked again as a chat
    assert asked.logprobs
    assert "the model was unsure of its summary (sureness 0.4223)" in result.summary

    result, _, text = await drive(runtime, root, "average", [SURE])
    assert result.status == "success", result.to_dict()
    assert '"""Compute the mean of the values."""' in text


async def test_the_least_sureness_is_the_operations_option(
    tmp_path: Path, runtime: SandboxRuntime
) -> None:
    root = write_project(tmp_path, {"m.py": SOURCE})
    result, _, written = await run_scripted_on_file(
        runtime, root, "docstring", "average", [], {"min_sureness": 0.3}, [UNSURE]
    )
    assert result.status == "success", result.to_dict()
    assert '"""Compute the median of the values."""' in written.decode()


async def test_a_documented_node_keeps_its_summary_and_asks_nothing(
    tmp_path: Path, runtime: SandboxRuntime
) -> None:
    root = write_project(tmp_path, {"m.py": SOURCE})
    result, provider, text = await drive(runtime, root, "total", ["Sum up."])
    assert provider.completion_requests == [] and provider.requests == []
    assert result.status == "skipped", result.to_dict()
    assert text == SOURCE


async def test_a_file_without_documented_code_is_shown_the_fixed_examples(
    tmp_path: Path, runtime: SandboxRuntime
) -> None:
    root = write_project(tmp_path, {"m.py": "def double(x):\n    y = x * 2\n    return y\n"})
    result, provider, text = await drive(runtime, root, "double", ["Multiply x by two."])
    assert result.status == "success", result.to_dict()
    assert '    """Multiply x by two.' in text
    (asked,) = provider.completion_requests
    assert all(example in asked.prefix for example in FIXED_EXAMPLES)
    # A draft that copies a fixed example is refused like a neighbour's copy.
    (tmp_path / "b").mkdir()
    root2 = write_project(tmp_path / "b", {"m.py": "def pick(v, a, b):\n    x = v\n    return x\n"})
    copied = "Limit value to the range from low to high."
    result, provider, _ = await drive(runtime, root2, "pick", [copied, copied])
    assert result.status != "success" and len(provider.completion_requests) == 2


async def test_with_drafting_off_the_words_are_the_models(
    tmp_path: Path, runtime: SandboxRuntime
) -> None:
    root = write_project(tmp_path, {"m.py": SOURCE})
    result, provider, written = await run_scripted_on_file(
        runtime,
        root,
        "docstring",
        "log",
        [tool_turn(("write_docstring", {"summary": "Append the message to the sink."}))],
        {"style": "google", "draft": False},
        ["Never asked."],
    )
    assert result.status == "success", result.to_dict()
    assert '"""Append the message to the sink."""' in written.decode()
    assert provider.completion_requests == []


def _tool_answer(provider: ScriptedProvider, turn: int) -> str:
    """What the last tool answered, as the model's ``turn`` sees it."""
    (part,) = provider.requests[turn].messages[-1].parts
    return str(getattr(part, "payload", part))


BUILDER = '''\
def total(prices):
    """Add up the prices of a basket."""
    return sum(prices)


class Lamp:
    def set_glow(self, glow):
        self._glow = glow
        return self
'''


async def test_a_summary_that_parrots_the_feedback_is_refused_and_asked_again(
    tmp_path: Path, runtime: SandboxRuntime
) -> None:
    root = write_project(tmp_path, {"m.py": BUILDER})
    parrot = (
        "Restates the name 'set_glow'; says what it returns or changes, or when it raises, "
        "from the body: it."
    )
    result, provider, text = await drive(
        runtime,
        root,
        "Lamp.set_glow",
        [],
        [
            tool_turn(
                (
                    "write_docstring",
                    {
                        "summary": parrot,
                        "description": "The glow is a function that takes a lamp and "
                        "returns a new lamp.",
                    },
                )
            ),
            tool_turn(("write_docstring", {"summary": "Store glow and return the lamp itself."})),
        ],
        details=True,  # the description is checked too
        draft=False,  # the words are the model's (with drafts, it gets no turn)
    )
    assert result.status == "success", result.to_dict()
    assert '"""Store glow and return the lamp itself."""' in text
    assert "set_glow'" not in text and "new lamp" not in text
    # The second turn is told why the first was refused: the feedback repeated, the
    # description's false claim.
    told = _tool_answer(provider, 1)
    assert "repeats Remora's feedback" in told or "quotes the name 'set_glow'" in told
    assert "a new object is returned" in told


async def test_a_summary_that_repeats_a_reason_given_in_the_run_is_refused(
    tmp_path: Path, runtime: SandboxRuntime
) -> None:
    root = write_project(tmp_path, {"m.py": SOURCE})
    echo = "Append the message to the sink, as log has no call that prints."
    said = tool_turn(("write_docstring", {"summary": echo}))
    first = tool_turn(("write_docstring", {"summary": "Print the message."}))
    result, provider, text = await drive(runtime, root, "log", [], [first, said], draft=False)
    # The first refusal's reason ("... but log has no call that prints; ...") came back
    # in the second summary: refused, and the model's one retry is spent.
    assert "log has no call that prints" in _tool_answer(provider, 1)
    assert result.status != "success" and text == SOURCE
    # The same words pass where no reason said them.
    result, _, text = await drive(runtime, root, "log", [], [said], draft=False)
    assert result.status == "success", result.to_dict()
    assert echo in text
