"""An ``I001`` fix that only lays the same imports out otherwise is churn where nothing
configures an import order; one that moves an import is a fix. Real ruff gives the records."""

from __future__ import annotations

import json
import subprocess
from typing import Any

import pytest

from remora.code.lint.import_order import only_layout
from remora.sandbox.commands import resolve_executable


def _i001(text: str) -> dict[str, Any]:
    argv = [resolve_executable("ruff"), "check", "--select", "I001", "--output-format=json"]
    argv += ["--isolated", "--exit-zero", "--stdin-filename", "m.py", "-"]
    run = subprocess.run(argv, input=text, capture_output=True, text=True, check=True)
    [record] = json.loads(run.stdout)
    return record  # type: ignore[no-any-return]


@pytest.mark.parametrize(
    ("text", "layout"),
    [
        # The blank line between `import` and `from` of one section, removed.
        ("import re\n\nfrom collections.abc import Mapping\n\nx = re, Mapping\n", True),
        # A name moved into its place, and a module moved: the order changes.
        ("from typing import Set, AbstractSet\n\nx = Set, AbstractSet\n", False),
        ("import sys\nimport os\n\nx = sys, os\n", False),
    ],
)
def test_a_fix_of_the_layout_alone_is_told_from_a_reorder(text: str, layout: bool) -> None:
    assert only_layout(_i001(text), text.encode("utf-8")) is layout


def test_a_record_without_a_fix_is_no_layout() -> None:
    assert only_layout({"code": "I001"}, b"import re\n") is False
