"""The review benchmark's pure parts: docstring stripping, file rule, label keys and join."""

from __future__ import annotations

import ast
import hashlib
import io
import re
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "benchmarks"))

from competence_lib.corpus import Project
from review_lib.corpus import (
    CORPUS,
    ReviewProject,
    chosen,
    prepare,
    read_only_copy,
    remove_tree,
    select_files,
)
from review_lib.export import IndexEntry, ProjectExport, _this_runs
from review_lib.labels import (
    LabelError,
    diff_sha256,
    import_verdicts,
    join,
    load_labels,
    merge,
    save_labels,
)
from review_lib.report import Coverage, Joined, coverage_markdown, rows, undocumented_public
from review_lib.strip import StripError, strip_docstrings

SOURCE = '''\
"""A made-up module.

Its docstring spans lines.
"""

import os


class Shelf:
    """Holds things."""

    size = 3

    def put(self, thing):
        """Put one thing on the shelf."""

        def check(item):
            """Nested: checked before it is put."""
            return item is not None

        return check(thing)

    def empty(self):
        """Only a docstring."""


def free(x):  # a comment after the header
    """Free function."""
    return os.sep + x


def inline(): "on the header line"; return 1
'''


def test_strip_removes_every_docstring_and_keeps_the_code() -> None:
    stripped = strip_docstrings(SOURCE)
    tree = ast.parse(stripped)
    docstrings = [
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef)
        and ast.get_docstring(node) is not None
    ]
    assert docstrings == []
    assert stripped.startswith("import os\n")
    assert "class Shelf:\n    size = 3\n" in stripped
    assert (
        "    def put(self, thing):\n        def check(item):\n            return item" in stripped
    )
    assert "    def empty(self):\n        pass\n" in stripped
    assert "def free(x):  # a comment after the header\n    return os.sep + x\n" in stripped
    assert "def inline(): return 1\n" in stripped
    # Every other line is the original's, in its order: only docstrings (and the blank
    # line after one) went, and the two bodies that needed it got their `pass`.
    rewritten = {"        pass", "def inline(): return 1"}
    original = iter(SOURCE.splitlines())
    assert all(line in rewritten or line in original for line in stripped.splitlines())


def test_strip_without_docstrings_is_the_identity() -> None:
    text = "def f(a):\n    return a\n\n\nclass C:\n    x = 1\n"
    assert strip_docstrings(text) == text


def test_strip_names_the_file_that_does_not_parse() -> None:
    with pytest.raises(StripError, match=r"pkg/broken\.py:1"):
        strip_docstrings("def f(:\n", "pkg/broken.py")


def test_the_file_rule_leaves_out_tests_main_and_definitionless_files(tmp_path: Path) -> None:
    pkg = tmp_path / "src" / "pkg"
    (pkg / "tests").mkdir(parents=True)
    files = {
        "__init__.py": "from pkg.core import run\n",
        "__main__.py": "def main():\n    pass\n",
        "core.py": "def run():\n    return 1\n",
        "version.py": "VERSION = '1.0'\n",
        "sub/model.py": "class Model:\n    pass\n",
        "test_core.py": "def test_run():\n    pass\n",
        "tests/helpers.py": "def helper():\n    pass\n",
    }
    for rel, text in files.items():
        (pkg / rel).parent.mkdir(parents=True, exist_ok=True)
        (pkg / rel).write_text(text)
    project = ReviewProject(Project("pkg", "1.0", "0" * 64, ()), "src/pkg")
    assert select_files(project, tmp_path) == ["src/pkg/core.py", "src/pkg/sub/model.py"]


def test_the_corpus_has_both_parts_and_no_project_of_other_benchmarks() -> None:
    assert len(chosen(None, "dev")) >= 2
    assert len(chosen(None, "heldout")) >= 1
    taken = {"inflection", "toolz", "humanize", "click", "sqlalchemy", "django"}
    taken |= {"roman", "stringcase", "webcolors"}
    assert not {p.name.lower() for p in CORPUS} & taken
    assert all(len(p.pin.sha256) == 64 for p in CORPUS)


