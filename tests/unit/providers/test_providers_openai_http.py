"""The openai provider's HTTP client (providers/openai_http.py): replies as attribute dicts,
errors as three exceptions. Its requests are tested through the provider against real servers
(test_providers_openai_wire.py, test_providers_server_pool.py)."""

from __future__ import annotations

import copy
import email.utils
import json
import pickle
import time

import pytest

from remora.providers.openai_http import (
    DEFAULT_BASE_URL,
    Fields,
    ServerAnswered,
    ServerClient,
    body_summary,
    retry_after_s,
)


def test_a_reply_reads_by_attribute_and_a_missing_field_is_none() -> None:
    reply = json.loads('{"choices": [{"message": {"content": "hi"}}]}', object_hook=Fields)
    assert reply.choices[0].message.content == "hi"
    assert reply.choices[0].message.tool_calls is None and reply.usage is None
    assert copy.deepcopy(reply) == reply and pickle.loads(pickle.dumps(reply)) == reply
    with pytest.raises(AttributeError):
        reply.__wrapped__  # noqa: B018 (dunders stay real attributes: copy and pickle ask)


def test_an_error_answer_is_summed_up_on_one_line() -> None:
    body = {"error": {"message": "model\n  'x' not found"}}
    answered = ServerAnswered("http://s/v1", 404, {}, json.dumps(body), body)
    assert body_summary(answered) == "model 'x' not found"
    long = ServerAnswered("http://s/v1", 502, {}, "<html>" + "x" * 400, None)
    assert body_summary(long) == ("<html>" + "x" * 400)[:300] + "…"


@pytest.mark.parametrize(
    ("header", "expected"),
    [("2.5", 2.5), ("-1", 0.0), ("3600", 60.0), ("soon", None), ("", None)],
)
def test_retry_after_is_read_and_capped(header: str, expected: float | None) -> None:
    answered = ServerAnswered("http://s/v1", 429, {"retry-after": header}, "", None)
    assert retry_after_s(answered) == expected


def test_no_url_means_the_environment_s_or_openai_s(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    assert ServerClient(None, "k").base_url == DEFAULT_BASE_URL
    monkeypatch.setenv("OPENAI_BASE_URL", "http://gpu-box:8000/v1/")
    assert ServerClient(None, "k").base_url == "http://gpu-box:8000/v1"


def test_retry_after_as_an_http_date() -> None:
    in_ten_s = email.utils.formatdate(time.time() + 10, usegmt=True)
    answered = ServerAnswered("http://s/v1", 503, {"retry-after": in_ten_s}, "", None)
    waited = retry_after_s(answered)
    assert waited is not None and 8 <= waited <= 10
