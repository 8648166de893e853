"""Docstring text refused for what it repeats or claims beyond the summary: Remora's own
feedback and instructions echoed back (echoes.py), a description sentence held to the
claims a summary is (claims.description_claim), and the meaning of a builtin the node's
name shadows (shadowed.py)."""

from __future__ import annotations

from pathlib import Path

import yaml

import remora
from remora.code.docstring.echoes import INSTRUCTIONS, echoed
from remora.code.docstring.pieces import Pieces, check_pieces
from remora.code.docstring.shadowed import builtin_meaning
from remora.code.parsing import NodeRef, SourceNode, locate, parse

GARDEN = """\
import builtins


def len(plants):
    tall = 0
    for plant in plants:
        tall = tall + plant.height
    return tall


def sorted(seeds):
    return builtins.sorted(seeds)


def water(pots):
    for pot in pots:
        pot.fill()


class Shed:
    def set_roof(self, roof):
        self._roof = roof
        return self

    def tools(self):
        return [t for t in self._tools if t.sharp]

    def sum(self):
        return len(self._tools)
"""


def _node(kind: str, name: str, text: str = GARDEN) -> SourceNode:
    wanted = f"def {name.split('.')[-1]}("
    line = next(i for i, row in enumerate(text.splitlines(), 1) if wanted in row)
    return locate(parse(text, "garden.py"), NodeRef(kind, name, line))


def _refused(node: SourceNode, **pieces: str) -> dict[str, str]:
    _, refused = check_pieces(node, Pieces(**pieces))  # type: ignore[arg-type]
    return {r["field"]: r["reason"] for r in refused}


# --- feedback echoed -----------------------------------------------------------------


def test_the_restating_reason_parroted_back_is_refused() -> None:
    roof = _node("method", "Shed.set_roof")
    summary = "Restates the name; says what it returns or changes, or when it raises."
    assert "repeats Remora's feedback" in _refused(roof, summary=summary)["summary"]


def test_the_name_quoted_as_the_reasons_quote_it_is_refused() -> None:
    roof = _node("method", "Shed.set_roof")
    assert (
        "quotes the name 'set_roof'"
        in _refused(roof, summary="Set 'set_roof' on the shed.")["summary"]
    )


def test_a_reason_given_in_the_run_is_not_repeated_in_any_piece() -> None:
    water = _node("function", "water")
    given = ["it speaks of 'bucket', which water never touches; say what it does with pots"]
    _, refused = check_pieces(
        water,
        Pieces(summary="Fill every pot.", description="Say what it does with pots here."),
        feedback=given,
    )
    assert [r["field"] for r in refused] == ["description"]
    assert "'say what it does with pots'" in refused[0]["reason"]
    # Without that reason in the run, the same words are only words.
    assert echoed(water, "Say what it does with pots here.") == ""


def test_what_a_reason_asks_for_or_quotes_may_be_written() -> None:
    roof = _node("method", "Shed.set_roof")
    asked = ["it returns only the instance itself (`return self`): say what it sets"]
    assert echoed(roof, "Set the roof; it returns the instance itself.", asked) == ""
    quoted = ["it says the code does 'store the roof of the shed', but it has no call"]
    assert echoed(roof, "Store the roof of the shed and return the shed.", quoted) == ""


def test_the_instructions_are_the_bundled_agents_words() -> None:
    folder = Path(remora.__file__).parent / "agents" / "bundled" / "docstring"
    agent = yaml.safe_load((folder / "agent.yaml").read_text("utf-8"))
    texts = [" ".join(agent["initial_context"]["system_prompt"].split())]
    texts += [(folder / "tools" / name).read_text("utf-8") for name in ("draft_docstring.pym",)]
    texts += [(folder / "tools" / "write_docstring.pym").read_text("utf-8")]
    joined = " ".join(" ".join(t.replace('"\n', "").replace('"', "").split()) for t in texts)
    for instruction in INSTRUCTIONS:
        assert instruction in joined, instruction


# --- description sentences ------------------------------------------------------------


def test_a_description_saying_a_builder_returns_a_new_thing_is_refused() -> None:
    roof = _node("method", "Shed.set_roof")
    refused = _refused(
        roof,
        summary="Set the roof and return the shed itself.",
        description="The roof is a callable. It returns a new shed with the roof.",
    )
    assert list(refused) == ["description"]
    assert "a new object is returned" in refused["description"]


def test_a_description_sentence_that_names_a_thing_is_not_held_to_the_summary_form() -> None:
    water = _node("function", "water")
    assert "names a thing" in _refused(water, summary="The pots filled.")["summary"]
    assert not _refused(water, summary="Fill every pot.", description="The pots fill in order.")


def test_a_description_sentence_claiming_a_return_of_what_returns_nothing_is_refused() -> None:
    water = _node("function", "water")
    refused = _refused(water, summary="Fill every pot.", description="Returns the pots filled.")
    assert "returns no value" in refused["description"]


# --- builtins shadowed -----------------------------------------------------------------


def test_the_meaning_of_a_shadowed_builtin_is_refused() -> None:
    heights = _node("function", "len")
    summary = "Return the number of items in the plants."
    assert "builtin len()" in _refused(heights, summary=summary)["summary"]
    refused = _refused(heights, summary="Add up the plants' heights.", description=summary)
    assert "builtin len()" in refused["description"]
    assert not _refused(heights, summary="Add up the heights of the plants.")


def test_a_wrapper_of_the_builtin_may_say_what_it_means() -> None:
    order = _node("function", "sorted")
    summary = "Return a new list containing all items from the iterable in ascending order."
    assert builtin_meaning(order, summary) == ""


def test_a_method_shadows_no_builtin() -> None:
    count = _node("method", "Shed.sum")
    assert builtin_meaning(count, "Return the sum of a start value and an iterable.") == ""
