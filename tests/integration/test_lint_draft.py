"""The lint agent's draft: a statement ruff cannot fix safely, rewritten by the model as code.

Everything but the model is real (ruff, the ``.pym`` tools, Monty, the workspace);
the completions and turns are scripted.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from bundled_agents_support import run_scripted_on_file, write_project

from remora.providers.scripted import tool_turn
from remora.sandbox import SandboxRuntime

pytestmark = pytest.mark.integration

SOURCE = "def check(x):\n    if x == None:\n        return 0\n    return x\n"
# E711 is not among ruff's default rules.
FILES = {"m.py": SOURCE, "ruff.toml": '[lint]\nselect = ["E", "F"]\n'}


async def test_a_drafted_fix_that_passes_the_checks_needs_no_model_turn(
    tmp_path: Path, runtime: SandboxRuntime
) -> None:
    root = write_project(tmp_path, FILES)
    result, provider, written = await run_scripted_on_file(
        runtime, root, "lint", "check", [], completions=["    if x is None:\n"]
    )
    assert result.status == "success", result.to_dict()
    assert written.decode() == SOURCE.replace("x == None", "x is None")
    assert provider.requests == []
    # Asked first after ruff's own example of the rule, the statement in the same shape.
    (asked,) = provider.completion_requests
    assert asked.instruction is None and asked.suffix is None
    assert asked.prefix.startswith("# ruff E711: none-comparison\n# before:\n")
    assert asked.prefix.endswith("# before:\nif x == None:\n# after:\n")


async def test_a_rewrite_that_changes_what_the_code_does_is_refused(
    tmp_path: Path, runtime: SandboxRuntime
) -> None:
    # Parses, E711 is gone, nothing added, no call or read lost: only calling the
    # function before and after shows the condition turned round. The drafts and
    # the model's first edit are refused for it; its second edit is kept.
    root = write_project(tmp_path, FILES)
    wrong, right = "    if x is not None:", "    if x is None:"
    turns = [
        tool_turn(("edit_node", {"issue_code": "E711", "replacement": wrong})),
        tool_turn(("edit_node", {"issue_code": "E711", "replacement": right})),
    ]
    result, provider, written = await run_scripted_on_file(
        runtime, root, "lint", "check", turns, completions=[wrong + "\n"] * 3
    )
    assert result.status == "success", result.to_dict()
    assert written.decode() == SOURCE.replace("x == None", "x is None")
    assert len(provider.completion_requests) == 3  # every shape was asked, each refused
    refusal = str(provider.requests[1].messages[-1].results[0].payload)
    assert "the rewrite changes what the code does: called with" in refusal, refusal
    assert "returned 0 after" in refusal, refusal


async def test_a_refused_draft_leaves_the_finding_to_the_model_with_the_reason(
    tmp_path: Path, runtime: SandboxRuntime
) -> None:
    root = write_project(tmp_path, FILES)
    turns = [tool_turn(("edit_node", {"issue_code": "E711", "replacement": "    if x is None:"}))]
    result, provider, written = await run_scripted_on_file(
        runtime, root, "lint", "check", turns, completions=["    if x == None:  # fine\n"]
    )
    assert result.status == "success", result.to_dict()
    assert written.decode() == SOURCE.replace("x == None", "x is None")
    (turn,) = provider.requests
    # The model's turn shows the finding still there, as after the draft.
    assert "E711 at line 2" in turn.messages[1].text


RET504_SOURCE = (
    "def total(prices):\n    subtotal = sum(prices)\n    result = subtotal * 2\n    return result\n"
)


async def test_a_fix_over_two_statements_is_asked_and_written_as_one_unit(
    tmp_path: Path, runtime: SandboxRuntime
) -> None:
    # RET504 is reported on the return, but ruff's (unsafe) fix spans the
    # assignment too: the unit shown and replaced holds both statements.
    files = {"m.py": RET504_SOURCE, "ruff.toml": '[lint]\nselect = ["RET"]\n'}
    root = write_project(tmp_path, files)
    result, provider, written = await run_scripted_on_file(
        runtime, root, "lint", "total", [], completions=["return subtotal * 2\n"]
    )
    assert result.status == "success", result.to_dict()
    assert written.decode() == (
        "def total(prices):\n    subtotal = sum(prices)\n    return subtotal * 2\n"
    )
    (asked,) = provider.completion_requests
    assert asked.prefix.startswith("# ruff RET504: unnecessary-assign\n")


async def test_a_draft_is_cut_to_the_length_of_its_unit(
    tmp_path: Path, runtime: SandboxRuntime
) -> None:
    # Shown E711's example (`if arg is not None:` over `pass`), the model goes on
    # with the example's body under the header; only the header's line is taken.
    root = write_project(tmp_path, FILES)
    result, _, written = await run_scripted_on_file(
        runtime, root, "lint", "check", [], completions=["if x is None:\n    pass\n"]
    )
    assert result.status == "success", result.to_dict()
    assert written.decode() == SOURCE.replace("x == None", "x is None")


async def test_a_rewrite_of_code_that_writes_into_the_project_is_not_taken_on_trust(
    tmp_path: Path, runtime: SandboxRuntime
) -> None:
    # The check calls the code on the project read-only: a call that writes into it
    # raises there before and after alike, which compares nothing; the draft is refused
    # (in a copy of the project it was kept: the same file written, the same answer).
    source = (
        "def save(x):\n    if x == None:\n        x = ''\n"
        "    with open('saved.txt', 'w') as out:\n        out.write(x)\n    return x\n"
    )
    root = write_project(tmp_path, {**FILES, "m.py": source})
    _, provider, written = await run_scripted_on_file(
        runtime, root, "lint", "save", [], completions=["    if x is None:\n"] * 3
    )
    assert written == source.encode()
    assert not (root / "saved.txt").exists()
    assert len(provider.completion_requests) == 3  # every shape asked, each refused


F841_SOURCE = "def count(items):\n    unused = 1\n    return len(items)\n"


async def test_an_empty_draft_deletes_nothing(tmp_path: Path, runtime: SandboxRuntime) -> None:
    # A model that writes nothing has not proposed deleting the statement: taken as the
    # statement's new text, an empty draft removed `unused = 1` (the finding gone, nothing
    # called, an assignment dropped with its reads) and left its indentation behind.
    files = {"m.py": F841_SOURCE, "ruff.toml": '[lint]\nselect = ["F"]\n'}
    root = write_project(tmp_path, files)
    _, provider, written = await run_scripted_on_file(
        runtime, root, "lint", "count", [], completions=["", "\n", "  \n"]
    )
    assert written == F841_SOURCE.encode()
    assert len(provider.completion_requests) == 3  # every shape asked, none taken


async def test_an_edit_that_deletes_the_statement_removes_its_lines(
    tmp_path: Path, runtime: SandboxRuntime
) -> None:
    # The model's own edit may delete the statement (F841's unused variable): its lines
    # go, not its text alone, which left a line of spaces behind.
    files = {"m.py": F841_SOURCE, "ruff.toml": '[lint]\nselect = ["F"]\n'}
    root = write_project(tmp_path, files)
    turns = [tool_turn(("edit_node", {"issue_code": "F841", "replacement": ""}))]
    result, _, written = await run_scripted_on_file(
        runtime, root, "lint", "count", turns, completions=[""] * 3
    )
    assert result.status == "success", result.to_dict()
    assert written.decode() == "def count(items):\n    return len(items)\n"
