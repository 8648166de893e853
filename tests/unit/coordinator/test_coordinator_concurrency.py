"""How many agents talk to the model at once (-j) when none is given: half again as many as the
servers take, so their slots stay full while agents run tools between turns; and how many runs
do host work beside them."""

from __future__ import annotations

from remora.config import ModelConfig, RemoraConfig
from remora.coordinator.concurrency import DEFAULT_AGENTS_AT_ONCE, agents_at_once, runs_beside
from remora.coordinator.incremental import _model_inputs

A, B = "http://a:8000/v1", "http://b:8000/v1"


def openai(base_url: str | list[str], max_in_flight: int = 16) -> ModelConfig:
    return ModelConfig(provider="openai", id="m", base_url=base_url, max_in_flight=max_in_flight)


def test_servers_set_the_default_and_an_explicit_j_wins() -> None:
    config = RemoraConfig()
    assert agents_at_once(config, [ModelConfig()]) == DEFAULT_AGENTS_AT_ONCE == 4
    assert agents_at_once(config, [openai(A)]) == 24
    assert agents_at_once(config, [openai([A, B], 64)]) == 192
    assert agents_at_once(config, [openai(A, 1)]) == 2  # rounded up: never fewer than slots
    # Two operations on the same server share it; another server adds its own.
    assert agents_at_once(config, [openai(A, 8), openai(A, 12), openai(B, 4), None]) == 24
    chosen = RemoraConfig.model_validate({"sandbox": {"max_concurrent_agents": 3}})
    assert agents_at_once(chosen, [openai([A, B], 64)]) == 3


def test_server_limits_do_not_invalidate_earlier_results() -> None:
    assert _model_inputs(openai(A, 16)) == _model_inputs(
        openai(A, 64).model_copy(update={"cooldown_s": 5.0})
    )
    assert _model_inputs(openai(A)) != _model_inputs(openai(B))


def test_runs_beside_the_places_leave_a_monty_worker_to_the_runs_talking() -> None:
    assert runs_beside(1, None) == runs_beside(4, None) == 2
    assert runs_beside(6, None) == 3 and runs_beside(64, None) == 4
    # A run waiting for its place inside a tool holds its worker: fewer wait than there are.
    assert runs_beside(64, 4) == 3 and runs_beside(4, 1) == 0
