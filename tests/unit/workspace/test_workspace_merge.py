"""Accept merges: a change applied to a file that moved on since its agent read it.

One test per merge case of the issue "Accept all means all": disjoint hunks, the same
lines, two test additions to one file, imports merged, a file deleted since, a file the
user edited between analyze and accept; then the queue following the file (a change
shown against the file as it is now, conflicts recorded and run again) and a merged
accept killed half-way and resumed.
"""

from __future__ import annotations

import ast
import itertools
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from workspace_kit import snapshot

from remora.results import ResultsDB
from remora.results import review_queue as queue
from remora.workspace import WorkspaceStore
from remora.workspace.merge import merge_file

_MODULE = """\
import math


class Shape:
    def __init__(self, size):
        self.size = size

    def area(self):
        return self.size * self.size

    def perimeter(self):
        return 4 * self.size


def circle_area(radius):
    return math.pi * radius**2
"""


def _with(text: str, after: str, line: str) -> str:
    """``text`` with ``line`` inserted after the (unique) line ``after``."""
    head, found, tail = text.partition(after + "\n")
    assert found, after
    return head + found + line + "\n" + tail


_DOC_INIT = _with(_MODULE, "class Shape:", '    """A square of a given size."""')
_DOC_AREA = _with(_MODULE, "    def area(self):", '        """The square of the size."""')
_DOC_CIRCLE = _with(
    _MODULE, "def circle_area(radius):", '    """The area of a circle of ``radius``."""'
)
_LINT_PERIMETER = _MODULE.replace("return 4 * self.size", "return self.size * 4")


def _merge(path: str, base: str, ours: str, theirs: str) -> str | None:
    merged = merge_file(path, base.encode(), ours.encode(), theirs.encode())
    return None if merged.content is None else merged.content.decode()


# -- the merge of one file -------------------------------------------------------------


def test_disjoint_hunks_apply_at_their_new_place() -> None:
    merged = _merge("shape.py", _MODULE, _DOC_CIRCLE, _DOC_AREA)
    assert merged == _with(
        _DOC_CIRCLE, "    def area(self):", '        """The square of the size."""'
    )


def test_a_class_docstring_and_its_first_method_merge_on_adjacent_lines() -> None:
    init = _with(_MODULE, "    def __init__(self, size):", '        """Keep ``size``."""')
    merged = _merge("shape.py", _MODULE, _DOC_INIT, init)
    assert merged is not None
    assert '    """A square of a given size."""\n    def __init__' in merged
    assert '        """Keep ``size``."""\n        self.size = size' in merged


def test_a_docstring_and_a_lint_fix_to_one_function_merge_when_their_lines_differ() -> None:
    doc = _with(_MODULE, "    def perimeter(self):", '        """Four sides."""')
    merged = _merge("shape.py", _MODULE, _LINT_PERIMETER, doc)
    assert merged == _with(_LINT_PERIMETER, "    def perimeter(self):", '        """Four sides."""')


def test_edits_to_the_same_lines_are_a_conflict_named_by_line() -> None:
    ours = _MODULE.replace("return self.size * self.size", "return self.size**2")
    theirs = _MODULE.replace("return self.size * self.size", "return pow(self.size, 2)")
    merged = merge_file("shape.py", _MODULE.encode(), ours.encode(), theirs.encode())
    assert merged.content is None
    assert merged.conflicts == ((9, 9),)
    assert merged.describe() == (
        "line 9 changed in the project since the agent read it, and by this change"
    )


_TESTS_A = """\
import pytest

from shapes import Shape


def test_area_is_the_square_of_the_size():
    assert Shape(3).area() == 9
"""
_TESTS_B = """\
import pytest

from shapes import circle_area


def test_circle_area_of_radius_one_is_pi():
    assert circle_area(1) == pytest.approx(3.14159, rel=1e-5)
"""


