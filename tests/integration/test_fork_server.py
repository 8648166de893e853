"""The fork server for read-only programs, with real bubblewrap and real forks: it answers as
run_command does, keeps every probe apart from the others, times out, survives its own
death and leaves nothing behind."""

from __future__ import annotations

import asyncio
import json
import os
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest

from remora.code.probes.sandboxed import MARKER, _program_text
from remora.config import SandboxConfig
from remora.sandbox import SandboxRuntime, fork_server
from remora.sandbox.commands import run_command
from remora.sandbox.fork_server import close_fork_servers, run_read_only_python
from remora.sandbox.isolation import SandboxUnavailable, sandbox_problem
from remora.workspace import Workspace, WorkspaceStore

pytestmark = pytest.mark.integration

MOD = """\
SEEN = []


def add(a):
    SEEN.append(a)
    return len(SEEN)


def spin(a):
    while True:
        pass
"""


@pytest.fixture
async def ws(tmp_path: Path) -> AsyncIterator[Workspace]:
    if sandbox_problem() is not None:
        pytest.fail(f"the sandbox must work on this machine: {sandbox_problem()}")
    project = tmp_path / "project"
    project.mkdir()
    (project / "mod.py").write_text(MOD)
    (project / "broken.py").write_text("raise RuntimeError('boom at import')\n")
    workspace = WorkspaceStore(project).create("test", "fork")
    yield workspace
    await close_fork_servers()
    workspace.close()


def _processes_with(marker: str) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        try:
            cmdline = Path(f"/proc/{entry}/cmdline").read_bytes()
        except OSError:
            continue
        if entry.isdigit() and marker.encode() in cmdline:
            found.append(int(entry))
    return found


def _standing(marker: str) -> list[int]:
    """:func:`_processes_with`, less the leaves: the children a zygote forked ahead for its
    next probe (bwrap, its init, the server and each zygote have a child)."""
    found = _processes_with(marker)
    parents = {_parent_of(pid) for pid in found}
    return [pid for pid in found if pid in parents]


async def _wait_until(holds: Callable[[], bool], seconds: float) -> None:
    """Look every 0.05 s until ``holds()`` or ``seconds`` have passed; the caller asserts."""
    for _ in range(round(seconds / 0.05)):
        if holds():
            return
        await asyncio.sleep(0.05)


def _parent_of(pid: int) -> int:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return 0
    return int(stat.rsplit(")", 1)[1].split()[1])


async def _forked(ws: Workspace, program: str, timeout_s: float = 10, **kw: Any) -> Any:
    return await run_read_only_python(ws, program.encode(), timeout_s, stdout_chars=1000, **kw)


async def _old(ws: Workspace, program: str, timeout_s: float = 10) -> dict[str, Any]:
    return await run_command(
        ws,
        ["python", "-"],
        timeout_s,
        input_data=program.encode(),
        absorb=False,
        read_only=True,
        stdout_chars=1000,
    )


def _probe_text(module: str, qualname: str, timeout_s: float = 5) -> str:
    request: dict[str, Any] = {
        "module": module,
        "qualname": qualname,
        "kind": "function",
        "owner": None,
        "owner_args": {},
        "paths": [],
        "sets": [{"name": "one", "args": {"a": 3}}],
        "call": True,
        "observe": [],
        "timeout_s": timeout_s,
    }
    return _program_text("call_probe", request, None)


async def _probe(ws: Workspace, module: str, qualname: str) -> dict[str, Any]:
    run = await _forked(ws, _probe_text(module, qualname), module=module, paths=[])
    line = next(x for x in run["stdout"].splitlines() if x.startswith(MARKER))
    report: dict[str, Any] = json.loads(line[len(MARKER) :])
    return report


def _same(old: dict[str, Any], new: dict[str, Any]) -> None:
    assert {**new, "duration_s": 0} == {**old, "duration_s": 0}


