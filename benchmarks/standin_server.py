"""A stand-in for an OpenAI-compatible model server, for measuring Remora's own cost.

It is not a model: it answers every chat completion, at once or after a set
latency, with one minimal valid tool call built from the request's own tool
schemas: on a conversation's first turn the tool other than ``submit_result``
with the most parameters, its required arguments filled minimally (strings get
a short sentence, numbers their minimum, arrays their fewest items); after any
tool result ``submit_result``; a ``tool_choice`` that names a tool is obeyed. So
every run finishes after a turn or two, and what a benchmark measures is the
host's work around the model (discovery, tools, sandbox, workspaces, records),
never a model's speed or quality.

It counts the requests in flight (max, and the mean over the time from the
first request's arrival to the last one's answer); ``GET /stats`` answers those
figures and the busy answers sent. Stdlib asyncio only: HTTP/1.1 with keep-alive,
enough for the OpenAI SDK's client.

To test a client's handling of servers under load or going away (see ``Trouble``):
``--capacity K`` answers HTTP 429 to a request that finds K in flight, ``--busy-for-s
T`` answers 429 to every request for T seconds from the first, ``--busy-every N``
answers 429 to every Nth request (each with ``Retry-After`` when
``--retry-after-s`` is given), and ``--die-after N`` stops listening and drops
every connection once N completions have been answered, as a server that crashed.

Run alone: ``python benchmarks/standin_server.py --port 8099 --latency-ms 200``; it
prints one JSON line with its ``base_url`` when it listens (``--port 0``: a free port).
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import threading
import time
from dataclasses import dataclass, field
from typing import Any

__all__ = ["InFlight", "StandIn", "Trouble", "minimal_arguments", "tool_call_for"]

MODEL_ID = "standin"
SUBMIT = "submit_result"
_TEXT = "Stand-in text."


def minimal_arguments(schema: dict[str, Any]) -> Any:
    """The smallest value ``schema`` accepts (the JSON-schema subset tool parameters use)."""
    if "const" in schema:
        return schema["const"]
    if schema.get("enum"):
        return schema["enum"][0]
    for key in ("anyOf", "oneOf"):
        if schema.get(key):
            return minimal_arguments(schema[key][0])
    kind = schema.get("type", "object")
    if isinstance(kind, list):
        kind = next((k for k in kind if k != "null"), "null")
    if kind == "object":
        properties = schema.get("properties", {})
        return {name: minimal_arguments(properties[name]) for name in schema.get("required", [])}
    if kind == "array":
        item = schema.get("items", {})
        return [minimal_arguments(item) for _ in range(int(schema.get("minItems", 0)))]
    if kind == "string":
        return _TEXT[: int(schema.get("maxLength", len(_TEXT)))]
    if kind in ("integer", "number"):
        return schema.get("minimum", 0)
    if kind == "boolean":
        return False
    return None


def _tool_names(body: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    return [
        (t["function"]["name"], t["function"].get("parameters") or {})
        for t in body.get("tools") or []
        if t.get("type") == "function"
    ]


def tool_call_for(body: dict[str, Any]) -> tuple[str, dict[str, Any]] | None:
    """(tool name, arguments) to answer the request with; None when it offers no tool."""
    tools = dict(_tool_names(body))
    if not tools:
        return None
    choice = body.get("tool_choice")
    if isinstance(choice, dict) and choice.get("function", {}).get("name") in tools:
        name = choice["function"]["name"]
        return name, minimal_arguments(tools[name])
    answered = any(m.get("role") == "tool" for m in body.get("messages", []))
    if SUBMIT in tools and (answered or len(tools) == 1):
        return SUBMIT, minimal_arguments(tools[SUBMIT])
    # The tool with the most parameters (the last of equals): in the bundled agents the one
    # that writes (write_docstring, write_fixture, edit_node), so a run does its host work.
    others = [n for n in tools if n != SUBMIT] or list(tools)
    name = max(reversed(others), key=lambda n: len(tools[n].get("properties") or {}))
    return name, minimal_arguments(tools[name])


@dataclass
class InFlight:
    """Requests being answered: now, the most at once, the time-weighted mean, and that mean
    second by second (where a run's ramp, its tail and its steady state show apart)."""

    now: int = 0
    most: int = 0
    requests: int = 0
    _area: float = 0.0
    _seconds: list[float] = field(default_factory=list)  # the area in each second
    _since: float = 0.0
    _first: float | None = None
    _first_wall: float | None = None  # the first request's wall time (events' clock)
    _last: float = 0.0
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def _move(self, step: int) -> None:
        with self._lock:
            at = time.monotonic()
            if self._first is None:
                self._first, self._first_wall = at, time.time()
            else:
                area = self.now * (at - self._since)
                self._area += area
                second = int(self._since - self._first)  # steps are ms apart: the start's
                self._seconds += [0.0] * (second + 1 - len(self._seconds))
                self._seconds[second] += area
            self._since = at
            self.now += step
            self.most = max(self.most, self.now)
            self.requests += step > 0
            self._last = at

    def start(self) -> None:
        self._move(1)

    def end(self) -> None:
        self._move(-1)

    def summary(self) -> dict[str, Any]:
        with self._lock:
            span = self._last - self._first if self._first is not None else 0.0
            by_second = list(self._seconds)
            ran = span - (len(by_second) - 1)  # of the last second
            if by_second and ran > 0:
                by_second[-1] /= min(ran, 1.0)
            return {
                "requests": self.requests,
                "in_flight_max": self.most,
                "in_flight_mean": round(self._area / span, 2) if span else 0.0,
                "in_flight_by_second": [round(a, 2) for a in by_second],
                "first_request_at": self._first_wall,
            }

    def reset(self) -> None:
        with self._lock:
            self.now = self.most = self.requests = 0
            self._area, self._first, self._seconds = 0.0, None, []
            self._first_wall = None


@dataclass(frozen=True)
class Trouble:
    """How the stand-in misbehaves (the module docstring); the defaults: never."""

    capacity: int = 0  # 429 to a request that finds this many in flight; 0: no limit
    busy_for_s: float = 0.0  # 429 to every request this long from the first
    busy_every: int = 0  # 429 to every Nth request; 0: never
    retry_after_s: float = 0.0  # the Retry-After of a 429; 0: none sent
    die_after: int = 0  # completions answered before the server goes away; 0: never


class StandIn:
    """The server on 127.0.0.1:``port`` (0: a free one), in a thread of its own."""

    def __init__(
        self, latency_ms: float = 0.0, port: int = 0, trouble: Trouble | None = None
    ) -> None:
        self.latency_s = latency_ms / 1000
        self.port = port
        self.trouble = trouble or Trouble()
        self.in_flight = InFlight()
        self.busy_answers = 0
        self.answered = 0
        self._arrivals = 0
        self._first_arrival: float | None = None
        self._ids = itertools.count(1)
        self._loop: asyncio.AbstractEventLoop | None = None
        self._server: asyncio.Server | None = None
        self._thread: threading.Thread | None = None
        self._connections: set[asyncio.Task[None]] = set()

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def __enter__(self) -> StandIn:
        started = threading.Event()

        def serve() -> None:
            self._loop = asyncio.new_event_loop()
            self._server = self._loop.run_until_complete(
                asyncio.start_server(self._connection, "127.0.0.1", self.port)
            )
            self.port = self._server.sockets[0].getsockname()[1]
            started.set()
            self._loop.run_forever()

        self._thread = threading.Thread(target=serve, name="standin", daemon=True)
        self._thread.start()
        started.wait(10)
        return self

    async def _stop(self) -> None:
        assert self._server is not None and self._loop is not None
        self._server.close()
        for task in list(self._connections):  # keep-alive connections wait for a request
            task.cancel()
        await asyncio.gather(*self._connections, return_exceptions=True)
        self._loop.stop()

    def __exit__(self, *_: object) -> None:
        if self._loop is not None and self._server is not None:
            asyncio.run_coroutine_threadsafe(self._stop(), self._loop)
        if self._thread is not None:
            self._thread.join(5)
        if self._loop is not None:
            self._loop.close()

    async def _connection(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        assert task is not None
        self._connections.add(task)
        try:
            while True:
                head = await reader.readuntil(b"\r\n\r\n")
                request_line, *header_lines = head.decode("latin-1").split("\r\n")
                method, path, _ = request_line.split(" ", 2)
                headers = {
                    k.strip().lower(): v.strip()
                    for k, _, v in (h.partition(":") for h in header_lines if h)
                }
                body = await reader.readexactly(int(headers.get("content-length", 0)))
                status, answer, extra = await self._answer(method, path, body)
                data = json.dumps(answer).encode()
                more = "".join(f"{k}: {v}\r\n" for k, v in extra.items())
                writer.write(
                    f"HTTP/1.1 {status}\r\nContent-Type: application/json\r\n{more}"
                    f"Content-Length: {len(data)}\r\n\r\n".encode()
                    + data
                )
                await writer.drain()
        except (asyncio.IncompleteReadError, ConnectionError):
            pass  # the client closed its connection
        except asyncio.CancelledError:
            pass  # the server stops (or dies on cue): the connection goes with it
        finally:
            self._connections.discard(task)
            writer.close()

    def stats(self) -> dict[str, Any]:
        return {**self.in_flight.summary(), "busy": self.busy_answers, "answered": self.answered}

    def _busy(self) -> bool:
        """Whether this arriving completion request gets HTTP 429 (see Trouble)."""
        trouble, now = self.trouble, time.monotonic()
        self._arrivals += 1
        if self._first_arrival is None:
            self._first_arrival = now
        return (
            (trouble.capacity > 0 and self.in_flight.now >= trouble.capacity)
            or now - self._first_arrival < trouble.busy_for_s
            or (trouble.busy_every > 0 and self._arrivals % trouble.busy_every == 0)
        )

    async def _answer(
        self, method: str, path: str, body: bytes
    ) -> tuple[str, dict[str, Any], dict[str, str]]:
        if method == "GET" and path.rstrip("/").endswith("/models"):
            return "200 OK", {"object": "list", "data": [{"id": MODEL_ID, "object": "model"}]}, {}
        if method == "GET" and path.rstrip("/").endswith("/stats"):
            return "200 OK", self.stats(), {}
        if method != "POST" or not path.rstrip("/").endswith("/chat/completions"):
            return "404 Not Found", {"error": {"message": f"no {method} {path} here"}}, {}
        if self._busy():
            self.busy_answers += 1
            after = self.trouble.retry_after_s
            headers = {"Retry-After": f"{after:g}"} if after else {}
            return "429 Too Many Requests", {"error": {"message": "stand-in is busy"}}, headers
        self.in_flight.start()
        try:
            if self.latency_s:
                await asyncio.sleep(self.latency_s)
            answer = self._completion(json.loads(body))
        finally:
            self.in_flight.end()
        self.answered += 1
        if self.trouble.die_after and self.answered >= self.trouble.die_after:
            assert self._loop is not None
            self._loop.call_soon(lambda: asyncio.ensure_future(self._die()))
        return "200 OK", answer, {}

    async def _die(self) -> None:
        """Stop listening and drop every connection, requests in flight included."""
        if self._server is not None and self._server.is_serving():
            self._server.close()
            for task in list(self._connections):
                task.cancel()

    def _completion(self, request: dict[str, Any]) -> dict[str, Any]:
        call = tool_call_for(request)
        message: dict[str, Any] = {"role": "assistant", "content": "" if call is None else None}
        if call is not None:
            name, arguments = call
            message["tool_calls"] = [
                {
                    "id": f"call_{next(self._ids)}",
                    "type": "function",
                    "function": {"name": name, "arguments": json.dumps(arguments)},
                }
            ]
        return {
            "id": f"standin-{next(self._ids)}",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": request.get("model", MODEL_ID),
            "choices": [
                {
                    "index": 0,
                    "message": message,
                    "finish_reason": "stop" if call is None else "tool_calls",
                }
            ],
            "usage": {"prompt_tokens": 0, "completion_tokens": 0, "total_tokens": 0},
        }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=8099, help="0: a free port")
    parser.add_argument("--latency-ms", type=float, default=0.0)
    parser.add_argument("--capacity", type=int, default=0, help="429 beyond this many in flight")
    parser.add_argument("--busy-for-s", type=float, default=0.0, help="429 to all for this long")
    parser.add_argument("--busy-every", type=int, default=0, help="429 to every Nth request")
    parser.add_argument("--retry-after-s", type=float, default=0.0, help="Retry-After of a 429")
    parser.add_argument("--die-after", type=int, default=0, help="go away after N completions")
    args = parser.parse_args()
    trouble = Trouble(
        args.capacity, args.busy_for_s, args.busy_every, args.retry_after_s, args.die_after
    )
    with StandIn(args.latency_ms, args.port, trouble) as server:
        print(json.dumps({"base_url": server.base_url, "latency_ms": args.latency_ms}), flush=True)
        try:
            threading.Event().wait()
        except KeyboardInterrupt:
            print(json.dumps(server.stats()), flush=True)


if __name__ == "__main__":
    main()
