"""Run loaded ``.pym`` scripts on one pool of Monty workers; every outcome is an envelope.

One :class:`SandboxRuntime` per process (an ``AsyncMonty`` pool of up to
``config.workers`` processes, by default one per agent run at once). Each run
checks out a clean session with the limits of its preset, binds the inputs as
globals, resolves the declared externals to host callables and captures print
output. Script faults become
error envelopes with the ``.pym`` line; only programming errors raise. Closing it
ends the command's fork servers too (:mod:`remora.sandbox.fork_server`).
"""

from __future__ import annotations

import asyncio
import importlib.util
import inspect
import sys
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import TracebackType
from typing import Any

from pydantic_monty import (
    AsyncMonty,
    ExternalModule,
    MontyConversionError,
    MontyCrashedError,
    MontyRuntimeError,
    MontySyntaxError,
)

from remora.config import SandboxConfig
from remora.sandbox.envelope import MAX_TEXT_CHARS, ExternalRefused, ToolEnvelope
from remora.sandbox.fork_server import close_fork_servers
from remora.sandbox.limits import LimitPreset, resolve_limits
from remora.sandbox.script_loader import PymScript

__all__ = ["SandboxRuntime", "run_one", "validate_inputs"]

# Monty 1.4.0 captures the caller's OpenTelemetry context on every run and host call by
# importing ``opentelemetry`` from native code; without the package each attempt searched
# sys.path again (a failed import is not remembered): ~40 per run, 43 us each, 4% of a lint
# run's host CPU on click. A None entry makes the import fail at once, as Python documents;
# where the package is installed nothing changes.
if importlib.util.find_spec("opentelemetry") is None:
    sys.modules.setdefault("opentelemetry", None)  # type: ignore[arg-type]

# After a time limit or a dead worker, the pool's runtime threads still deliver
# late completions into the event loop for a short while after the pool is
# closed; if the interpreter is finalising by then, such a thread is killed
# inside Rust frames and the process aborts (exit 134; docs/agents.md, "The
# Monty exit pitfall"). Waiting this long after closing lets them finish (0 aborts
# in 25 runs at 0.1 s, 12 in 25 without the wait).
_SETTLE_S = 0.25
# A checked-out worker stays taken while the script awaits a host function (pytest,
# ruff, the model), so a pool smaller than the runs at once queues the others' tool
# calls behind those waits (4 runs of a 1-s external: 2.07 s on 2 workers, 1.05 s on
# 4). Workers start as needed, ~18 MB each.
DEFAULT_WORKERS = 2


def _limit_hit(
    inner: BaseException, message: str, limits: LimitPreset, elapsed_s: float
) -> str | None:
    """The envelope code of the sandbox limit that ended a run, or None for a script error.

    Monty 1.4.0 reports a limit as an ordinary exception of the script, so the type
    alone cannot tell a limit from a script raising that type itself. A TimeoutError
    is the time limit only once the run has lasted that long; the interpreter raises
    MemoryError and RecursionError only at its memory and depth limits; the
    suspension limit is a RuntimeError stating the configured number, the one sign
    Monty gives of it.
    """
    if isinstance(inner, TimeoutError) and elapsed_s >= limits.max_duration_s:
        return "time_limit"
    if isinstance(inner, MemoryError):
        return "memory_limit"
    if isinstance(inner, RecursionError):
        return "recursion_limit"
    if (
        type(inner) is RuntimeError
        and message == f"suspension limit {limits.max_suspensions} exceeded"
    ):
        return "suspension_limit"
    return None


def validate_inputs(
    script: PymScript, given: Mapping[str, Any]
) -> tuple[dict[str, Any], list[str]]:
    """(bound inputs with defaults applied, problems); problems empty when valid."""
    validator = script.input_validator
    data = dict(given)
    problems: list[str] = []
    if not validator.is_valid(data):
        for error in sorted(validator.iter_errors(data), key=lambda e: list(e.path)):
            where = ".".join(str(p) for p in error.path)
            problems.append(f"input {where!r}: {error.message}" if where else error.message)
    bound = {i.name: given.get(i.name, i.default) for i in script.inputs}
    return bound, problems


@dataclass
class _RunState:
    prints: list[str] = field(default_factory=list)
    printed: int = 0
    refusals: list[tuple[str, ExternalRefused]] = field(default_factory=list)

    def on_print(self, _stream: str, text: str) -> None:
        if self.printed < MAX_TEXT_CHARS:
            self.prints.append(text)
        self.printed += len(text)

    @property
    def output(self) -> str:
        return "".join(self.prints)


def _adapt(
    name: str, host: Callable[..., Any], declared_async: bool, state: _RunState
) -> Callable[..., Any]:
    """The host callable in the shape the script declared (sync or async)."""
    host_async = inspect.iscoroutinefunction(host)

    def record(exc: ExternalRefused) -> None:
        state.refusals.append((name, exc))

    if declared_async:

        async def call_async(*args: Any, **kwargs: Any) -> Any:
            try:
                result = host(*args, **kwargs)
                return await result if host_async else result
            except ExternalRefused as exc:
                record(exc)
                raise

        return call_async
    if host_async:

        def refuse(*_args: Any, **_kwargs: Any) -> Any:
            raise ExternalRefused(
                f"external {name!r} is asynchronous on the host; declare it "
                f"`async def {name}(...)` and await it"
            )

        return refuse

    def call_sync(*args: Any, **kwargs: Any) -> Any:
        try:
            return host(*args, **kwargs)
        except ExternalRefused as exc:
            record(exc)
            raise

    return call_sync


