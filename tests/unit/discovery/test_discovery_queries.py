"""Query packs: the bundled one, user packs, and broken packs."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from remora.config import DiscoveryConfig
from remora.discovery import discover, load_query_pack
from remora.discovery.queries import BUNDLED_QUERY_DIR
from remora.errors import RemoraError

CODE = "class A:\n    def m(self):\n        pass\n\ndef f():\n    pass\n"


def make_pack(base: Path, files: dict[str, str], pack: str = "mine") -> Path:
    directory = base / "python" / pack
    directory.mkdir(parents=True)
    for name, text in files.items():
        (directory / name).write_text(text)
    return directory


def test_bundled_pack_ships_its_scm_files() -> None:
    pack = load_query_pack()
    assert pack.directory == BUNDLED_QUERY_DIR / "python" / "remora_core"
    assert sorted(p.name for p in pack.files) == ["class.scm", "file.scm", "function.scm"]
    assert set(pack.def_kinds.values()) == {"file", "class", "function"}


def test_user_pack_decides_what_is_found(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text(CODE)
    make_pack(
        tmp_path / "q",
        {"classes.scm": "(class_definition name: (identifier) @class.name) @class.def\n"},
    )
    config = DiscoveryConfig(query_pack="mine", query_dir=Path("q"))
    result = discover([tmp_path], project_root=tmp_path, config=config)
    assert [(n.node_type, n.full_name) for n in result.nodes] == [("class", "A")]


def test_user_query_dir_shadows_a_bundled_pack_of_the_same_name(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text(CODE)
    make_pack(
        tmp_path / "q",
        {
            "only_functions.scm": "(function_definition name: (identifier) @function.name)"
            " @function.def\n"
        },
        pack="remora_core",
    )
    config = DiscoveryConfig(query_dir=tmp_path / "q")
    result = discover([tmp_path], project_root=tmp_path, config=config)
    # Without class captures nothing encloses m: nesting comes from the pack's definitions.
    assert [(n.node_type, n.full_name) for n in result.nodes] == [
        ("function", "m"),
        ("function", "f"),
    ]


def test_pack_is_recompiled_when_a_file_changes(tmp_path: Path) -> None:
    directory = make_pack(tmp_path, {"f.scm": "(module) @file.def\n"})
    first = load_query_pack("python", "mine", tmp_path)
    assert load_query_pack("python", "mine", tmp_path) is first
    scm = directory / "f.scm"
    scm.write_text("(class_definition) @class.def\n")
    stat = scm.stat()
    os.utime(scm, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000_000))
    second = load_query_pack("python", "mine", tmp_path)
    assert second is not first and set(second.def_kinds.values()) == {"class"}


def test_missing_pack_is_disc_002(tmp_path: Path) -> None:
    with pytest.raises(RemoraError) as err:
        load_query_pack("python", "nope", tmp_path)
    assert err.value.code == "DISC_002"
    assert "nope" in err.value.message and err.value.hint


def test_invalid_query_names_the_file(tmp_path: Path) -> None:
    make_pack(
        tmp_path,
        {
            "good.scm": "(module) @file.def\n",
            "bad.scm": "(function_definition name: (identifer) @function.name\n",
        },
    )
    with pytest.raises(RemoraError) as err:
        load_query_pack("python", "mine", tmp_path)
    assert err.value.code == "DISC_002"
    assert "bad.scm" in err.value.message


def test_unknown_capture_names_the_file(tmp_path: Path) -> None:
    make_pack(tmp_path, {"x.scm": "(function_definition) @func\n"})
    with pytest.raises(RemoraError) as err:
        load_query_pack("python", "mine", tmp_path)
    assert "@func" in err.value.message and "x.scm" in err.value.message


def test_helper_captures_with_underscore_are_allowed(tmp_path: Path) -> None:
    make_pack(
        tmp_path,
        {
            "x.scm": "((function_definition name: (identifier) @function.name)"
            ' @function.def (#match? @function.name "^test_"))\n'
            "(decorator) @_deco\n"
        },
    )
    (tmp_path / "t.py").write_text("def test_a():\n    pass\n\ndef helper():\n    pass\n")
    config = DiscoveryConfig(query_pack="mine", query_dir=tmp_path)
    result = discover([tmp_path / "t.py"], project_root=tmp_path, config=config)
    assert [n.full_name for n in result.nodes] == ["test_a"]
