"""Who may use the review server: the token holder, through an expected Host, by POST + CSRF.

The server writes into the user's project, so every request must prove it
comes from the person who started it:

* the token printed at start, once as ``?token=`` (then an HttpOnly,
  SameSite=Strict cookie, as Jupyter does) or as ``Authorization: Bearer``;
* a Host header naming the address the server was started for, so a web page
  whose DNS name was rebound to 127.0.0.1 cannot talk to it;
* a state-changing request is a POST carrying the CSRF token of its page,
  from the server's own origin when the browser says where it comes from.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterable
from dataclasses import dataclass, field

from starlette.datastructures import URL, Headers
from starlette.requests import Request
from starlette.responses import HTMLResponse, PlainTextResponse, RedirectResponse, Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = [
    "CSRF_FIELD",
    "CSRF_HEADER",
    "LOOPBACK_HOSTS",
    "AccessGuard",
    "Credentials",
    "csrf_matches",
]

LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "::1", "[::1]")
CSRF_FIELD = "csrf_token"
CSRF_HEADER = "x-remora-csrf"
_SAFE_METHODS = frozenset({"GET", "HEAD"})
_REFUSED_PAGE = """<!doctype html><meta charset="utf-8"><title>Remora: token needed</title>
<body style="font-family:sans-serif;max-width:40em;margin:3em auto">
<h1>This page needs the token</h1>
<p>Open the address <code>remora serve</code> printed when it started
(it ends with <code>?token=…</code>).</p></body>"""
# Nothing from other origins, no framing, no referrer to other sites ("same-origin":
# with "no-referrer" Chromium sends `Origin: null` on our own form POSTs).
_HEADERS = {
    "content-security-policy": (
        "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'; "
        "form-action 'self'; base-uri 'none'"
    ),
    "x-frame-options": "DENY",
    "x-content-type-options": "nosniff",
    "referrer-policy": "same-origin",
    "cache-control": "no-store",
}


@dataclass(frozen=True, slots=True)
class Credentials:
    """The secret of one server run and what derives from it."""

    token: str
    port: int
    allowed_hosts: tuple[str, ...] = field(default=LOOPBACK_HOSTS)

    @property
    def cookie_name(self) -> str:
        # Browsers share cookies between ports of one host: one name per port.
        return f"remora_token_{self.port}"

    @property
    def csrf_token(self) -> str:
        return hmac.new(self.token.encode(), b"remora-csrf", hashlib.sha256).hexdigest()

    def token_matches(self, candidate: str | None) -> bool:
        return candidate is not None and hmac.compare_digest(
            candidate.encode(), self.token.encode()
        )


def csrf_matches(credentials: Credentials, candidate: str | None) -> bool:
    return candidate is not None and hmac.compare_digest(
        candidate.encode(), credentials.csrf_token.encode()
    )


def _host_allowed(headers: Headers, allowed: Iterable[str]) -> bool:
    host = headers.get("host", "")
    if host.startswith("["):  # [::1]:8765
        name = host.split("]", 1)[0] + "]"
    else:
        name = host.rsplit(":", 1)[0] if host.count(":") == 1 else host
    return bool(name) and name.lower() in {h.lower() for h in allowed}


def _same_origin(headers: Headers) -> bool:
    """False when the browser names another origin (Origin, else Referer) for a POST."""
    source = headers.get("origin") or headers.get("referer")
    if not source:  # not a browser (curl with the bearer token), or one that hides it
        return True
    if source == "null":  # an opaque origin: a sandboxed frame, a data: page
        return False
    url = URL(source)
    return url.netloc.lower() == headers.get("host", "").lower() and url.scheme == "http"


class AccessGuard:
    """ASGI middleware: Host check, token (query → cookie, cookie, bearer), POST origin."""

    def __init__(self, app: ASGIApp, credentials: Credentials) -> None:
        self.app = app
        self.credentials = credentials

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        request = Request(scope)
        refusal = self._refusal(request)
        if refusal is not None:
            await refusal(scope, receive, send)
            return
        token = request.query_params.get("token")
        if token is not None:
            # Valid (checked in _refusal): keep it in a cookie, drop it from the URL.
            target = request.url.remove_query_params("token")
            redirect = RedirectResponse(
                target.path + (f"?{target.query}" if target.query else ""), 303
            )
            redirect.set_cookie(
                self.credentials.cookie_name,
                self.credentials.token,
                httponly=True,
                samesite="strict",
                path="/",
            )
            await self._with_headers(redirect)(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                headers.extend((k.encode(), v.encode()) for k, v in _HEADERS.items())
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_with_headers)

    def _refusal(self, request: Request) -> Response | None:
        credentials = self.credentials
        if not _host_allowed(request.headers, credentials.allowed_hosts):
            return PlainTextResponse("Invalid Host header", status_code=400)
        if request.method not in _SAFE_METHODS | {"POST"}:
            return PlainTextResponse("Method not allowed", status_code=405)
        query_token = request.query_params.get("token")
        bearer = request.headers.get("authorization", "")
        if not (
            credentials.token_matches(query_token)
            or credentials.token_matches(request.cookies.get(credentials.cookie_name))
            or (bearer.startswith("Bearer ") and credentials.token_matches(bearer[7:]))
        ):
            return self._with_headers(HTMLResponse(_REFUSED_PAGE, status_code=403))
        if request.method == "POST" and not _same_origin(request.headers):
            return PlainTextResponse("Cross-origin request refused", status_code=403)
        return None

    @staticmethod
    def _with_headers(response: Response) -> Response:
        response.headers.update(_HEADERS)
        return response
