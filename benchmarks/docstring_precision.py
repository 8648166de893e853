"""What each docstring precision rule keeps out of the queue, on the labelled changes.

For each export given (``OUT:PROJECT``), every docstring change is decided as a run
would decide it today (the node left alone, or its summary refused), with every rule
and with each rule of ``review_lib/precision.py`` turned off in turn. A JSON table is
printed: per setting, the labelled changes still proposed by verdict, the false
("wrong") ones, the merged-as-is share and the undocumented public definitions still
written; per rule, the rejects, false changes and edits only it removes and the
accepts it loses.

Usage (from benchmarks/):
  ../.venv/bin/python docstring_precision.py OUT:PROJECT [OUT:PROJECT ...]
"""

from __future__ import annotations

import argparse
import json
import sys

from review_lib.export import export_and_project
from review_lib.precision import outcomes, precision_table


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("exports", nargs="+", help="OUT:PROJECT, an export and its project")
    args = parser.parse_args(argv)
    try:
        exports = [export_and_project(given) for given in args.exports]
    except ValueError as error:
        parser.error(str(error))
    changes, decided = outcomes(exports)
    json.dump(precision_table(changes, decided), sys.stdout, indent=1)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
