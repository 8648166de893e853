"""A generator function's call is drained, by the probe and by the tests written from it.

Made-up module: a finite generator, one that raises half-way through its items (as a
cycle found mid-sort does), an endless one, a function that only holds a nested
generator and an async generator (neither counts as one), and a function that returns
a ``map`` (drained as a generator is: values/lazy_iterators.py). The call target says which
nodes are generators (real ``ast``/CST, a real workspace); the probe runs as the
sandbox runs it (its program text on a Python subprocess) and drains the generator;
the tests written from its outcomes call ``list(...)`` and pass under pytest.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

from probe_support import probe_outcome

from remora.code.context import CodeContext
from remora.code.probes.calls import node_call_target
from remora.code.samples.kept_sets import KeptSet, Selection, pinned_outcome
from remora.code.samples.sample_fixtures import sample_code
from remora.code.testgen.written_tests import observed_piece
from remora.config import SandboxConfig
from remora.discovery import CSTNode, make_node_id
from remora.workspace import WorkspaceStore

GENS = """\
import itertools


def count_up(n):
    for i in range(n):
        yield i * 10


def check_order(items):
    seen = []
    for item in items:
        if item in seen:
            raise ValueError(f"{item} twice")
        seen.append(item)
        yield item


def ticks(start):
    yield from itertools.count(start)


def holds_one(n):
    def inner():
        yield n

    return n + 1


async def arrivals(n):
    yield n


def tens(n):
    return map(lambda i: i * 10, range(n))
"""


def _node(name: str) -> CSTNode:
    lines = GENS.splitlines()
    line = next(i for i, text in enumerate(lines, 1) if f"def {name}(" in text)
    start = sum(len(x) + 1 for x in lines[: line - 1])
    return CSTNode(
        make_node_id("gens.py", name, "function"), "function", name, name, "gens.py",
        start, start + 10, line, line + 2, GENS[start : start + 10],
    )  # fmt: skip


def _target(tmp_path: Path, name: str) -> dict[str, Any]:
    (tmp_path / "gens.py").write_text(GENS)
    node = _node(name)
    with WorkspaceStore(tmp_path).create("t", node.node_id) as workspace:
        return dict(node_call_target(CodeContext(workspace, node, SandboxConfig())))


def test_the_call_target_says_which_nodes_yield_in_their_own_body(tmp_path: Path) -> None:
    found = {n: _target(tmp_path, n)["is_generator"] for n in ("count_up", "check_order")}
    assert found == {"count_up": True, "check_order": True}
    assert _target(tmp_path, "ticks")["is_generator"] is True  # `yield from`
    # A nested function's `yield` is its own; an async generator is not drained (yet).
    assert _target(tmp_path, "holds_one")["is_generator"] is False
    assert _target(tmp_path, "arrivals")["is_generator"] is False


def test_a_function_returning_a_lazy_iterator_is_drained_too(tmp_path: Path) -> None:
    assert _target(tmp_path, "tens")["is_generator"] is True
    returned = _probe(tmp_path, "tens", {"n": 3})["returned"]
    assert returned["repr"] == "[0, 10, 20]" and returned["literal"]
    assert "result = list(tens(3))\n    assert result == [0, 10, 20]" in _written(
        tmp_path, "tens", {"n": 3}
    )


def _probe(tmp_path: Path, name: str, args: dict[str, Any]) -> dict[str, Any]:
    (tmp_path / "gens.py").write_text(GENS)
    return probe_outcome(tmp_path, "gens", name, args, drain=True)


def test_a_finite_generator_is_drained_into_the_list_of_its_items(tmp_path: Path) -> None:
    returned = _probe(tmp_path, "count_up", {"n": 3})["returned"]
    assert returned["repr"] == "[0, 10, 20]" and returned["literal"]
    assert "capped" not in returned


def test_a_raise_while_iterating_is_the_nodes_own(tmp_path: Path) -> None:
    outcome = _probe(tmp_path, "check_order", {"items": ["a", "b", "a"]})
    raised = outcome["raised"]
    assert (raised["type"], raised["message"]) == ("ValueError", "a twice")
    assert raised["stated"] and raised["frame"]["function"] == "check_order"
    assert "returned" not in outcome


def test_an_endless_generator_gives_its_first_items_marked_capped(tmp_path: Path) -> None:
    returned = _probe(tmp_path, "ticks", {"start": 5})["returned"]
    assert returned["repr"] == repr(list(range(5, 15))) and returned["capped"] == 10


def test_without_drain_the_probe_reports_the_generator_object(tmp_path: Path) -> None:
    (tmp_path / "gens.py").write_text(GENS)
    returned = probe_outcome(tmp_path, "gens", "count_up", {"n": 3})["returned"]
    assert returned["type"] == "generator" and not returned["literal"]


def _written(tmp_path: Path, name: str, args: dict[str, Any]) -> str:
    target = _target(tmp_path, name)
    row = {"args": args, "ok": True, "reason": "", **_probe(tmp_path, name, args)}
    piece = observed_piece(target, {name}, {}, row, f"test_{name}")
    modules = "".join(f"import {m}\n" for m in piece["modules"])
    return f"{modules}from gens import {', '.join(piece['imports'])}\n\n\n{piece['source']}"


def test_the_written_tests_drain_the_call_and_pass(tmp_path: Path) -> None:
    tests = {
        "count_up": _written(tmp_path, "count_up", {"n": 3}),
        "check_order": _written(tmp_path, "check_order", {"items": ["a", "b", "a"]}),
        "ticks": _written(tmp_path, "ticks", {"start": 5}),
    }
    assert "result = list(count_up(3))\n    assert result == [0, 10, 20]" in tests["count_up"]
    assert "with pytest.raises(ValueError) as excinfo:\n" in tests["check_order"]
    assert "    list(check_order(['a', 'b', 'a']))\n" in tests["check_order"]
    assert "import itertools\n" in tests["ticks"]
    assert "result = list(itertools.islice(ticks(5), 10))\n" in tests["ticks"]
    for name, text in tests.items():
        (tmp_path / f"test_{name}_gen.py").write_text(text)
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:randomly", "-p", "no:cacheprovider"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
    )
    assert run.returncode == 0 and "3 passed" in run.stdout, run.stdout


def test_sample_data_compares_the_generators_items_and_never_a_capped_prefix(
    tmp_path: Path,
) -> None:
    target = _target(tmp_path, "count_up")
    code = sample_code(target, {"count_up"}, Selection([KeptSet("n:0", {"n": 2}, returns=[0, 10])]))
    assert "    assert list(count_up(n)) == expected\n" in code.tests[0]
    capped = {"ok": True, "reason": "", "returned": {"repr": "[5, 6]", "literal": True}}
    assert pinned_outcome(capped, "gens")[0]
    capped["returned"]["capped"] = 2
    assert pinned_outcome(capped, "gens") == (False, None, None)
