"""What a section says or it is left out: a Raises entry quotes only a condition read at a
glance, a Raises section names every exception or none, and a piece made of its subject's
name words (matched as restating.py matches them) is refused."""

from __future__ import annotations

import pytest

from remora.code.docstring.pieces import Pieces, check_pieces
from remora.code.docstring.text import compose
from remora.code.parsing import NodeRef, SourceNode, locate, parse

KILN = """\
def fire(kiln, hours, glaze=None):
    if hours > 12:
        raise ValueError("too long")
    return kiln


def cool(kiln, start=None, stop=None):
    if start is None and stop is None:
        raise TypeError("say when")
    return kiln


def vent(kiln, left, right):
    if left < 0:
        raise ValueError("left")
    if right < 0:
        raise ValueError("right")
    return kiln


def load(kiln, pots):
    if not pots:
        raise ValueError("no pots")
    for pot in pots:
        if pot.cracked:
            raise LookupError(pot)
    return kiln


def glaze(kiln, skip_ws):
    raise failure(kiln)
"""


def node(name: str) -> SourceNode:
    line = next(i for i, text in enumerate(KILN.splitlines(), 1) if text.startswith(f"def {name}("))
    return locate(parse(KILN), NodeRef("function", name, line))


def composed(name: str, **given: dict[str, str]) -> dict[str, object]:
    return compose(
        node(name), Pieces(summary="Heat the kiln for a while.", **given), "google", None
    )


def test_a_condition_is_never_quoted_as_code() -> None:
    # "If ``hours > 12``." copies the code: merged once in eight (issue 57).
    plan = composed("fire")
    assert plan["text"] == "Heat the kiln for a while."
    assert "raises.ValueError: nothing known about when it is raised" in plan["left_out"]


@pytest.mark.parametrize("name", ["cool", "vent"])
def test_a_joined_condition_or_several_raises_need_words(name: str) -> None:
    # ``a and b`` or two raises of one exception are code to decode: no entry from them,
    # so no section ...
    assert composed(name)["text"] == "Heat the kiln for a while."
    # ... but the model's own words, when they say when, are used.
    raised = "TypeError" if name == "cool" else "ValueError"
    plan = composed(name, raises={raised: "When neither bound of the cooling is given."})
    assert plan["text"] == (
        f"Heat the kiln for a while.\n\nRaises:\n    {raised}: "
        "When neither bound of the cooling is given."
    )


def test_a_raises_section_names_every_exception_or_is_left_out() -> None:
    # Words for LookupError alone: a section naming only LookupError would read as all the
    # function raises.
    plan = composed("load")
    assert plan["text"] == "Heat the kiln for a while."
    assert "raises: not every exception says when it is raised" in plan["left_out"]
    plan = composed("load", raises={"LookupError": "When a pot is cracked."})
    assert plan["text"] == "Heat the kiln for a while."
    plan = composed(
        "load",
        raises={"ValueError": "When no pot is given.", "LookupError": "When a pot is cracked."},
    )
    assert plan["text"] == (
        "Heat the kiln for a while.\n\nRaises:\n    ValueError: When no pot is given.\n"
        "    LookupError: When a pot is cracked."
    )
    # A raise of what a call returns names no exception a section can state.
    assert composed("glaze")["text"] == "Heat the kiln for a while."


@pytest.mark.parametrize(
    ("params", "refused"),
    [
        ({"skip_ws": "The skip whitespace."}, True),  # "ws" spelled out is still the name
        ({"skip_ws": "Whether blank lines are kept."}, False),
        ({"kiln": "The kilns."}, True),  # a plural is the name too
        ({"kiln": "The oven being fired."}, False),
    ],
)
def test_a_parameter_text_of_its_name_words_alone_is_refused(
    params: dict[str, str], refused: bool
) -> None:
    name = "glaze" if "skip_ws" in params else "fire"
    _, reasons = check_pieces(node(name), Pieces(params=params))
    found = [r["reason"] for r in reasons]
    assert bool(found) is refused, found
    assert all(r.startswith("it only repeats the name") for r in found)
