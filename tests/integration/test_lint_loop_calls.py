"""A finding whose fix makes a loop's comparison a min()/max() call is not offered; outside
a loop it is fixed.

A blind reviewer of more-itertools 10.7.0 rejected ruff's own safe PLR1730 fix of
``minmax``, whose loop compares pairs by hand: ``if x < lo: lo = x`` became ``lo =
min(lo, x)``, the same result, five times slower on a million floats. The loop below has
that shape: no fix, no drafted rewrite, no finding left for the model; the same
comparison outside a loop gets the fix. Everything is real (ruff,
the ``.pym`` tools, Monty, the workspace).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from bundled_agents_support import bench, find_node, run_scripted_on_file, write_project

from remora.providers.scripted import tool_turn
from remora.sandbox import SandboxRuntime

pytestmark = pytest.mark.integration

SOURCE = """\
def bounds(pairs, lo, hi):
    for x, y in pairs:
        if y < x:
            x, y = y, x
        if x < lo:
            lo = x
        if hi < y:
            hi = y
    return lo, hi


def clamp_low(value, floor):
    if value < floor:
        floor = value
    return floor
"""


def _project(tmp_path: Path) -> Path:
    root = write_project(tmp_path, {"m.py": SOURCE})
    with (root / "pyproject.toml").open("a") as handle:
        handle.write('\n[tool.ruff.lint]\nselect = ["PLR1730"]\n')
    return root


async def test_a_comparison_in_a_loop_is_not_made_a_call(
    tmp_path: Path, runtime: SandboxRuntime
) -> None:
    turns = [tool_turn(("submit_result", {}))]
    result, _, written = await run_scripted_on_file(
        runtime, _project(tmp_path), "lint", "bounds", turns
    )
    assert result.status == "success", result.to_dict()
    assert written.decode() == SOURCE
    assert result.details["remaining"] == [], result.details


async def test_the_same_comparison_outside_a_loop_gets_the_fix(tmp_path: Path) -> None:
    root = _project(tmp_path)
    node = find_node(root, "m.py", "clamp_low")
    async with bench(root) as b:
        result = await b.run("lint", "fix_safe", node)
        text = b.text("lint", node, "m.py")
    assert result["applied"] == ["PLR1730"], result
    assert "    floor = min(floor, value)\n" in text