@pytest.mark.parametrize(
    "program",
    [
        "import sys, os\nprint('out', os.getcwd() == os.path.realpath('.'))\n"
        "print('err', file=sys.stderr)\nsys.exit(3)\n",
        "def f():\n    raise ValueError('bad value')\n\nf()\n",
        "print('x' * 10_000)\n",  # past the kept bytes: cut and counted as run_command does
        "import sys\nsys.exit('a message')\n",
        "import atexit\natexit.register(print, 'at exit')\nprint('body')\n",
        "import mod\nprint(mod.add(1), __name__, __file__)\n",
        "open('mod.py', 'a').write('# changed')\n",  # the project is read-only
        "import sys\nprint(sys.argv, sys.orig_argv, sys.path[0] == '')\n",
        # Its exit status comes on a pipe before it exits; unless the program took that
        # descriptor away, or left without Python's exit: then its exit tells.
        "import os\nos.closerange(3, 4096)\nprint('closed')\n",
        "import os, sys\nprint('out')\nsys.stdout.flush()\nos._exit(5)\n",
        "import os\nos.dup2(os.open(os.devnull, os.O_WRONLY), 1)\nprint('gone')\n",
    ],
)
async def test_it_answers_as_run_command_does(ws: Workspace, program: str) -> None:
    _same(await _old(ws, program), await _forked(ws, program))


@pytest.mark.parametrize(
    ("prelude", "rest"),
    [
        (
            "from __future__ import annotations\nimport sys\n\n\ndef f(x):\n"
            "    raise ValueError(x)\n\n\n",
            "f(sys.argv)\n",
        ),
        ("print('prelude ran')\n\n", "f(\n"),  # the rest does not compile: nothing runs
    ],
)
async def test_a_prelude_runs_as_the_start_of_one_text(
    ws: Workspace, prelude: str, rest: str
) -> None:
    new = await _forked(ws, rest, prelude=prelude.encode())
    _same(await _old(ws, prelude + rest), new)
    assert "prelude ran" not in new["stdout"]


async def test_an_import_failure_is_reported_as_the_probe_reports_it(ws: Workspace) -> None:
    text = _probe_text("broken", "f")
    old = await _old(ws, text)
    new = await _forked(ws, text, module="broken", paths=[])
    _same(old, new)
    assert "cannot import or find it: RuntimeError: boom at import" in new["stdout"]


async def test_a_project_never_installed_finds_its_own_distribution(ws: Workspace) -> None:
    # A package that reads ``version("its-name")`` as it loads: uninstalled,
    # the import raised and no probe of the project ever ran.
    (ws.project_root / "pyproject.toml").write_text(
        '[project]\nname = "shelf-kit"\nversion = "1.2"\n'
    )
    (ws.project_root / "versioned.py").write_text(
        "from importlib.metadata import version\n\nVERSION = version('shelf-kit')\n\n\n"
        "def current(a):\n    return VERSION\n"
    )
    text = _probe_text("versioned", "current")
    new = await _forked(ws, text, module="versioned", paths=[])
    _same(await _old(ws, text), new)
    assert '"repr": "\'1.2\'"' in new["stdout"], new["stdout"]
    # Nothing is written into the project.
    assert not list(ws.project_root.rglob("*.dist-info"))


async def test_a_module_that_starts_a_thread_is_imported_by_each_probe(ws: Workspace) -> None:
    """Forked from an import that started a thread, a probe would run without it."""
    (ws.project_root / "threaded.py").write_text(
        "import threading, time\n\nthreading.Thread(target=time.sleep, args=(30,), daemon=True)"
        ".start()\n\n\ndef count(a):\n    return threading.active_count()\n"
    )
    text = _probe_text("threaded", "count")
    new = await _forked(ws, text, module="threaded", paths=[])
    _same(await _old(ws, text), new)
    assert '"repr": "2"' in new["stdout"]


