"""Requests spread over one or more OpenAI-compatible servers, at the pace they take.

Each request goes to the server in rotation with the fewest requests in flight
(relative to its limit; equals in turn) and room under its limit; when none has
room the request waits (and its turn clock stands still: waiting for a server is
not the model's time).

- A server that stops answering (connection refused or reset, a timeout, HTTP
  500/502/504) is taken out of rotation for ``model.cooldown_s`` and the request
  is tried at once on another server in rotation. With no other server it is
  tried again after ``model.retry``'s backoff, up to ``retry.max_attempts``. A
  server back from its cool-down gets one request (a probe) before the others.
- Back-pressure (HTTP 429 or 503, with or without Retry-After) is no failure:
  the server's limit is halved (once per window of requests sent at the old
  limit), the server is paused for its Retry-After, and the request waits and
  is sent again; each success grows the limit back by 1/limit, up to
  ``model.max_in_flight``. A request gives up only when back-pressure has held
  it for longer than ``model.timeout``.
- Sharded over host processes, each process's router also needs one of the
  server's slots that all processes share (:mod:`remora.providers.shared_slots`).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from remora.conversation import WorkClock
from remora.errors import ModelUnavailableError
from remora.providers.openai_http import (
    NoAnswer,
    ServerAnswered,
    body_summary,
    connection_failure,
    retry_after_s,
)
from remora.providers.shared_slots import SharedSlots

__all__ = [
    "BACK_PRESSURE_STATUSES",
    "SERVER_TROUBLE_STATUSES",
    "Server",
    "ServerRouter",
]

T = TypeVar("T")

BACK_PRESSURE_STATUSES = frozenset({429, 503})
SERVER_TROUBLE_STATUSES = frozenset({500, 502, 504})
_MAX_BACKOFF_S = 5.0


@dataclass(eq=False)
class Server:
    """One server: its client, its limit and what it has done so far."""

    url: str
    client: Any  # openai_http.ServerClient; Any so the tests can pass a stand-in of its shape
    ceiling: int  # model.max_in_flight
    limit: float = 0.0  # the adaptive limit, 1..ceiling
    in_flight: int = 0
    served: int = 0
    failed: int = 0
    throttled: int = 0
    out_until: float = 0.0  # cooling down until (monotonic)
    paused_until: float = 0.0  # Retry-After until (monotonic)
    probing: bool = False  # back from a cool-down: one request first
    window: int = 0  # bumped on each cut: one cut per window of requests
    last_error: str = ""
    # Sharded runs: the server's slots shared with the other processes (shared_slots.py);
    # a request needs room here and one of those.
    slots: SharedSlots | None = None

    def __post_init__(self) -> None:
        self.limit = self.limit or float(self.ceiling)

    def state(self, now: float) -> str:
        if now < self.out_until:
            return "cooling down"
        if now < self.paused_until:
            return "paused"
        return "probing" if self.probing else "in rotation"

    def room(self, now: float) -> int:
        if now < self.out_until or now < self.paused_until:
            return 0
        return (1 if self.probing else int(self.limit)) - self.in_flight

    def snapshot(self, now: float) -> dict[str, Any]:
        return {
            "url": self.url,
            "state": self.state(now),
            "in_flight": self.in_flight,
            "served": self.served,
            "failed": self.failed,
            "throttled": self.throttled,
            "limit": int(self.limit),
            "max_in_flight": self.ceiling,
            "back_in_s": round(max(self.out_until, self.paused_until) - now, 1)
            if self.state(now) in ("cooling down", "paused")
            else 0.0,
            "last_error": self.last_error,
            **({"shared": True} if self.slots is not None else {}),
        }


class ServerRouter:
    """Sends each request to a server, as the module docstring says."""

    def __init__(
        self,
        servers: list[Server],
        *,
        cooldown_s: float,
        max_attempts: int,
        backoff_s: float,
        back_pressure_budget_s: float,
        now: Callable[[], float] = time.monotonic,
    ) -> None:
        if not servers:
            raise ValueError("a router needs at least one server")
        self.servers = servers
        self.cooldown_s = cooldown_s
        self.max_attempts = max_attempts
        self.backoff_s = backoff_s
        self.back_pressure_budget_s = back_pressure_budget_s
        self._now = now
        self._waiters: deque[asyncio.Future[None]] = deque()
        self._turn = 0

    # ------------------------------------------------------------ choosing

    def choose(self, exclude: frozenset[str] = frozenset()) -> Server | None:
        """The server with room and the fewest in flight, skipping ``exclude`` (urls);
        when every server is out of rotation, the one back soonest (a single server
        must still be tried after a blip)."""
        return next(iter(self._candidates(exclude)), None)

    def _candidates(self, exclude: frozenset[str]) -> list[Server]:
        """The servers a request may go to, best first (see :meth:`choose`)."""
        now = self._now()
        candidates = [s for s in self.servers if s.url not in exclude]
        ready = [s for s in candidates if s.room(now) > 0]
        if ready:
            # Ties (idle servers, when the host is the bottleneck) go round in turn, so each
            # server gets its share even when none ever has a request waiting.
            self._turn += 1
            start = self._turn % len(ready)
            ready = ready[start:] + ready[:start]
            return sorted(ready, key=lambda s: (s.in_flight / max(s.limit, 1.0), s.in_flight))
        if any(s.state(now) != "cooling down" for s in self.servers):
            return []  # some server is in rotation but full (or paused): wait for it
        # Everything cools down: the one back soonest, if it has room for a probe.
        soonest = min(candidates, key=lambda s: s.out_until, default=None)
        if soonest is not None and soonest.in_flight < max(1, int(soonest.limit)):
            return [soonest]
        return []

    def _next_change_s(self) -> float | None:
        now = self._now()
        ends = [t - now for s in self.servers for t in (s.out_until, s.paused_until) if t > now]
        return min(ends) if ends else None

    async def _acquire(self, exclude: frozenset[str], clock: _Clock) -> Server:
        while True:
            candidates = self._candidates(exclude)
            server = next((s for s in candidates if s.slots is None or s.slots.take()), None)
            if server is not None:
                server.in_flight += 1
                return server
            for other in candidates:  # room here, none of the shared slots: wait for one
                assert other.slots is not None
                other.slots.watch(self._wake)
            clock.queued()
            waiter: asyncio.Future[None] = asyncio.get_running_loop().create_future()
            self._waiters.append(waiter)
            try:
                # A cool-down or pause ending frees room without a release: wake for it too.
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(asyncio.shield(waiter), self._next_change_s())
            except asyncio.CancelledError:
                if waiter.done() and not waiter.cancelled():
                    self._wake()  # woken, then cancelled: the room goes to another waiter
                raise
            finally:
                if not waiter.done():
                    waiter.cancel()
                with contextlib.suppress(ValueError):
                    self._waiters.remove(waiter)
                if not self._waiters:  # nobody left to wake
                    for each in self.servers:
                        if each.slots is not None:
                            each.slots.unwatch(self._wake)

    def _release(self, server: Server) -> None:
        server.in_flight -= 1
        if server.slots is not None:
            server.slots.give()
        self._wake()

    def _wake(self) -> None:
        """Wake as many waiters as there is room now (here and among the shared slots: every
        process watching them is told when one is given back); each chooses again."""
        now = self._now()
        room = sum(
            max(0, s.room(now) if s.slots is None else min(s.room(now), s.slots.free()))
            for s in self.servers
        )
        room = room or 1
        while room and self._waiters:
            waiter = self._waiters.popleft()
            if not waiter.done():
                waiter.set_result(None)
                room -= 1

    # ------------------------------------------------------------- outcomes

    def _succeeded(self, server: Server) -> None:
        server.served += 1
        server.probing = False
        server.limit = min(float(server.ceiling), server.limit + 1.0 / server.limit)

    def _cool_down(self, server: Server, error: str) -> None:
        server.failed += 1
        server.last_error = error
        server.out_until = self._now() + self.cooldown_s
        server.probing = True

    def _back_off(self, server: Server, window: int, retry_after_s: float | None) -> None:
        server.throttled += 1
        if window == server.window:  # the first refusal of requests sent at this limit
            server.limit = max(1.0, server.limit / 2)
            server.window += 1
        if retry_after_s:
            server.paused_until = max(server.paused_until, self._now() + retry_after_s)

    def mark_down(self, url: str, error: str) -> None:
        """Take a server out of rotation (its check failed before the run)."""
        for server in self.servers:
            if server.url == url:
                self._cool_down(server, error)

    # ----------------------------------------------------------------- call

    async def call(
        self, send: Callable[[Server], Awaitable[T]], clock: WorkClock | None = None
    ) -> T:
        """``send(server)`` on a chosen server, retried as the module docstring says."""
        timing = _Clock(clock)
        tried: set[str] = set()
        attempts = 0
        pressed_since: float | None = None
        pressed = 0
        while True:
            server = await self._acquire(frozenset(tried), timing)
            window = server.window
            timing.started()
            try:
                result = await send(server)
            except ServerAnswered as exc:
                if exc.status in BACK_PRESSURE_STATUSES:
                    retry_after = retry_after_s(exc)
                    self._back_off(server, window, retry_after)
                    now = self._now()
                    pressed_since = now if pressed_since is None else pressed_since
                    if now - pressed_since > self.back_pressure_budget_s:
                        raise ModelUnavailableError(
                            f"openai server {server.url} kept answering HTTP {exc.status} "
                            f"(busy) for {now - pressed_since:.0f} s: {body_summary(exc)}",
                            "lower model.max_in_flight or -j, or add servers to model.base_url",
                            retryable=True,
                        ) from exc
                    if not retry_after:  # no hint from the server: our own growing pause
                        timing.queued()
                        await asyncio.sleep(min(self.backoff_s * 2**pressed, _MAX_BACKOFF_S))
                    pressed += 1
                    continue
                if exc.status not in SERVER_TROUBLE_STATUSES:
                    raise
                self._cool_down(server, f"HTTP {exc.status}: {body_summary(exc)}")
                tried.add(server.url)
                if self._other_in_rotation(tried):
                    continue
                raise
            except NoAnswer as exc:
                what, why = connection_failure(exc)
                self._cool_down(server, f"{what}: {why}")
                tried.add(server.url)
                if self._other_in_rotation(tried):
                    continue
                attempts += 1
                if attempts >= self.max_attempts:
                    where = ", ".join(sorted(tried))
                    raise ModelUnavailableError(
                        f"openai server {where} {what} after {attempts} attempt(s) "
                        f"({why}); check that it runs (e.g. `remora models "
                        f"serve`) and model.base_url",
                        retryable=True,
                    ) from exc
                tried.clear()
                timing.queued()
                await asyncio.sleep(self.backoff_s * 2 ** (attempts - 1))
                continue
            finally:
                self._release(server)
            self._succeeded(server)
            return result

    def _other_in_rotation(self, tried: set[str]) -> bool:
        now = self._now()
        return any(s.url not in tried and s.state(now) != "cooling down" for s in self.servers)

    def snapshot(self) -> list[dict[str, Any]]:
        now = self._now()
        return [s.snapshot(now) for s in self.servers]


class _Clock:
    """Tells the turn's clock when the request waits and when it is sent (only after a wait:
    ``started()`` restarts the turn's limit)."""

    def __init__(self, clock: WorkClock | None) -> None:
        self._clock = clock
        self._waiting = False

    def queued(self) -> None:
        if self._clock is not None and not self._waiting:
            self._clock.queued()
        self._waiting = True

    def started(self) -> None:
        if self._clock is not None and self._waiting:
            self._clock.started()
        self._waiting = False