def test_the_toolkit_cites_no_held_out_review_project() -> None:
    held_out = {p.name for p in chosen(None, "heldout")}
    src = Path(__file__).resolve().parents[3] / "src"
    # As a whole word: asyncio's ``Timeout.reschedule`` cites no project named schedule.
    cited = [
        (path.name, name)
        for path in src.rglob("*")
        if path.is_file() and path.suffix in {".py", ".pym", ".yaml", ".scm", ".md"}
        for name in held_out
        if re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", path.read_text("utf-8").lower())
    ]
    assert cited == []


def _entry(id_: str, operation: str, node: str, diff: str) -> IndexEntry:
    return IndexEntry(id_, operation, node, "function", "pkg/core.py", diff_sha256(diff))


def test_the_hash_normalises_line_endings_only() -> None:
    assert diff_sha256("-a\r\n+b\r\n") == diff_sha256("-a\n+b\n") == diff_sha256("-a\r+b\r")
    assert diff_sha256("-a\n+b\n") != diff_sha256("-a\n+b \n")


def test_labels_are_keyed_by_the_diff_and_a_changed_diff_loses_its_label(tmp_path: Path) -> None:
    first = [_entry("w1", "docstring", "run", '+    """Run it."""\n')]
    verdicts = [
        {
            "id": "w1",
            "operation": "docstring",
            "verdict": "accept",
            "category": "ok",
            "reason": "true",
        }
    ]
    labels = import_verdicts(
        verdicts, first, model="m", remora_commit="abc1234", reviewer="blind reviewer session"
    )
    save_labels("pkg", merge({}, labels), tmp_path)
    loaded = load_labels("pkg", tmp_path)
    [(_, label)] = join(first, loaded)
    assert label is not None and label.verdict == "accept" and label.remora_commit == "abc1234"
    # The next run proposes other words for the same node: the old verdict is not reused.
    again = [_entry("w9", "docstring", "run", '+    """Runs it."""\n')]
    assert join(again, loaded) == [(again[0], None)]
    # The same text under a new workspace id keeps its label.
    same = [_entry("w7", "docstring", "run", '+    """Run it."""\r\n')]
    assert join(same, loaded)[0][1] == label


def test_a_new_label_of_the_same_key_replaces_the_old() -> None:
    index = [_entry("w1", "lint", "run", "-x\n+y\n")]
    row = {"id": "w1", "operation": "lint", "verdict": "accept", "category": "ok", "reason": "r"}
    old = import_verdicts([row], index, model="m", remora_commit="c", reviewer="a")
    new = import_verdicts(
        [{**row, "verdict": "reject", "category": "wrong"}],
        index,
        model="m",
        remora_commit="c",
        reviewer="b",
    )
    merged = merge({label.key: label for label in old}, new)
    assert [label.verdict for label in merged.values()] == ["reject"]


@pytest.mark.parametrize(
    ("row", "message"),
    [
        (
            {
                "id": "nope",
                "operation": "lint",
                "verdict": "accept",
                "category": "ok",
                "reason": "r",
            },
            "not in",
        ),
        (
            {"id": "w1", "operation": "test", "verdict": "accept", "category": "ok", "reason": "r"},
            "lint change",
        ),
        (
            {"id": "w1", "operation": "lint", "verdict": "merge", "category": "ok", "reason": "r"},
            "verdict",
        ),
        (
            {
                "id": "w1",
                "operation": "lint",
                "verdict": "edit",
                "category": "false",
                "reason": "r",
            },
            "category",
        ),
        (
            {"id": "w1", "operation": "lint", "verdict": "edit", "category": "style"},
            "missing reason",
        ),
    ],
)
def test_verdicts_that_do_not_fit_are_refused(row: dict[str, str], message: str) -> None:
    index = [_entry("w1", "lint", "run", "-x\n+y\n")]
    with pytest.raises(LabelError, match=message):
        import_verdicts([row], index, model="m", remora_commit="c", reviewer="r")


