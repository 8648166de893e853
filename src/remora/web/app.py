"""The review server's ASGI application: routes behind the access guard."""

from __future__ import annotations

from pathlib import Path

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from remora.errors import RemoraError, WorkspaceNotFoundError
from remora.results.health import DatabaseStateError
from remora.web import actions, pages
from remora.web.security import AccessGuard, Credentials
from remora.web.site import ReviewSite

__all__ = ["create_app"]

_STATIC = Path(__file__).with_name("static")


def create_app(project_root: Path, credentials: Credentials) -> Starlette:
    """The app for one project; every request must pass ``credentials`` (see security)."""
    routes = [
        Route("/", pages.queue_page, methods=["GET"]),
        Route("/change/{key}", pages.change_page, methods=["GET"]),
        Route("/change/{key}/accept", actions.accept_action, methods=["POST"]),
        Route("/change/{key}/reject", actions.reject_action, methods=["POST"]),
        Route("/runs", pages.runs_page, methods=["GET"]),
        Route("/runs/retry-rejected", actions.retry_rejected_action, methods=["POST"]),
        Route("/api/runs", pages.runs_json, methods=["GET"]),
        Route("/pygments.css", pages.pygments_css, methods=["GET"]),
        Mount("/static", StaticFiles(directory=str(_STATIC)), name="static"),
    ]
    app = Starlette(
        routes=routes,
        middleware=[Middleware(AccessGuard, credentials=credentials)],
        exception_handlers={RemoraError: _error_page},
    )
    app.state.site = ReviewSite(project_root, credentials)
    return app


def _error_page(request: Request, exc: Exception) -> Response:
    """One page for an error a user can act on, never a 500: an unknown or malformed change
    id is 404; a results database that cannot be used (results/health.py) is 503."""
    assert isinstance(exc, RemoraError)
    status = 404 if isinstance(exc, WorkspaceNotFoundError) else 400
    if isinstance(exc, DatabaseStateError):
        status = 503
    return pages.page(request, "error.html", status, message=exc.message, hint=exc.hint)
