"""Generated tokens' log-probabilities, read from each shape a backend sends them in."""

from __future__ import annotations

import math
from typing import Any

import pytest
from openai.types.completion_choice import Logprobs

from remora.conversation import TokenLogprob
from remora.providers.logprobs import token_logprobs

EXPECTED = (TokenLogprob("Add", -0.5), TokenLogprob(" two", -0.25))


@pytest.mark.parametrize(
    "given",
    [
        # llama.cpp (embedded or its server) and the chat API
        {"content": [{"token": "Add", "logprob": -0.5}, {"token": " two", "logprob": -0.25}]},
        # the legacy completions API (vLLM, OpenAI)
        {"tokens": ["Add", " two"], "token_logprobs": [-0.5, -0.25]},
        # the OpenAI SDK's object, its unknown fields kept as extras
        Logprobs(tokens=["Add", " two"], token_logprobs=[-0.5, -0.25]),
    ],
)
def test_each_shape_gives_the_tokens_in_order(given: Any) -> None:
    assert token_logprobs(given) == EXPECTED


def test_an_sdk_object_of_the_llama_cpp_shape_is_read_from_its_extras() -> None:
    given = Logprobs.model_validate({"content": [{"token": "Add", "logprob": -0.5}]})
    assert token_logprobs(given) == (TokenLogprob("Add", -0.5),)


@pytest.mark.parametrize("given", [None, {}, {"content": None}, "text", []])
def test_no_tokens_is_unknown(given: Any) -> None:
    assert token_logprobs(given) == ()


def test_a_token_the_server_did_not_score_is_left_out() -> None:
    given = {"tokens": ["<s>", "Add", "x"], "token_logprobs": [None, -0.5, -math.inf]}
    assert token_logprobs(given) == (TokenLogprob("Add", -0.5),)
