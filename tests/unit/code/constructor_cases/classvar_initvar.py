from __future__ import annotations

import dataclasses
from dataclasses import InitVar
from typing import ClassVar


@dataclasses.dataclass
class Account:
    registry: ClassVar[dict[str, int]] = {}
    owner: str
    seed: InitVar[int]
    limit: "ClassVar[int]" = 10  # noqa: UP037 (quoted under postponed annotations: a field)
    balance: float = dataclasses.field(init=False, default=0.0)
    currency: str = "EUR"

    def __post_init__(self, seed: int) -> None:
        self.balance = float(seed)
