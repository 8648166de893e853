"""SandboxRuntime on real Monty workers: results, prints, every failure as an envelope."""

from __future__ import annotations

import asyncio
import importlib.abc
import importlib.util
import os
import signal
import sys
from pathlib import Path
from typing import Any

import pytest
from sandbox_kit import HEADER, declare, monty_children, raw_script, sandbox_config, write_script

from remora.config import SandboxConfig
from remora.sandbox import (
    PRESETS,
    ExternalRefused,
    LimitPreset,
    SandboxRuntime,
    load_pym,
    resolve_limits,
)


def script_at(tmp_path: Path, body: str, extra: tuple[str, ...] = ()) -> Any:
    return load_pym(write_script(tmp_path, "tool.pym", body), extra_externals=extra)


async def test_result_prints_and_inputs(tmp_path: Path) -> None:
    body = (
        HEADER
        + declare("read_file")
        + """
name: str = Input("name")
times: int = Input(default=2)
print("hello", name)
text = await read_file("x.txt")
{"greeting": name * times, "text": text, "pair": (1, 2), "set": {3}}
"""
    )
    script = script_at(tmp_path, body)

    def read_file(path: str) -> str:
        return f"content of {path}"

    async with SandboxRuntime(sandbox_config()) as runtime:
        env = await runtime.run(script, {"name": "ab"}, {"read_file": read_file})
    assert env == {
        "ok": True,
        "prints": "hello ab\n",
        "result": {"greeting": "abab", "text": "content of x.txt", "pair": [1, 2], "set": [3]},
    }


async def test_runtime_error_carries_the_pym_line(tmp_path: Path) -> None:
    body = (
        HEADER
        + """
def divide(a: int, b: int) -> float:
    return a / b

print("before")
divide(1, 0)
"""
    )
    script = script_at(tmp_path, body)
    async with SandboxRuntime(sandbox_config()) as runtime:
        env = await runtime.run(script, {}, {})
    error = env["error"]
    assert env["ok"] is False and error["code"] == "runtime_error"
    assert error["message"] == "ZeroDivisionError: division by zero"
    details = error["details"]
    assert details["line"] == 4 and details["exception"] == "ZeroDivisionError"
    assert details["source_line"] == "return a / b"
    assert details["prints"] == "before\n" and details["file"] == str(script.path)
    assert f'File "{script.path}", line 7' in details["traceback"]


async def test_invalid_inputs_are_refused_before_running(tmp_path: Path) -> None:
    body = HEADER + 'path: str = Input("path")\nlimit: int = Input(default=3)\nprint("ran")\n'
    script = script_at(tmp_path, body)
    async with SandboxRuntime(sandbox_config()) as runtime:
        missing = await runtime.run(script, {}, {})
        wrong = await runtime.run(script, {"path": "a", "limit": "x"}, {})
        extra = await runtime.run(script, {"path": "a", "other": 1}, {})
        fine = await runtime.run(script, {"path": "a"}, {})
    assert missing["error"]["code"] == "invalid_inputs"
    assert "'path' is a required property" in missing["error"]["message"]
    assert wrong["error"]["details"]["errors"] == ["input 'limit': 'x' is not of type 'integer'"]
    assert "'other' was unexpected" in extra["error"]["message"]
    assert fine == {"ok": True, "result": None, "prints": "ran\n"}


async def test_external_errors_reach_the_script_and_the_envelope(tmp_path: Path) -> None:
    body = (
        HEADER
        + declare("read_file")
        + """
try:
    await read_file("missing.txt")
except FileNotFoundError as exc:
    print("caught:", exc)
await read_file("../outside")
"""
    )
    script = script_at(tmp_path, body)

    def read_file(path: str) -> str:
        if path.startswith(".."):
            raise ExternalRefused(f"path {path!r} refused: it leaves the project")
        raise FileNotFoundError(f"no file {path!r}")

    async with SandboxRuntime(sandbox_config()) as runtime:
        env = await runtime.run(script, {}, {"read_file": read_file})
    error = env["error"]
    assert error["code"] == "external_error" and error["details"]["external"] == "read_file"
    assert error["details"]["line"] == 9
    assert "refused: it leaves the project" in error["message"]
    assert error["details"]["prints"] == "caught: no file 'missing.txt'\n"