def test_two_changes_creating_one_test_file_keep_both_tests_with_one_import_block() -> None:
    merged = _merge("tests/test_shapes.py", "", _TESTS_A, _TESTS_B)
    assert merged == (
        "import pytest\n\nfrom shapes import Shape, circle_area\n\n\n"
        "def test_area_is_the_square_of_the_size():\n    assert Shape(3).area() == 9\n\n\n"
        "def test_circle_area_of_radius_one_is_pi():\n"
        "    assert circle_area(1) == pytest.approx(3.14159, rel=1e-5)\n"
    )


def test_two_new_test_files_with_the_same_docstring_keep_it_once() -> None:
    header = '"""Tests for shapes."""\n\n'
    merged = _merge("tests/test_shapes.py", "", header + _TESTS_A, header + _TESTS_B)
    assert merged is not None
    assert merged.startswith(header) and merged.count("Tests for shapes") == 1
    assert "from shapes import Shape, circle_area" in merged
    assert merged.index("def test_area") < merged.index("def test_circle")


def test_a_new_test_file_with_a_docstring_and_one_without_merge() -> None:
    header = '"""Tests for shapes."""\n\n'
    merged = _merge("tests/test_shapes.py", "", header + _TESTS_A, _TESTS_B)
    assert merged is not None and merged.startswith(header)
    assert _merge("tests/test_shapes.py", "", _TESTS_B, header + _TESTS_A) == merged


def test_an_import_line_one_change_edited_stays_in_place_with_its_blank_lines() -> None:
    base = "import pytest\n\nfrom shapes import Shape\n\n\ndef test_a():\n    assert Shape(1)\n"
    grown = base + "\n\ndef test_b():\n    assert Shape(2)\n"
    edited = base.replace("import Shape", "import Shape, area") + (
        "\n\ndef test_c():\n    assert area(Shape(1)) == 1\n"
    )
    one_way = _merge("tests/test_shapes.py", base, grown, edited)
    other_way = _merge("tests/test_shapes.py", base, edited, grown)
    assert one_way == other_way
    assert one_way is not None and one_way.startswith(
        "import pytest\n\nfrom shapes import Shape, area\n\n\ndef test_a"
    )


def test_imports_both_sides_edited_merge_into_one_statement_per_module() -> None:
    base = "from shapes import Shape\n\n\ndef test_a():\n    assert Shape(1)\n"
    ours = base.replace("import Shape", "import Shape, circle_area") + (
        "\n\ndef test_b():\n    assert circle_area(0) == 0\n"
    )
    theirs = (
        "import math\n"
        + base.replace("import Shape", "import Shape, perimeter")
        + ("\n\ndef test_c():\n    assert perimeter(math.e)\n")
    )
    merged = _merge("tests/test_shapes.py", base, ours, theirs)
    assert merged is not None
    tree = ast.parse(merged)
    imports = [ast.unparse(s) for s in tree.body if isinstance(s, ast.Import | ast.ImportFrom)]
    assert imports == ["import math", "from shapes import Shape, circle_area, perimeter"]

    tests = [s.name for s in tree.body if isinstance(s, ast.FunctionDef)]
    assert tests == ["test_a", "test_b", "test_c"]


_TESTS_BASE = "from shapes import Shape\n\n\ndef test_shape():\n    assert Shape(1)\n"


@pytest.mark.parametrize("order", list(itertools.permutations(range(3))))
def test_tests_added_at_one_place_give_one_file_whatever_the_order(order: tuple[int, ...]) -> None:
    added = [
        ("area", "def test_area():\n    assert Shape(2).area() == 4\n"),
        ("circle_area", "def test_circle_area():\n    assert circle_area(0) == 0\n"),
        ("perimeter", "def test_perimeter():\n    assert perimeter(Shape(1)) == 4\n"),
    ]
    changes = [
        _TESTS_BASE.replace("import Shape", f"import Shape, {name}") + "\n\n" + test
        for name, test in added
    ]
    text = _TESTS_BASE
    for index in order:
        merged = _merge("tests/test_shapes.py", _TESTS_BASE, text, changes[index])
        assert merged is not None
        text = merged
    assert text == (
        "from shapes import Shape, area, circle_area, perimeter\n\n\n"
        "def test_shape():\n    assert Shape(1)\n\n\n" + "\n\n".join(test for _, test in added)
    )