def test_rows_count_verdicts_and_unlabeled_per_operation() -> None:
    index = [
        _entry("a", "docstring", "run", "1"),
        _entry("b", "docstring", "stop", "2"),
        _entry("c", "lint", "run", "3"),
    ]
    verdicts = [
        {
            "id": "a",
            "operation": "docstring",
            "verdict": "reject",
            "category": "wrong",
            "reason": "x",
        },
        {"id": "c", "operation": "lint", "verdict": "accept", "category": "ok", "reason": "y"},
    ]
    labels = {
        lb.key: lb
        for lb in import_verdicts(verdicts, index, model="m", remora_commit="c", reviewer="r")
    }
    joined = [Joined("pkg", "dev", "m", e, lb) for e, lb in join(index, labels)]
    table = {r.operation: r.to_dict() for r in rows(joined)}
    assert table["docstring"]["changes"] == 2
    assert table["docstring"]["reject"] == 1 and table["docstring"]["wrong"] == 1
    assert table["docstring"]["unlabeled"] == 1
    assert table["lint"]["merged_as_is"] == 1 and table["lint"]["merged_as_is_share"] == 1.0
    assert table["all"]["changes"] == 3


def test_undocumented_public_skips_private_nested_and_setters() -> None:
    text = '''\
class Box:
    """Documented."""

    def open(self):
        def inner():
            pass

    def _hidden(self):
        pass

    @property
    def size(self):
        return 1

    @size.setter
    def size(self, value):
        pass


def run():
    pass


def _private():
    pass


class Plain:
    def get(self):
        pass
'''
    assert undocumented_public(text) == ["Box.open", "Box.size", "run", "Plain", "Plain.get"]
    functions = undocumented_public(text, classes=False)
    assert functions == ["Box.open", "Box.size", "run", "Plain.get"]


def test_coverage_counts_functions_and_methods_apart_from_classes() -> None:
    coverage = Coverage(
        "p", "heldout", "m", undocumented=10, proposed=3, functions=4, functions_proposed=3
    )
    assert coverage.to_dict()["share"] == 0.3
    assert coverage.to_dict()["functions_share"] == 0.75
    assert coverage_markdown([coverage]).splitlines()[-1].endswith("| 10 | 3 (30%) | 4 | 3 (75%) |")


def _sdist_in_cache(tmp_path: Path) -> tuple[Path, Project]:
    """A made-up sdist, as pip download leaves it, in a cache ``fetch`` reads offline."""
    files = {
        "setup.py": '"""Setup script: its docstring stays (outside the package)."""\n',
        "src/pkg/__init__.py": '"""The package."""\n\nfrom pkg.core import run\n',
        "src/pkg/core.py": '"""Core."""\n\n\ndef run(x):\n    """Run."""\n    return x\n',
        "tests/test_core.py": "def test_run():\n    assert True\n",
    }
    cache = tmp_path / "cache"
    (cache / "sdists").mkdir(parents=True)
    archive = cache / "sdists" / "pkg-1.0.tar.gz"
    with tarfile.open(archive, "w:gz") as tar:
        for rel, text in files.items():
            data = text.encode()
            info = tarfile.TarInfo(f"pkg-1.0/{rel}")
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    digest = hashlib.sha256(archive.read_bytes()).hexdigest()
    return cache, Project("pkg", "1.0", digest, ())


