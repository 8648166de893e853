"""Which formatter a project declares, and black's settings given to ruff format as ruff's."""

from __future__ import annotations

from pathlib import Path

import pytest

from remora.code import CodeContext
from remora.code.formatter import format_ranges, formatter_settings
from remora.config import SandboxConfig
from remora.workspace import WorkspaceStore


@pytest.mark.parametrize(
    ("files", "settings"),
    [
        ({}, None),  # nothing declared: the project's own layout
        ({"pyproject.toml": "[tool.ruff.lint]\nselect = ['E']\n"}, None),  # a linter only
        ({"pyproject.toml": "[tool.ruff.format]\nquote-style = 'single'\n"}, []),
        (
            {
                "pyproject.toml": (
                    "[tool.black]\nline-length = 100\nskip-magic-trailing-comma = true\n"
                )
            },
            ["--config", "line-length=100", "--config", "format.skip-magic-trailing-comma=true"],
        ),
        (
            {".pre-commit-config.yaml": "repos:\n- repo: x\n  hooks:\n  - id: black\n"},
            [],
        ),
        ({"requirements-dev.txt": "black==24.1.0\n"}, []),
    ],
)
def test_the_declared_formatter_and_its_settings(
    tmp_path: Path, files: dict[str, str], settings: list[str] | None
) -> None:
    (tmp_path / "m.py").write_text("x = 1\n")
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    with WorkspaceStore(tmp_path).create("t", "n") as workspace:
        assert formatter_settings(CodeContext(workspace, None, SandboxConfig())) == settings


NESTED = """\
class Schema:
    def compile(self, schema):
        def check(path, data):
            if not isinstance(data, dict):
                raise ValueError('expected a {0!r}'.format(schema))
            return data

        return check

    def extend(self, schema):
        assert isinstance(self.schema, dict) and isinstance(
            schema, dict
        ), 'Both schemas must be dictionary-based'
        return schema
"""


async def test_a_range_whose_formatting_reaches_past_it_is_left_as_written(
    tmp_path: Path,
) -> None:
    # ruff format --range on a line of a nested function also rewrote an assert of another
    # method (voluptuous' Schema.extend, black-formatted): that is not the change's to make.
    (tmp_path / "m.py").write_text(NESTED)
    fixed = NESTED.replace("'expected a {0!r}'.format(schema)", "f'expected a {schema!r}'")
    with WorkspaceStore(tmp_path).create("t", "n") as workspace:
        context = CodeContext(workspace, None, SandboxConfig())
        settings = ["--config", "format.quote-style='preserve'"]
        assert await format_ranges(context, "m.py", NESTED, fixed, settings) == fixed
        # A range formatted within itself is taken.
        plain = "def f(x):\n    return x\n"
        split = "def f(x):\n    return (\n  x)\n"
        assert await format_ranges(context, "m.py", plain, split, settings) == plain