def test_the_same_import_and_fixture_added_by_two_changes_appear_once() -> None:
    fixture = "import pytest\n\n\n@pytest.fixture\ndef shape():\n    return object()\n"
    ours = fixture + "\n\ndef test_a(shape):\n    assert shape\n"
    theirs = fixture + "\n\ndef test_b(shape):\n    assert shape is not None\n"
    merged = _merge("tests/conftest.py", "", ours, theirs)
    assert merged is not None
    assert merged.count("import pytest") == 1 and merged.count("def shape()") == 1
    assert "def test_a(shape)" in merged and "def test_b(shape)" in merged


def test_two_different_definitions_of_one_name_are_a_conflict() -> None:
    ours = "def helper():\n    return 1\n"
    theirs = "def helper():\n    return 2\n"
    merged = merge_file("tests/conftest.py", b"", ours.encode(), theirs.encode())
    assert merged.content is None and merged.conflicts == ((1, 2),)


def test_two_docstrings_for_one_node_are_a_conflict_not_two_strings() -> None:
    mine = _with(_MODULE, "    def area(self):", '        """Area."""')
    assert _merge("shape.py", _MODULE, mine, _DOC_AREA) is None
    assert (
        _merge("shape.py", _MODULE, '"""Shapes."""\n' + _MODULE, '"""Geometry."""\n' + _MODULE)
        is None
    )


def test_outside_python_two_insertions_at_one_place_are_a_conflict() -> None:
    merged = merge_file("data.json", b"", b'{"a": 1}\n', b'{"b": 2}\n')
    assert merged.content is None


# -- accept, through the store ------------------------------------------------------------


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    (root / "shapes").mkdir(parents=True)
    (root / "shapes" / "__init__.py").write_text(_MODULE)
    return root


def _change(store: WorkspaceStore, node: str, path: str, text: str, op: str = "docstring") -> str:
    ws = store.create(op, node)
    ws.read(path)
    ws.write(path, text.encode())
    store.mark_finished(ws)
    ws.close()
    return ws.id


_PATH = "shapes/__init__.py"


def _three(store: WorkspaceStore) -> list[str]:
    return [
        _change(store, "init", _PATH, _DOC_INIT),
        _change(store, "area", _PATH, _DOC_AREA),
        _change(store, "circle", _PATH, _DOC_CIRCLE),
    ]


@pytest.mark.parametrize("order", list(itertools.permutations(range(3))))
def test_a_files_changes_accepted_in_any_order_write_the_same_file(
    project: Path, order: tuple[int, ...]
) -> None:
    store = WorkspaceStore(project)
    ids = _three(store)
    for index in order:
        report = store.accept(ids[index])
        assert report.accepted, report.conflicts
    text = (project / _PATH).read_text()
    for docstring in ("A square of a given size.", "The square of the size.", "of ``radius``"):
        assert text.count(docstring) == 1
    assert store.ids() == []
    expected = _with(_DOC_INIT, "    def area(self):", '        """The square of the size."""')
    assert text == _with(
        expected, "def circle_area(radius):", '    """The area of a circle of ``radius``."""'
    )


def test_after_an_accept_the_others_show_what_accepting_them_does_now(project: Path) -> None:
    store = WorkspaceStore(project)
    first, second, _ = _three(store)
    store.accept(first)
    with store.open(second) as ws:
        (change,) = ws.changes()
    assert change.old == _DOC_INIT.encode() and not change.conflict
    assert change.line_counts() == (1, 0)  # only its own docstring: nothing undone


def test_a_file_deleted_since_is_a_conflict_and_nothing_is_written(project: Path) -> None:
    store = WorkspaceStore(project)
    workspace_id = _change(store, "area", _PATH, _DOC_AREA)
    (project / _PATH).unlink()
    report = store.accept(workspace_id)
    assert not report.accepted
    assert [(c.path, c.reason) for c in report.conflicts] == [
        (_PATH, "deleted from the project since the agent read it")
    ]
    assert not (project / _PATH).exists()


