"""Typical values for a parameter by the words of its name: a ``unit_price`` is a price.

Two typical values per word (the typical and the other set's), matched by whole words
of the name, the last one the table has deciding (:func:`by_name`). Generic values only:
nothing here comes from code Remora is measured or demonstrated on (a table tuned to that
code makes its results look better than they are elsewhere).
"""

from __future__ import annotations

import re
from typing import Any

__all__ = ["NAMED_NUMBERS", "NAMED_STRINGS", "by_name", "name_words"]

# A word of the parameter's name -> two typical values.
NAMED_STRINGS: dict[str, tuple[str, str]] = {
    "email": ("alice@example.com", "bob@example.org"),
    "url": ("https://example.com/item/1", "https://example.org"),
    "path": ("data/example.txt", "data/other.csv"),
    "file": ("data/example.txt", "data/other.csv"),
    "dir": ("data", "output"),
    "directory": ("data", "output"),
    "date": ("2024-01-31", "2023-12-01"),
    "time": ("2024-01-31T12:00:00", "2023-12-01T08:30:00"),
    "phone": ("+1-555-0100", "+44 20 7946 0000"),
    "code": ("A1", "B2"),
    "name": ("Alice", "Bob"),
    "city": ("Lisbon", "Oslo"),
    "country": ("PT", "NO"),
    "currency": ("EUR", "USD"),
    "status": ("active", "inactive"),
    "description": ("A short description.", "Another one."),
    "message": ("hello", "goodbye"),
    "text": ("hello world", "lorem ipsum"),
    "key": ("alpha", "beta"),
}
NAMED_NUMBERS: dict[str, tuple[float, float]] = {
    "price": (19.0, 250.0),
    "cost": (4.5, 75.0),
    "amount": (35.0, 1000.0),
    "total": (80.0, 12.5),
    "balance": (250.0, 0.5),
    "rate": (0.25, 0.6),
    "discount": (40.0, 2.5),
    "percent": (30.0, 75.0),
    "ratio": (0.5, 0.75),
    "weight": (1.5, 12.0),
    "quantity": (4, 12),
    "qty": (4, 12),
    "count": (2, 5),
    "size": (10, 3),
    "limit": (10, 100),
    "age": (30, 45),
    "year": (2024, 1999),
    "id": (1, 42),
    "index": (0, 2),
}


def name_words(name: str) -> list[str]:
    """The words of an identifier: snake_case and camelCase (``HTTPServer``: http, server)."""
    spaced = re.sub(r"([a-z0-9])([A-Z])|([A-Z])([A-Z][a-z])", r"\1\3_\2\4", name)
    return [w.lower() for w in spaced.split("_") if w]


def by_name(name: str, table: dict[str, tuple[Any, Any]], variant: int) -> tuple[bool, Any]:
    """The table's values for the last whole word of ``name`` it has: ``unit_price`` is a
    price, ``tax_rate`` a rate. Never a part of a word: a ``filename`` is no ``name``, a
    ``message`` or a ``page`` no ``age``, ``syntax`` no tax. A plural (``prices``) is not
    its singular's value: the caller makes it a list of them."""
    for word in reversed(name_words(name)):
        if word in table:
            return True, table[word][variant % 2]
    return False, None
