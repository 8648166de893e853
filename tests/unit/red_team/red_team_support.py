"""What the red-team tests share (issue 54): a project with one pending change, the
real ``remora`` entry point in a subprocess, and the ways a results database is damaged."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

from remora.results import ResultsDB
from remora.workspace import WorkspaceStore

REMORA = [sys.executable, "-c", "from remora.cli.app import main; main()"]
PRICING = "def price(amount):\n    total = amount\n    return total\n"
PRICING_NEW = "def price(amount):\n    return amount\n"
CHANGE_ID = "lint-n1"


def make_project(root: Path) -> Path:
    """``pricing.py`` and ``README.md``, and one pending lint change that removes a line of
    ``pricing.py`` (``lint-n1``), written and recorded as a run records it."""
    root.mkdir(parents=True, exist_ok=True)
    (root / "pricing.py").write_text(PRICING)
    (root / "README.md").write_text("# Shop\n")
    with WorkspaceStore(root).create("lint", "n1") as ws:
        ws.read("pricing.py")
        ws.write("pricing.py", PRICING_NEW.encode())
    with ResultsDB(root) as db:
        run_id = db.start_run("analyze", {})
        db.record_result(
            run_id,
            {"node_id": "n1", "full_name": "price", "file_path": "pricing.py"},
            "lint",
            {
                "status": "success",
                "workspace_id": CHANGE_ID,
                "changed_files": ["pricing.py"],
                "summary": "lint of price",
            },
        )
        db.finish_run(run_id)
    return root


def remora(cwd: Path, *args: str, env: dict[str, str] | None = None) -> tuple[int, str]:
    """``remora ARGS`` in ``cwd`` as a user runs it: its exit code and what it printed,
    asserting no traceback."""
    done = subprocess.run(
        [*REMORA, *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "COLUMNS": "250", **(env or {})},
    )
    assert "Traceback" not in done.stdout + done.stderr, done.stderr
    return done.returncode, done.stdout + done.stderr


def _drop_log(db: Path) -> None:
    for side in ("-wal", "-shm"):
        db.with_name(db.name + side).unlink(missing_ok=True)


def random_bytes(db: Path) -> None:
    _drop_log(db)
    db.write_bytes(os.urandom(40_000))


def header_overwritten(db: Path) -> None:
    with db.open("r+b") as fh:
        fh.write(b"X" * 48)


def truncated_to_half(db: Path) -> None:
    _checkpoint(db)
    os.truncate(db, db.stat().st_size // 2)


def a_directory(db: Path) -> None:
    _drop_log(db)
    db.unlink()
    db.mkdir()


def another_schema(db: Path) -> None:
    _drop_log(db)
    db.unlink()
    with sqlite3.connect(db) as conn:
        conn.execute("CREATE TABLE results(a, b)")
        conn.execute("INSERT INTO results VALUES (1, 2)")
    conn.close()


def emptied(db: Path) -> None:
    _drop_log(db)
    db.write_bytes(b"")


def deleted(db: Path) -> None:
    _drop_log(db)
    db.unlink()


def _checkpoint(db: Path) -> None:
    conn = sqlite3.connect(db)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.execute("PRAGMA journal_mode=DELETE")
    conn.close()
    _drop_log(db)


DAMAGES: dict[str, Callable[[Path], None]] = {
    "random bytes": random_bytes,
    "header overwritten": header_overwritten,
    "truncated to half": truncated_to_half,
    "a directory": a_directory,
    "another schema": another_schema,
    "emptied": emptied,
    "deleted": deleted,
}
# What the one error says of each damage.
SAYS = {
    "random bytes": "is damaged or not a database",
    "header overwritten": "is damaged or not a database",
    "truncated to half": "is damaged",
    "a directory": "is a directory",
    "another schema": "was not written by Remora",
    "emptied": "is empty, but",
    "deleted": "is missing, but",
}