class SandboxRuntime:
    """The process's Monty pool; ``async with SandboxRuntime(cfg) as rt: await rt.run(...)``."""

    def __init__(self, config: SandboxConfig, workers: int | None = None) -> None:
        """``workers``: the pool's size when ``config.workers`` leaves it open (the
        coordinator passes its agent runs at once); else :data:`DEFAULT_WORKERS`."""
        self.config = config
        self.workers = config.workers or workers or DEFAULT_WORKERS
        self.default_limits = resolve_limits(config)
        self._pool: AsyncMonty | None = None
        # A time limit, crash or timeout happened: see _SETTLE_S.
        self.faulted = False

    async def __aenter__(self) -> SandboxRuntime:
        await self.start()
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()

    async def start(self) -> None:
        if self._pool is None:
            pool = AsyncMonty(
                max_processes=self.workers, request_timeout=self.config.request_timeout
            )
            await pool.__aenter__()
            self._pool = pool

    async def close(self) -> None:
        pool, self._pool = self._pool, None
        try:
            if pool is not None:
                await pool.__aexit__(None, None, None)
                if self.faulted:
                    await asyncio.sleep(_SETTLE_S)
        finally:
            await close_fork_servers()  # the command's probe servers (fork_server.py) end with it

    async def run(
        self,
        script: PymScript,
        inputs: Mapping[str, Any],
        externals: Mapping[str, Callable[..., Any]],
        *,
        limits: LimitPreset | None = None,
        modules: Mapping[str, ExternalModule] | None = None,
    ) -> dict[str, Any]:
        """Run ``script``; always returns a tool envelope (never raises for script faults).

        ``modules`` are the host modules the script may import (``remora_code``,
        bound to the run's workspace and node).
        """
        if self._pool is None:
            raise RuntimeError("SandboxRuntime.run() before start(); use `async with`")
        file = str(script.path)
        bound, problems = validate_inputs(script, inputs)
        if problems:
            return ToolEnvelope.failure(
                "invalid_inputs",
                "; ".join(problems),
                file=file,
                errors=problems,
                schema=script.parameters_schema(),
            )
        state = _RunState()
        lookup: dict[str, Callable[..., Any]] = {}
        for name in script.externals:
            host = externals.get(name)
            if host is None:
                return ToolEnvelope.failure(
                    "external_error",
                    f"the host provides no external {name!r}",
                    file=file,
                    line=script.external_decls[name].line,
                    external=name,
                )
            lookup[name] = _adapt(name, host, script.external_decls[name].is_async, state)
        chosen = limits or self.default_limits
        started = time.monotonic()
        try:
            async with self._pool.checkout(
                script_name=script.path.name,
                limits=chosen.to_monty(),
                external_modules=dict(modules) if modules else None,
            ) as session:
                result = await session.feed_run(
                    script.code, inputs=bound, external_lookup=lookup, print_callback=state.on_print
                )
        except MontyRuntimeError as exc:
            elapsed = time.monotonic() - started
            return self._runtime_failure(exc, script, state, chosen, elapsed)
        except MontySyntaxError as exc:
            frames = exc.traceback()
            return ToolEnvelope.failure(
                "syntax_error",
                exc.display("msg"),
                file=file,
                line=frames[-1].line if frames else None,
                prints=state.output,
            )
        except MontyCrashedError as exc:
            self.faulted = True
            code = "timeout" if exc.timed_out else "worker_crash"
            return ToolEnvelope.failure(
                code,
                str(exc),
                file=file,
                line=None,
                exit_status=exc.exit_status,
                prints=state.output,
                request_timeout_s=self.config.request_timeout,
            )
        except MontyConversionError as exc:
            return ToolEnvelope.failure("invalid_inputs", str(exc), file=file, prints=state.output)
        return ToolEnvelope.success(result, state.output)

    def _runtime_failure(
        self,
        exc: MontyRuntimeError,
        script: PymScript,
        state: _RunState,
        limits: LimitPreset,
        elapsed_s: float,
    ) -> dict[str, Any]:
        file = str(script.path)
        inner = exc.exception()
        type_name = type(inner).__name__
        message = exc.display("msg")
        frames = exc.traceback()
        line = frames[-1].line if frames else None
        traceback_text = exc.display("traceback").replace('"<python-input-0>"', f'"{file}"')
        details: dict[str, Any] = {
            "file": file,
            "line": line,
            "exception": type_name,
            "source_line": (frames[-1].source_line or "").strip() if frames else None,
            "prints": state.output,
        }
        limit_code = _limit_hit(inner, message, limits, elapsed_s)
        if limit_code is not None:
            if limit_code in ("time_limit", "memory_limit"):
                self.faulted = True
            details["limits"] = limits.to_dict()
            return ToolEnvelope.failure(limit_code, exc.display("type-msg"), **details)
        for name, refused in state.refusals:
            if type_name == "PermissionError" and str(refused) == message:
                return ToolEnvelope.failure(
                    "external_error", f"{name}: {message}", external=name, **details
                )
        # Tracebacks of deep recursion repeat one frame; keep the ends.
        lines = traceback_text.splitlines()
        if len(lines) > 60:
            lines = [*lines[:20], f"  ... {len(lines) - 40} lines ...", *lines[-20:]]
        details["traceback"] = "\n".join(lines)
        return ToolEnvelope.failure("runtime_error", exc.display("type-msg"), **details)


async def run_one(
    config: SandboxConfig,
    script: PymScript,
    inputs: Mapping[str, Any],
    externals: Mapping[str, Callable[..., Any]],
    limits: LimitPreset | None = None,
    modules: Mapping[str, ExternalModule] | None = None,
) -> dict[str, Any]:
    """One run on a pool of its own (for the CLI and tests of a single script)."""
    async with SandboxRuntime(config) as runtime:
        return await runtime.run(script, inputs, externals, limits=limits, modules=modules)
