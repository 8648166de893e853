"""A float pinned with ``pytest.approx`` is written as a reader would write it."""

from __future__ import annotations

import pytest

from remora.code.values import approx_text, value_assert


class _Imports:
    def __init__(self) -> None:
        self.modules: set[str] = set()
        self.from_imports: set[tuple[str, str]] = set()
        self.imports: set[str] = set()
        self.module_names: set[str] = set()


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (1 - 0.9, "0.1"),  # 0.09999999999999998: the arithmetic's rounding left out
        (0.1 + 0.2, "0.3"),
        (1 / 3 + 1e-16, "0.3333333333333"),  # no shorter text is within the rounding
        (2.5, "2.5"),
        (3.0, "3.0"),  # still a float literal
        (0.0, "0.0"),
        (-7.25e-9, "-7.25e-09"),
        (1e20, "1e+20"),
        (1.2345, "1.2345"),
        (150.0, "150.0"),  # not 1.5e+02
    ],
)
def test_the_shortest_text_within_the_rounding(value: float, text: str) -> None:
    assert approx_text(value) == text
    assert float(text) == pytest.approx(value, rel=1e-12, abs=0.0)


def test_an_observed_float_is_asserted_in_its_short_form() -> None:
    imports = _Imports()
    seen = {"repr": repr(1 - 0.9), "literal": True}
    assert value_assert("result", seen, imports) == "assert result == pytest.approx(0.1)"
    assert imports.modules == {"pytest"}
