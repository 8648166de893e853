"""The test operation on classes whose constructor takes positional-only parameters.

Made-up module: ``Meters`` defines only ``__new__(cls, amount, /)`` (and ``__slots__``),
``Box`` an ``__init__(self, width, height, /)``, and ``fits`` takes a ``Box``. Before: the
probe built every instance as ``Box(width=..., height=...)``, which raises TypeError, and
the test wrote it so too: no method of either class got a test ("no passing test that adds
coverage could be written"). The runner, the sandbox, the probe and pytest are real; the
scripted model only submits.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from bundled_agents_support import find_node, run_bundled_agent, write_project

from remora.providers.scripted import ScriptedProvider, tool_turn

pytestmark = pytest.mark.integration

UNITS = """\
class Meters:
    __slots__ = ("_amount",)

    def __new__(cls, amount: int, /) -> "Meters":
        if amount < 0:
            raise ValueError("negative length")
        made = object.__new__(cls)
        object.__setattr__(made, "_amount", amount)
        return made

    def in_feet(self) -> float:
        return self._amount * 3.28084


class Box:
    def __init__(self, width: int, height: int, /) -> None:
        self.width = width
        self.height = height

    def area(self) -> int:
        return self.width * self.height


def fits(box: Box, room: int) -> bool:
    return box.area() <= room
"""


@pytest.mark.parametrize(
    ("qualname", "cls"), [("Box.area", "Box"), ("Meters.in_feet", "Meters"), ("fits", "Box")]
)
async def test_an_instance_is_built_by_position_and_its_test_passes(
    tmp_path: Path, qualname: str, cls: str
) -> None:
    root = write_project(tmp_path, {"units.py": UNITS})
    node = find_node(root, "units.py", qualname)
    provider = ScriptedProvider([tool_turn(("submit_result", {}))])
    result, workspace = await run_bundled_agent("test", root, node, provider)
    assert result.status == "success", result.to_dict()
    assert "0 failed" in result.summary and result.details["added"], result.summary
    text = (workspace.read("tests/test_units.py") or b"").decode()
    built = [
        call
        for call in ast.walk(ast.parse(text))
        if isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id == cls
    ]
    assert built and all(call.args and not call.keywords for call in built), text