def test_prepare_strips_the_package_leaves_out_tests_and_commits_once(tmp_path: Path) -> None:
    cache, pin = _sdist_in_cache(tmp_path)
    project = ReviewProject(pin, "src/pkg")
    repo = tmp_path / "work" / "pkg"
    assert prepare(project, repo, cache=cache) == ["src/pkg/core.py"]
    assert (repo / "src/pkg/core.py").read_text() == "def run(x):\n    return x\n"
    assert (repo / "src/pkg/__init__.py").read_text() == "from pkg.core import run\n"
    assert (repo / "setup.py").read_text().startswith('"""Setup script')
    assert not (repo / "tests").exists()
    log = subprocess.run(
        ["git", "log", "--format=%s"], cwd=repo, capture_output=True, text=True, check=True
    )
    assert log.stdout.splitlines() == ["pkg-1.0, docstrings stripped, own tests left out"]
    # Prepared again with the same bytes: the repository and its Remora state are kept.
    (repo / ".remora").mkdir()
    prepare(project, repo, cache=cache)
    assert (repo / ".remora").is_dir()
    before = tmp_path / "export" / "project-before"
    read_only_copy(repo, before)
    assert not (before / ".git").exists() and not (before / ".remora").exists()
    assert not (before / "src/pkg/core.py").stat().st_mode & 0o222
    remove_tree(before)
    assert not before.exists()


def test_only_the_changes_this_run_made_are_exported() -> None:
    # The kept repository still queues an earlier run's docstrings (another model), and a
    # test change of a node this run left unchanged.
    done = ProjectExport("p", "p-1", "dev", ["pkg/core.py"])
    done.report = {
        "results": [
            {"node": "run", "operation": "test", "changed_files": ["tests/test_core.py"]},
            {"node": "stop", "operation": "test", "changed_files": []},
        ]
    }
    queued = [
        _entry("t1", "test", "run", "+def test_run(): ...\n"),
        _entry("t2", "test", "stop", "+def test_stop(): ...\n"),
        _entry("d1", "docstring", "run", '+    """Run it."""\n'),
    ]
    kept = [e.id for e in queued if _this_runs(e, ["test"], done)]
    assert kept == ["t1"]
    # Not analysed here (--export-only): the queue as it stood, of the operations asked.
    done.report = {"analyze": "not run"}
    assert [e.id for e in queued if _this_runs(e, ["test"], done)] == ["t1", "t2"]


def test_the_judged_export_is_kept_beside_the_labels_and_read_as_an_export(
    tmp_path: Path,
) -> None:
    from review_lib.export import read_index, read_meta
    from review_lib.kept_exports import keep_export

    out = tmp_path / "out"
    entry = _entry("d1", "docstring", "run", '+    """Run it."""\n')
    (out / "kit" / "changes").mkdir(parents=True)
    (out / "kit" / "project-before").mkdir()
    (out / "kit" / "index.json").write_text(
        '[{"id": "d1", "operation": "docstring", "node": "run", "node_type": "function", '
        f'"file": "pkg/core.py", "diff_sha256": "{entry.diff_sha256}"}}]'
    )
    (out / "kit" / "changes" / "d1.diff").write_text('+    """Run it."""\n')
    (out / "_meta").mkdir()
    (out / "_meta" / "kit.json").write_text(
        '{"model": "m", "remora_commit": "c", "report": {"results": '
        '[{"summary": "s", "details": {"transcript": ["long"], "kept": ["t"]}}]}}'
    )
    kept = tmp_path / "kept"
    (kept / "kit" / "changes").mkdir(parents=True)
    (kept / "kit" / "changes" / "old.diff").write_text("an earlier export's\n")
    folder = keep_export(out, "kit", kept)
    assert sorted(p.relative_to(kept).as_posix() for p in kept.rglob("*") if p.is_file()) == [
        "_meta/kit.json.gz",
        "kit/changes/d1.diff",
        "kit/index.json",
    ]
    assert folder == kept / "kit"
    assert [e.diff_sha256 for e in read_index(kept, "kit")] == [entry.diff_sha256]
    meta = read_meta(kept, "kit")
    assert meta["report"]["results"] == [{"summary": "s", "details": {"kept": ["t"]}}]
