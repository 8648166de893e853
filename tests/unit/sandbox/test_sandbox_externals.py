"""The host externals, bound to a real workspace over a temp project."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from sandbox_kit import SECRET, make_project, sandbox_config

from remora.discovery import CSTNode, make_node_id
from remora.events import RecordingEmitter
from remora.sandbox import EXTERNALS, ExternalRefused, build_externals
from remora.sandbox.search import glob_to_regex
from remora.workspace import Workspace, WorkspaceStore


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return make_project(tmp_path)


@pytest.fixture
def ws(project: Path) -> Iterator[Workspace]:
    workspace = WorkspaceStore(project).create("test", "node1")
    yield workspace
    workspace.close()


def node(text: str = "def f(x):\n    return x + 1\n") -> CSTNode:
    return CSTNode(
        node_id=make_node_id("src/a.py", "f", "function"),
        node_type="function",
        name="f",
        full_name="f",
        file_path="src/a.py",
        start_byte=15,
        end_byte=15 + len(text),
        start_line=4,
        end_line=5,
        text=text,
    )


def externals(ws: Workspace, **kwargs: Any) -> dict[str, Callable[..., Any]]:
    return build_externals(ws, kwargs.pop("node", None), sandbox_config(), **kwargs)


def test_every_declared_external_is_provided(ws: Workspace) -> None:
    assert set(externals(ws)) == set(EXTERNALS)


def test_read_write_delete_list_exists(ws: Workspace, project: Path) -> None:
    ext = externals(ws)
    assert ext["read_file"]("src/a.py").startswith("import os")
    assert ext["write_file"]("src/new.py", "x = 1\n") is True
    assert ext["read_file"]("src/new.py") == "x = 1\n"
    assert ext["file_exists"]("src/new.py") and ext["file_exists"]("src/pkg")
    assert not ext["file_exists"]("src/none.py")
    assert ext["list_dir"]("src") == ["a.py", "new.py", "pkg/"]
    assert ext["delete_file"]("notes.txt") is True
    assert ext["delete_file"]("notes.txt") is False
    assert not ext["file_exists"]("notes.txt")
    assert not (project / "src" / "new.py").exists()  # only the overlay changed
    assert (project / "notes.txt").exists()
    assert ws.changed_files() == ["notes.txt", "src/new.py"]


def test_read_errors_name_the_path(ws: Workspace) -> None:
    ext = externals(ws)
    with pytest.raises(FileNotFoundError, match=r"'nope\.py'"):
        ext["read_file"]("nope.py")
    with pytest.raises(ValueError, match=r"'blob\.bin' is not UTF-8 text"):
        ext["read_file"]("blob.bin")
    with pytest.raises(IsADirectoryError):
        ext["read_file"]("src")
    with pytest.raises(TypeError):
        ext["write_file"]("x.py", 3)


@pytest.mark.parametrize(
    "path",
    [
        "../outside/secret.txt",
        "src/../../outside/secret.txt",
        "/etc/passwd",
        "leak_file",
        "leak_dir/secret.txt",
        ".remora/workspaces",
        ".git/config",
    ],
)
@pytest.mark.parametrize(
    "name", ["read_file", "write_file", "delete_file", "list_dir", "file_exists"]
)
def test_paths_leaving_the_project_are_refused(
    ws: Workspace, project: Path, name: str, path: str
) -> None:
    ext = externals(ws)
    args: tuple[Any, ...] = (path, "pwned") if name == "write_file" else (path,)
    with pytest.raises(ExternalRefused, match="refused"):
        ext[name](*args)
    assert (project.parent / "outside" / "secret.txt").read_text() == SECRET
    assert ws.changed_files() == []


@pytest.mark.parametrize("pattern", ["/etc/*", "../outside/*", "src/../../**"])
def test_globs_leaving_the_project_are_refused(ws: Workspace, pattern: str) -> None:
    ext = externals(ws)
    with pytest.raises(ExternalRefused):
        ext["search_files"](pattern)
    with pytest.raises(ExternalRefused):
        asyncio.run(ext["search_content"]("x", pattern))


def test_symlinks_out_are_not_listed_or_searched(ws: Workspace) -> None:
    ext = externals(ws)
    assert "leak_dir/" not in ext["list_dir"]() and "leak_file" not in ext["list_dir"]()
    assert ext["search_files"]("**/*") == ["blob.bin", "notes.txt", "src/a.py", "src/pkg/b.py"]
    found = asyncio.run(ext["search_content"]("TOP-SECRET", "**/*"))
    assert found == {"matches": [], "truncated": False, "reason": None}


def test_search_files_and_content(ws: Workspace) -> None:
    ext = externals(ws)
    ext["write_file"]("src/pkg/c.py", "needle = 1\n")
    assert ext["search_files"]("src/**/*.py") == ["src/a.py", "src/pkg/b.py", "src/pkg/c.py"]
    assert ext["search_files"]("*.txt") == ["notes.txt"]
    found = asyncio.run(ext["search_content"]("needle"))
    assert found["matches"] == [
        {"file": "src/pkg/b.py", "line": 2, "text": "    return 'needle'"},
        {"file": "src/pkg/c.py", "line": 1, "text": "needle = 1"},
    ]
    everywhere = asyncio.run(ext["search_content"](r"need\w+", "**/*"))
    assert [m["file"] for m in everywhere["matches"]] == [
        "notes.txt",
        "src/pkg/b.py",
        "src/pkg/c.py",
    ]
    with pytest.raises(ValueError, match="invalid regular expression"):
        asyncio.run(ext["search_content"]("(unclosed"))


def test_search_content_stops_at_its_time_bound(ws: Workspace) -> None:
    ext = externals(ws, search_timeout_s=0.0)
    found = asyncio.run(ext["search_content"]("needle", "**/*"))
    assert found["truncated"] is True and "time bound" in found["reason"]


def test_glob_to_regex() -> None:
    assert glob_to_regex("**/*.py").fullmatch("a.py")
    assert glob_to_regex("**/*.py").fullmatch("x/y/a.py")
    assert not glob_to_regex("*.py").fullmatch("x/a.py")
    assert glob_to_regex("src/[ab]?.py").fullmatch("src/a1.py")
    assert not glob_to_regex("src/[!ab].py").fullmatch("src/a.py")


def test_node_externals(ws: Workspace) -> None:
    ext = externals(ws, node=node())
    assert ext["get_node_source"]() == "def f(x):\n    return x + 1\n"
    meta = ext["get_node_metadata"]()
    assert meta["full_name"] == "f" and meta["file_path"] == "src/a.py"
    assert (meta["start_line"], meta["end_line"]) == (4, 5)
    unbound = externals(ws)
    with pytest.raises(ExternalRefused, match="no node is bound"):
        unbound["get_node_source"]()


def test_log_goes_to_the_sink_and_the_event_log(ws: Workspace) -> None:
    sink: list[str] = []
    emitter = RecordingEmitter()
    ext = externals(ws, log_sink=sink, emitter=emitter, run_id="r1")
    ext["log"]("checked 3 files")
    assert sink == ["checked 3 files"]
    assert [(e.kind, e.data["message"], e.run_id) for e in emitter.events] == [
        ("tool_log", "checked 3 files", "r1")
    ]
