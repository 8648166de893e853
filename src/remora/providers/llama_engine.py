"""One llama.cpp engine per model per process, shared by concurrent agents.

xllamacpp's ``Server`` holds the model once and serves ``n_parallel`` slots with
continuous batching; each blocking ``handle_chat_completions`` call runs on a
thread of the engine's own pool (one per slot), so the event loop stays free and
requests beyond the slot count wait in Python instead of starving other work.
Requests are streamed: the first chunk says the engine has started on the
request (where its time limit begins), and a request past its limit is stopped
at the next chunk, which frees its slot at once.

Engines live in a process-wide registry keyed by everything that changes how the
model is loaded; providers acquire and release them, and the last release (or
interpreter exit) frees the model.
"""

from __future__ import annotations

import asyncio
import atexit
import ctypes
import os
import secrets
import sys
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from remora.config import DEFAULT_PROMPT_CACHE_MIB
from remora.conversation import WorkClock
from remora.errors import ModelUnavailableError

__all__ = [
    "Engine",
    "EngineKey",
    "acquire_engine",
    "build_params",
    "default_threads",
    "import_xllamacpp",
    "release_engine",
]

_KV_TYPES = {"f16": "GGML_TYPE_F16", "q8_0": "GGML_TYPE_Q8_0"}


@dataclass(frozen=True, slots=True)
class EngineKey:
    path: Path
    n_parallel: int
    n_ctx_per_slot: int
    threads: int
    # Which copy of the model, when one provider spreads its requests over several.
    copy: int = 0
    kv_cache: str = "f16"
    prompt_cache_mib: int = DEFAULT_PROMPT_CACHE_MIB

    @classmethod
    def create(
        cls,
        path: Path,
        n_parallel: int,
        n_ctx_per_slot: int,
        threads: int | None,
        copy: int = 0,
        kv_cache: str = "f16",
        prompt_cache_mib: int = DEFAULT_PROMPT_CACHE_MIB,
    ) -> EngineKey:
        threads = threads or default_threads()
        return cls(
            path.resolve(), n_parallel, n_ctx_per_slot, threads, copy, kv_cache, prompt_cache_mib
        )


def default_threads() -> int:
    """All usable CPUs, at least one.

    llama.cpp's threads meet at a barrier at every step of every token, and a
    waiting thread spins a while before it sleeps (``import_xllamacpp``).
    Telling it to sleep at once (``OMP_WAIT_POLICY=PASSIVE``) cut generation
    from 96 to 34 tokens/s on 2 threads (`benchmarks/embedded.py --slots 2`) and
    made `remora analyze` of inventory/orders.py slower (125 s vs 94-99 s, CPU
    1.51 vs 1.84; benchmarks/analyze.py), though it holds up better when another
    process takes a whole core (34-39 vs 17-21 tokens/s). On a crowded machine
    set ``OMP_WAIT_POLICY=PASSIVE`` or ``model.threads: 1``.
    """
    try:
        cpus = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        cpus = os.cpu_count() or 1
    return max(1, cpus)


# libgomp's spin before a waiting thread sleeps, in pause-instruction rounds.
_SPIN_COUNT = "30000"


def import_xllamacpp() -> Any:
    """xllamacpp, with libgomp told how long its threads spin before they sleep.

    llama.cpp's two threads meet at a barrier after every operation. libgomp's
    default lets the one that arrives first spin 300,000 rounds (milliseconds)
    before it sleeps: right for generation, whose barriers come every few
    microseconds, but while a tool (ruff, pytest) takes one core the spinning
    thread keeps the other and the tool waits. With 30,000 rounds (about a
    millisecond) `remora analyze` of the sample project read its prompts ~15%
    faster and generated as fast: 158-179 s in 3 runs instead of 170-192 s in 4
    (`benchmarks/analyze.py`, the same 3,953 generated tokens; 3,000: 162 s,
    10,000: 169-173 s with generation slower, 100,000: 179 s). libgomp reads the
    setting once, when xllamacpp loads it, so every import goes through here; a
    user's ``GOMP_SPINCOUNT`` or ``OMP_WAIT_POLICY`` wins.
    """
    if "GOMP_SPINCOUNT" not in os.environ and "OMP_WAIT_POLICY" not in os.environ:
        os.environ["GOMP_SPINCOUNT"] = _SPIN_COUNT
    import xllamacpp

    return xllamacpp