async def test_no_probe_sees_what_an_earlier_one_changed(ws: Workspace) -> None:
    first = await _probe(ws, "mod", "add")
    assert first["outcomes"][0]["returned"]["repr"] == "1"
    meddle = (
        "import os, mod\nmod.SEEN.extend(range(5))\nmod.add = lambda a: 'patched'\n"
        "for name in ('HOME', 'TMPDIR'):\n"
        "    open(os.path.join(os.environ[name], 'left'), 'w').write('x')\n"
        "print(mod.add(1))\n"
    )
    assert (await _forked(ws, meddle, module="mod", paths=[]))["stdout"] == "patched\n"
    look = (
        "import os, mod\nprint(mod.add(1), "
        "[os.listdir(os.environ[name]) for name in ('HOME', 'TMPDIR')])\n"
    )
    assert (await _forked(ws, look, module="mod", paths=[]))["stdout"] == "1 [[], []]\n"
    again = await asyncio.gather(*(_probe(ws, "mod", "add") for _ in range(8)))
    assert {r["outcomes"][0]["returned"]["repr"] for r in again} == {"1"}


async def test_a_zygote_forks_the_child_of_its_next_probe_before_it_comes(
    ws: Workspace,
) -> None:
    """The fork is off a probe's path: the child that runs it was forked, set up and left
    waiting when the zygote handed out the previous one; it runs that one program."""
    whoami = "import os, mod\nprint(os.getpid(), os.getppid(), os.environ['HOME'])\n"
    first = (await _forked(ws, whoami, module="mod", paths=[]))["stdout"].split()
    (server,) = fork_server._SERVERS.values()

    def waiting(*ran: str) -> list[int]:  # the zygote's children, as the sandbox numbers
        found = {_sandbox_pid(p): p for p in _processes_with(str(server.base))}  # them
        zygote = found[int(first[1])]
        children = [_sandbox_pid(p) for p in found.values() if _parent_of(p) == zygote]
        return [p for p in children if str(p) not in ran]  # a probe's may still be exiting

    (ahead,) = waiting(first[0])
    second = (await _forked(ws, whoami, module="mod", paths=[]))["stdout"].split()
    assert int(second[0]) == ahead and second[1] == first[1]
    assert second[2] != first[2]  # a HOME of its own
    (after,) = waiting(first[0], second[0])
    assert after not in (ahead, int(first[0]))  # the next one, forked in its turn


def _sandbox_pid(pid: int) -> int:
    """``pid`` as the sandbox's own PID namespace numbers it."""
    status = Path(f"/proc/{pid}/status").read_text()
    return int(next(x for x in status.splitlines() if x.startswith("NSpid:")).split()[-1])


async def test_a_module_changed_on_disk_is_imported_again(ws: Workspace) -> None:
    """A long command (``remora watch``) probes the files as they are now, as a fresh
    interpreter would, not as its zygote imported them."""
    assert (await _probe(ws, "mod", "add"))["outcomes"][0]["returned"]["repr"] == "1"
    (ws.project_root / "mod.py").write_text("def add(a):\n    return 'edited'\n")
    assert (await _probe(ws, "mod", "add"))["outcomes"][0]["returned"]["repr"] == "'edited'"


# A probe's process, its parent (the module's zygote) and each process above it: pids.
LINEAGE = """\
import os


def lineage(a):
    pid, found = os.getpid(), []
    while pid > 1 and len(found) < 6:
        found.append(pid)
        pid = int(open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()[1])
    return found
"""


def _package(root: Path) -> None:
    """``pkg`` (whose import counts itself in ``pkg.IMPORTS``), ``pkg.a``, ``pkg.b`` and
    ``pkg.sub.deep``, each with ``lineage()``."""
    (root / "pkg" / "sub").mkdir(parents=True)
    (root / "pkg" / "__init__.py").write_text("IMPORTS = []\nIMPORTS.append(1)\n")
    (root / "pkg" / "sub" / "__init__.py").write_text("")
    for name in ("a.py", "b.py", "sub/deep.py"):
        (root / "pkg" / name).write_text(LINEAGE)


async def _lineage(ws: Workspace, module: str) -> list[int]:
    report = await _forked(ws, _probe_text(module, "lineage"), module=module, paths=[])
    line = next(x for x in report["stdout"].splitlines() if x.startswith(MARKER))
    found = json.loads(line[len(MARKER) :])["outcomes"][0]["returned"]["repr"]
    return [int(pid) for pid in found.strip("[]").split(", ")]


