# Without postponed annotations a quoted "ClassVar[int]" is a ClassVar.
from dataclasses import InitVar, dataclass
from typing import ClassVar


@dataclass
class Counter:
    start: "InitVar[int]"
    step: int = 1
    instances: "ClassVar[int]" = 0