def test_the_users_edit_between_analyze_and_accept_is_kept(project: Path) -> None:
    store = WorkspaceStore(project)
    workspace_id = _change(store, "area", _PATH, _DOC_AREA)
    edited = _MODULE.replace("import math\n", "import math\nimport sys\n")
    (project / _PATH).write_text(edited)
    report = store.accept(workspace_id)
    assert report.accepted
    assert (project / _PATH).read_text() == _with(
        edited, "    def area(self):", '        """The square of the size."""'
    )


def test_a_conflicting_change_is_marked_and_its_node_runs_again(project: Path) -> None:
    store = WorkspaceStore(project)
    lint = _change(store, "area", _PATH, _MODULE.replace("self.size * self.size", "self.size**2"))
    other = _MODULE.replace("self.size * self.size", "pow(self.size, 2)")
    clash = _change(store, "area", _PATH, other, op="lint-other")
    fine = _change(store, "circle", _PATH, _DOC_CIRCLE)
    with ResultsDB(project) as db:
        run_id = db.start_run("analyze")
        for workspace_id in (lint, clash, fine):
            operation, node = workspace_id.rsplit("-", 1)
            db.record_result(
                run_id,
                {"node_id": node, "full_name": node, "file_path": _PATH},
                operation,
                {"status": "success", "workspace_id": workspace_id, "changed_files": [_PATH]},
            )
        assert queue.accept(store, db, lint, tidy=None).accepted
        assert queue.settle_conflicts(store, db) == [clash]
        assert db.get(clash).review_state == "conflict"  # type: ignore[union-attr]
        assert db.get(fine).review_state == "pending"  # type: ignore[union-attr]
        states = {
            item.id: (item.state, item.conflicted_files) for item in queue.review_items(store, db)
        }
    assert states[clash] == ("conflict", [_PATH])
    assert states[fine] == ("pending", [])
    with store.open(clash) as ws:
        (change,) = ws.changes()
    assert change.conflict.startswith("line 9 changed in the project")
    assert change.old == _MODULE.encode()  # shown as the agent made it, not as an undo


_KILLER = """
import os, signal, sys
from pathlib import Path
import remora.workspace.accept as accept
from remora.workspace import WorkspaceStore

root, workspace_id = sys.argv[1:]

def hook(stage, at, path):
    if stage == "temp_written":
        os.kill(os.getpid(), signal.SIGKILL)

accept.STEP_HOOK = hook
WorkspaceStore(Path(root)).accept(workspace_id)
"""


def test_a_merged_accept_killed_half_way_resumes_without_losing_either_change(
    project: Path,
) -> None:
    store = WorkspaceStore(project)
    first, second, _ = _three(store)
    assert store.accept(first).accepted
    proc = subprocess.run(
        [sys.executable, "-c", _KILLER, str(project), second],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == -signal.SIGKILL, proc.stderr
    assert (project / _PATH).read_text() == _DOC_INIT  # nothing half-written
    report = store.accept(second)
    assert report.resumed and report.accepted
    text = (project / _PATH).read_text()
    assert "A square of a given size." in text and "The square of the size." in text
    assert not any(".remora-" in path for path in snapshot(project))


def test_hunks_of_a_change_to_a_file_moved_on_are_taken_from_the_merged_change(
    project: Path,
) -> None:
    store = WorkspaceStore(project)
    first = _change(store, "init", _PATH, _DOC_INIT)
    two_hunks = _with(_DOC_AREA, "def circle_area(radius):", '    """Circle."""')
    second = _change(store, "area", _PATH, two_hunks)
    assert store.accept(first).accepted
    with ResultsDB(project) as db:
        report = queue.accept(store, db, second, hunks=[2], tidy=None)
    assert report.accepted
    assert (project / _PATH).read_text() == _with(
        _DOC_INIT, "def circle_area(radius):", '    """Circle."""'
    )
