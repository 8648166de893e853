"""The model's docstring pieces: each refusal with its reason, and what is filled from facts."""

from __future__ import annotations

import pytest

from remora.code.docstring_text import Pieces, check_pieces, compose
from remora.code.source import NodeRef, SourceNode, locate, parse

SOURCE = '''\
class Warehouse:
    def get(self, sku: str, default: int = 0) -> int:
        if not sku:
            raise KeyError(sku)
        return default

    def add(self, amount):
        self.total = amount

    def report(self):
        """Print the stock.

        Examples:
            >>> Warehouse().report()
        """
        print(self)
'''


def method(name: str) -> SourceNode:
    line = {"get": 2, "add": 7, "report": 10}[name]
    return locate(parse(SOURCE), NodeRef("method", f"Warehouse.{name}", line))


@pytest.mark.parametrize(
    ("pieces", "field", "reason"),
    [
        (Pieces(summary="Total: 10.000.000.000"), "summary", "it is mostly digits or punctuation"),
        (Pieces(summary="The get."), "summary", "it only repeats the name 'get'"),
        (
            Pieces(summary="Count stock, count stock, count stock again"),
            "summary",
            "it repeats itself",
        ),
        (Pieces(summary="Look up a SKU. Then return."), "summary", "it runs past one sentence"),
        (Pieces(summary="return default"), "summary", "it is code, not a description of it"),
        (Pieces(summary="Say what the code does."), "summary", "it echoes the instructions"),
        (Pieces(summary="The get method looks up a SKU."), "summary", "it names Warehouse.get"),
        (Pieces(summary="Find it"), "summary", ""),
        (
            Pieces(summary="Return, description, params {name: description}."),
            "summary",
            "it echoes the instructions",
        ),
        (
            Pieces(summary="Description of the return value."),
            "summary",
            "it echoes the instructions",
        ),
        (
            Pieces(summary="The function get is a function."),
            "summary",
            "it echoes the instructions",
        ),
        (Pieces(summary="Look up a SKU with get method."), "summary", "it names Warehouse.get"),
        (
            Pieces(summary="Look up a SKU.", description="Look up a SKU."),
            "description",
            "it repeats the summary",
        ),
        (Pieces(params={"count": "How many."}), "params.count", "no such parameter (sku, default)"),
        (Pieces(params={"sku": "The sku."}), "params.sku", "it only repeats the name 'sku'"),
        (
            Pieces(raises={"ValueError": "Never."}),
            "raises.ValueError",
            "ValueError is not raised by this code",
        ),
    ],
)
def test_a_bad_piece_is_refused_with_its_reason(pieces: Pieces, field: str, reason: str) -> None:
    _, refused = check_pieces(method("get"), pieces)
    matching = [r["reason"] for r in refused if r["field"] == field]
    if reason:
        assert len(matching) == 1 and matching[0].startswith(reason), refused
    else:
        assert matching == []


def test_returns_of_a_method_without_a_value_is_refused() -> None:
    _, refused = check_pieces(method("add"), Pieces(returns="The new total."))
    assert refused == [{"field": "returns", "reason": "the code returns no value"}]


def test_no_summary_no_docstring() -> None:
    plan = compose(method("get"), Pieces(params={"sku": "Stock keeping unit."}), "google", None)
    assert plan["text"] is None


def test_what_is_missing_is_filled_from_facts_only() -> None:
    given = Pieces(summary="look up a SKU", params={"sku": "Stock keeping unit to find."})
    plan = compose(method("get"), given, "google", None)
    assert plan["text"] == (
        "Look up a SKU.\n\n"
        "Args:\n"
        "    sku (str): Stock keeping unit to find.\n"
        "    default (int): Defaults to ``0``.\n\n"
        "Raises:\n"
        "    KeyError:"  # the colon makes it a Google field docstring_parser reads
    )
    assert plan["filled"] == ["params.default from its default"]


def test_an_existing_docstring_fills_what_the_model_left_out() -> None:
    current = (
        "Find a SKU.\n\nArgs:\n    sku: Code printed on the label.\n\nReturns:\n    The count."
    )
    plan = compose(method("get"), Pieces(summary="Total: 10.000"), "numpy", current)
    assert plan["refused"][0]["field"] == "summary"
    assert plan["text"] == (
        "Find a SKU.\n\n"
        "Parameters\n----------\nsku : str\n    Code printed on the label.\n"
        "default : int\n    Defaults to ``0``.\n\n"
        "Returns\n-------\nint\n    The count.\n\n"
        "Raises\n------\nKeyError"
    )


def test_sections_that_are_not_rebuilt_keep_the_docstring_as_it_is() -> None:
    node = method("report")
    current = "Print the stock.\n\nExamples:\n    >>> Warehouse().report()"
    plan = compose(node, Pieces(summary="Print every item in stock."), "google", current)
    assert plan["text"] is None and plan["kept"] == "sections ['examples']"


def test_sphinx_style() -> None:
    given = Pieces(summary="Look up a SKU.", returns="The count found.")
    plan = compose(method("get"), given, "sphinx", None)
    assert plan["text"] == (
        "Look up a SKU.\n\n"
        ":param sku:\n:type sku: str\n"  # undescribed, still named: the section is exact
        ":param default: Defaults to ``0``.\n:type default: int\n"
        ":returns: The count found.\n:rtype: int\n"
        ":raises KeyError:"
    )
