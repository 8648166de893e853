"""Where one process's time went, from a py-spy raw profile of a benchmark run.

Record: ``py-spy record --subprocesses --gil --nonblocking -f raw -r 50 -o OUT --
python benchmarks/scale.py ...`` (``--gil``: only samples holding the GIL, or threads
waiting for it look busy). Then ``python benchmarks/spy_summary.py OUT`` prints JSON: the
samples per process, and for the processes whose command line holds ``--process`` (default
the remora CLI that scale.py starts) the functions with the most samples of their own and
in all (``--callers NAME``: the frames that called the first frame holding NAME).
"""

from __future__ import annotations

import argparse
import collections
import json
import re
from pathlib import Path
from typing import Any

# A record is "frame;frame;... count": the -c wrapper's command line holds line breaks, so
# records are cut where a count ends a line and the next record starts with its process.
_RECORD = re.compile(r"(.*?) (\d+)\n(?=process |\Z)", re.S)


def summary(raw: str, process: str, top: int, callers: str | None) -> dict[str, Any]:
    per_process: collections.Counter[str] = collections.Counter()
    own: collections.Counter[str] = collections.Counter()
    total: collections.Counter[str] = collections.Counter()
    calling: collections.Counter[str] = collections.Counter()
    samples = 0
    for stack, count in _RECORD.findall(raw):
        frames = stack.split(";")
        processes = [f for f in frames if f.startswith("process ")]
        name = processes[-1][:80].replace("\n", " ") if processes else "?"
        per_process[name] += int(count)
        if not any(process in p for p in processes):
            continue
        code = [f for f in frames if not f.startswith("process ")]
        samples += int(count)
        if code:
            own[code[-1]] += int(count)
        for frame in set(code):
            total[frame] += int(count)
        if callers is not None:
            at = next((i for i, f in enumerate(code) if callers in f), None)
            if at is not None:
                calling[" <- ".join(reversed(code[max(at - 3, 0) : at]))] += int(count)
    return {
        "processes": dict(per_process.most_common(8)),
        "samples": samples,
        "own": dict(own.most_common(top)),
        "total": dict(total.most_common(top)),
        **({"callers": dict(calling.most_common(top))} if callers is not None else {}),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("profile", type=Path)
    parser.add_argument("--process", default="import atexit", help="part of its command line")
    parser.add_argument("--top", type=int, default=30)
    parser.add_argument("--callers", help="a frame's name (part of it)")
    args = parser.parse_args()
    raw = args.profile.read_text(errors="replace")
    print(json.dumps(summary(raw, args.process, args.top, args.callers), indent=2))


if __name__ == "__main__":
    main()
