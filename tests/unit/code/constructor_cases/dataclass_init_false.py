# init=False: no generated __init__, so object's (or a base's) decides.
from dataclasses import dataclass


@dataclass(init=False)
class Lazy:
    value: int = 0
