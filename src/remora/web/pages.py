"""The pages: the queue, one change, the runs (GET only; nothing here writes)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any
from urllib.parse import urlencode

from pygments.formatters import HtmlFormatter
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from remora.git import on_a_branch
from remora.results.review_queue import also_created, review_items
from remora.results.summary import transcript_summary
from remora.web.diffview import file_views
from remora.web.queue import STATE_FILTERS, QueueFilter, load_queue
from remora.web.run_views import load_runs
from remora.web.site import site_of

__all__ = [
    "change_page",
    "page",
    "pygments_css",
    "queue_page",
    "render_change",
    "runs_json",
    "runs_page",
]

PAGE_ROWS = 500  # rows of the queue page, the rest behind its page links
_PYGMENTS_CSS = str(HtmlFormatter(style="default").get_style_defs(".code"))  # type: ignore[no-untyped-call]


def page(request: Request, name: str, status_code: int = 200, **context: Any) -> Response:
    site = site_of(request)
    return site.templates.TemplateResponse(request, name, context, status_code=status_code)


def queue_page(request: Request) -> Response:
    params = request.query_params
    state = params.get("state", "open")
    chosen = QueueFilter(
        state if state in STATE_FILTERS else "open",
        params.get("operation", ""),
        params.get("file", ""),
    )
    site = site_of(request)
    with site.db() as db:
        queue = load_queue(site.store, db, chosen)
    # A page of rows at a time: all 21,563 of a large project's queue made 13.8 MB of HTML.
    pages = max(1, -(-len(queue.rows) // PAGE_ROWS))
    number = min(max(_int(params.get("page", "1")), 1), pages)
    first = (number - 1) * PAGE_ROWS
    filters = {"state": chosen.state, "operation": chosen.operation, "file": chosen.file_path}
    kept = {key: value for key, value in filters.items() if value}

    def link(number: int) -> str | None:
        return "/?" + urlencode({**kept, "page": number}) if 1 <= number <= pages else None

    return page(
        request,
        "queue.html",
        queue=queue,
        shown=queue.rows[first : first + PAGE_ROWS],
        first=first,
        page_number=number,
        pages=pages,
        previous_page=link(number - 1),
        next_page=link(number + 1),
        chosen=chosen,
        states=STATE_FILTERS,
        done=params.get("done", ""),
        done_id=params.get("id", ""),
        retry_running=site.retry_running(),
    )


# No queue has more pages; a longer number is not parsed (int() refuses over 4,300 digits).
_MAX_PAGE_DIGITS = 9


def _int(text: str) -> int:
    """A page number from the query, 1 when it is not a number ("²" and "①" pass
    str.isdigit() but not int()) or has more than ``_MAX_PAGE_DIGITS`` digits."""
    if len(text) > _MAX_PAGE_DIGITS:
        return 1
    try:
        return int(text)
    except ValueError:
        return 1


def _neighbours(request: Request, current: str) -> tuple[str | None, str | None]:
    site = site_of(request)
    with site.db() as db:
        ids = [row.id for row in load_queue(site.store, db, QueueFilter()).rows]
    if current not in ids:
        return (ids[0] if ids else None), None
    index = ids.index(current)
    previous = ids[index - 1] if index > 0 else None
    following = ids[index + 1] if index + 1 < len(ids) else None
    return previous, following


def change_page(request: Request) -> Response:
    return render_change(request)


def render_change(
    request: Request, conflicts: Sequence[dict[str, str]] = (), status_code: int = 200
) -> Response:
    """One change: its diff, what the agent did, and the decisions (with any conflicts)."""
    key = request.path_params["key"]
    view = "split" if request.query_params.get("view") == "split" else "unified"
    site = site_of(request)
    with site.db() as db:
        record = db.get(key)
    if not site.store.exists(key):
        if record is None:
            return page(
                request,
                "error.html",
                404,
                message=f"No change {key!r}",
                hint="It may have been accepted or rejected already: see the queue.",
            )
        return page(request, "decided.html", record=record, summary=transcript_summary(record))
    with site.store.open(key) as ws:
        changes = ws.changes()
        accepting = ws.accepting
    added = [c.path for c in changes if c.status == "added"]
    with site.db() as db:
        shared = also_created(review_items(site.store, db), key, added) if added else {}
    previous, following = _neighbours(request, key)
    return page(
        request,
        "change.html",
        status_code,
        key=key,
        record=record,
        files=file_views(changes),
        view=view,
        accepting=accepting,
        summary=transcript_summary(record),
        previous=previous,
        following=following,
        # a failed accept's conflicts, else those the file has now (another accept moved it on)
        conflicts=list(conflicts)
        or [{"path": c.path, "reason": c.conflict} for c in changes if c.conflict],
        accept_failed=bool(conflicts),
        in_git=on_a_branch(site.project_root),
        shared=shared,
    )


def runs_page(request: Request) -> Response:
    site = site_of(request)
    with site.db() as db:
        runs = load_runs(db)
        open_rejections = len(db.open_rejections())
    return page(
        request,
        "runs.html",
        runs=runs,
        open_rejections=open_rejections,
        retry_running=site.retry_running(),
    )


def runs_json(request: Request) -> Response:
    """Every run with its progress; the runs page polls this while one is running."""
    site = site_of(request)
    with site.db() as db:
        runs = load_runs(db)
    return JSONResponse({"runs": [run.to_dict() for run in runs]})


def pygments_css(request: Request) -> Response:
    return Response(_PYGMENTS_CSS, media_type="text/css")
