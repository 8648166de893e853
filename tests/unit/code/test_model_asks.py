"""The record of a model's asks: stop after fruitless ones, ask again after a while."""

from __future__ import annotations

from remora.code.testgen.model_asks import (
    MAX_FRUITLESS_ASKS,
    RETRY_AFTER_SKIPS,
    AskRecord,
    ask_record,
)


class Provider:
    """Stands for a provider every run's completer wraps."""


class Wrapper:
    def __init__(self, inner: Provider) -> None:
        self.inner = inner


def test_fruitless_asks_in_a_row_stop_the_asking_and_a_kept_case_resets_them() -> None:
    record = AskRecord()
    for _ in range(MAX_FRUITLESS_ASKS):
        assert record.worth_asking()
        record.asked(added=False)
    assert not record.worth_asking()
    assert "added no line or branch" in record.why_not()
    record.in_flight += 1  # an ask already under way when the count tripped
    record.asked(added=True)
    assert record.worth_asking()


def test_the_model_is_asked_again_after_searches_without_an_ask() -> None:
    record = AskRecord(fruitless=MAX_FRUITLESS_ASKS)
    answers = [record.worth_asking() for _ in range(RETRY_AFTER_SKIPS + 1)]
    assert answers == [False] * RETRY_AFTER_SKIPS + [True]


def test_runs_of_one_provider_share_a_record_and_other_providers_do_not() -> None:
    provider, other = Provider(), Provider()
    ask_record(Wrapper(provider)).asked(added=False)
    assert ask_record(Wrapper(provider)).fruitless == 1
    assert ask_record(provider).fruitless == 1
    assert ask_record(Wrapper(other)).fruitless == 0


def test_an_ask_waiting_for_its_answer_keeps_other_nodes_from_asking() -> None:
    record = AskRecord()
    assert record.worth_asking()
    assert not record.worth_asking()  # searched at the same time: waits for the first
    assert "still waiting" in record.why_not()
    record.asked(added=True)
    assert record.worth_asking()
