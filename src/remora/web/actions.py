"""The POST handlers: accept (whole or by hunk), reject (with a reason), retry rejected.

They call the same functions as ``remora review`` (results.review), so the
workspace store and the results database move together whichever front end
decides, and nothing is written into the project outside accept.
"""

from __future__ import annotations

from urllib.parse import urlencode

from starlette.concurrency import run_in_threadpool
from starlette.datastructures import FormData
from starlette.requests import Request
from starlette.responses import PlainTextResponse, RedirectResponse, Response

from remora.code.lint.accepted_files import tidy_accepted
from remora.delivery.commits import CommitOutcome, accept_as_commits
from remora.errors import RemoraError
from remora.results.review_queue import accept, reject, settle_conflicts
from remora.web.pages import page, render_change
from remora.web.run_views import start_retry_rejected
from remora.web.security import CSRF_FIELD, CSRF_HEADER, csrf_matches
from remora.web.site import site_of
from remora.workspace import AcceptReport

__all__ = ["accept_action", "reject_action", "retry_rejected_action"]


async def _checked_form(request: Request) -> FormData | Response:
    form = await request.form()
    credentials = site_of(request).credentials
    field = form.get(CSRF_FIELD)
    candidate = field if isinstance(field, str) else request.headers.get(CSRF_HEADER)
    if not csrf_matches(credentials, candidate):
        return PlainTextResponse("Missing or wrong CSRF token; reload the page", status_code=403)
    return form


def _to_queue(**params: str) -> RedirectResponse:
    return RedirectResponse("/?" + urlencode(params), status_code=303)


def _error(request: Request, exc: RemoraError) -> Response:
    return page(request, "error.html", 400, message=exc.message, hint=exc.hint)


async def accept_action(request: Request) -> Response:
    form = await _checked_form(request)
    if isinstance(form, Response):
        return form
    site = site_of(request)
    key = request.path_params["key"]
    hunks: list[int] | None = None
    if form.get("mode") == "selected":
        try:
            hunks = sorted(int(str(value)) for value in form.getlist("hunk"))
        except ValueError:
            return PlainTextResponse("hunk numbers must be integers", status_code=400)
        if not hunks:
            return page(
                request,
                "error.html",
                400,
                message="No hunk selected",
                hint="Tick the hunks to accept, or use Accept all.",
            )

    if form.get("commit") == "yes":
        return await _accept_as_commit(request, key, hunks)

    def decide() -> AcceptReport:
        with site.decisions, site.db() as db:
            report = accept(site.store, db, key, hunks, tidy=tidy_accepted)
            if report.accepted:
                settle_conflicts(site.store, db)  # the changes its lines now conflict with
            return report

    try:
        report = await run_in_threadpool(decide)
    except RemoraError as exc:
        return _error(request, exc)
    if not report.accepted:
        conflicts = [c.to_dict() for c in report.conflicts]
        return render_change(request, conflicts, status_code=409)
    chosen = "all" if hunks is None else ",".join(map(str, hunks))
    notes = {"notes": "; ".join(report.notes())} if report.notes() else {}
    return _to_queue(done="accepted", id=key, hunks=chosen, **notes)


async def _accept_as_commit(request: Request, key: str, hunks: list[int] | None) -> Response:
    """Accept and commit exactly the change's files, as `review accept --commit` does."""
    site = site_of(request)

    def decide() -> CommitOutcome:
        with site.decisions:
            [outcome] = accept_as_commits([key], project=site.project_root, hunks=hunks)
            return outcome

    try:
        outcome = await run_in_threadpool(decide)
    except RemoraError as exc:  # no repository, a detached HEAD, no commit yet
        return _error(request, exc)
    if outcome.error is not None:
        return page(
            request, "error.html", 409, message=outcome.error.message, hint=outcome.error.hint
        )
    chosen = "all" if hunks is None else ",".join(map(str, hunks))
    return _to_queue(done="committed", id=key, hunks=chosen, commit=(outcome.commit or "")[:12])


async def reject_action(request: Request) -> Response:
    form = await _checked_form(request)
    if isinstance(form, Response):
        return form
    site = site_of(request)
    key = request.path_params["key"]
    reason = str(form.get("reason") or "").strip() or None

    def decide() -> None:
        with site.decisions, site.db() as db:
            reject(site.store, db, key, reason)

    try:
        await run_in_threadpool(decide)
    except RemoraError as exc:
        return _error(request, exc)
    return _to_queue(done="rejected", id=key, reason="yes" if reason else "no")


async def retry_rejected_action(request: Request) -> Response:
    form = await _checked_form(request)
    if isinstance(form, Response):
        return form
    site = site_of(request)
    with site.decisions:
        if not site.retry_running():
            site.retry = start_retry_rejected(site.project_root)
    return RedirectResponse("/runs?started=1", status_code=303)
