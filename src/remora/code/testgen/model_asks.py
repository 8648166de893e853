"""Whether the test search's ask of the model is worth its cost: measured, per model.

The host search comes first and needs no model; the model is asked to
complete calls aimed at what is still missed. Such an ask costs seconds of
engine time (on two CPU cores a prompt of the node's source and its missed
report, then up to a few completions: 10-30 s measured on toolz.dicttoolz),
and the engine is one queue for every agent: an ask that keeps nothing delays
every other run. Measured on the peers corpus, the model's asks kept no test
on 10 modules of 10 once the host search had run. So the asks are counted per
model (the provider behind the run's completer) for as long as the process
lives: after :data:`MAX_FRUITLESS_ASKS` ask in a row that added no coverage (an
ask still waiting for its answer counts as one, so that nodes searched at once
do not all ask) the model is not asked again, except once after every
:data:`RETRY_AFTER_SKIPS` searches left without an ask (the code searched may
differ by then). An ask that adds coverage resets the count, so a model whose
cases are kept is always asked.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass
from typing import Any

__all__ = ["MAX_FRUITLESS_ASKS", "RETRY_AFTER_SKIPS", "AskRecord", "ask_record"]

MAX_FRUITLESS_ASKS = 1
RETRY_AFTER_SKIPS = 8


@dataclass
class AskRecord:
    """One model's asks: fruitless ones in a row, those still waiting for their answer
    (counted as fruitless until they add something: nodes searched at once must not all
    ask), and searches left without an ask since the last one."""

    fruitless: int = 0
    in_flight: int = 0
    skipped: int = 0

    def worth_asking(self) -> bool:
        """Whether to ask now (an ask so allowed must end in :meth:`asked`)."""
        doubtful = self.fruitless + self.in_flight
        if doubtful < MAX_FRUITLESS_ASKS or self.skipped >= RETRY_AFTER_SKIPS:
            self.skipped = 0
            self.in_flight += 1
            return True
        self.skipped += 1
        return False

    def asked(self, added: bool) -> None:
        self.in_flight = max(self.in_flight - 1, 0)
        self.fruitless = 0 if added else self.fruitless + 1

    def why_not(self) -> str:
        if self.in_flight and not self.fruitless:
            return "not asked: the model's ask for another node is still waiting for its answer"
        return (
            f"not asked: the model's last {self.fruitless} asks added no line or branch "
            f"(asked again after {RETRY_AFTER_SKIPS - self.skipped} more searches)"
        )


_RECORDS: weakref.WeakKeyDictionary[Any, AskRecord] = weakref.WeakKeyDictionary()


def ask_record(completer: Any) -> AskRecord:
    """The record of the model behind ``completer`` (a run's wrapper passes its
    ``inner`` provider, which every run of the command shares); a fresh one, never
    kept, for a completer that cannot be weakly referenced."""
    model = getattr(completer, "inner", completer)
    try:
        return _RECORDS.setdefault(model, AskRecord())
    except TypeError:
        return AskRecord()
