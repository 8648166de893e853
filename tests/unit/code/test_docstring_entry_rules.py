"""A Returns or Raises entry that only says the summary again, or breaks off mid-sentence,
is refused: its section is left out and the rest of the docstring kept."""

from __future__ import annotations

import pytest

from remora.code.docstring.entries import repeats_summary
from remora.code.docstring.pieces import Pieces
from remora.code.docstring.text import compose
from remora.code.parsing import NodeRef, SourceNode, locate, parse

SPAN = """\
class Span:
    def starts_after(self, other):
        if other is None:
            raise TypeError("no other span")
        return self.start >= other.start

    def width(self):
        return self.stop - self.start

    def touches(self, other):
        return self.stop >= other.start

    def paint(self, colours):
        return [c for c in colours if c]
"""


def node(name: str) -> SourceNode:
    line = next(i for i, text in enumerate(SPAN.splitlines(), 1) if f"def {name}(" in text)
    return locate(parse(SPAN), NodeRef("method", f"Span.{name}", line))


@pytest.mark.parametrize(
    ("entry", "summary"),
    [
        (
            "True if the start of this span is at or past the start.",
            "Return True if the start of this span is at or past the start of the other.",
        ),
        ("The width of the span.", "Returns the width of the span."),
        ("The stored widths of the spans.", "Get the stored widths of all spans."),
    ],
)
def test_an_entry_of_the_summary_s_words_is_a_repeat(entry: str, summary: str) -> None:
    assert "repeats the summary" in repeats_summary(entry, summary)


@pytest.mark.parametrize(
    ("entry", "summary"),
    [
        # Words of its own: the other case, a unit, what it is measured in.
        ("True if the spans touch, False otherwise.", "Return True if two spans touch."),
        ("The width in columns, 0 for an empty span.", "Return the width of the span."),
        # Too few words to tell.
        ("The span.", "Return the span."),
        # A few of the summary's words, not most of them.
        ("The width.", "Return the width of the span, clipped to the page margins."),
    ],
)
def test_an_entry_that_says_more_stays(entry: str, summary: str) -> None:
    assert repeats_summary(entry, summary) == ""


def test_a_repeating_returns_entry_is_left_out_and_the_rest_kept() -> None:
    out = compose(
        node("starts_after"),
        Pieces(
            summary="Return True if this span starts at or after the other's start.",
            params={"other": "The span whose start is compared."},
            returns="True if this span starts at or after the start.",
            raises={"TypeError": "If there is no other span."},
        ),
        "google",
        None,
    )
    assert [r["field"] for r in out["refused"]] == ["returns"]
    text = out["text"]
    assert text is not None
    assert "Returns:" not in text
    assert text.startswith("Return True if this span starts at or after the other's start.")
    assert "other: The span whose start is compared." in text
    assert "Raises:\n    TypeError: " in text


def test_a_description_of_the_summary_s_words_is_left_out() -> None:
    # isbnlib's ``set_cache``: "Set the cache for metadata lookup." then "Sets the cache
    # for metadata lookup." as its description, rejected as noise.
    out = compose(
        node("starts_after"),
        Pieces(
            summary="Return True if this span starts at or after the other's start.",
            description="Returns True if the span starts at or after the other's start.",
        ),
        "google",
        None,
    )
    assert [r["field"] for r in out["refused"]] == ["description"]
    text = out["text"]
    assert text is not None
    assert "Returns True" not in text
    # The summary alone: the TypeError has no words (never its condition as code).
    assert text == "Return True if this span starts at or after the other's start."
    said_more = compose(
        node("starts_after"),
        Pieces(
            summary="Return True if this span starts at or after the other's start.",
            description="Spans that start together count as starting after each other.",
        ),
        "google",
        None,
    )
    assert said_more["refused"] == []


def test_a_repeating_raises_entry_is_refused() -> None:
    out = compose(
        node("starts_after"),
        Pieces(
            summary="Raise TypeError if no other span is passed.",
            raises={"TypeError": "If no other span is passed."},
        ),
        "google",
        None,
    )
    assert "raises.TypeError" in [r["field"] for r in out["refused"]]


def test_a_returns_entry_cut_mid_sentence_is_left_out() -> None:
    out = compose(
        node("paint"),
        Pieces(
            summary="Keep the colours that are set.",
            params={"colours": "The colours to keep or drop."},
            returns="The colours of the list, excluding.",
        ),
        "google",
        None,
    )
    assert [r["field"] for r in out["refused"]] == ["returns"]
    assert "mid-sentence" in out["refused"][0]["reason"]
    assert (
        out["text"]
        == "Keep the colours that are set.\n\nArgs:\n    colours: The colours to keep or drop."
    )


def test_a_returns_entry_with_its_own_words_stays() -> None:
    out = compose(
        node("touches"),
        Pieces(
            summary="Return True if two spans touch.",
            returns="True if the spans touch, False otherwise.",
        ),
        "google",
        None,
    )
    assert out["refused"] == []
    assert "Returns:\n    True if the spans touch, False otherwise." in (out["text"] or "")


def test_a_parameter_entry_may_name_what_the_summary_names() -> None:
    out = compose(
        node("paint"),
        Pieces(summary="Keep the set colours of a palette.", params={"colours": "A palette."}),
        "google",
        None,
    )
    assert out["refused"] == []
    assert "colours: A palette." in (out["text"] or "")