def build_params(
    key: EngineKey,
    *,
    port: int = 0,
    host: str = "127.0.0.1",
    alias: str | None = None,
    api_key: str | None = None,
    verbosity: int = 0,
) -> Any:
    """xllamacpp ``CommonParams`` for ``key``: context shared by all slots, prompt cache on."""
    xllamacpp = import_xllamacpp()

    params = xllamacpp.CommonParams()
    params.model.path = str(key.path)
    params.n_parallel = key.n_parallel
    params.n_ctx = key.n_ctx_per_slot * key.n_parallel
    params.cpuparams.n_threads = key.threads
    params.cpuparams_batch.n_threads = key.threads
    # No spin-waiting between steps: spinning threads steal the cores that the
    # other threads (and the host's tools) need on a busy machine.
    params.cpuparams.poll = 0
    params.cpuparams_batch.poll = 0
    params.cache_prompt = True
    # SmolLM2-135M's f16 cache is ~23 KB per token of context (2 slots x 4096: ~190 MB);
    # q8_0 halves that and reads prompts slower (ModelConfig.kv_cache).
    kv_type = _KV_TYPES[key.kv_cache]
    params.cache_type_k = getattr(xllamacpp.ggml_type, kv_type)
    params.cache_type_v = getattr(xllamacpp.ggml_type, kv_type)
    params.cache_ram_mib = key.prompt_cache_mib
    if key.n_parallel == 1:
        # The one slot always saves what it held to the cache before a new request.
        # llama.cpp skips that when the new prompt shares >10% with the slot (the
        # next node of the same agent), so the conversation it overwrote lost its
        # next turn's prefix: docstring turn 2 found 409 of ~650 tokens (the system
        # prompt). With more slots that similarity is what sends a conversation's
        # next turn back to the slot that holds it, so llama.cpp's default stays.
        params.slot_prompt_similarity = 0.0
    params.port = port
    params.hostnames = [host]
    params.verbosity = verbosity
    if alias:
        params.model_alias = {alias}
    if api_key:
        params.api_keys = [api_key]
    return params


# glibc's mallopt: blocks from this size up get their own mapping, unmapped on free.
_M_MMAP_THRESHOLD = -3
_MMAP_THRESHOLD_BYTES = 1 << 20


def _return_freed_states_to_the_system() -> None:
    """Make glibc give the prompt cache's freed slot states back to the system.

    Each saved state is one ~10-30 MB block. glibc serves a block that size from
    its own mapping only until the first such block is freed; then it raises its
    threshold and serves the next ones from the heap, where freed states stay
    resident between the ones still alive. A fixed threshold keeps every state in
    its own mapping: `benchmarks/analyze.py` (one slot, 128 MiB cache) peaked at
    530 MB instead of 685-718 MB. ``MALLOC_MMAP_THRESHOLD_`` set by the user wins;
    other C libraries keep their own policy.
    """
    if sys.platform != "linux" or "MALLOC_MMAP_THRESHOLD_" in os.environ:
        return
    mallopt = getattr(ctypes.CDLL(None), "mallopt", None)
    if mallopt is not None:
        mallopt(_M_MMAP_THRESHOLD, _MMAP_THRESHOLD_BYTES)


def load_server(key: EngineKey, **kwargs: Any) -> Any:
    """Start an xllamacpp ``Server``; a load failure is AGENT_002 naming the file."""
    xllamacpp = import_xllamacpp()

    params = build_params(key, **kwargs)
    _return_freed_states_to_the_system()
    try:
        return xllamacpp.Server(params)
    except RuntimeError as exc:
        raise ModelUnavailableError(
            f"llama.cpp could not load {key.path} (n_parallel={key.n_parallel}, "
            f"n_ctx={key.n_ctx_per_slot * key.n_parallel}): {exc}",
        ) from exc


