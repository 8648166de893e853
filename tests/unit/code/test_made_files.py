"""What a probed call left in the working directory is reported and taken away."""

from __future__ import annotations

from pathlib import Path

import pytest

from remora.code.probes.programs.made_files import listed, made_files


def test_new_entries_are_reported_and_removed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "kept.txt").write_text("the project's own")
    before = listed()
    (tmp_path / "example.sqlite").write_bytes(b"")
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "rows.csv").write_text("a,b\n")
    (tmp_path / "__pycache__").mkdir()  # bytecode is the import's, not the call's
    (tmp_path / ".coverage.host.1").write_text("")
    assert made_files(before) == {"made_files": ["data", "example.sqlite"]}
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        ".coverage.host.1",
        "__pycache__",
        "kept.txt",
    ]
    assert made_files(listed()) == {}
