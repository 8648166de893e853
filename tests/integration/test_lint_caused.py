"""A lint fix leaves no finding it caused: an import it made unused goes in the same change.

Issue 57's reviewers found UP006/UP035 fixes that left their ``typing`` imports
unused. Ruff runs on the whole file after the fix; what it reports that it did
not before gets ruff's own safe fix, or the fix is refused. Everything is real
(ruff, the ``.pym`` tools, Monty, the workspace).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from bundled_agents_support import bench, find_node, write_project

pytestmark = pytest.mark.integration

SOURCE = (
    "from typing import Dict, List\n\n\n"
    "def total(values: List[int]) -> int:\n    return sum(values)\n\n\n"
    "def table(rows: Dict[str, int]) -> int:\n    return len(rows)\n"
)


def project(tmp_path: Path, rel: str, source: str) -> Path:
    root = write_project(tmp_path, {rel: source})
    with (root / "pyproject.toml").open("a") as handle:
        handle.write('\n[tool.ruff.lint]\nselect = ["F", "UP"]\n')
    return root


async def test_a_fix_that_leaves_an_import_unused_removes_it(tmp_path: Path) -> None:
    root = project(tmp_path, "m.py", SOURCE)
    node = find_node(root, "m.py", "total")
    async with bench(root) as b:
        result = await b.run("lint", "fix_safe", node)
        text = b.text("lint", node, "m.py")
    assert result["applied"] == ["UP006"] and result["remaining"] == []
    # `List` is no longer used: ruff's own F401 fix takes it out of the import, outside
    # the function's lines, in the same change. `Dict` is still used by `table`.
    assert text == SOURCE.replace("List[int]", "list[int]").replace("Dict, List", "Dict")


async def test_the_last_use_of_an_import_removes_the_whole_statement(tmp_path: Path) -> None:
    source = "from typing import List\n\n\ndef total(values: List[int]) -> int:\n    return 1\n"
    root = project(tmp_path, "m.py", source)
    node = find_node(root, "m.py", "total")
    async with bench(root) as b:
        await b.run("lint", "fix_safe", node)
        text = b.text("lint", node, "m.py")
    # The import's line goes with the blank lines it would leave at the file's start.
    assert text == "def total(values: list[int]) -> int:\n    return 1\n"


async def test_a_fix_whose_caused_finding_ruff_cannot_fix_safely_is_refused(
    tmp_path: Path,
) -> None:
    # In a package's __init__.py an unused import may be a re-export: ruff's F401 fix
    # there is not safe, so the UP006 fix that would leave it is not made.
    root = project(tmp_path, "pkg/__init__.py", SOURCE)
    node = find_node(root, "pkg/__init__.py", "total")
    async with bench(root) as b:
        result = await b.run("lint", "fix_safe", node)
        text = b.text("lint", node, "pkg/__init__.py")
    assert result["applied"] == [] and [f["code"] for f in result["remaining"]] == ["UP006"]
    assert text == SOURCE


async def test_branches_joined_into_and_or_get_the_parentheses_a_reader_needs(
    tmp_path: Path,
) -> None:
    # SIM114 joins two branches with the same body into `a and b or c`: correct, and two
    # blind reviewers asked for the parentheses. RUF021's fix adds them, though the
    # project selects only SIM; a chain the code had before is left as it was.
    source = (
        "def best(entries, wanted):\n    out = None\n    for entry in entries:\n"
        "        if entry.include and wanted:\n            out = entry\n"
        "        elif entry.rank > 0:\n            out = entry\n"
        "    return out or entries and entries[0] or None\n"
    )
    root = write_project(tmp_path, {"m.py": source})
    with (root / "pyproject.toml").open("a") as handle:
        handle.write('\n[tool.ruff.lint]\nselect = ["SIM"]\n')
    node = find_node(root, "m.py", "best")
    async with bench(root) as b:
        result = await b.run("lint", "fix_safe", node)
        text = b.text("lint", node, "m.py")
    assert result["applied"] == ["SIM114"]
    assert "        if (entry.include and wanted) or entry.rank > 0:\n" in text
    assert "    return out or entries and entries[0] or None\n" in text


async def _file_fixed(tmp_path: Path, source: str) -> str:
    """The file ``m.py`` after ruff's safe fixes on its file node."""
    root = project(tmp_path, "m.py", source)
    node = find_node(root, "m.py")
    async with bench(root) as b:
        await b.run("lint", "fix_safe", node)
        return b.text("lint", node, "m.py")


async def test_an_import_a_fix_adds_goes_where_the_files_order_puts_it(tmp_path: Path) -> None:
    # UP035's fix adds `from collections.abc import Iterator` after `from typing`; in a file
    # whose imports were sorted a reviewer moved it above by hand. I001's fix moves it,
    # though the project selects no I rule.
    source = (
        "import re\nfrom typing import Iterator, Optional\n\n\n"
        "def words(text: str) -> Iterator[str]:\n    return iter(re.findall('w', text))\n\n\n"
        "def first(text: str) -> Optional[str]:\n    return next(words(text), None)\n"
    )
    text = await _file_fixed(tmp_path, source)
    assert text.startswith("import re\nfrom collections.abc import Iterator\nfrom typing import ")


async def test_a_file_whose_imports_were_not_sorted_is_not_sorted_now(tmp_path: Path) -> None:
    source = (
        "from typing import Iterator\nimport re\n\n\n"
        "def words(text: str) -> Iterator[str]:\n    return iter(re.findall('w', text))\n"
    )
    text = await _file_fixed(tmp_path, source)
    # UP035's own placement, and `import re` still after it, as the file had it.
    assert text.startswith("from collections.abc import Iterator\nimport re\n")
