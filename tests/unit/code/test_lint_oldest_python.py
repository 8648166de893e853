"""Ruff judges a project at the oldest Python it supports, or holds its findings back.

Invented projects: one that still supports Python 2.7 (setup.py's ``python_requires``,
tox's envlist), one that requires 3.8 (ruff reads ``requires-python`` itself), one
that sets ruff's ``target-version``, and one that says nothing (ruff's default). Real
ruff reads the text.
"""

from __future__ import annotations

from pathlib import Path, PurePosixPath

import pytest

from remora.code import CodeContext
from remora.code.lint import oldest_python
from remora.code.lint.oldest_python import documented_rules
from remora.code.lint.removed_lines import tidied
from remora.code.lint.ruff_runs import held_back, ruff_json
from remora.code.python_floor import Floor, project_floor
from remora.config import SandboxConfig
from remora.workspace import WorkspaceStore

SETUP_27 = (
    "from setuptools import setup\n\n"
    "setup(\n    name='tiles',\n    python_requires='>=2.7, !=3.0.*',\n"
    "    classifiers=['Programming Language :: Python :: 2.7'],\n)\n"
)
REQUIRES_38 = '[project]\nname = "tiles"\nversion = "1"\nrequires-python = ">=3.8"\n'
RUFF_UP = '[tool.ruff.lint]\nselect = ["F", "UP"]\n'


def _write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)


def _floor(root: Path, files: dict[str, str]) -> Floor:
    _write(root, files)
    return project_floor(root, PurePosixPath("pkg"), (len(files), hash(str(root))))


@pytest.mark.parametrize(
    ("files", "version", "args"),
    [
        ({"setup.py": SETUP_27}, (2, 7), ["--target-version", "py37"]),
        (
            {"setup.cfg": "[options]\npython_requires = >=3.5\n"},
            (3, 5),
            ["--target-version", "py37"],
        ),
        (
            {"setup.cfg": "[options]\npython_requires = ~=3.9\n"},
            (3, 9),
            ["--target-version", "py39"],
        ),
        (
            {"tox.ini": "[tox]\nenvlist = {py27,py38}-core, lint\n"},
            (2, 7),
            ["--target-version", "py37"],
        ),
        (
            {"tox.ini": "[tox]\nenv_list =\n    py39\n    py312\n"},
            (3, 9),
            ["--target-version", "py39"],
        ),
        (
            {
                "pyproject.toml": '[project]\nname = "t"\nclassifiers = [\n'
                '  "Programming Language :: Python :: 3.12",\n'
                '  "Programming Language :: Python :: 3.10",\n]\n'
            },
            (3, 10),
            ["--target-version", "py310"],
        ),
        # flit's own metadata table, and an sdist's PKG-INFO (core metadata headers)
        (
            {"pyproject.toml": '[tool.flit.metadata]\nmodule = "t"\nrequires-python = ">=2.7"\n'},
            (2, 7),
            ["--target-version", "py37"],
        ),
        (
            {
                "pyproject.toml": "[tool.flit.metadata]\nclassifiers = [\n"
                '  "Programming Language :: Python :: 3.6",\n]\n'
            },
            (3, 6),
            ["--target-version", "py37"],
        ),
        (
            {"PKG-INFO": "Metadata-Version: 2.1\nName: t\nRequires-Python: >=3.5\n"},
            (3, 5),
            ["--target-version", "py37"],
        ),
        (
            {
                "PKG-INFO": "Metadata-Version: 2.1\nName: t\n"
                "Classifier: Programming Language :: Python :: 2.7\n"
                "Classifier: Programming Language :: Python :: 3.8\n"
            },
            (2, 7),
            ["--target-version", "py37"],
        ),
        # A universal wheel installs on Python 2.7; python_requires says more when given.
        ({"setup.cfg": "[bdist_wheel]\nuniversal = 1\n"}, (2, 7), ["--target-version", "py37"]),
        ({"setup.cfg": "[wheel]\nuniversal = true\n"}, (2, 7), ["--target-version", "py37"]),
        ({"setup.cfg": "[bdist_wheel]\nuniversal = 0\n"}, None, []),
        (
            {"setup.cfg": "[options]\npython_requires = >=3.8\n[bdist_wheel]\nuniversal = 1\n"},
            (3, 8),
            ["--target-version", "py38"],
        ),
        # ruff reads requires-python itself (from 3.7 on) and its own target-version: no flag.
        ({"pyproject.toml": REQUIRES_38, "setup.py": SETUP_27}, (3, 8), []),
        ({"ruff.toml": 'target-version = "py311"\n', "setup.py": SETUP_27}, (3, 11), []),
        ({"pkg/pyproject.toml": '[tool.ruff]\ntarget-version = "py39"\n'}, (3, 9), []),
        # A python_requires that is not a literal is not guessed at; nothing else says.
        ({"setup.py": "from setuptools import setup\nsetup(python_requires=LOW)\n"}, None, []),
        ({}, None, []),
    ],
)
def test_the_oldest_python_is_read_in_order(
    tmp_path: Path, files: dict[str, str], version: tuple[int, int] | None, args: list[str]
) -> None:
    floor = _floor(tmp_path, files)
    assert (floor.version, floor.ruff_args()) == (version, args), floor


