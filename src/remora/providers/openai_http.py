"""JSON over HTTP to one OpenAI-compatible server: a request body in, the parsed reply out.

The ``openai`` provider's requests come here rather than through the SDK's client:
the SDK built request options, an httpx-shaped request and response and pydantic
models of each reply, ~0.8 ms of CPU per request against ~0.2 ms for aiohttp alone
(a chat with two tools against ``benchmarks/standin_server.py``, 16 at once), and a
run asks ~3 requests. The reply is JSON read into :class:`Fields`, whose missing
fields read as None, as the SDK's optional fields did, so ``openai_wire`` reads it
with attribute access alike.

What can go wrong is one of three exceptions: :class:`ServerAnswered` (an HTTP
error status), :class:`NoAnswer` (no answer: refused, reset, timed out) and
:class:`MalformedAnswer` (a success whose body is no JSON object).
"""

from __future__ import annotations

import email.utils
import json
import os
import time
from collections.abc import Mapping
from typing import Any

import aiohttp

__all__ = [
    "DEFAULT_BASE_URL",
    "Fields",
    "MalformedAnswer",
    "NoAnswer",
    "ServerAnswered",
    "ServerClient",
    "body_summary",
    "connection_failure",
    "retry_after_s",
]

# As the SDK: the environment's OPENAI_BASE_URL, else OpenAI's own API.
DEFAULT_BASE_URL = "https://api.openai.com/v1"
# A Retry-After longer than this is treated as this (a misconfigured proxy must not stall a run).
_MAX_RETRY_AFTER_S = 60.0
_SUMMARY_CHARS = 300


class Fields(dict[str, Any]):
    """A JSON object whose keys read as attributes; a key it lacks reads as None."""

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        return self.get(name)


class ServerAnswered(Exception):
    """The server answered with an HTTP error status."""

    def __init__(
        self, url: str, status: int, headers: Mapping[str, str], text: str, body: Any
    ) -> None:
        super().__init__(f"{url} answered HTTP {status}")
        self.url = url  # the server's base URL
        self.status = status
        self.headers = headers
        self.text = text
        self.body = body  # the body's JSON, or None


class NoAnswer(Exception):
    """No answer came: the connection was refused or broken, or the time ran out."""

    def __init__(self, url: str, timed_out: bool, why: str) -> None:
        super().__init__(why)
        self.url = url
        self.timed_out = timed_out
        self.why = why


class MalformedAnswer(Exception):
    """A success whose body is not a JSON object (e.g. an HTML page)."""


def body_summary(exc: ServerAnswered) -> str:
    """The error text of an HTTP error answer, on one line, at most 300 characters."""
    body = exc.body
    if isinstance(body, dict):
        error = body.get("error", body)
        text = error.get("message", json.dumps(error)) if isinstance(error, dict) else str(error)
    elif body is not None:
        text = str(body)
    else:
        text = exc.text
    text = " ".join(text.split())
    return text[:_SUMMARY_CHARS] + ("…" if len(text) > _SUMMARY_CHARS else "")


def connection_failure(exc: NoAnswer) -> tuple[str, str]:
    """("timed out" or "unreachable", why) for a request that got no answer."""
    return ("timed out" if exc.timed_out else "unreachable"), exc.why.rstrip(".")


def retry_after_s(exc: ServerAnswered) -> float | None:
    """The answer's Retry-After (seconds or an HTTP date), capped; None if absent or unreadable."""
    value = exc.headers.get("retry-after")
    if value is None:
        return None
    try:
        seconds = float(value)
    except ValueError:
        try:  # an HTTP date; anything else raises ValueError (Python 3.10 on)
            seconds = email.utils.parsedate_to_datetime(value).timestamp() - time.time()
        except ValueError:
            return None
    return min(max(seconds, 0.0), _MAX_RETRY_AFTER_S)


class ServerClient:
    """One server's connections (made on the first request, inside the running loop)."""

    def __init__(self, base_url: str | None, api_key: str) -> None:
        url = base_url or os.environ.get("OPENAI_BASE_URL") or DEFAULT_BASE_URL
        self.base_url = url.rstrip("/")
        self._headers = {"Authorization": f"Bearer {api_key}", "Content-Type": "application/json"}
        self._session: aiohttp.ClientSession | None = None

    async def post(self, path: str, body: Mapping[str, Any], timeout_s: float) -> Fields:
        return await self._request("POST", path, json.dumps(body), timeout_s)

    async def get(self, path: str, timeout_s: float) -> Fields:
        return await self._request("GET", path, None, timeout_s)

    async def _request(self, method: str, path: str, data: str | None, timeout_s: float) -> Fields:
        if self._session is None:
            # No limit of its own: the server router keeps requests under max_in_flight.
            self._session = aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0))
        timeout = aiohttp.ClientTimeout(total=timeout_s)
        try:
            async with self._session.request(
                method, self.base_url + path, data=data, headers=self._headers, timeout=timeout
            ) as response:
                raw = await response.read()
                status, headers = response.status, response.headers
        except TimeoutError as exc:  # aiohttp's own timeouts are TimeoutErrors too
            raise NoAnswer(self.base_url, True, f"no answer in {timeout_s:g} s") from exc
        except (aiohttp.ClientError, OSError) as exc:
            raise NoAnswer(self.base_url, False, str(exc) or type(exc).__name__) from exc
        text = raw.decode("utf-8", errors="replace")
        try:
            parsed = json.loads(text, object_hook=Fields)
        except ValueError:
            parsed = None
        if status >= 400:
            raise ServerAnswered(self.base_url, status, headers, text, parsed)
        if not isinstance(parsed, Fields):
            shown = " ".join(text.split())[:120]
            raise MalformedAnswer(f"expected a JSON object, got {shown!r}")
        return parsed

    async def close(self) -> None:
        session, self._session = self._session, None
        if session is not None:
            await session.close()
