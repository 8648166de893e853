"""Red team, ends that are not clean (issue 54): a run interrupted while a completion
holds its place gives it back once, without "a run gave back a place it did not hold"
at shutdown; a run killed half-way leaves empty workspace claims and part images that the
next run clears, while the claims of a run still going in another process are kept.
(SIGINT to the real CLI at many moments: tests/integration/test_red_team_interrupts.py.)"""

from __future__ import annotations

import asyncio
import subprocess
import sys
import textwrap
from pathlib import Path

from remora.runner import ModelPlace
from remora.workspace import WorkspaceStore


async def test_a_place_closed_under_a_completion_is_given_back_once() -> None:
    places = asyncio.Semaphore(1)
    place = ModelPlace(places)
    async with place.held():  # a tool's completion is out when the run ends
        place.close()  # the run's end (an interrupt) gives the place back
        assert not places.locked()
    # the completion's own give_back, after the close, raised RuntimeError at shutdown
    assert not places.locked()
    async with place.held():  # a completion after the end takes no place
        assert not places.locked()


def _claim_and_die(root: Path) -> str:
    """A process that claims a workspace id and is killed before it writes the database."""
    script = textwrap.dedent(f"""
        import os, signal
        from pathlib import Path
        from remora.workspace import WorkspaceStore
        ws = WorkspaceStore(Path({str(root)!r})).create("lint", "killed")
        part = ws.db_path.with_name(f".{{ws.db_path.name}}.{{os.getpid()}}.part")
        part.write_bytes(b"half an image")
        print(ws.id, flush=True)
        os.kill(os.getpid(), signal.SIGKILL)
    """)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert done.returncode == -9, done.stderr
    return done.stdout.strip()


def test_a_killed_runs_leftovers_are_cleared_by_the_next_run(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("X = 1\n")
    killed = _claim_and_die(tmp_path)
    folder = tmp_path / ".remora" / "workspaces"
    assert (folder / f"{killed}.db").stat().st_size == 0
    assert list(folder.glob(".*.part"))
    store = WorkspaceStore(tmp_path)
    with store.create("lint", "next") as ws:
        ws.write("a.py", b"X = 2\n")
    assert not (folder / f"{killed}.db").exists() and not list(folder.glob(".*.part"))
    assert store.ids() == ["lint-next"]


def test_the_claims_of_a_run_still_going_elsewhere_are_kept(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("X = 1\n")
    script = textwrap.dedent(f"""
        import sys
        from pathlib import Path
        from remora.workspace import WorkspaceStore
        ws = WorkspaceStore(Path({str(tmp_path)!r})).create("lint", "live")
        print(ws.id, flush=True)
        sys.stdin.read()  # running until told to end
    """)
    live = subprocess.Popen(
        [sys.executable, "-c", script], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    try:
        assert live.stdout is not None
        live_id = live.stdout.readline().strip()
        with WorkspaceStore(tmp_path).create("lint", "other") as ws:
            ws.write("a.py", b"X = 3\n")
        assert (tmp_path / ".remora" / "workspaces" / f"{live_id}.db").exists()
    finally:
        live.communicate("", timeout=30)
