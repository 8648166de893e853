"""Local HTTP servers standing in for remote model APIs we cannot reach here.

- ``GeminiReplay`` serves recorded Gemini REST responses (``tests/fixtures/gemini``)
  in order and records every request, so tests assert the exact wire bodies.
- ``FakeOllama`` implements the three endpoints llm-ollama 0.19 uses: ``GET
  /api/tags`` (the model list), ``POST /api/show`` (capabilities) and ``POST
  /api/chat`` (non-streaming chat; replies come from a queue).
- ``FakeOpenAIChat`` is an OpenAI-compatible ``/v1`` (``GET /models``, non-streaming
  ``POST /chat/completions`` answered from a queue), for llm's
  extra-openai-models.yaml models.

Both are stdlib ``ThreadingHTTPServer`` instances on 127.0.0.1 in a daemon thread.
"""

from __future__ import annotations

import json
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from types import TracebackType
from typing import Any

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "gemini"

Route = Callable[[str, str, Any], tuple[int, Any]]


class _QuietServer(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request: Any, client_address: Any) -> None:
        # A client that gave up (a timeout test) is expected; anything else is not.
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


@dataclass
class Recorded:
    method: str
    path: str
    headers: dict[str, str]
    body: Any


class _Server:
    """A recording HTTP server; ``route(method, path, body) -> (status, payload)``;
    status 0 drops the connection without answering."""

    def __init__(self, route: Route) -> None:
        self.requests: list[Recorded] = []
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def _handle(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length) if length else b""
                try:
                    body: Any = json.loads(raw) if raw else None
                except json.JSONDecodeError:
                    body = raw.decode()
                outer.requests.append(
                    Recorded(self.command, self.path, dict(self.headers.items()), body)
                )
                status, payload = route(self.command, self.path, body)
                if status == 0:
                    return  # drop the connection without an answer
                data = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            do_GET = _handle
            do_POST = _handle

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self._httpd = _QuietServer(("127.0.0.1", 0), Handler)
        # A short poll interval keeps shutdown (and so each test's teardown) quick.
        self._thread = threading.Thread(
            target=self._httpd.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True
        )
        self._thread.start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._httpd.server_address[1]}"

    def close(self) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()
        self._thread.join()

    def __enter__(self) -> _Server:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()


def load_fixture(name: str) -> Any:
    return json.loads((FIXTURES / name).read_text())


@dataclass
class GeminiReplay:
    """Replays fixture responses to generateContent in order; GET answers model info."""

    queue: list[tuple[int, Any]] = field(default_factory=list)
    delays: list[float] = field(default_factory=list)
    model_info: tuple[int, Any] = (200, None)
    server: _Server | None = None

    def start(self) -> GeminiReplay:
        self.server = _Server(self._route)
        return self

    def enqueue(self, fixture: str, status: int = 200, *, delay_s: float = 0.0) -> None:
        self.queue.append((status, load_fixture(fixture)))
        self.delays.append(delay_s)

    def enqueue_raw(self, body: bytes, status: int = 200) -> None:
        self.queue.append((status, body))
        self.delays.append(0.0)

    def enqueue_drop(self) -> None:
        """The next request gets its connection closed without a response."""
        self.queue.append((0, None))
        self.delays.append(0.0)

    def _route(self, method: str, path: str, body: Any) -> tuple[int, Any]:
        if method == "GET":
            return self.model_info
        if not self.queue:
            return 500, {"error": {"code": 500, "message": "replay queue empty"}}
        delay = self.delays.pop(0)
        if delay:
            time.sleep(delay)  # a slow server, for timeout tests
        return self.queue.pop(0)

    @property
    def url(self) -> str:
        assert self.server is not None
        return self.server.url

    @property
    def requests(self) -> list[Recorded]:
        assert self.server is not None
        return self.server.requests

    def close(self) -> None:
        if self.server is not None:
            self.server.close()


