"""Remora from a script or a notebook: analyse a copy of the example project, print the changes.

    python examples/library_use.py                          # every node × the enabled operations
    python examples/library_use.py inventory/pricing.py -o lint,docstring

It copies ``examples/sample_project`` into a temporary folder (the example stays
as it is), runs ``remora.analyze`` there with the default embedded model (set
``REMORA_MODEL__PATH`` to use a GGUF you have), prints each change waiting for
review with its diff, then lists the queue through ``remora.review``.
"""

from __future__ import annotations

import argparse
import shutil
import tempfile
from pathlib import Path

import remora

SAMPLE_PROJECT = Path(__file__).resolve().parent / "sample_project"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="*", help="paths inside the example project (default: all)")
    parser.add_argument("-o", "--operations", help="comma-separated, e.g. lint,docstring")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="remora-example-") as tmp:
        project = Path(tmp) / "sample_project"
        # Not the results of an earlier `remora analyze examples/sample_project`: a fresh start.
        shutil.copytree(SAMPLE_PROJECT, project, ignore=shutil.ignore_patterns(".remora"))
        paths = [project / p for p in args.paths] or [project]

        analysis = remora.analyze(paths, operations=args.operations, project=project)

        counts = analysis.counts()
        print(
            f"{len(analysis.outcomes)} runs: {counts['success']} succeeded, "
            f"{counts['failed']} failed, {counts['skipped']} skipped; "
            f"{len(analysis.changes)} changes waiting for review"
        )
        for change in analysis.changes:
            print(f"\n== {change.operation} on {change.node} ({change.workspace_id})")
            print(change.summary)
            print(change.diff, end="")
        queued = remora.review.list_changes(project)
        print(f"\nreview queue: {len(queued)} pending")
        return analysis.exit_code


if __name__ == "__main__":
    raise SystemExit(main())
