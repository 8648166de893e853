"""The imports accepted changes made unused: used before, unused after (real ruff), and only
those removed; an import already unused, one the change added, a re-export stay."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from remora.code import CodeContext
from remora.code.lint.made_unused import made_unused, remove_made_unused
from remora.code.lint.ruff_runs import ruff_json
from remora.code.parsing import ParsedFile
from remora.config import SandboxConfig
from remora.workspace import WorkspaceStore

# Two functions use Optional; `Any` was unused before any change.
BEFORE = """\
from typing import Any, Optional


def first(x: Optional[int]) -> int:
    return x or 0


def second(x: Optional[str]) -> str:
    return x or ""
"""
FIRST_ONLY = BEFORE.replace("x: Optional[int]", "x: int | None")
BOTH = FIRST_ONLY.replace("x: Optional[str]", "x: str | None")


@pytest.fixture
def context(tmp_path: Path) -> Iterator[CodeContext]:
    (tmp_path / "pyproject.toml").write_text('[tool.ruff.lint]\nselect = ["F"]\n')
    with WorkspaceStore(tmp_path).create("lint", "n") as workspace:
        yield CodeContext(workspace, None, SandboxConfig())


async def chosen(context: CodeContext, path: str, before: str, after: str) -> list[str]:
    old, new = ParsedFile(before, path), ParsedFile(after, path)
    records = await ruff_json(context, path, before), await ruff_json(context, path, after)
    return [item.label for item in made_unused(old, new, *records)]


async def test_only_an_import_used_before_and_unused_after_is_made_unused(
    context: CodeContext,
) -> None:
    # One change alone: `second` still uses Optional; Any was unused before it.
    assert await chosen(context, "pkg/m.py", BEFORE, FIRST_ONLY) == []
    # Both: Optional goes; Any, unused before, is the project's business.
    assert await chosen(context, "pkg/m.py", BEFORE, BOTH) == ["from typing import Optional"]
    # From the file with the first change in: the second change alone makes it unused.
    assert await chosen(context, "pkg/m.py", FIRST_ONLY, BOTH) == ["from typing import Optional"]


async def test_an_import_the_change_added_a_re_export_and_an_init_stay(
    context: CodeContext,
) -> None:
    added = BOTH.replace(
        "from typing import Any, Optional\n", "import os\n" + "from typing import Any, Optional\n"
    )
    assert await chosen(context, "pkg/m.py", BEFORE, added) == ["from typing import Optional"]
    exported = "__all__ = ['Optional']\n"
    assert await chosen(context, "pkg/m.py", BEFORE + exported, BOTH + exported) == []
    assert await chosen(context, "pkg/__init__.py", BEFORE, BOTH) == []


async def test_a_statement_keeps_the_names_that_were_already_unused(
    context: CodeContext,
) -> None:
    text, removed = await remove_made_unused(context, "pkg/m.py", BEFORE, BOTH)
    assert removed == ["from typing import Optional"]
    # ruff's own fix would take Any with it: only Optional is dropped
    assert text == BOTH.replace("from typing import Any, Optional\n", "from typing import Any\n")


async def test_a_statement_of_made_unused_names_goes_whole_with_ruffs_fix(
    context: CodeContext,
) -> None:
    before = (
        "import os\nfrom typing import Optional, Union\n\n\n"
        "def f(x: Optional[int]) -> Union[int, str]:\n    return os.sep\n"
    )
    after = before.replace("Optional[int]", "int | None").replace("Union[int, str]", "int | str")
    text, removed = await remove_made_unused(context, "pkg/m.py", before, after)
    assert removed == ["from typing import Optional", "from typing import Union"]
    assert text == after.replace("from typing import Optional, Union\n", "")


async def test_parenthesised_and_aliased_imports_lose_only_the_name(
    context: CodeContext,
) -> None:
    before = (
        "from typing import (\n    Dict,\n    Optional as Opt,\n)\n\n\n"
        "def f(x: Opt[int]) -> Dict[str, int]:\n    return {}\n"
    )
    after = before.replace("x: Opt[int]", "x: int | None")
    text, removed = await remove_made_unused(context, "pkg/m.py", before, after)
    assert removed == ["from typing import Optional as Opt"]
    assert text == after.replace("    Optional as Opt,\n", "")
