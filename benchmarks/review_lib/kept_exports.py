"""The export a project's labels were given on, kept beside them in the repository.

Labels are keyed by a hash of each diff (:mod:`review_lib.labels`); the diffs
themselves lived only in the export folder, on the machine that ran it. A later
session asking which labelled changes a new rule keeps out
(:mod:`review_lib.precision`) needs them, and a fresh machine has none. So
``import-labels`` copies the judged export's ``index.json``, its ``changes/`` and its
``_meta/<project>.json`` (what the run reported, each result's details and summary, less
the model transcripts, gzip-compressed: ~60 KB where the file is 1.4 MB) to
``benchmarks/review_exports/``, in the same layout: ``review.py report --out
benchmarks/review_exports`` and the precision table read it as they read any export.
``project-before/`` is left out: it is the pinned sdist as
:func:`review_lib.corpus.prepare` makes it again, which :func:`project_before` does
(into the cache) for an export without one.
"""

from __future__ import annotations

import functools
import gzip
import json
import shutil
from pathlib import Path

from review_lib.corpus import CACHE, PROJECTS, prepare
from review_lib.export import read_meta

__all__ = ["EXPORTS_DIR", "keep_export", "project_before"]

EXPORTS_DIR = Path(__file__).resolve().parents[1] / "review_exports"


def keep_export(out: Path, project: str, dest: Path = EXPORTS_DIR) -> Path:
    """Copy the export of ``project`` at ``out`` (index, diffs, run report) to ``dest``,
    replacing an earlier copy of it; returns the project's folder there."""
    source = out / project
    folder = dest / project
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    shutil.copy2(source / "index.json", folder / "index.json")
    shutil.copytree(source / "changes", folder / "changes")
    meta = read_meta(out, project)
    for result in meta.get("report", {}).get("results") or []:
        if isinstance(result, dict) and isinstance(result.get("details"), dict):
            result["details"].pop("transcript", None)
    (dest / "_meta").mkdir(exist_ok=True)
    text = json.dumps(meta, separators=(",", ":"), sort_keys=True)
    # mtime=0: the same record compresses to the same bytes, run after run.
    (dest / "_meta" / f"{project}.json.gz").write_bytes(gzip.compress(text.encode(), mtime=0))
    return folder


@functools.cache
def project_before(out: Path, project: str) -> Path:
    """The stripped project the export of ``project`` at ``out`` was made from: its own
    ``project-before/``, or, for a kept export, the pin prepared again in the cache, once
    per process (the precision table asks once per change and setting)."""
    before = out / project / "project-before"
    if before.is_dir():
        return before
    pinned = PROJECTS[project]
    again = CACHE / "kept-before" / pinned.key
    prepare(pinned, again)
    return again
