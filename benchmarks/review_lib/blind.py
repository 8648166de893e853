"""An export split for blind reviewers: one folder per reviewer, with the brief.

A reviewer judges one operation group of one project (docstrings and lint fixes, or
tests and sample data: two kinds of reading), sees only the project's code as it was
before the run and the changes of that group, and is told nothing of what Remora is
or what figure is hoped for. Two reviewers per group, each alone, give the labels and
their agreement (docs/competence.md, "Blind labels"). The folder of a reviewer holds
``project-before/``, ``changes/<id>.diff``, ``index.json`` (that group's entries) and
``brief.md``; the reviewer writes ``labels.json`` there, which ``review.py
import-labels`` reads.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from review_lib.export import read_index

__all__ = ["GROUPS", "brief", "reviewer_folder"]

# The operations one reviewer judges together.
GROUPS: dict[str, tuple[str, ...]] = {
    "docstring-lint": ("docstring", "lint"),
    "test-sample": ("test", "sample_data"),
}

_BRIEF = """\
You are the long-time maintainer of {project} (its code is in {folder}/project-before). A tool
has proposed a batch of changes to your code ({folder}/changes, listed in {folder}/index.json),
and you review every one exactly as you would review a pull request from a stranger: you merge
only what you would be happy to maintain. Be fair and concrete, neither hostile nor generous.
The docstrings were removed before the tool ran: judge each proposal against the code, not
against documentation you remember. For each change decide "accept" (merge it exactly as it
is), "edit" (worth having, but you would change something first: say what) or "reject" (you
would not merge it). Give a category: wrong (states something false, asserts something false,
or changes behaviour), misleading (vague, or about the wrong thing), noise (carries no
information: parameter entries that repeat the signature, trivial tests), style (right content,
poor form: naming, formatting, odd values), useless (no value to the project), or ok. Read the
function before you judge a claim about it. For a test: does it pin behaviour that matters, does
its name say what it checks, are its values sensible, would it break on a correct refactoring?
For a docstring: is every statement true of the code, and does a reader learn something? For
sample data: would you want it in the repository? Write a JSON list to {folder}/labels.json,
one object per change: {{"id", "operation", "verdict", "category", "reason"}}, the reason one
sentence. Work alone; read only files under {folder} and write only there: to try a change, copy
what you need into {folder}/scratch (nothing outside {folder} is yours to create or remove).
"""


def brief(project: str, folder: Path) -> str:
    """The brief of a reviewer of ``project`` whose folder is ``folder``."""
    return _BRIEF.format(project=project, folder=folder)


def reviewer_folder(out: Path, project: str, group: str, folder: Path) -> int:
    """Write ``folder`` for one reviewer of ``group`` on ``project``'s export in ``out``
    (replacing what was there); the number of changes it holds."""
    operations = GROUPS[group]
    entries = [e for e in read_index(out, project) if e.operation in operations]
    if folder.exists():
        shutil.rmtree(folder)
    (folder / "changes").mkdir(parents=True)
    shutil.copytree(out / project / "project-before", folder / "project-before")
    rows = json.loads((out / project / "index.json").read_text(encoding="utf-8"))
    chosen = {e.id for e in entries}
    for entry in entries:
        shutil.copy(out / project / "changes" / f"{entry.id}.diff", folder / "changes")
    kept = [row for row in rows if row["id"] in chosen]
    (folder / "index.json").write_text(json.dumps(kept, indent=1), encoding="utf-8")
    (folder / "brief.md").write_text(brief(project, folder), encoding="utf-8")
    return len(entries)