async def test_modules_of_one_package_share_its_import(ws: Workspace) -> None:
    """The zygotes form a tree by the dotted name: ``pkg.a`` and ``pkg.b`` are forked from
    the one zygote that imported ``pkg``; ``pkg.sub.deep`` from the one below it for
    ``pkg.sub``; a module ``pkg`` imports itself, from ``pkg``'s zygote. Each probe still
    answers as a fresh interpreter's would."""
    _package(ws.project_root)
    a, b, deep = [await _lineage(ws, m) for m in ("pkg.a", "pkg.b", "pkg.sub.deep")]
    # probe, its module's zygote, the package's zygote, the server
    assert a[1] != b[1] and a[2:] == b[2:]
    assert len(deep) == len(a) + 1 and deep[2] != a[2] and deep[3:] == a[2:]
    again = await _lineage(ws, "pkg.a")
    assert again[0] != a[0] and again[1:] == a[1:]
    # A module its package imports itself is probed from the package's zygote.
    (ws.project_root / "pkg" / "__init__.py").write_text("IMPORTS = [1]\nfrom . import b\n")
    b = await _lineage(ws, "pkg.b")
    assert len(b) == len(a) - 1 and b[1] != a[2] and b[2:] == a[3:]  # a new ``pkg`` zygote
    counted = "import pkg.b, pkg\nprint(pkg.IMPORTS, pkg.b.__name__)\n"
    new = await _forked(ws, counted, module="pkg.b", paths=[])
    _same(await _old(ws, counted), new)
    assert new["stdout"] == "[1] pkg.b\n"


async def test_a_package_that_fails_to_import_fails_each_of_its_probes_as_before(
    ws: Workspace,
) -> None:
    _package(ws.project_root)
    (ws.project_root / "pkg" / "sub" / "__init__.py").write_text("raise ImportError('no sub')\n")
    text = _probe_text("pkg.sub.deep", "lineage")
    for _ in range(2):
        new = await _forked(ws, text, module="pkg.sub.deep", paths=[])
        _same(await _old(ws, text), new)
        assert "cannot import or find it: ImportError: no sub" in new["stdout"]
    assert len(await _lineage(ws, "pkg.a")) >= 3  # the package's other modules are served


async def test_a_package_changed_on_disk_is_imported_again_with_its_modules(
    ws: Workspace,
) -> None:
    _package(ws.project_root)
    look = "import pkg.a, pkg\nprint(pkg.IMPORTS)\n"
    assert (await _forked(ws, look, module="pkg.a", paths=[]))["stdout"] == "[1]\n"
    (ws.project_root / "pkg" / "__init__.py").write_text("IMPORTS = ['edited']\n")
    assert (await _forked(ws, look, module="pkg.a", paths=[]))["stdout"] == "['edited']\n"
    (ws.project_root / "pkg" / "a.py").write_text("import pkg\npkg.IMPORTS.append('a')\n")
    assert (await _forked(ws, look, module="pkg.a", paths=[]))["stdout"] == "['edited', 'a']\n"


