"""Which type checker a project uses, and a type-changing fix refused where it cannot be run.

Made-up projects in a real workspace; mypy itself runs in the integration tests
(``tests/integration/test_lint_type_checks.py``).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from remora.code import CodeContext
from remora.code.lint.type_checks import configured_checkers, type_check_refusal
from remora.config import SandboxConfig
from remora.workspace import WorkspaceStore

PROJECT = '[project]\nname = "demo"\nversion = "0.1"\n'
BEFORE = "from typing import Any\n\n\ndef same(a: int, b: Any) -> bool:\n    return a == b\n"
AFTER = BEFORE.replace("b: Any", "b: object")


def _context(root: Path, files: dict[str, str], config: SandboxConfig | None = None) -> CodeContext:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    workspace = WorkspaceStore(root).create("lint", "n")
    return CodeContext(workspace, None, config or SandboxConfig())


@pytest.mark.parametrize(
    ("files", "checkers"),
    [
        ({"pyproject.toml": PROJECT}, ()),
        ({"pyproject.toml": PROJECT + "\n[tool.mypy]\nstrict = true\n"}, ("mypy",)),
        ({"pyproject.toml": PROJECT, "mypy.ini": "[mypy]\n"}, ("mypy",)),
        (
            {"pyproject.toml": PROJECT, "setup.cfg": "[mypy-demo.*]\nignore_errors = True\n"},
            ("mypy",),
        ),
        (
            {
                "pyproject.toml": PROJECT
                + '\n[project.optional-dependencies]\ndev = ["mypy>=1.0"]\n'
            },
            ("mypy",),
        ),
        ({"pyproject.toml": PROJECT, "requirements-dev.txt": "pytest\nmypy==1.11\n"}, ("mypy",)),
        (
            {
                "pyproject.toml": PROJECT,
                ".pre-commit-config.yaml": "repos:\n- repo: local\n  hooks:\n  - id: mypy\n",
            },
            ("mypy",),
        ),
        ({"pyproject.toml": PROJECT, "pyrightconfig.json": "{}\n"}, ("pyright",)),
        ({"pyproject.toml": PROJECT + "\n[tool.pyright]\n"}, ("pyright",)),
        # A setup.cfg with other tools' sections only: no checker.
        ({"pyproject.toml": PROJECT, "setup.cfg": "[flake8]\nmax-line-length = 88\n"}, ()),
    ],
)
def test_the_projects_type_checker_is_found_in_its_settings_and_requirements(
    tmp_path: Path, files: dict[str, str], checkers: tuple[str, ...]
) -> None:
    assert configured_checkers(_context(tmp_path, files)) == checkers


async def test_no_checker_configured_keeps_the_fix(tmp_path: Path) -> None:
    context = _context(tmp_path, {"pyproject.toml": PROJECT, "m.py": BEFORE})
    assert await type_check_refusal(context, "m.py", BEFORE, AFTER) == ""


async def test_a_fix_that_changes_no_annotations_meaning_asks_no_checker(tmp_path: Path) -> None:
    # pyright is never run: were the rewrite taken for a change, it would be refused.
    context = _context(tmp_path, {"pyproject.toml": PROJECT + "\n[tool.pyright]\n"})
    before = "from typing import List\n\n\ndef f(xs: List[int]) -> None: ...\n"
    after = "\n\ndef f(xs: list[int]) -> None: ...\n"
    assert await type_check_refusal(context, "m.py", before, after) == ""


async def test_pyright_which_remora_does_not_run_refuses_the_fix(tmp_path: Path) -> None:
    context = _context(tmp_path, {"pyproject.toml": PROJECT, "pyrightconfig.json": "{}\n"})
    reason = await type_check_refusal(context, "m.py", BEFORE, AFTER)
    assert "same parameter b: Any -> object" in reason, reason
    assert "pyright" in reason, reason


async def test_mypy_configured_where_the_sandbox_may_not_run_it_refuses_the_fix(
    tmp_path: Path,
) -> None:
    # Running the project's tools is not allowed here: the checker cannot say, so no fix.
    files = {"pyproject.toml": PROJECT + "\n[tool.mypy]\n", "m.py": BEFORE}
    context = _context(tmp_path, files, SandboxConfig(commands=[["ruff"]]))
    reason = await type_check_refusal(context, "m.py", BEFORE, AFTER)
    assert reason.startswith("the fix changes what a type checker accepts"), reason
    assert "mypy could not be run" in reason, reason
