"""One question answered end to end by the embedded model (the default, in llama.cpp).

Structure only: a 135M model's words are not asserted, but everything around
them is: the startup check and warm-up pass, real model steps run with real
token counts, every call it makes is a capability answered with an envelope,
and the question ends in a text answer or a degraded answer that names its
limit, never in an exception. Limits are generous: this checks behaviour,
not speed, on a shared machine.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from remora.assistant.capabilities import Capabilities
from remora.assistant.script import new_namespace
from remora.assistant.service import AssistantService
from remora.assistant.session import AssistantLimits
from remora.assistant.specs import CAPABILITY_NAMES
from remora.config import ModelConfig
from remora.providers.factory import create_provider

pytestmark = [pytest.mark.integration, pytest.mark.model]


def test_embedded_model_answers_a_question(embedded_model_path: Path) -> None:
    model = ModelConfig(
        provider="embedded",
        id="qwen2.5-coder-0.5b",
        path=embedded_model_path,
        n_parallel=1,
        n_ctx_per_slot=4096,
        threads=2,
        timeout=300,
    )
    limits = AssistantLimits(max_steps=4, step_timeout_s=240, total_timeout_s=600, max_tokens=128)
    shown: list[str] = []
    service = AssistantService(create_provider(model), model, limits, show_call=shown.append)
    namespace = new_namespace("__console__")
    exec("prices = {'apple': 1.5, 'pear': 2.0}\n", namespace)
    try:
        prices: dict[str, float] = namespace["prices"]
        prices["banana"]
    except KeyError as exc:
        error: BaseException = exc
    caps = Capabilities(namespace, last_exception=lambda: error)
    try:
        service.check()  # startup check and model load
        assert service.provider.profile.name == "qwen_small"
        assert service.provider.profile.requires_tool_calls is False  # text answers allowed
        answer = service.ask("Why did the last lookup fail?", caps)
    finally:
        service.close()

    assert answer.steps >= 1
    assert answer.usage.prompt_tokens > 0 and answer.usage.completion_tokens > 0
    assert answer.text.strip()
    for record in answer.calls:
        assert record.name in CAPABILITY_NAMES  # constrained output: only real tools
        assert isinstance(record.envelope["ok"], bool)
    # The host's calls for the facts are shown too, before the model's.
    assert len(shown) == len(answer.facts) + len(answer.calls)
    assert [f.name for f in answer.facts][-1] == "get_last_exception"
    if answer.degraded and answer.stopped_by == "unsupported_answer":
        # A tiny model may invent a value: it is not printed.
        assert answer.text == "I could not find that out." and answer.model_answer
    elif answer.degraded:
        # A tiny model may wander; it must end in a named limit, not a crash.
        assert answer.stopped_by in ("step_limit", "invalid_response")
        assert answer.text.startswith("No complete answer:")
    else:
        assert answer.stopped_by is None and answer.error is None
