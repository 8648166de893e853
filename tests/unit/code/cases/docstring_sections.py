"""Nodes whose docstring parameter sections are built from the code (test_docstring_sections)."""

from dataclasses import KW_ONLY, InitVar, dataclass, field
from typing import ClassVar, NamedTuple


def ship(orders: list[str], /, carrier, *extra: str, express: bool = False, note=None, **labels: str) -> int:
    if not orders:
        raise ValueError(f"no orders for {carrier}")
    return len(orders)


def pack(
    items,
    sizes: dict[
        str,
        int,
    ] = {
        "s": 1,
        "m": 2,
    },
):
    return items


@dataclass
class Parcel:
    weight: float
    scale: ClassVar[float] = 1.0
    seal: InitVar[str]
    _: KW_ONLY
    fragile: bool = False
    cost: float = field(init=False, default=0.0)

    def __post_init__(self, seal: str) -> None:
        self.cost = self.weight * self.scale

    def relabel(self, label: str, *, urgent: bool = True) -> str:
        return label

    @staticmethod
    def volume(width: float, height: float) -> float:
        return width * height

    @classmethod
    def empty(cls, weight: float = 0.0) -> "Parcel":
        return cls(weight, "none")


class Depot:
    def __init__(self, name: str, *, capacity: int = 10) -> None:
        self.name = name
        self.capacity = capacity


class Route(NamedTuple):
    start: str
    stops: int = 0


class Lost(Exception):
    pass
