"""Where a run's host time goes, function by function: wall time of every ``remora_code``
host function, ruff run, whole parse and fork-server probe, per process.

Python imports ``sitecustomize`` at start-up from ``sys.path``: put this folder first on
``PYTHONPATH`` (by its absolute path: analyze runs in the project) and name an output
prefix, and every Remora process the command starts (``scale.py``'s analyze, its shard
children) writes ``PREFIX.PID.json`` when it exits normally (shard children leave through
``os._exit`` and write nothing)::

    PYTHONPATH=$PWD/benchmarks/timing_hook TIMING_HOOK_OUT=/tmp/timing \\
        python benchmarks/scale.py --sizes 500 --jobs 4 --processes 1 ...

Each file maps a name to ``{"calls", "wall_ms", "ms_per_call"}``, and ``probes`` lists
each fork-server probe as ``[module, ms]`` in order (a module's first probe waits for its
zygote's import). The variable's name does not start with ``REMORA_``: ``scale.py`` passes
no such variable on. It wraps private functions, so it follows them as they are named now:
a wrapper whose target is gone is reported under ``missing``. Without
``TIMING_HOOK_OUT`` it does nothing.
"""

from __future__ import annotations

import atexit
import collections
import dataclasses
import functools
import importlib
import inspect
import json
import os
import time
from collections.abc import Callable
from typing import Any

_OUT = os.environ.get("TIMING_HOOK_OUT")
_calls: collections.Counter[str] = collections.Counter()
_wall: collections.Counter[str] = collections.Counter()
_probes: list[tuple[str | None, float]] = []
_missing: list[str] = []


def _timed(name: str, function: Callable[..., Any]) -> Callable[..., Any]:
    if inspect.iscoroutinefunction(function):

        @functools.wraps(function)
        async def timed_async(*args: Any, **kwargs: Any) -> Any:
            started = time.perf_counter()
            try:
                return await function(*args, **kwargs)
            finally:
                _calls[name] += 1
                _wall[name] += time.perf_counter() - started

        return timed_async

    @functools.wraps(function)
    def timed(*args: Any, **kwargs: Any) -> Any:
        started = time.perf_counter()
        try:
            return function(*args, **kwargs)
        finally:
            _calls[name] += 1
            _wall[name] += time.perf_counter() - started

    return timed


def _wrap(module_name: str, attribute: str, label: str | None = None) -> None:
    """Replace ``module.attribute`` (``Class.method`` allowed) with a timed version."""
    module: Any = importlib.import_module(module_name)
    owner_path, _, name = attribute.rpartition(".")
    owner = functools.reduce(getattr, owner_path.split("."), module) if owner_path else module
    target = getattr(owner, name, None)
    if target is None:
        _missing.append(f"{module_name}.{attribute}")
        return
    setattr(owner, name, _timed(label or attribute, target))


def _probe_timed(run: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(run)
    async def timed(self: Any, program: Any, timeout_s: float, caps: Any, *args: Any) -> Any:
        started = time.perf_counter()
        try:
            return await run(self, program, timeout_s, caps, *args)
        finally:
            module = args[0] if args else None
            _probes.append((module, round((time.perf_counter() - started) * 1000, 2)))

    return timed


def _install() -> None:
    from remora.code import module as toolkit  # the package's import registers them all
    from remora.sandbox import fork_server

    for name, entry in list(toolkit._registry.items()):
        toolkit._registry[name] = dataclasses.replace(entry, impl=_timed(f"hf.{name}", entry.impl))
    _wrap("remora.code.lint.ruff_runs", "_run_ruff", "ruff run")
    _wrap("remora.code.parsing.parse_cache", "_parse", "parse (whole or from a base)")
    _wrap("remora.sandbox.runtime", "SandboxRuntime.run", "sandbox tool run")
    _wrap("remora.runner.loop", "AgentRunner.run", "agent run")
    fork_server.ForkServer.run = _probe_timed(fork_server.ForkServer.run)  # type: ignore[method-assign]


def _write() -> None:
    table = {
        name: {
            "calls": _calls[name],
            "wall_ms": round(_wall[name] * 1000, 1),
            "ms_per_call": round(_wall[name] * 1000 / _calls[name], 3),
        }
        for name in sorted(_calls, key=lambda n: -_wall[n])
    }
    with open(f"{_OUT}.{os.getpid()}.json", "w", encoding="utf-8") as out:
        json.dump({"functions": table, "probes": _probes, "missing": _missing}, out, indent=1)


if _OUT:
    _install()
    atexit.register(_write)
