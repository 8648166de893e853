"""A constructor parameter handed on to the base class takes the base's default, and one
the module defaults elsewhere that default (through ``owner_arguments``).

Made-up project: a base in one module with ``k=3``, subclasses in another that pass
their required ``k`` on through ``super().__init__``, ``Base.__init__(self, ...)`` and
by keyword, and ones that change it first, spread it, or hand on ``None``. Real ``ast``,
a real workspace, no sandbox.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from remora.code.context import CodeContext
from remora.code.probes.calls import node_call_target
from remora.code.values.class_lookup import class_lookup
from remora.code.values.forwarded_defaults import forwarded_defaults
from remora.code.values.parameters import Parameter
from remora.code.values.project_values import owner_arguments
from remora.config import SandboxConfig
from remora.discovery import CSTNode, make_node_id
from remora.workspace import WorkspaceStore

BASE = """\
class Shingled:
    def __init__(self, k=3, label=None):
        self.k = k
        self.label = label
"""

KINDS = """\
from .base import Shingled


class Overlap(Shingled):
    def __init__(self, k):
        super().__init__(k)

    def similar(self, a, b):
        return len(a) >= self.k and a[: self.k] == b[: self.k]


class Named(Shingled):
    def __init__(self, size, label):
        Shingled.__init__(self, k=size, label=label)


class Doubled(Shingled):
    def __init__(self, k):
        k = k * 2
        super().__init__(k)


class Spread(Shingled):
    def __init__(self, *rest, k):
        super().__init__(*rest, k)


def framed(text, width=72):
    return Frame(text, width)


class Frame:
    def __init__(self, text, width: int):
        self.width = width

    def fits(self, line):
        return len(line) <= self.width
"""


def _owner(tmp_path: Path, qualname: str) -> dict[str, Any]:
    (tmp_path / "text").mkdir(exist_ok=True)
    (tmp_path / "text" / "__init__.py").write_text("")
    (tmp_path / "text" / "base.py").write_text(BASE)
    (tmp_path / "text" / "kinds.py").write_text(KINDS)
    line = next(
        number
        for number, text in enumerate(KINDS.splitlines(), 1)
        if text.strip().startswith(f"def {qualname.split('.')[-1]}(")
    )
    start = sum(len(x) + 1 for x in KINDS.splitlines()[: line - 1])
    node = CSTNode(
        make_node_id("text/kinds.py", qualname, "method"), "method", qualname.split(".")[-1],
        qualname, "text/kinds.py", start, start + 10, line, line + 1, KINDS[start : start + 10],
    )  # fmt: skip
    with WorkspaceStore(tmp_path).create("test", node.node_id) as workspace:
        context = CodeContext(workspace, node, SandboxConfig())
        return owner_arguments(context, node_call_target(context))


def test_a_method_s_instance_gets_the_base_s_default_for_what_it_hands_on(
    tmp_path: Path,
) -> None:
    # Derived from its name alone, k was the made-up string "sample k", which every
    # comparison with it rejects.
    assert _owner(tmp_path, "Overlap.similar") == {"k": 3}


def test_a_method_s_instance_gets_the_default_the_module_gives_that_name(
    tmp_path: Path,
) -> None:
    # sibling_defaults: the module's framed(text, width=72) builds the Frame
    assert _owner(tmp_path, "Frame.fits")["width"] == 72


@pytest.mark.parametrize(
    ("class_name", "own", "expected"),
    [
        # by keyword through Base.__init__(self, ...); the base's None default is no value
        ("Named", ["size", "label"], {"size": 3}),
        # changed on the way: the base's default says nothing of what the caller passes
        ("Doubled", ["k"], {}),
        # after a spread the positions are unknown
        ("Spread", ["k"], {}),
    ],
)
def test_only_a_parameter_handed_on_unchanged_to_a_literal_default_gets_it(
    class_name: str, own: list[str], expected: dict[str, Any]
) -> None:
    parameters = [Parameter(name, "positional_or_keyword") for name in own]
    assert forwarded_defaults(KINDS, class_name, parameters, class_lookup(BASE)) == expected


def test_a_parameter_with_its_own_default_keeps_it() -> None:
    source = "class Own(Shingled):\n    def __init__(self, k=5):\n        super().__init__(k)\n"
    parameters = [Parameter("k", "positional_or_keyword", default="5")]
    assert forwarded_defaults(source, "Own", parameters, class_lookup(BASE)) == {}
