from typing import TypedDict


class Movie(TypedDict):
    title: str
    year: int
