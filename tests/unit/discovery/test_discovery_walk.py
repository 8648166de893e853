"""``discover()`` over real directory trees: ignores, .gitignore, bad input, events."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from remora.config import DiscoveryConfig
from remora.discovery import discover
from remora.discovery.extract import parse_file
from remora.errors import RemoraError
from remora.events import RecordingEmitter

SAMPLE = Path(__file__).resolve().parents[3] / "examples" / "sample_project"


def write(root: Path, rel: str, text: str = "def f():\n    pass\n") -> Path:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def files_found(root: Path, paths: list[Path] | None = None, **config: object) -> list[str]:
    result = discover(
        paths or [root],
        project_root=root,
        config=DiscoveryConfig.model_validate(config),
        node_types=["file"],
    )
    return [n.file_path for n in result.nodes]


def test_default_ignores(tmp_path: Path) -> None:
    for rel in [
        "app.py",
        "pkg/mod.py",
        ".git/hooks/x.py",
        ".venv/lib/y.py",
        "venv/z.py",
        "node_modules/a/b.py",
        "pkg/__pycache__/mod.py",
        ".remora/w.py",
        "build/lib/c.py",
        "dist/d.py",
        "remora.egg-info/e.py",
        "notes.txt",
        "pkg/stub.pyi",
    ]:
        write(tmp_path, rel)
    assert files_found(tmp_path) == ["app.py", "pkg/mod.py"]


def test_gitignore_root_and_nested(tmp_path: Path) -> None:
    write(tmp_path, ".gitignore", "generated/\n*_pb2.py\n!keep_pb2.py\n/scratch.py\n")
    write(tmp_path, "pkg/.gitignore", "local_*.py\n")
    for rel in [
        "main.py",
        "scratch.py",
        "pkg/scratch.py",
        "generated/g.py",
        "pkg/api_pb2.py",
        "pkg/keep_pb2.py",
        "pkg/local_dev.py",
        "local_top.py",
        "pkg/sub/local_x.py",
    ]:
        write(tmp_path, rel)
    assert files_found(tmp_path) == ["local_top.py", "main.py", "pkg/keep_pb2.py", "pkg/scratch.py"]


def test_gitignore_of_ancestors_applies_when_walking_a_subdirectory(tmp_path: Path) -> None:
    write(tmp_path, ".gitignore", "*_gen.py\n")
    write(tmp_path, "src/pkg/a.py")
    write(tmp_path, "src/pkg/b_gen.py")
    assert files_found(tmp_path, [tmp_path / "src" / "pkg"]) == ["src/pkg/a.py"]


def test_use_gitignore_false_and_config_patterns(tmp_path: Path) -> None:
    write(tmp_path, ".gitignore", "ignored.py\n")
    write(tmp_path, "ignored.py")
    write(tmp_path, "legacy/old.py")
    write(tmp_path, "venv/keep.py")
    write(tmp_path, "main.py")
    assert files_found(tmp_path, use_gitignore=False, ignore=["legacy/", "!venv"]) == [
        "ignored.py",
        "main.py",
        "venv/keep.py",
    ]


def test_explicit_file_is_taken_even_if_ignored(tmp_path: Path) -> None:
    write(tmp_path, ".gitignore", "tool.py\n")
    target = write(tmp_path, "tool.py")
    assert files_found(tmp_path, [target]) == ["tool.py"]


def test_paths_overlapping_are_reported_once_in_path_order(tmp_path: Path) -> None:
    write(tmp_path, "b.py")
    write(tmp_path, "a/c.py")
    assert files_found(tmp_path, [tmp_path / "b.py", tmp_path, tmp_path / "a"]) == [
        "a/c.py",
        "b.py",
    ]


def test_symlinked_directories_are_not_followed(tmp_path: Path) -> None:
    write(tmp_path, "real/x.py")
    os.symlink(tmp_path / "real", tmp_path / "link")
    os.symlink(tmp_path, tmp_path / "real" / "loop")
    assert files_found(tmp_path) == ["real/x.py"]


def test_missing_path_is_disc_001(tmp_path: Path) -> None:
    with pytest.raises(RemoraError) as err:
        discover([tmp_path / "nope"], project_root=tmp_path)
    assert err.value.code == "DISC_001"
    assert err.value.exit_code == 2
    assert "nope" in err.value.message


def test_path_outside_the_root_is_an_error(tmp_path: Path) -> None:
    write(tmp_path, "outside/x.py")
    (tmp_path / "proj").mkdir()
    with pytest.raises(RemoraError) as err:
        discover([tmp_path / "outside"], project_root=tmp_path / "proj")
    assert err.value.code == "DISC_001"
    assert "outside the project root" in err.value.message


def test_unknown_node_type_is_a_usage_error(tmp_path: Path) -> None:
    with pytest.raises(RemoraError) as err:
        discover([tmp_path], project_root=tmp_path, node_types=["lambda"])  # type: ignore[list-item]
    assert err.value.code == "USAGE"


def test_bad_files_are_skipped_with_warnings_and_events(tmp_path: Path) -> None:
    write(tmp_path, "good.py", "class A:\n    def m(self):\n        pass\n")
    (tmp_path / "blob.py").write_bytes(b"\x00\x01binary")
    (tmp_path / "latin.py").write_bytes("s = 'caf\xe9'\n".encode("latin-1"))
    write(tmp_path, "broken.py", "def ok():\n    pass\n\nclass :\n")
    emitter = RecordingEmitter()
    result = discover([tmp_path], project_root=tmp_path, emitter=emitter)
    assert result.files == 2 and result.skipped == 2
    assert [(w.file, w.line) for w in result.warnings] == [
        ("blob.py", None),
        ("broken.py", 4),
        ("latin.py", 1),
    ]
    assert {n.full_name for n in result.nodes} == {"good.py", "A", "A.m", "broken.py", "ok"}
    assert emitter.kinds() == ["discovery_warning"] * 3 + ["discovery_done"]
    done = emitter.events[-1].data
    assert (done["files"], done["skipped"], done["nodes"]) == (2, 2, 5)


def test_unreadable_file_is_a_warning(tmp_path: Path) -> None:
    # A directory stands in for an unreadable file: reading it fails for every
    # user, including root (for whom chmod 000 changes nothing).
    (tmp_path / "dir.py").mkdir()
    result = parse_file(tmp_path / "dir.py", "dir.py")
    assert result.skipped and result.nodes == []
    assert result.warnings[0].message.startswith("skipped: cannot read")


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads files whatever their mode")
def test_unreadable_file_by_permission(tmp_path: Path) -> None:
    path = write(tmp_path, "secret.py")
    path.chmod(0)
    try:
        result = discover([tmp_path], project_root=tmp_path)
    finally:
        path.chmod(0o644)
    assert result.skipped == 1 and "cannot read" in result.warnings[0].message


def test_sample_project(tmp_path: Path) -> None:
    result = discover([SAMPLE], project_root=SAMPLE)
    assert result.warnings == []
    files = sorted({n.file_path for n in result.nodes})
    assert files == [
        "inventory/__init__.py",
        "inventory/models.py",
        "inventory/orders.py",
        "inventory/pricing.py",
        "inventory/reports.py",
        "tests/test_pricing.py",
    ]
    kinds = {n.full_name: n.node_type for n in result.nodes}
    assert kinds["Warehouse.low_stock"] == "method"
    assert kinds["StockItem.needs_reorder"] == "method"
    assert kinds["ReportWriter.write_all"] == "method"
    assert kinds["apply_discount"] == "function"
    assert kinds["Order"] == "class"
    assert len({n.node_id for n in result.nodes}) == len(result.nodes)


def test_explicit_non_python_file_is_skipped_with_a_warning(tmp_path: Path) -> None:
    write(tmp_path, "README.md", "# title\n")
    write(tmp_path, "a.py")
    result = discover([tmp_path / "README.md", tmp_path / "a.py"], project_root=tmp_path)
    assert {n.file_path for n in result.nodes} == {"a.py"}
    assert [(w.file, w.message) for w in result.warnings] == [
        ("README.md", "skipped: not a Python file (.py)")
    ]


def test_a_package_file_no_import_reaches_is_skipped_unless_named(tmp_path: Path) -> None:
    for rel in ["pkg/__init__.py", "pkg/grammar.py", "pkg/grammar.py old copy.py"]:
        write(tmp_path, rel)
    write(tmp_path, "run-checks.py")  # a script beside no package: run, not imported
    result = discover([tmp_path], project_root=tmp_path, node_types=["file"])
    assert [n.file_path for n in result.nodes] == [
        "pkg/__init__.py",
        "pkg/grammar.py",
        "run-checks.py",
    ]
    assert [(w.file, w.message.split(":")[0]) for w in result.warnings] == [
        ("pkg/grammar.py old copy.py", "skipped")
    ]
    named = [tmp_path / "pkg" / "grammar.py old copy.py"]
    assert files_found(tmp_path, named) == ["pkg/grammar.py old copy.py"]