SOURCE = (
    "from __future__ import division\n\n"
    "from typing import List, Optional\n\n\n"
    "def mean(values: List[float], default: Optional[float] = None) -> float:\n"
    "    return sum(values) / len(values) if values else default or 0.0\n"
)


async def _records(root: Path, files: dict[str, str]) -> tuple[list[str], list[str]]:
    """(the codes ruff_json gives for SOURCE, those held back with the project's reason)."""
    _write(root, {**files, "pkg/m.py": SOURCE})
    with WorkspaceStore(root).create("t", "n") as workspace:
        context = CodeContext(workspace, None, SandboxConfig())
        records = await ruff_json(context, "pkg/m.py", SOURCE)
        held = await held_back(context, "pkg/m.py", SOURCE)
    assert all("supports Python 2.7" in reason for _, reason in held), held
    return sorted(str(r["code"]) for r in records), sorted(str(r["code"]) for r, _ in held)


@pytest.mark.parametrize(
    "files",
    [
        {"setup.py": SETUP_27, "pyproject.toml": RUFF_UP},
        {"tox.ini": "[tox]\nenvlist = py27, py39\n", "pyproject.toml": RUFF_UP},
    ],
)
async def test_a_project_that_supports_python_2_gets_no_finding_that_assumes_a_newer_one(
    tmp_path: Path, files: dict[str, str]
) -> None:
    codes, held = await _records(tmp_path, files)
    # UP010 would remove `from __future__ import division`: `/` changes on Python 2.
    assert codes == [] and "UP010" in held, (codes, held)


async def test_a_project_that_supports_python_26_gets_no_set_literal(tmp_path: Path) -> None:
    # hyperlink (py26 in tox's envlist): C405's `{u"%"}` "is a syntax error on Python 2.6".
    text = "def marks():\n    return set([u'%'])\n"
    rules = '[tool.ruff.lint]\nselect = ["C4"]\n'
    found = {}
    for envlist in ("py26, py27", "py27, py39"):
        root = tmp_path / envlist[:4]
        _write(root, {"tox.ini": f"[tox]\nenvlist = {envlist}\n", "pyproject.toml": rules})
        _write(root, {"pkg/m.py": text})
        with WorkspaceStore(root).create("t", "n") as workspace:
            context = CodeContext(workspace, None, SandboxConfig())
            found[envlist[:4]] = [r["code"] for r in await ruff_json(context, "pkg/m.py", text)]
    assert found == {"py26": [], "py27": ["C405"]}


async def test_requires_python_38_gets_no_fix_for_39_syntax(tmp_path: Path) -> None:
    codes, held = await _records(tmp_path, {"pyproject.toml": REQUIRES_38 + "\n" + RUFF_UP})
    # `division` is part of every Python 3: UP010 stands; `list[float]` needs 3.9, `X | None` 3.10.
    assert codes == ["UP010"] and held == [], codes


async def test_a_project_that_says_nothing_is_judged_at_ruffs_default(tmp_path: Path) -> None:
    codes, held = await _records(tmp_path, {"pyproject.toml": '[project]\nname = "t"\n' + RUFF_UP})
    assert {"UP006", "UP010", "UP045"} <= set(codes) and held == [], codes


def _remove_line(text: str, number: int) -> str:
    data = text.encode()
    lines = data.splitlines(keepends=True)
    start = sum(map(len, lines[: number - 1]))
    return tidied(data, [(start, start + len(lines[number - 1]), b"")]).decode()


@pytest.mark.parametrize(
    ("text", "line", "expected"),
    [
        (
            '"""Doc."""\n\nfrom __future__ import division\n\nimport os\n',
            3,
            '"""Doc."""\n\nimport os\n',
        ),
        ("from __future__ import division\n\n\ndef f():\n    pass\n", 1, "def f():\n    pass\n"),
        ("import os\n\nimport sys\n", 3, "import os\n"),
        (
            "import os\n\nimport sys\n\n\ndef f():\n    pass\n",
            3,
            "import os\n\n\ndef f():\n    pass\n",
        ),
        ("import os\nimport sys\n\nx = 1\n", 2, "import os\n\nx = 1\n"),
        # A blank line inside a string is the string's: the fix's text is kept as it is.
        ('x = """\n\nimport a\n\n"""\n', 3, 'x = """\n\n\n"""\n'),
    ],
)
def test_a_removed_line_leaves_no_doubled_blank_line(text: str, line: int, expected: str) -> None:
    assert _remove_line(text, line) == expected


def test_removals_with_blank_lines_between_are_one() -> None:
    data = b"x = 1\n\nimport a\n\nimport b\n\ny = 2\n"
    assert tidied(data, [(7, 16, b""), (17, 26, b"")]) == b"x = 1\n\ny = 2\n"


async def test_a_ruff_that_cannot_say_in_time_leaves_no_answer_behind(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(oldest_python, "_DOCUMENTED", {})
    assert await documented_rules(0) == frozenset()  # ruff cannot answer in no time
    # asked again: the timeout's empty answer was not kept for the process's life
    assert "UP006" in await documented_rules(60)