async def test_sync_declarations_and_missing_host_functions(tmp_path: Path) -> None:
    body = HEADER + "@external\ndef log(message: str) -> None: ...\nlog('x')\n'done'\n"
    script = script_at(tmp_path, body)
    seen: list[str] = []
    async with SandboxRuntime(sandbox_config()) as runtime:
        ok = await runtime.run(script, {}, {"log": seen.append})
        missing = await runtime.run(script, {}, {})
    assert ok["result"] == "done" and seen == ["x"]
    assert missing["error"]["code"] == "external_error"
    assert "provides no external 'log'" in missing["error"]["message"]


@pytest.mark.parametrize(
    ("body", "code", "overrides"),
    [
        ("n = 0\nwhile True:\n    n += 1\n", "time_limit", {"max_duration_s": 0.5}),
        (
            "x = []\nwhile True:\n    x.append('a' * 100000)\n",
            "memory_limit",
            {"max_memory_mb": 32},
        ),
        ("def f(n):\n    return f(n + 1)\nf(0)\n", "recursion_limit", {"max_recursion_depth": 50}),
    ],
)
async def test_limits_become_envelopes(
    tmp_path: Path, body: str, code: str, overrides: dict[str, Any]
) -> None:
    script = script_at(tmp_path, body)
    async with SandboxRuntime(sandbox_config(**overrides)) as runtime:
        env = await runtime.run(script, {}, {})
        after = await runtime.run(script_at(tmp_path, "1 + 1\n"), {}, {})
    assert env["error"]["code"] == code, env
    assert env["error"]["details"]["limits"]["name"] == "default"
    if code == "recursion_limit":
        assert env["error"]["details"]["line"] == 2
    assert after["result"] == 2  # the pool serves the next run


async def test_suspension_limit(tmp_path: Path) -> None:
    body = HEADER + declare("file_exists") + "for i in range(20):\n    await file_exists('a')\n"
    script = script_at(tmp_path, body)
    async with SandboxRuntime(sandbox_config(max_suspensions=5)) as runtime:
        env = await runtime.run(script, {}, {"file_exists": lambda path: True})
    assert env["error"]["code"] == "suspension_limit"


@pytest.mark.parametrize(
    "raised",
    ["TimeoutError('feed time limit exceeded')", "RuntimeError('suspension limit 5 exceeded')"],
)
async def test_a_script_raising_a_limit_s_exception_is_not_a_limit(
    tmp_path: Path, raised: str
) -> None:
    # Same type and text as the limit, but raised at once by the script: a runtime error.
    script = script_at(tmp_path, f"raise {raised}\n")
    async with SandboxRuntime(sandbox_config(max_suspensions=2000)) as runtime:
        env = await runtime.run(script, {}, {})
    assert env["error"]["code"] == "runtime_error", env
    assert env["error"]["details"]["line"] == 1


async def test_request_timeout_kills_the_worker_and_the_pool_recovers(tmp_path: Path) -> None:
    script = script_at(tmp_path, "while True:\n    pass\n")
    config = sandbox_config(max_duration_s=30, request_timeout=0.5, workers=1)
    async with SandboxRuntime(config) as runtime:
        env = await runtime.run(script, {}, {})
        after = await runtime.run(script_at(tmp_path, "'alive'\n"), {}, {})
    assert env["error"]["code"] == "timeout"
    assert after["result"] == "alive"


async def test_worker_crash_is_an_envelope_and_the_next_tool_runs(tmp_path: Path) -> None:
    body = HEADER + "@external\nasync def crash() -> None: ...\nawait crash()\n"
    script = script_at(tmp_path, body, extra=("crash",))
    before = monty_children()

    async def crash() -> None:
        # Kill this runtime's worker (our own child) mid-run, as a segfault would.
        for pid in monty_children() - before:
            os.kill(pid, signal.SIGKILL)
        await asyncio.sleep(0.2)

    async with SandboxRuntime(sandbox_config(workers=1)) as runtime:
        env = await runtime.run(script, {}, {"crash": crash})
        after = await runtime.run(script_at(tmp_path, "'next'\n"), {}, {})
        assert runtime.faulted
    assert env["error"]["code"] == "worker_crash", env
    assert after == {"ok": True, "result": "next", "prints": ""}


