"""The project's declared distribution, read from its own files for the sandbox's
``.dist-info``: PKG-INFO, then pyproject.toml's [project], then setup.cfg's [metadata]."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from remora.sandbox.project_metadata import declared_distribution, metadata_path


def _reader(files: dict[str, str]) -> Callable[[str], bytes | None]:
    return lambda name: files[name].encode() if name in files else None


@pytest.mark.parametrize(
    ("files", "declared"),
    [
        # An sdist's: PKG-INFO first.
        (
            {
                "PKG-INFO": "Metadata-Version: 2.1\nName: shelf_kit\nVersion: 2.1.0\n",
                "setup.cfg": "[metadata]\nname = shelf_kit\nversion = 2.1.0\n",
            },
            ("shelf_kit", "2.1.0"),
        ),
        ({"pyproject.toml": '[project]\nname = "shelf"\nversion = "1.2"\n'}, ("shelf", "1.2")),
        # A version computed at build time is any version: the lookup only needs one.
        (
            {"pyproject.toml": '[project]\nname = "shelf"\ndynamic = ["version"]\n'},
            ("shelf", "0"),
        ),
        (
            {"setup.cfg": "[metadata]\nname = shelf\nversion = attr: shelf.VERSION\n"},
            ("shelf", "0"),
        ),
        # pyproject.toml without [project] (a tool's settings only) names nothing: setup.cfg.
        (
            {"pyproject.toml": "[tool.black]\n", "setup.cfg": "[metadata]\nname = shelf\n"},
            ("shelf", "0"),
        ),
        ({"pyproject.toml": "not = [toml"}, None),
        ({"setup.cfg": "no section header"}, None),
        ({}, None),
    ],
)
def test_the_first_file_that_names_the_distribution_says_it(
    files: dict[str, str], declared: tuple[str, str] | None
) -> None:
    assert declared_distribution(_reader(files)) == declared


def test_the_metadata_is_written_under_the_sandbox_s_home(tmp_path: Path) -> None:
    files = {"pyproject.toml": '[project]\nname = "shelf-kit"\nversion = "1.2"\n'}
    folder = metadata_path(_reader(files), tmp_path)
    assert folder == tmp_path / ".remora-site"
    metadata = folder / "shelf_kit-1.2.dist-info" / "METADATA"
    assert metadata.read_text() == "Metadata-Version: 2.1\nName: shelf-kit\nVersion: 1.2\n"


def test_nothing_is_written_for_a_distribution_installed_here_or_none_declared(
    tmp_path: Path,
) -> None:
    # pytest is installed in this interpreter's environment: the real one answers.
    installed = {"pyproject.toml": '[project]\nname = "pytest"\nversion = "0.1"\n'}
    assert metadata_path(_reader(installed), tmp_path) is None
    assert metadata_path(_reader({}), tmp_path) is None
    assert not (tmp_path / ".remora-site").exists()
