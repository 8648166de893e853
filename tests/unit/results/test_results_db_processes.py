"""Several processes recording into one results database and appending to one event log at
once, as the host processes of a sharded `remora analyze` do (real processes, real files)."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

from remora.results import ResultsDB

PROCESSES = 4
RESULTS = 60  # per process

# Each process waits for the same moment, then records its results as fast as it can:
# every commit contends for the one write lock (busy timeout, BEGIN IMMEDIATE).
WRITER = """
import sys, time
from pathlib import Path
from remora.events import Event, JsonlSink
from remora.results import ResultsDB
root, index, start = Path(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3])
db = ResultsDB(root)
sink = JsonlSink(root / ".remora" / "events.jsonl", max_payload_chars=100000)
while time.time() < start:
    time.sleep(0.001)
for i in range(int(sys.argv[5])):
    node = {"node_id": f"n{index}-{i}", "full_name": f"f{i}", "file_path": f"m{index}.py"}
    db.record_result(sys.argv[4], node, "lint", {"status": "success", "summary": "x" * 500})
    # A line far past a text file's 8 KiB buffer: written in pieces, lines would interleave.
    sink.emit(Event("tool_log", {"writer": index, "i": i, "pad": str(index) * 20000}))
sink.close()
db.close()
"""


def test_concurrent_writers_record_everything_and_lines_stay_whole(tmp_path: Path) -> None:
    with ResultsDB(tmp_path) as db:
        run_id = db.start_run("analyze", {})
    start = time.time() + 1.5  # after every interpreter has started
    arguments = [str(tmp_path), "", repr(start), run_id, str(RESULTS)]
    writers = [
        subprocess.Popen(
            [sys.executable, "-c", WRITER, *arguments[:1], str(i), *arguments[2:]],
            stderr=subprocess.PIPE,
            text=True,
        )
        for i in range(PROCESSES)
    ]
    for writer in writers:
        _, err = writer.communicate(timeout=120)
        assert writer.returncode == 0, err
    with ResultsDB(tmp_path) as db:
        records = db.list(run_id=run_id)
    assert len(records) == PROCESSES * RESULTS
    assert len({r.node_id for r in records}) == PROCESSES * RESULTS
    lines = (tmp_path / ".remora" / "events.jsonl").read_text().splitlines()
    events = [json.loads(line) for line in lines]  # a torn line would not parse
    assert len(events) == PROCESSES * RESULTS
    assert all(e["pad"] == str(e["writer"]) * 20000 for e in events)


# Each process opens a database nobody has created yet at the same moment (two `remora
# review accept` in a fresh project did): switching a new file to WAL is refused at once,
# not waited for, to the one that loses the race ("database is locked", exit 2).
OPENER = """
import sys, time
from pathlib import Path
from remora.results import ResultsDB
root, start = Path(sys.argv[1]), float(sys.argv[2])
while time.time() < start:
    pass
with ResultsDB(root) as db:
    db.runs()
"""


def test_processes_opening_a_new_database_at_once_all_open_it(tmp_path: Path) -> None:
    rounds, openers = 12, 6  # before the wait: a round in three failed on 2 cores
    for round_ in range(rounds):
        root = tmp_path / str(round_)
        (root / ".remora").mkdir(parents=True)
        start = repr(time.time() + 0.8)  # after every interpreter has started
        procs = [
            subprocess.Popen(
                [sys.executable, "-c", OPENER, str(root), start], stderr=subprocess.PIPE, text=True
            )
            for _ in range(openers)
        ]
        for proc in procs:
            _, err = proc.communicate(timeout=60)
            assert proc.returncode == 0, err
