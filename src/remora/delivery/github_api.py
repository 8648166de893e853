"""Posting a review to GitHub's REST API (or any server that speaks it: GitHub Enterprise).

One request, ``POST {api}/repos/{owner}/{repo}/pulls/{number}/reviews``, with
the headers GitHub documents (``Accept: application/vnd.github+json``,
``X-GitHub-Api-Version``, a bearer token). The standard library's HTTP client
is enough for it, so the core install needs no SDK.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from typing import Any

from remora.errors import GitError
from remora.version import __version__

__all__ = ["API_VERSION", "post_review"]

API_VERSION = "2022-11-28"


def _reason(raw: bytes) -> str:
    try:
        data = json.loads(raw)
    except ValueError:
        return raw.decode("utf-8", "replace")[:300]
    if not isinstance(data, dict):
        return str(data)[:300]
    errors = data.get("errors")
    detail = f" ({json.dumps(errors)[:300]})" if errors else ""
    return f"{data.get('message', '')}{detail}"


def post_review(
    body: dict[str, Any],
    *,
    api_url: str,
    repository: str,
    pull_number: int,
    token: str,
    timeout: float = 30.0,
) -> dict[str, Any]:
    """Create the review; returns GitHub's answer (the review: id, state, html_url, ...)."""
    url = f"{api_url.rstrip('/')}/repos/{repository}/pulls/{pull_number}/reviews"
    request = urllib.request.Request(
        url,
        data=json.dumps(body).encode(),
        method="POST",
        headers={
            "Accept": "application/vnd.github+json",
            "Authorization": f"Bearer {token}",
            "Content-Type": "application/json",
            "User-Agent": f"remora/{__version__}",
            "X-GitHub-Api-Version": API_VERSION,
        },
    )
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            answer = json.loads(response.read())
    except urllib.error.HTTPError as exc:
        raise GitError(
            f"GitHub answered {exc.code} to the review for {repository}#{pull_number}: "
            f"{_reason(exc.read())}",
            "check the token's pull-request write permission, the repository and the number; "
            "the review's body is in the exported file",
        ) from None
    except (urllib.error.URLError, TimeoutError, OSError) as exc:
        raise GitError(
            f"could not reach {url}: {getattr(exc, 'reason', exc)}",
            "check --api-url (GITHUB_API_URL) and the network; the review is in the exported file",
        ) from None
    return answer if isinstance(answer, dict) else {"answer": answer}
