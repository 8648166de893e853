"""The results database ``.remora/remora.db``: runs, results and review states.

It outlives the process that ran the agents, so ``remora review`` works later.
It knows nothing of the agent loop: a result is recorded from a plain dict.
"""

from __future__ import annotations

import builtins
import contextlib
import json
import sqlite3
import threading
import time
import uuid
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, cast

from remora.errors import WorkspaceNotFoundError
from remora.project import state_dir
from remora.results.health import translated
from remora.results.review_states import OPEN_STATES, REVIEW_STATES, ReviewState, new_result_state
from remora.results.schema import SCHEMA_VERSION, is_busy, open_results

__all__ = [
    "OPEN_STATES",
    "SCHEMA_VERSION",
    "ResultRecord",
    "ResultsDB",
    "ReviewState",
    "RunRecord",
    "is_busy",
    "review_state",
]

_STATES: tuple[str, ...] = REVIEW_STATES
# Well under SQLite's limit on a statement's parameters (999 before 3.32).
_IDS_PER_QUERY = 500


@dataclass(frozen=True, slots=True)
class RunRecord:
    run_id: str
    started: float
    finished: float | None
    command: str
    config: dict[str, Any]

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True, slots=True)
class ResultRecord:
    result_id: str
    run_id: str
    node_id: str
    node_name: str
    file_path: str
    operation: str
    status: str
    workspace_id: str | None
    summary: str
    details: dict[str, Any]
    error_code: str | None
    error_message: str | None
    turns: int
    usage: dict[str, Any]
    duration_s: float
    degraded: bool
    changed_files: list[str]
    review_state: ReviewState
    created: float
    # Set by a reject with a reason (schema 2): what the next run is told.
    reject_reason: str | None = None
    rejected_diff: str | None = None
    # change_signature() of the change when it was rejected
    change_signature: str | None = None
    # The hunk numbers an accept took; None: the whole change (or not accepted)
    accepted_hunks: list[int] | None = None
    # Digest of the run's inputs (schema 3); None for results recorded before it
    fingerprint: str | None = None
    # What the accept removed beyond the change, per file (schema 4): the imports the
    # accepted change made unused ({"pkg/m.py": ["from typing import Optional"]})
    also_removed: dict[str, list[str]] | None = None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


_RESULT_COLUMNS = [f for f in ResultRecord.__dataclass_fields__]


def _field(node: Any, name: str, default: str = "") -> str:
    value = node.get(name, default) if isinstance(node, Mapping) else getattr(node, name, default)
    return "" if value is None else str(value)


def _row_to_result(row: sqlite3.Row) -> ResultRecord:
    data = dict(row)
    for key in ("details", "usage", "changed_files"):
        data[key] = json.loads(data[key])
    data["degraded"] = bool(data["degraded"])
    for key in ("accepted_hunks", "also_removed"):
        if data[key] is not None:
            data[key] = json.loads(data[key])
    return ResultRecord(**data)


