import typing


class Point(typing.NamedTuple):
    x: float
    y: float = 0.0
    label: str = "origin"

    def norm(self) -> float:
        return (self.x**2 + self.y**2) ** 0.5
