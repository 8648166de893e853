"""A method's instance built as the project builds it, its alike whole numbers made
distinct: ``Version(major=0, minor=0, patch=0)`` hid what ``next_major`` resets."""

from __future__ import annotations

from pathlib import Path

from remora.code.context import CodeContext
from remora.code.probes.calls import node_call_target
from remora.code.values import owner_arguments
from remora.code.values.distinct_numbers import distinct_numbers
from remora.config import SandboxConfig
from remora.discovery import discover
from remora.workspace import WorkspaceStore

RELEASE = """\
class Release:
    def __init__(self, major, minor, patch, final=False):
        self.major, self.minor, self.patch, self.final = major, minor, patch, final

    def next_major(self):
        return Release(self.major + 1, 0, 0)


ZERO = Release(major=0, minor=0, patch=0)
"""


def test_alike_whole_numbers_become_distinct_others_stay() -> None:
    assert distinct_numbers({"major": 0, "minor": 0, "patch": 0, "final": False}) == {
        "major": 1,
        "minor": 2,
        "patch": 3,
        "final": False,
    }
    # Numbers that differ already, a single one, or booleans: as the project wrote them.
    assert distinct_numbers({"major": 2, "minor": 0}) == {"major": 2, "minor": 0}
    assert distinct_numbers({"count": 0, "name": "a"}) == {"count": 0, "name": "a"}
    assert distinct_numbers({"a": True, "b": True}) == {"a": True, "b": True}


def test_a_method_s_instance_from_the_project_s_alike_construction(tmp_path: Path) -> None:
    (tmp_path / "release.py").write_text(RELEASE)
    nodes = discover([tmp_path / "release.py"], project_root=tmp_path).nodes
    node = next(n for n in nodes if n.full_name == "Release.next_major")
    with WorkspaceStore(tmp_path).create("test", node.node_id) as workspace:
        context = CodeContext(workspace, node, SandboxConfig())
        owner = owner_arguments(context, node_call_target(context))
    assert owner == {"major": 1, "minor": 2, "patch": 3}
