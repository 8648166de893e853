# A dataclass that defines __init__ itself keeps it: the fields do not decide.
from dataclasses import dataclass


@dataclass
class Celsius:
    degrees: float

    def __init__(self, fahrenheit: float) -> None:
        self.degrees = (fahrenheit - 32) * 5 / 9
