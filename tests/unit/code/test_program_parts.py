"""A program sent in parts (``sandboxed.PROGRAM_PARTS``) is one text that runs without Remora.

The call probe is two modules of ``code/probes/programs/`` (its arguments built, then the
calls made and reported); the sandbox receives them as one ``python -`` text, where
Remora's own package cannot be imported: the later part's import of the earlier one and
its ``from __future__`` line are left out, and every definition of each part is kept.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from importlib import resources
from pathlib import Path

import pytest

from remora.code.probes.sandboxed import MARKER, PROGRAM_PARTS, _program_text, program_source

PROGRAMS = resources.files("remora.code.probes.programs")


def _definitions(text: str) -> set[str]:
    names: set[str] = set()
    for statement in ast.parse(text).body:
        if isinstance(statement, ast.FunctionDef | ast.ClassDef):
            names.add(statement.name)
        elif isinstance(statement, ast.Assign):
            names.update(t.id for t in statement.targets if isinstance(t, ast.Name))
    return names


def _imported_modules(text: str) -> set[str]:
    tree = ast.parse(text)
    found = {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    return found | {n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}


@pytest.mark.parametrize("program", sorted(PROGRAM_PARTS))
def test_a_program_in_parts_keeps_every_definition_and_imports_no_remora(program: str) -> None:
    parts = PROGRAM_PARTS[program]
    assert parts[-1] == program and len(parts) > 1
    text = program_source(parts)
    defined = _definitions(text)
    for part in parts:
        assert _definitions(PROGRAMS.joinpath(f"{part}.py").read_text("utf-8")) <= defined
    assert not {m for m in _imported_modules(text) if m.split(".")[0] == "remora"}
    assert text.count("from __future__ import annotations") == 1
    assert text.startswith(PROGRAMS.joinpath(f"{parts[0]}.py").read_text("utf-8"))


def test_a_program_of_one_module_is_its_text() -> None:
    text = PROGRAMS.joinpath("mutation_run.py").read_text("utf-8")
    assert program_source(("mutation_run",)) == text


def test_the_call_probe_runs_where_remora_cannot_be_imported(tmp_path: Path) -> None:
    # -S: no site-packages, so neither Remora nor any installed package; -I: not the cwd's
    # modules either, beyond the request's own path (as the sandbox shows the project).
    (tmp_path / "probed.py").write_text(
        "class Box:\n    def __init__(self, size):\n        self.size = size\n\n\n"
        "def grow(box, by, /, *more):\n    return box.size + by + sum(more)\n"
    )
    request = {
        "module": "probed",
        "qualname": "grow",
        "kind": "function",
        "owner": None,
        "owner_args": {},
        "paths": [str(tmp_path)],
        "sets": [{"name": "one", "args": {"box": {"__class__": "Box", "args": {"size": 2}},
                                           "by": 3, "more": [4, 5]}}],
        "call": True,
        "observe": [],
        "timeout_s": 10,
    }  # fmt: skip
    run = subprocess.run(
        [sys.executable, "-S", "-I", "-"],
        input=_program_text("call_probe", request, None),
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=True,
    )
    line = next(x for x in run.stdout.splitlines() if x.startswith(MARKER))
    (outcome,) = json.loads(line[len(MARKER) :])["outcomes"]
    assert outcome["binds"] and outcome["returned"]["repr"] == "14", outcome
