"""Today's docstring summary checks on the summaries blind reviewers labelled, offline.

For each export given (``OUT:PROJECT``; the export's ``index.json``, ``changes/`` and
``project-before/``), every labelled docstring change's proposed summary is checked
as a run would check it (``review_lib/summary_checks.py``), and a JSON table printed:
per verdict/category, the changes, how many the checks refuse and how many of those as
restating the name, and the refused changes a reviewer accepted.

With ``--sections`` the whole proposed docstring is given back to today's composition
(``review_lib/section_checks.py``): for edit labels whose reason is about a section, how
many come out without the part the reason names; for accepted changes, how many change.

Usage:
  python benchmarks/summary_checks.py OUT:PROJECT [OUT:PROJECT ...] [--changes] [--sections]
  e.g. python benchmarks/summary_checks.py /tmp/review_dev:isodate /tmp/review_semver:semver
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import asdict

from review_lib.export import export_and_project
from review_lib.section_checks import section_changes, section_table
from review_lib.summary_checks import checked_changes, table


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("exports", nargs="+", help="OUT:PROJECT, an export and its project")
    parser.add_argument("--changes", action="store_true", help="list every checked change too")
    parser.add_argument(
        "--sections", action="store_true", help="recompose whole docstrings (their sections)"
    )
    args = parser.parse_args(argv)
    try:
        exports = [export_and_project(given) for given in args.exports]
    except ValueError as error:
        parser.error(str(error))
    if args.sections:
        recomposed = section_changes(exports)
        report = section_table(recomposed)
        if args.changes:
            report["changes_list"] = [asdict(c) for c in recomposed]
    else:
        changes = [c for out, project in exports for c in checked_changes(out, project)]
        report = table(changes)
        if args.changes:
            report["changes"] = [asdict(c) for c in changes]
    json.dump(report, sys.stdout, indent=1)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