async def test_one_hundred_runs_at_once(tmp_path: Path) -> None:
    body = (
        HEADER + declare("read_file") + "i: int = Input()\ntext = await read_file(str(i))\n"
        '{"i": i, "text": text}\n'
    )
    script = script_at(tmp_path, body)

    async def read_file(path: str) -> str:
        await asyncio.sleep(0.001)
        return f"file {path}"

    async with SandboxRuntime(sandbox_config(workers=2)) as runtime:
        results = await asyncio.gather(
            *(runtime.run(script, {"i": i}, {"read_file": read_file}) for i in range(100))
        )
    assert [r["result"] for r in results] == [{"i": i, "text": f"file {i}"} for i in range(100)]


async def test_run_before_start_is_a_programming_error(tmp_path: Path) -> None:
    runtime = SandboxRuntime(sandbox_config())
    with pytest.raises(RuntimeError, match="before start"):
        await runtime.run(raw_script(tmp_path / "x.pym", "1"), {}, {})


def test_presets_and_overrides() -> None:
    assert resolve_limits(SandboxConfig()) == PRESETS["default"]
    strict = resolve_limits(SandboxConfig(limits="strict"))
    assert (
        strict.max_duration_s
        < PRESETS["default"].max_duration_s
        < PRESETS["permissive"].max_duration_s
    )
    tuned = resolve_limits(sandbox_config(max_memory_mb=99), "permissive")
    assert tuned == LimitPreset("permissive", 60.0, 99, 5000, 20000)
    monty = tuned.to_monty()
    assert monty["max_memory"] == 99 * 1024 * 1024
    assert monty["max_feed_duration_secs"] == 60.0
    with pytest.raises(ValueError, match="unknown sandbox limit preset"):
        resolve_limits(SandboxConfig(), "huge")


@pytest.mark.parametrize(
    ("configured", "given", "size"), [(None, 4, 4), (3, 8, 3), (None, None, 2)]
)
async def test_the_pool_has_a_worker_per_run_at_once_unless_configured(
    tmp_path: Path, configured: int | None, given: int | None, size: int
) -> None:
    # A script that awaits a host function keeps its worker meanwhile: with fewer
    # workers than runs at once, the other runs' scripts wait for one.
    body = HEADER + "@external\nasync def wait_here() -> None: ...\n\nawait wait_here()\n"
    script = script_at(tmp_path, body, ("wait_here",))
    inside = 0
    most = 0
    release = asyncio.Event()

    async def wait_here() -> None:
        nonlocal inside, most
        inside += 1
        most = max(most, inside)
        if inside == size:
            release.set()  # every worker is taken: let them all go
        await asyncio.wait_for(release.wait(), 20)
        inside -= 1

    config = sandbox_config().model_copy(update={"workers": configured})
    async with SandboxRuntime(config, workers=given) as runtime:
        envs = await asyncio.gather(
            *(runtime.run(script, {}, {"wait_here": wait_here}) for _ in range(size + 2))
        )
    assert all(env["ok"] for env in envs), envs
    assert (runtime.workers, most) == (size, size)


async def test_runs_never_search_the_path_for_opentelemetry(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Monty looks for OpenTelemetry on every run and host call; uninstalled, each look was a
    # search of sys.path (~40 per agent run). Counted by a finder that sees every search.
    if importlib.util.find_spec("opentelemetry") is not None:
        pytest.skip("opentelemetry is installed: Monty uses it")
    searched: list[str] = []

    class Spy(importlib.abc.MetaPathFinder):
        def find_spec(self, name: str, path: object = None, target: object = None) -> None:
            searched.append(name)

    monkeypatch.setattr(sys, "meta_path", [Spy(), *sys.meta_path])
    body = HEADER + declare("read_file") + 'text = await read_file("x.txt")\ntext\n'
    script = script_at(tmp_path, body)
    async with SandboxRuntime(sandbox_config()) as runtime:
        for _ in range(3):
            env = await runtime.run(script, {}, {"read_file": lambda path: path})
            assert env["ok"]
    assert not [name for name in searched if name.startswith("opentelemetry")]
