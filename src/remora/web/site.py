"""What every handler of one review server shares: the project, its stores, the templates."""

from __future__ import annotations

import subprocess
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from starlette.requests import Request
from starlette.templating import Jinja2Templates

from remora.results import ResultsDB
from remora.web.security import CSRF_FIELD, Credentials
from remora.workspace import WorkspaceStore

__all__ = ["ReviewSite", "site_of"]

_TEMPLATES = Path(__file__).with_name("templates")


@dataclass
class ReviewSite:
    project_root: Path
    credentials: Credentials
    templates: Jinja2Templates = field(
        default_factory=lambda: Jinja2Templates(directory=str(_TEMPLATES))
    )
    # One decision at a time: a double click must not accept twice.
    decisions: threading.Lock = field(default_factory=threading.Lock)
    retry: subprocess.Popen[bytes] | None = None

    def __post_init__(self) -> None:
        self.project_root = self.project_root.resolve()
        self.store = WorkspaceStore(self.project_root)
        self.templates.env.globals.update(
            csrf_field=CSRF_FIELD,
            csrf_token=self.credentials.csrf_token,
            project_root=str(self.project_root),
        )

    @contextmanager
    def db(self) -> Iterator[ResultsDB]:
        # A connection per request: handlers run on worker threads.
        with ResultsDB(self.project_root) as db:
            yield db

    def retry_running(self) -> bool:
        return self.retry is not None and self.retry.poll() is None


def site_of(request: Request) -> ReviewSite:
    site = request.app.state.site
    assert isinstance(site, ReviewSite)
    return site
