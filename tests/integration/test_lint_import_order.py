"""I001 only where the project keeps an import order: real ruff on invented projects."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from remora.code.lint.import_order import keeps_import_order
from remora.code.lint.project_rules import configures_import_order

pytestmark = pytest.mark.integration

SORTED = "import os\nimport sys\n\nprint(os, sys)\n"
UNSORTED = "import sys\nimport os\n\nprint(os, sys)\n"


def _project(root: Path, files: dict[str, str], settings: str = "") -> Path:
    (root / "pkg").mkdir(parents=True)
    (root / "pyproject.toml").write_text('[project]\nname = "p"\nversion = "1"\n' + settings)
    for name, text in files.items():
        (root / "pkg" / name).write_text(text)
    return root


def _keeps(root: Path) -> bool:
    return asyncio.run(keeps_import_order(root, "pkg/a.py", 60))


def test_other_modules_unsorted_say_the_project_keeps_no_import_order(tmp_path: Path) -> None:
    root = _project(tmp_path, {"a.py": UNSORTED, "b.py": UNSORTED, "c.py": SORTED})
    assert not configures_import_order(root)
    assert not _keeps(root)


def test_other_modules_sorted_say_it_does(tmp_path: Path) -> None:
    root = _project(tmp_path, {"a.py": UNSORTED, "b.py": SORTED, "c.py": SORTED})
    assert _keeps(root)


def test_a_lone_module_has_nothing_to_tell_and_keeps_its_finding(tmp_path: Path) -> None:
    root = _project(tmp_path, {"a.py": UNSORTED})
    assert _keeps(root)


def test_settings_choose_an_order(tmp_path: Path) -> None:
    ruff = _project(tmp_path / "r", {"a.py": UNSORTED}, "[tool.ruff]\nline-length = 90\n")
    isort = _project(tmp_path / "i", {"a.py": UNSORTED}, "[tool.isort]\nprofile = 'black'\n")
    assert configures_import_order(ruff) and configures_import_order(isort)
