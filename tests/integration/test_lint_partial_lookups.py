"""A loop's lookup fix that leaves the same lookup behind is refused.

A blind reviewer of cerberus 1.3.8 sent back ruff's own safe PLR1733 fix of
``_rename_deprecated_rulenames``: the loop's reads of ``schema[field]`` became ``rules``,
the store ``schema[field][new] = ...`` stayed: "halfway". That loop (its shape, names and
statements) is refused with the reason; a loop whose every lookup is a read gets the fix,
both reads in one change (the two fixes rewrite the loop's target the same way). Everything
is real (ruff, the ``.pym`` tools, Monty, the workspace).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from bundled_agents_support import bench, find_node, run_scripted_on_file, write_project

from remora.code.lint.partial_lookups import partial_lookup_refusal
from remora.providers.scripted import tool_turn
from remora.sandbox import SandboxRuntime

pytestmark = pytest.mark.integration

SOURCE = """\
from warnings import warn


def rename_deprecated(schema):
    for field, rules in schema.items():
        if isinstance(rules, str):
            continue
        for old, new in (("keyschema", "keysrules"), ("validator", "check_with")):
            if old not in rules:
                continue
            warn(f"The rule {old!r} was renamed to {new!r}.", DeprecationWarning)
            schema[field][new] = schema[field][old]
            schema[field].pop(old)
    return schema


def lengths(table):
    sizes = {}
    for key, values in table.items():
        sizes[key] = len(table[key]) + sum(table[key])
    return sizes
"""


def _project(tmp_path: Path) -> Path:
    root = write_project(tmp_path, {"m.py": SOURCE})
    with (root / "pyproject.toml").open("a") as handle:
        handle.write('\n[tool.ruff.lint]\nselect = ["PLR1733"]\n')
    return root


async def test_a_fix_that_leaves_the_store_of_the_same_lookup_is_refused(
    tmp_path: Path, runtime: SandboxRuntime
) -> None:
    turns = [tool_turn(("submit_result", {}))]
    result, _, written = await run_scripted_on_file(
        runtime, _project(tmp_path), "lint", "rename_deprecated", turns
    )
    assert result.status == "success", result.to_dict()
    assert written.decode() == SOURCE
    assert [f["code"] for f in result.details["remaining"]] == ["PLR1733", "PLR1733"]
    refused = result.details["refused"]
    assert {r["code"] for r in refused} == {"PLR1733"}, refused
    assert "leaves `schema[field]` at line 12" in refused[0]["reason"], refused


async def test_a_loop_whose_lookups_are_all_reads_gets_every_fix(tmp_path: Path) -> None:
    root = _project(tmp_path)
    node = find_node(root, "m.py", "lengths")
    async with bench(root) as b:
        result = await b.run("lint", "fix_safe", node)
        text = b.text("lint", node, "m.py")
    assert result["applied"] == ["PLR1733", "PLR1733"], result
    assert "        sizes[key] = len(values) + sum(values)\n" in text


def test_a_read_is_refused_alone_and_made_with_the_loops_other_read() -> None:
    data = SOURCE.encode()
    first = data.index(b"table[key]")
    second = data.index(b"table[key]", first + 1)
    edits = [(at, at + len(b"table[key]"), b"values") for at in (first, second)]
    record = {"code": "PLR1733"}
    assert "leaves `table[key]` at line 20" in partial_lookup_refusal(
        data, record, edits[:1], set(edits[:1])
    )
    assert partial_lookup_refusal(data, record, edits[:1], set(edits)) == ""
    assert partial_lookup_refusal(data, {"code": "UP032"}, edits[:1], set(edits[:1])) == ""
