"""A lint fix is laid out as the project's formatter lays it out, where it declares one.

A blind review sent back 10 of a project's 54 lint fixes because ``black --check`` (its
tox env) failed on them: UP008's ``super().__init__(`` left over three lines where it now
fits on one, and a drafted ``Optional[str]`` -> ``str | None`` that dropped the signature's
trailing comma. Ruff, the ``.pym`` tools, Monty and the workspace are real; the draft is
scripted.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from bundled_agents_support import bench, find_node, run_scripted_on_file, write_project

from remora.sandbox import SandboxRuntime

pytestmark = pytest.mark.integration

SOURCE = """\
class Base:
    def __init__(self, schema, msg=None):
        self.schema = schema


class Inclusive(Base):
    def __init__(self, schema, msg=None):
        super(Inclusive, self).__init__(
            schema, msg='kept quotes'
        )
"""
BLACK = "[tool.black]\nskip-string-normalization = true\n"
UP = '[tool.ruff.lint]\nselect = ["UP"]\n'


def _project(tmp_path: Path, files: dict[str, str], black: bool) -> Path:
    root = write_project(tmp_path, files)
    with (root / "pyproject.toml").open("a") as handle:
        handle.write("\n" + UP + (BLACK if black else ""))
    return root


@pytest.mark.parametrize("black", [True, False])
async def test_a_safe_fix_is_laid_out_by_the_project_s_formatter(
    tmp_path: Path, black: bool
) -> None:
    root = _project(tmp_path, {"m.py": SOURCE}, black)
    node = find_node(root, "m.py", "Inclusive.__init__")
    async with bench(root) as b:
        result = await b.run("lint", "fix_safe", node)
        text = b.text("lint", node, "m.py")
    assert result["applied"] == ["UP008"]
    if black:  # joined where it fits; black's skip-string-normalization keeps the quotes
        joined = "        super().__init__(schema, msg='kept quotes')\n"
        assert text == SOURCE[: SOURCE.index("        super(")] + joined
    else:  # no formatter declared: the project's own layout
        assert text == SOURCE.replace("super(Inclusive, self)", "super()")


TYPED = """\
from __future__ import annotations

import typing


def clamp(
    value: int,
    low: int = 0,
    note: typing.Optional[str] = None,
) -> int:
    return max(low, value)
"""


async def test_a_drafted_fix_keeps_the_layout_of_ruff_s_own(
    tmp_path: Path, runtime: SandboxRuntime
) -> None:
    # UP045's fix is unsafe here (ruff cannot tell the annotation is never evaluated at
    # run time on 3.9), so the model drafts it: without the trailing comma black keeps.
    files = {"m.py": TYPED, "ruff.toml": 'target-version = "py39"\n[lint]\nselect = ["UP"]\n'}
    root = write_project(tmp_path, files)
    drafted = "    note: str | None = None\n"
    result, _provider, written = await run_scripted_on_file(
        runtime, root, "lint", "clamp", [], completions=[drafted] * 3
    )
    assert result.status == "success", result.to_dict()
    assert written.decode() == TYPED.replace("typing.Optional[str]", "str | None")