class Engine:
    """A loaded model and the thread pool that feeds its slots."""

    def __init__(self, key: EngineKey) -> None:
        self.key = key
        # xllamacpp always opens an HTTP listener as well; on a random loopback port
        # with a random key, nothing else can use this in-process engine.
        self._server: Any = load_server(key, port=0, api_key=secrets.token_hex(16))
        self._pool = ThreadPoolExecutor(
            max_workers=key.n_parallel, thread_name_prefix="remora-llama"
        )
        self.refcount = 0
        self.closed = False
        # Requests sent and not yet answered, to pick the least busy copy.
        self.in_flight = 0

    async def chat(
        self,
        request: dict[str, Any],
        *,
        timeout_s: float | None = None,
        clock: WorkClock | None = None,
    ) -> dict[str, Any]:
        """One chat completion (an OpenAI-shaped dict) without blocking the loop.

        ``timeout_s`` counts from the first chunk, when the engine has started on
        the request; waiting for a slot or a pool thread is not part of it.
        Raises TimeoutError past it, after telling the engine to stop.
        """
        return await self._request("chat", request, timeout_s, clock)

    async def complete(
        self,
        request: dict[str, Any],
        *,
        timeout_s: float | None = None,
        clock: WorkClock | None = None,
    ) -> dict[str, Any]:
        """One plain text completion (``prompt``, no chat template), as :meth:`chat` runs."""
        return await self._request("text", request, timeout_s, clock)

    async def _request(
        self,
        kind: str,
        request: dict[str, Any],
        timeout_s: float | None,
        clock: WorkClock | None,
    ) -> dict[str, Any]:
        if self.closed:
            raise ModelUnavailableError(f"engine for {self.key.path} is closed")
        loop = asyncio.get_running_loop()
        started = asyncio.Event()
        stop = threading.Event()

        def signal_start() -> None:  # on the engine's thread
            loop.call_soon_threadsafe(started.set)

        if clock is not None:
            clock.queued()
        self.in_flight += 1
        job: asyncio.Future[dict[str, Any]] = loop.run_in_executor(
            self._pool, self._request_sync, kind, request, signal_start, stop
        )
        waiter: asyncio.Future[Any] = asyncio.ensure_future(started.wait())
        try:
            await asyncio.wait([job, waiter], return_when=asyncio.FIRST_COMPLETED)
            if clock is not None:
                clock.started()
            return await asyncio.wait_for(asyncio.shield(job), timeout_s)
        except BaseException:  # a timeout or a cancelled run: free the slot
            stop.set()
            raise
        finally:
            waiter.cancel()
            self.in_flight -= 1

    def _request_sync(
        self,
        kind: str,
        request: dict[str, Any],
        on_start: Callable[[], None],
        stop: threading.Event,
    ) -> dict[str, Any]:
        stream = _Stream(on_start, stop)
        body = {**request, "stream": True, "stream_options": {"include_usage": True}}
        handle = (
            self._server.handle_chat_completions
            if kind == "chat"
            else self._server.handle_completions
        )
        try:
            handle(body, stream.chunk)
        except ValueError as exc:  # xllamacpp's answer to a request it rejects
            raise ModelUnavailableError(f"llama.cpp rejected the request: {exc}") from exc
        if stream.error is not None:
            error = stream.error
            message = error.get("message", error) if isinstance(error, dict) else error
            if isinstance(error, dict) and error.get("type") == "exceed_context_size_error":
                # Its own advice ("try increasing it") does not say which setting.
                message = (
                    f"{message} (model.n_ctx_per_slot is {self.key.n_ctx_per_slot}: raise it "
                    "in remora.yaml, or leave this node out with the operation's exclude:)"
                )
            raise ModelUnavailableError(f"llama.cpp error: {message}")
        return stream.response()

    def close(self) -> None:
        if self.closed:
            return
        self.closed = True
        self._pool.shutdown(wait=True)
        # Dropping the last reference stops llama.cpp's loop and frees the model.
        self._server = None


class _Stream:
    """The chunks of one streamed completion, put back together as one response."""

    def __init__(self, on_start: Callable[[], None], stop: threading.Event) -> None:
        self._on_start: Callable[[], None] | None = on_start
        self._stop = stop
        self._content: list[str] = []
        self._tokens: list[dict[str, Any]] = []
        self._finish: str | None = None
        self._last: dict[str, Any] = {}
        self.error: Any = None

    def chunk(self, chunk: dict[str, Any]) -> bool:
        """Called by llama.cpp for every chunk; True asks it to stop generating."""
        if self._on_start is not None:
            self._on_start()
            self._on_start = None
        if chunk.get("error"):
            self.error = chunk["error"]
            return True
        for choice in chunk.get("choices") or []:
            delta = choice.get("delta") or {}
            # A chat chunk carries a delta; a plain completion's chunk its text.
            piece = delta.get("content") or choice.get("text")
            if piece:
                self._content.append(str(piece))
            # Asked for (``logprobs``): each chunk carries its tokens' own.
            self._tokens += (choice.get("logprobs") or {}).get("content") or []
            if choice.get("finish_reason"):
                self._finish = str(choice["finish_reason"])
        if chunk.get("usage"):
            self._last = chunk
        return self._stop.is_set()

    def response(self) -> dict[str, Any]:
        """The OpenAI-shaped response a non-streamed request would have returned."""
        message = {"role": "assistant", "content": "".join(self._content)}
        choice = {"index": 0, "message": message, "finish_reason": self._finish}
        if self._tokens:
            choice["logprobs"] = {"content": self._tokens}
        return {
            "choices": [choice],
            "usage": self._last.get("usage") or {},
            "timings": self._last.get("timings") or {},
        }


_registry: dict[EngineKey, Engine] = {}
_registry_lock = threading.Lock()


def acquire_engine(key: EngineKey) -> Engine:
    """The shared engine for ``key``, loaded on first use (blocking: call in a thread)."""
    with _registry_lock:
        engine = _registry.get(key)
        if engine is None:
            engine = Engine(key)
            _registry[key] = engine
        engine.refcount += 1
        return engine


def release_engine(engine: Engine) -> None:
    """Drop one reference; the last one frees the model."""
    with _registry_lock:
        engine.refcount -= 1
        if engine.refcount > 0:
            return
        if _registry.get(engine.key) is engine:
            del _registry[engine.key]
    engine.close()


@atexit.register
def _close_all() -> None:
    with _registry_lock:
        engines = list(_registry.values())
        _registry.clear()
    for engine in engines:
        engine.close()