async def test_zygotes_unused_for_a_while_end_and_come_back_when_asked(
    ws: Workspace, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Only the modules in use keep a zygote: a large project's packages would otherwise
    keep one process per module they ever probed."""
    monkeypatch.setattr(fork_server, "ZYGOTE_IDLE_S", 0.5)
    _package(ws.project_root)
    first = [await _lineage(ws, m) for m in ("pkg.a", "pkg.b", "pkg.sub.deep")]
    (server,) = fork_server._SERVERS.values()
    assert len(_processes_with(str(server.base))) >= 3 + 5  # bwrap, init, server; 5 zygotes
    await asyncio.sleep(1.5)
    # each ends from its parent's loop, level by level
    await _wait_until(lambda: len(_processes_with(str(server.base))) == 3, 4)
    assert len(_processes_with(str(server.base))) == 3
    again = await _lineage(ws, "pkg.a")
    assert len(again) == len(first[0]) and again[1] != first[0][1]  # a new one, as deep


async def test_more_modules_than_zygotes_are_all_probed(ws: Workspace) -> None:
    for index in range(10):
        (ws.project_root / f"m{index}.py").write_text(f"def add(a):\n    return a + {index}\n")
    for _ in range(2):
        for index in range(10):
            report = await _probe(ws, f"m{index}", "add")
            assert report["outcomes"][0]["returned"]["repr"] == str(3 + index)
    (server,) = fork_server._SERVERS.values()
    # bwrap, its init in the sandbox, the server and at most eight zygotes, each with the
    # child it forked ahead for its next probe. The last probe's process has answered but
    # may still be exiting: a leak never settles, an exit does.
    await _wait_until(lambda: len(_processes_with(str(server.base))) <= 11 + 8, 5)
    assert len(_standing(str(server.base))) <= 11
    assert len(_processes_with(str(server.base))) <= 11 + 8


async def test_a_program_past_its_limit_is_killed_as_run_command_kills_it(ws: Workspace) -> None:
    program = "import sys\nprint('started', file=sys.stderr, flush=True)\nwhile True:\n    pass\n"
    new = await _forked(ws, program, timeout_s=1)
    _same(await _old(ws, program, timeout_s=1), new)
    assert new["exit_code"] == 124 and new["timed_out"]
    assert new["stderr"].endswith("[remora] command killed after 1s (command timeout)")
    spun = await _forked(ws, _probe_text("mod", "spin", 60), timeout_s=1, module="mod", paths=[])
    assert spun["timed_out"] and spun["exit_code"] == 124


async def test_a_program_past_its_limit_leaves_the_server_and_its_zygote_serving(
    ws: Workspace,
) -> None:
    # A killed child used to leave an infinite wait that select() refused: the server
    # died, and the program ran twice more (a fresh server, then run_command's path).
    await _probe(ws, "mod", "add")
    (server,) = fork_server._SERVERS.values()
    processes = set(_standing(str(server.base)))
    spun = await _forked(ws, _probe_text("mod", "spin", 60), timeout_s=1, module="mod", paths=[])
    looped = await _forked(ws, "while True:\n    pass\n", timeout_s=1)
    assert spun["timed_out"] and looped["timed_out"]
    assert list(fork_server._SERVERS.values()) == [server] and not server.gone
    assert set(_standing(str(server.base))) == processes  # the same zygote too
    assert (await _probe(ws, "mod", "add"))["outcomes"][0]["returned"]["repr"] == "1"


async def test_an_editor_the_code_starts_returns_at_once(ws: Workspace) -> None:
    # click.edit runs $VISUAL, $EDITOR or vi; vi (installed here) waited for input past any
    # time limit: with stdin at its end it reads from stderr, a pipe that never has any.
    program = (
        "import os, subprocess\n"
        "editor = os.environ.get('VISUAL') or os.environ.get('EDITOR') or 'vi'\n"
        "print(subprocess.run([editor, 'notes.txt']).returncode)\n"
    )
    for result in (await _forked(ws, program, timeout_s=5), await _old(ws, program, 5)):
        assert (result["timed_out"], result["exit_code"], result["stdout"]) == (False, 0, "0\n")


async def test_a_hanging_import_leaves_the_probe_timed_out(ws: Workspace) -> None:
    (ws.project_root / "slow.py").write_text("import time\ntime.sleep(30)\n")
    run = await _forked(ws, _probe_text("slow", "f"), timeout_s=1, module="slow", paths=[])
    assert run["timed_out"] and run["exit_code"] == 124
    assert (await _probe(ws, "mod", "add"))["outcomes"][0]["returned"]["repr"] == "1"


async def test_a_server_killed_mid_run_is_started_again(ws: Workspace) -> None:
    await _forked(ws, "pass\n")
    (server,) = fork_server._SERVERS.values()
    running = asyncio.ensure_future(_forked(ws, "import time\ntime.sleep(1)\nprint('done')\n"))
    await asyncio.sleep(0.3)
    assert server.proc is not None
    os.killpg(server.proc.pid, 9)
    result = await running
    assert (result["stdout"], result["exit_code"]) == ("done\n", 0)
    (fresh,) = fork_server._SERVERS.values()
    assert fresh is not server and server.gone
    assert not server.base.exists()


async def test_nothing_is_left_after_close(ws: Workspace) -> None:
    marker = f"remora-left-{os.getpid()}-{id(ws)}"
    escape = (
        "import subprocess, sys\n"
        f"subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(60)', {marker!r}],"
        " start_new_session=True)\nprint('spawned')\n"
    )
    assert (await _forked(ws, escape, module="mod", paths=[]))["stdout"] == "spawned\n"
    (server,) = fork_server._SERVERS.values()
    assert _processes_with(marker) and _processes_with(str(server.base))
    await close_fork_servers()
    assert not fork_server._SERVERS
    # the kernel ends the sandbox's processes as its namespace ends
    await _wait_until(
        lambda: not _processes_with(marker) and not _processes_with(str(server.base)), 2
    )
    assert _processes_with(marker) == [] and _processes_with(str(server.base)) == []
    assert not server.base.exists()


async def test_a_cancelled_run_kills_its_child(ws: Workspace) -> None:
    marker = f"remora-cancelled-{os.getpid()}-{id(ws)}"
    program = (
        "import subprocess, sys, time\n"
        f"subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(60)', {marker!r}])\n"
        "time.sleep(60)\n"
    )
    running = asyncio.ensure_future(_forked(ws, program, timeout_s=60))
    await _wait_until(lambda: bool(_processes_with(marker)), 5)
    assert _processes_with(marker)
    running.cancel()
    with pytest.raises(asyncio.CancelledError):
        await running
    await _wait_until(lambda: not _processes_with(marker), 2)
    assert _processes_with(marker) == []


async def test_a_workspace_with_changes_runs_its_copy(ws: Workspace) -> None:
    ws.write("mod.py", b"def add(a):\n    return 'changed'\n")
    report = await _probe(ws, "mod", "add")
    assert report["outcomes"][0]["returned"]["repr"] == "'changed'"
    assert not fork_server._SERVERS


async def test_the_sandbox_runtime_ends_them_when_it_closes(ws: Workspace) -> None:
    async with SandboxRuntime(SandboxConfig(workers=1)):
        assert (await _forked(ws, "print('in')\n"))["stdout"] == "in\n"
        (server,) = fork_server._SERVERS.values()
    assert not fork_server._SERVERS and not server.base.exists()
    assert _processes_with(str(server.base)) == []


def test_a_loop_left_without_closing_them_ends_them(tmp_path: Path) -> None:
    (tmp_path / "mod.py").write_text(MOD)
    workspace = WorkspaceStore(tmp_path).create("test", "loop")
    bases: list[Path] = []

    async def probe() -> None:
        assert (await _probe(workspace, "mod", "add"))["outcomes"][0]["returned"]["repr"] == "1"
        bases.extend(server.base for server in fork_server._SERVERS.values())

    asyncio.run(probe())
    workspace.close()
    assert len(bases) == 1 and not bases[0].exists()
    assert _processes_with(str(bases[0])) == [] and not fork_server._SERVERS


async def test_without_a_sandbox_it_refuses_or_runs_unsandboxed_as_before(
    ws: Workspace, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    empty = tmp_path / "empty-bin"
    empty.mkdir()
    monkeypatch.setenv("PATH", str(empty))
    sandbox_problem.cache_clear()
    try:
        with pytest.raises(SandboxUnavailable):
            await _forked(ws, "print('hi')\n")
        with pytest.warns(RuntimeWarning, match="WITHOUT the OS sandbox"):
            run = await _forked(ws, "print('hi')\n", allow_unsandboxed=True)
        assert (run["stdout"], run["sandboxed"]) == ("hi\n", False)
        assert not fork_server._SERVERS
    finally:
        sandbox_problem.cache_clear()