class ResultsDB:
    """Runs and results of one project; safe across threads and processes."""

    def __init__(self, project_root: Path, *, durable: bool = True) -> None:
        """``durable=False``: an analyze's recording (see :func:`open_results`)."""
        self.path = state_dir(project_root.resolve()) / "remora.db"
        self._lock = threading.RLock()
        self._conn = open_results(self.path, durable=durable)

    @contextlib.contextmanager
    def _using(self) -> Iterator[None]:
        """The connection's lock, with SQLite's errors about the file as one clear error."""
        with self._lock, translated(self.path):
            yield

    # -- runs -----------------------------------------------------------------

    def start_run(self, command: str, config: Mapping[str, Any] | None = None) -> str:
        run_id = f"{time.strftime('%Y%m%d-%H%M%S')}-{uuid.uuid4().hex[:6]}"
        with self._using():
            self._conn.execute(
                "INSERT INTO runs(run_id, started, finished, command, config) "
                "VALUES (?, ?, NULL, ?, ?)",
                (run_id, time.time(), command, json.dumps(dict(config or {}), default=str)),
            )
        return run_id

    def finish_run(self, run_id: str) -> None:
        with self._using():
            self._conn.execute("UPDATE runs SET finished=? WHERE run_id=?", (time.time(), run_id))

    def runs(self) -> list[RunRecord]:
        with self._using():
            rows = self._conn.execute("SELECT * FROM runs ORDER BY started").fetchall()
        return [
            RunRecord(
                r["run_id"], r["started"], r["finished"], r["command"], json.loads(r["config"])
            )
            for r in rows
        ]

    # -- results --------------------------------------------------------------

    def record_result(
        self,
        run_id: str,
        node: Any,
        operation: str,
        result: Mapping[str, Any],
        *,
        fingerprint: str | None = None,
    ) -> str:
        """Store one agent result; returns its result id.

        ``node`` is a CSTNode or anything with node_id, full_name/name and
        file_path (attributes or keys). ``result`` keys: status, workspace_id,
        changed_files, summary, details, error ({code, message} or None), turns,
        usage, duration_s, degraded. A result with changed files is pending
        review; an older open result of the same workspace is superseded.
        ``fingerprint`` is the digest of the run's inputs (see ``latest``).
        """
        error = result.get("error") or {}
        changed = [str(p) for p in result.get("changed_files") or []]
        workspace_id = result.get("workspace_id") or None
        state = new_result_state(changed, workspace_id)
        result_id = uuid.uuid4().hex[:12]
        values = {
            "result_id": result_id,
            "run_id": run_id,
            "node_id": _field(node, "node_id"),
            "node_name": _field(node, "full_name") or _field(node, "name"),
            "file_path": _field(node, "file_path"),
            "operation": operation,
            "status": str(result.get("status", "failed")),
            "workspace_id": workspace_id,
            "summary": str(result.get("summary") or ""),
            "details": json.dumps(result.get("details") or {}, default=str),
            "error_code": error.get("code"),
            "error_message": error.get("message"),
            "turns": int(result.get("turns") or 0),
            "usage": json.dumps(result.get("usage") or {}, default=str),
            "duration_s": float(result.get("duration_s") or 0.0),
            "degraded": int(bool(result.get("degraded"))),
            "changed_files": json.dumps(changed),
            "review_state": state,
            "created": time.time(),
            "reject_reason": None,
            "rejected_diff": None,
            "change_signature": None,
            "accepted_hunks": None,
            "fingerprint": fingerprint,
            "also_removed": None,
        }
        columns = ", ".join(_RESULT_COLUMNS)
        marks = ", ".join("?" for _ in _RESULT_COLUMNS)
        with self._using():
            self._conn.execute("BEGIN IMMEDIATE")
            try:
                if workspace_id:  # one open result per workspace: its latest
                    open_marks = ", ".join("?" for _ in OPEN_STATES)
                    self._conn.execute(
                        "UPDATE results SET review_state='superseded' WHERE workspace_id=? "
                        f"AND review_state IN ({open_marks})",
                        (workspace_id, *OPEN_STATES),
                    )
                self._conn.execute(
                    f"INSERT INTO results({columns}) VALUES ({marks})",
                    [values[c] for c in _RESULT_COLUMNS],
                )
            except BaseException:
                self._conn.execute("ROLLBACK")
                raise
            self._conn.execute("COMMIT")
        return result_id

    def list(
        self, states: Iterable[str] | None = None, run_id: str | None = None
    ) -> list[ResultRecord]:
        """Results, oldest first, optionally only those in ``states`` / of one run."""
        query, params = "SELECT * FROM results WHERE 1=1", []
        if states is not None:
            wanted = list(states)
            unknown = sorted(set(wanted) - set(_STATES))
            if unknown:
                raise ValueError(f"unknown review state(s) {unknown}; known: {_STATES}")
            query += f" AND review_state IN ({', '.join('?' for _ in wanted)})"
            params.extend(wanted)
        if run_id is not None:
            query += " AND run_id=?"
            params.append(run_id)
        with self._using():
            rows = self._conn.execute(query + " ORDER BY created, rowid", params).fetchall()
        return [_row_to_result(r) for r in rows]

    def details(self, result_ids: Iterable[str]) -> dict[str, dict[str, Any]]:
        """The recorded details of these results, by id (an unknown id is left out)."""
        wanted = builtins.list(result_ids)
        found: dict[str, dict[str, Any]] = {}
        for start in range(0, len(wanted), _IDS_PER_QUERY):
            chunk = wanted[start : start + _IDS_PER_QUERY]
            marks = ", ".join("?" for _ in chunk)
            with self._using():
                rows = self._conn.execute(
                    f"SELECT result_id, details FROM results WHERE result_id IN ({marks})", chunk
                ).fetchall()
            found.update((row[0], json.loads(row[1])) for row in rows)
        return found

    def pending(self) -> builtins.list[ResultRecord]:
        """Results waiting for a review decision (pending or in conflict)."""
        return self.list(states=OPEN_STATES)

    def get(self, key: str) -> ResultRecord | None:
        """A result by its id, else the latest result of the workspace ``key``."""
        with self._using():
            row = self._conn.execute("SELECT * FROM results WHERE result_id=?", (key,)).fetchone()
            if row is None:
                row = self._conn.execute(
                    "SELECT * FROM results WHERE workspace_id=? ORDER BY created DESC, "
                    "rowid DESC LIMIT 1",
                    (key,),
                ).fetchone()
        return None if row is None else _row_to_result(row)

    def set_review_state(
        self,
        key: str,
        state: ReviewState,
        *,
        reject_reason: str | None = None,
        rejected_diff: str | None = None,
        change_signature: str | None = None,
        accepted_hunks: Sequence[int] | None = None,
        also_removed: Mapping[str, Sequence[str]] | None = None,
    ) -> int:
        """Set the state of a result (by id) or of a workspace's latest result.

        The keyword arguments record what the decision was (a reject's reason
        and change, an accept's hunks and what it removed beyond the change, per file);
        they replace what an earlier decision on the same result recorded. Returns how
        many results changed (1); raises WORKSPACE_003 when none matches.
        """
        if state not in _STATES:
            raise ValueError(f"unknown review state {state!r}; known: {_STATES}")
        hunks = None if accepted_hunks is None else json.dumps(list(accepted_hunks))
        removed = None
        if also_removed:
            removed = json.dumps({path: list(names) for path, names in also_removed.items()})
        values = (state, reject_reason, rejected_diff, change_signature, hunks, removed)
        assignments = (
            "review_state=?, reject_reason=?, rejected_diff=?, change_signature=?, "
            "accepted_hunks=?, also_removed=?"
        )
        with self._using():
            cursor = self._conn.execute(
                f"UPDATE results SET {assignments} WHERE result_id=?", (*values, key)
            )
            if cursor.rowcount == 0:
                # a workspace id: its latest result (older ones were superseded)
                cursor = self._conn.execute(
                    f"UPDATE results SET {assignments} WHERE result_id=(SELECT result_id "
                    "FROM results WHERE workspace_id=? ORDER BY created DESC, rowid DESC "
                    "LIMIT 1)",
                    (*values, key),
                )
        if cursor.rowcount == 0:
            raise WorkspaceNotFoundError(
                f"no result or workspace {key!r}",
                "run `remora review` to list pending results",
            )
        return int(cursor.rowcount)

    def history(self, node_id: str, operation: str) -> builtins.list[ResultRecord]:
        """Every result of one node × operation, newest first."""
        with self._using():
            rows = self._conn.execute(
                "SELECT * FROM results WHERE node_id=? AND operation=? "
                "ORDER BY created DESC, rowid DESC",
                (node_id, operation),
            ).fetchall()
        return [_row_to_result(r) for r in rows]

    def latest(self, node_id: str, operation: str) -> ResultRecord | None:
        """The newest result of one node × operation, or None."""
        with self._using():
            row = self._conn.execute(
                "SELECT * FROM results WHERE node_id=? AND operation=? "
                "ORDER BY created DESC, rowid DESC LIMIT 1",
                (node_id, operation),
            ).fetchone()
        return None if row is None else _row_to_result(row)

    def open_rejections(self) -> builtins.list[ResultRecord]:
        """Rejections with a reason that no later run of their node × operation answered."""
        with self._using():
            rows = self._conn.execute(
                "SELECT r.* FROM results r WHERE r.review_state='rejected' "
                "AND r.reject_reason IS NOT NULL AND NOT EXISTS (SELECT 1 FROM results n "
                "WHERE n.node_id=r.node_id AND n.operation=r.operation "
                "AND (n.created > r.created OR (n.created = r.created AND n.rowid > r.rowid))) "
                "ORDER BY r.created, r.rowid"
            ).fetchall()
        return [_row_to_result(r) for r in rows]

    def close(self) -> None:
        with self._using():
            self._conn.close()

    def __enter__(self) -> ResultsDB:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def review_state(value: str) -> ReviewState:
    """``value`` checked as a review state."""
    if value not in _STATES:
        raise ValueError(f"unknown review state {value!r}; known: {_STATES}")
    return cast(ReviewState, value)