@dataclass
class FakeOllama:
    """The part of Ollama's REST API llm-ollama talks to."""

    models: dict[str, list[str]] = field(default_factory=dict)  # name -> capabilities
    digest_salt: str = ""
    replies: list[tuple[int, Any]] = field(default_factory=list)
    server: _Server | None = None

    def start(self) -> FakeOllama:
        self.server = _Server(self._route)
        return self

    def reply(self, message: dict[str, Any], *, status: int = 200, **extra: Any) -> None:
        """Queue one /api/chat answer (non-streaming)."""
        body = {
            "model": "x",
            "created_at": "2026-11-22T03:00:00Z",
            "message": {"role": "assistant", "content": "", **message},
            "done": True,
            "done_reason": "stop",
            "prompt_eval_count": 31,
            "eval_count": 7,
            **extra,
        }
        self.replies.append((status, body))

    def _route(self, method: str, path: str, body: Any) -> tuple[int, Any]:
        if path == "/api/tags":
            return 200, {
                "models": [
                    {
                        "name": name,
                        "model": name,
                        # Unique per test: llm-ollama caches capabilities by digest.
                        "digest": f"sha256:{self.digest_salt}{index:04d}",
                        "size": 1,
                        "modified_at": "2026-11-22T03:00:00Z",
                    }
                    for index, name in enumerate(self.models)
                ]
            }
        if path == "/api/show":
            name = body.get("model") if isinstance(body, dict) else None
            if name not in self.models:
                return 404, {"error": f"model '{name}' not found"}
            return 200, {
                "capabilities": self.models[name],
                "details": {"family": "test", "format": "gguf"},
                "model_info": {"general.architecture": "test"},
            }
        if path == "/api/chat":
            if not self.replies:
                return 500, {"error": "no reply queued"}
            return self.replies.pop(0)
        return 404, {"error": f"no route {method} {path}"}

    @property
    def url(self) -> str:
        assert self.server is not None
        return self.server.url

    @property
    def chats(self) -> list[Any]:
        assert self.server is not None
        return [r.body for r in self.server.requests if r.path == "/api/chat"]

    def close(self) -> None:
        if self.server is not None:
            self.server.close()


@dataclass
class FakeOpenAIChat:
    """The part of an OpenAI-compatible server llm's OpenAI plugin talks to."""

    model: str = "test-model"
    replies: list[tuple[int, Any]] = field(default_factory=list)
    server: _Server | None = None

    def start(self) -> FakeOpenAIChat:
        self.server = _Server(self._route)
        return self

    def reply(
        self,
        content: str,
        *,
        finish_reason: str = "stop",
        status: int = 200,
        usage: dict[str, Any] | None = None,
    ) -> None:
        """Queue one /chat/completions answer (non-streaming)."""
        body = {
            "id": f"chatcmpl-{len(self.replies)}",
            "object": "chat.completion",
            "created": 1_790_000_000,
            "model": self.model,
            "choices": [
                {
                    "index": 0,
                    "message": {"role": "assistant", "content": content},
                    "finish_reason": finish_reason,
                }
            ],
            "usage": usage or {"prompt_tokens": 40, "completion_tokens": 9, "total_tokens": 49},
        }
        self.replies.append((status, body))

    def _route(self, method: str, path: str, body: Any) -> tuple[int, Any]:
        if path == "/v1/models":
            return 200, {
                "object": "list",
                "data": [{"id": self.model, "object": "model", "created": 0, "owned_by": "test"}],
            }
        if path == "/v1/chat/completions":
            if not self.replies:
                return 500, {"error": {"message": "no reply queued"}}
            return self.replies.pop(0)
        return 404, {"error": {"message": f"no route {method} {path}"}}

    @property
    def url(self) -> str:
        """The base URL, ending in /v1 as OpenAI clients expect."""
        assert self.server is not None
        return f"{self.server.url}/v1"

    @property
    def chats(self) -> list[Any]:
        assert self.server is not None
        return [r.body for r in self.server.requests if r.path == "/v1/chat/completions"]

    def close(self) -> None:
        if self.server is not None:
            self.server.close()
