"""An export split for blind reviewers: each folder holds one operation group, the
project's code before the run and the brief, nothing else of the run."""

from __future__ import annotations

import dataclasses
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "benchmarks"))

from review_lib.blind import reviewer_folder
from review_lib.export import IndexEntry
from review_lib.labels import diff_sha256


def _export(out: Path) -> None:
    project = out / "shelf"
    (project / "changes").mkdir(parents=True)
    (project / "project-before" / "shelf").mkdir(parents=True)
    (project / "project-before" / "shelf" / "core.py").write_text("def run():\n    pass\n")
    entries = []
    for id_, operation in (("d1", "docstring"), ("l1", "lint"), ("t1", "test")):
        diff = f"+ change {id_}\n"
        (project / "changes" / f"{id_}.diff").write_text(diff)
        entry = IndexEntry(id_, operation, "run", "function", "shelf/core.py", diff_sha256(diff))
        entries.append(dataclasses.asdict(entry))
    (project / "index.json").write_text(json.dumps(entries))


def test_a_reviewer_s_folder_holds_one_group_the_code_and_the_brief(tmp_path: Path) -> None:
    _export(tmp_path / "out")
    folder = tmp_path / "reviewer"
    assert reviewer_folder(tmp_path / "out", "shelf", "docstring-lint", folder) == 2
    assert sorted(p.name for p in (folder / "changes").iterdir()) == ["d1.diff", "l1.diff"]
    assert [row["id"] for row in json.loads((folder / "index.json").read_text())] == ["d1", "l1"]
    assert (folder / "project-before" / "shelf" / "core.py").is_file()
    brief = (folder / "brief.md").read_text()
    assert "maintainer of shelf" in brief and f"{folder}/labels.json" in brief
    # Prepared again for the other group, the folder holds that group alone.
    assert reviewer_folder(tmp_path / "out", "shelf", "test-sample", folder) == 1
    assert [p.name for p in (folder / "changes").iterdir()] == ["t1.diff"]


def test_the_brief_keeps_the_reviewer_s_writes_in_its_folder(tmp_path: Path) -> None:
    # A reviewer that tried changes in /tmp/rv removed the export being run there.
    _export(tmp_path / "out")
    folder = tmp_path / "reviewer"
    reviewer_folder(tmp_path / "out", "shelf", "test-sample", folder)
    brief = " ".join((folder / "brief.md").read_text().split())
    assert f"write only there: to try a change, copy what you need into {folder}/scratch" in brief
