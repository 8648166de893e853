"""Hostile tool scripts: the loader rejects them, and the sandbox holds even when it does not.

Each attack runs twice where the checker would stop it: once through
``load_pym`` (a load error with the line) and once as raw code that skips the
checker, to show the runtime refuses on its own. Nothing outside the temp
project may change.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sandbox_kit import (
    HEADER,
    SECRET,
    declare,
    make_project,
    raw_script,
    sandbox_config,
    write_script,
)

from remora.sandbox import SandboxRuntime, build_externals, check_pym, load_pym
from remora.workspace import Workspace, WorkspaceStore

FILE_EXTERNALS = {
    "read_file": "await read_file({p!r})",
    "write_file": "await write_file({p!r}, 'pwned')",
    "delete_file": "await delete_file({p!r})",
    "list_dir": "await list_dir({p!r})",
    "file_exists": "await file_exists({p!r})",
    "search_files": "await search_files({p!r} + '/*')",
    "search_content": "await search_content('.', {p!r} + '/*')",
}
ESCAPES = [
    "../outside/secret.txt",
    "/etc/passwd",
    "leak_file",
    "leak_dir/secret.txt",
    "src/../../outside/secret.txt",
]


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return make_project(tmp_path)


@pytest.fixture
def ws(project: Path) -> Iterator[Workspace]:
    workspace = WorkspaceStore(project).create("adversarial", "n")
    yield workspace
    workspace.close()


def outside_untouched(project: Path) -> None:
    outside = project.parent / "outside"
    assert sorted(p.name for p in outside.iterdir()) == ["secret.txt"]
    assert (outside / "secret.txt").read_text() == SECRET


async def run_raw(
    tmp_path: Path, code: str, externals: dict[str, Any] | None = None, **config: Any
) -> dict[str, Any]:
    script = raw_script(tmp_path / "raw.pym", code, tuple(externals or ()))
    async with SandboxRuntime(sandbox_config(**config)) as runtime:
        return await runtime.run(script, {}, externals or {})


@pytest.mark.parametrize(
    ("code", "load_rule", "exception"),
    [
        ("open('/etc/passwd').read()\n", "unresolved-reference", "PermissionError"),
        ("import subprocess\nsubprocess.run(['id'])\n", "unresolved-import", "ModuleNotFoundError"),
        ("import os\nos.system('touch /tmp/pwned')\n", "unresolved-attribute", "AttributeError"),
        ("import socket\n", "unresolved-import", "ModuleNotFoundError"),
        ("__import__('os')\n", "unresolved-reference", "NameError"),
    ],
)
async def test_host_access_is_refused(
    tmp_path: Path, code: str, load_rule: str, exception: str
) -> None:
    findings = check_pym(write_script(tmp_path, "attack.pym", code))
    assert load_rule in [f.rule for f in findings]
    env = await run_raw(tmp_path, code)
    assert env["error"]["code"] == "runtime_error"
    assert env["error"]["details"]["exception"] == exception
    assert "root:" not in str(env)


@pytest.mark.parametrize(
    "code",
    [
        "import os\nos.environ['HOME']\n",
        "import os\nos.getenv('HOME')\n",
        "import os\nos.environ.get('PATH')\n",
    ],
)
async def test_environment_is_not_readable(tmp_path: Path, code: str) -> None:
    env = await run_raw(tmp_path, code)
    assert env["ok"] is False and env["error"]["code"] == "runtime_error"
    assert "not supported" in env["error"]["message"]


@pytest.mark.parametrize("path", ESCAPES)
@pytest.mark.parametrize("name", sorted(FILE_EXTERNALS))
async def test_path_escapes_through_every_file_external(
    tmp_path: Path, project: Path, ws: Workspace, name: str, path: str
) -> None:
    body = HEADER + declare(name) + FILE_EXTERNALS[name].format(p=path) + "\n"
    script = load_pym(write_script(tmp_path, f"{name}.pym", body))
    externals = build_externals(ws, None, sandbox_config())
    async with SandboxRuntime(sandbox_config()) as runtime:
        env = await runtime.run(script, {}, externals)
    if name in ("search_files", "search_content") and path.startswith("leak"):
        # A glob through a symlink matches nothing: walks never follow links out.
        assert env["ok"] is True and "TOP-SECRET" not in str(env["result"])
    else:
        assert env["error"]["code"] == "external_error", env
        assert env["error"]["details"]["line"] == 4
    outside_untouched(project)
    assert ws.changed_files() == []


async def test_a_script_that_catches_the_refusal_still_gets_nothing(
    tmp_path: Path, project: Path, ws: Workspace
) -> None:
    body = (
        HEADER
        + declare("read_file")
        + """
stolen = []
for p in ["../outside/secret.txt", "/etc/passwd", "leak_file", "leak_dir/secret.txt"]:
    try:
        stolen.append(await read_file(p))
    except PermissionError as exc:
        stolen.append("refused")
stolen
"""
    )
    script = load_pym(write_script(tmp_path, "sneaky.pym", body))
    async with SandboxRuntime(sandbox_config()) as runtime:
        env = await runtime.run(script, {}, build_externals(ws, None, sandbox_config()))
    assert env == {"ok": True, "result": ["refused"] * 4, "prints": ""}
    outside_untouched(project)


async def test_run_command_cannot_leave_the_project(
    tmp_path: Path, project: Path, ws: Workspace
) -> None:
    body = (
        HEADER
        + declare("run_command")
        + """
out = []
for cmd, args in [("bash", ["-c", "cat /etc/passwd"]), ("ruff", ["check", "/etc"]),
                  ("python", ["-c", "print(1)"]), ("ruff", ["check", "../outside"])]:
    try:
        await run_command(cmd, args)
        out.append("ran")
    except PermissionError:
        out.append("refused")
out
"""
    )
    script = load_pym(write_script(tmp_path, "cmd.pym", body))
    async with SandboxRuntime(sandbox_config()) as runtime:
        env = await runtime.run(script, {}, build_externals(ws, None, sandbox_config()))
    assert env["result"] == ["refused"] * 4
    outside_untouched(project)


@pytest.mark.parametrize(
    ("code", "code_name", "config"),
    [
        ("while True:\n    pass\n", "time_limit", {"max_duration_s": 0.5}),
        ("s = 'a'\nwhile True:\n    s = s + s\n", "memory_limit", {"max_memory_mb": 64}),
        ("def down(n):\n    return down(n + 1) + 1\ndown(0)\n", "recursion_limit", {}),
    ],
)
async def test_resource_attacks_hit_their_limit(
    tmp_path: Path, code: str, code_name: str, config: dict[str, Any]
) -> None:
    env = await run_raw(tmp_path, code, **config)
    assert env["error"]["code"] == code_name, env


async def test_one_hundred_hostile_and_honest_runs_at_once(
    tmp_path: Path, project: Path, ws: Workspace
) -> None:
    body = HEADER + declare("read_file") + "p: str = Input()\nawait read_file(p)\n"
    script = load_pym(write_script(tmp_path, "read.pym", body))
    externals = build_externals(ws, None, sandbox_config())
    paths = [ESCAPES[i % len(ESCAPES)] if i % 2 else "notes.txt" for i in range(100)]
    async with SandboxRuntime(sandbox_config()) as runtime:
        results = await asyncio.gather(*(runtime.run(script, {"p": p}, externals) for p in paths))
    for path, env in zip(paths, results, strict=True):
        if path == "notes.txt":
            assert env["result"] == "hello\nneedle here\n"
        else:
            assert env["error"]["code"] == "external_error"
    outside_untouched(project)
