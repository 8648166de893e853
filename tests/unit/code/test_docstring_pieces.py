"""The model's docstring pieces: each refusal with its reason, and what is filled from facts."""

from __future__ import annotations

import pytest

from remora.code.docstring.pieces import Pieces, check_pieces
from remora.code.docstring.text import compose
from remora.code.parsing import NodeRef, SourceNode, locate, parse

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
        # Told as restating.py tells it, with what the body returns and raises.
        (Pieces(summary="The get."), "summary", "it restates the name 'get'; say what it returns"),
        (
            Pieces(summary="Count stock, count stock, count stock again"),
            "summary",
            "it repeats itself",
        ),
        (Pieces(summary="Look up a SKU. Then return."), "summary", "it runs past one sentence"),
        (Pieces(summary="return default"), "summary", "it is Python code, not words"),
        (Pieces(summary="Say what the code does."), "summary", "it echoes the instructions"),
        (Pieces(summary="The get method looks up a SKU."), "summary", "it names Warehouse.get"),
        (Pieces(summary="Find stock"), "summary", ""),
        # The model copied a string literal with its closing quote (``doc="... connects."``).
        (
            Pieces(summary='Emitted after a receiver connects."'),
            "summary",
            'a quotation mark (") is opened and never closed',
        ),
        (Pieces(summary="Look up the `sku"), "summary", "a backtick (`) is opened"),
        (Pieces(summary='Look up the "sku" of a product'), "summary", ""),
        # 0 is the default in the code: a number the code holds may be stated.
        (Pieces(summary="Look up a SKU, else 0"), "summary", ""),
        (Pieces(params={"default": "Stock to report, 0 unless given."}), "params.default", ""),
        (
            Pieces(params={"default": "Stock to report, 5 unless given."}),
            "params.default",
            "it states 5, a number the code does not hold",
        ),
        (Pieces(summary="Hash the SKU with sha256"), "summary", ""),
        # A colon in prose is no field list.
        # (The code names no stock or depot: the words here are its own.)
        (Pieces(summary="Look up a SKU: its value, or the default"), "summary", ""),
        (Pieces(summary="Return the default per key: sku, default"), "summary", ""),
        (
            Pieces(summary="Return, description, params {name: description}."),
            "summary",
            "it holds braces, like the tool's JSON",
        ),
        (
            Pieces(summary="Description of the return value."),
            "summary",
            "it echoes the instructions",
        ),
        (
            Pieces(summary="The function get is a function."),
            "summary",
            "it talks about 'the function' instead of saying what it does",
        ),
        (Pieces(summary="Look up a SKU with get method."), "summary", "it names Warehouse.get"),
        (
            Pieces(summary="Look up a SKU.", description="Look up a SKU."),
            "description",
            "it only repeats the summary's words",
        ),
        (Pieces(params={"count": "How many."}), "params.count", "no such parameter (sku, default)"),
        (Pieces(params={"sku": "The sku."}), "params.sku", "it only repeats the name 'sku'"),
        (
            Pieces(raises={"ValueError": "Never."}),
            "raises.ValueError",
            "ValueError is not raised by this code",
        ),
        # SmolLM2 on the sample's models.py: the prompt's material, not the code.
        (
            Pieces(summary="Look up a SKU.", description="The document contains a JSON object."),
            "description",
            "it describes the prompt ('document', 'json'), not this code",
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


VERB = "start with a verb in the imperative: 'Return …', 'Build …', 'Check …'"


@pytest.mark.parametrize(
    ("summary", "reason"),
    [
        ("Total: 10.000.000.000", f"it is mostly digits or punctuation; write it in words; {VERB}"),
        ("Return …", "it keeps the placeholder '…' of an example; write what it stands for"),
        (
            "A queue of ... that holds orders",
            "it keeps the placeholder '...' of an example; write what it stands for",
        ),
        (
            "The get.",
            "it restates the name 'get'; say what it returns or changes, or when it raises, "
            "from the body: it returns `default`; it raises KeyError",
        ),
        (
            "Count stock, count stock, count stock again",
            "it repeats itself ('count' 3 times, 'stock' 3 times); say each thing once",
        ),
        ("Find", f"it has under two words, too short to say what the code does; {VERB}"),
        ("return default", f"it is Python code, not words about what the code does; {VERB}"),
        (
            "Say what the code does.",
            "it echoes the instructions ('what the code does') instead of describing this "
            f"code; write your own words; {VERB}",
        ),
        (
            "The function get is a function that looks up a SKU.",
            f"it talks about 'the function' instead of saying what it does; {VERB}, not "
            "'The function … is a function that …'",
        ),
        (
            "Look up a SKU with Warehouse.get.",
            f"it names Warehouse.get instead of saying what it does; leave the name out; {VERB}",
        ),
        # What SmolLM2 wrote on the sample project's Order.place and StockItem.add.
        (
            "Place order in inventory/orders.py, returns:.",
            f"it ends on a field name and a colon, like the tool's JSON; write plain words; {VERB}",
        ),
        (
            "Place the order recorded in inventory/orders.py.",
            f"it names the file 'inventory/orders.py'; say what the code does; {VERB}",
        ),
        (
            "Look up a SKU: the result of the get() method.",
            f"it names Warehouse.get instead of saying what it does; leave the name out; {VERB}",
        ),
        # What SmolLM2 wrote on the sample project's OrderLine.tax and Order.add_line.
        (
            "Return the tax, 1.00.",
            "it states 1.00, a number the code does not hold; say only what the code shows",
        ),
        (
            "Look up the SKU, and the current line is.",
            "it stops mid-sentence (ends with 'is'); finish the sentence",
        ),
        (
            "Yield each pair of the mapping, excluding.",
            "it stops mid-sentence (ends with 'excluding'); finish the sentence",
        ),
        # What SmolLM2 wrote on toolz's thread_last and unique (competence corpus).
        (
            "Return, summary: description, returns: description, raises: {}, next:.",
            "it copies the tool's fields ('summary:', 'returns:', 'raises:') instead of saying "
            f"what the code does; write plain words; {VERB}",
        ),
        (
            "Return, summary: description, parameters: {}, returns_value: {}.",
            "it copies the tool's fields ('summary:', 'parameters:', 'returns_value:') instead "
            f"of saying what the code does; write plain words; {VERB}",
        ),
        (
            "Look up a SKU. Then return the default.",
            "it runs past one sentence; make the first ('Look up a SKU.') the summary and put "
            "the rest in description",
        ),
        (
            "Look up the stock level of one SKU in every depot, shelf and van of the warehouse "
            "network, counting reserved and damaged units apart",
            "it is longer than 120 characters (132); keep the main point in one short sentence "
            "and put the rest in description",
        ),
    ],
)
def test_a_refused_summary_says_what_was_wrong_and_what_to_write_instead(
    summary: str, reason: str
) -> None:
    _, refused = check_pieces(method("get"), Pieces(summary=summary))
    assert refused == [{"field": "summary", "reason": reason}]


@pytest.mark.parametrize(
    ("source", "ref", "reason"),
    [
        (
            "class Warehouse:\n    pass\n",
            NodeRef("class", "Warehouse", 1),
            "it talks about 'the code' instead of saying what it does; say what one instance "
            "is: 'A … that …'",
        ),
        (
            "import os\n",
            NodeRef("file", "m.py", 1),
            "it talks about 'the code' instead of saying what it does; say what the module "
            "provides: 'Helpers for …'",
        ),
    ],
)
def test_a_summary_reason_fits_the_kind_of_node(source: str, ref: NodeRef, reason: str) -> None:
    _, refused = check_pieces(locate(parse(source), ref), Pieces(summary="Store the code."))
    assert refused == [{"field": "summary", "reason": reason}]


def test_a_description_is_not_told_how_a_summary_starts() -> None:
    _, refused = check_pieces(method("get"), Pieces(description="See the function for it."))
    reason = "it talks about 'the function' instead of saying what it does"
    assert refused == [{"field": "description", "reason": reason}]


def test_returns_of_a_method_without_a_value_is_refused() -> None:
    _, refused = check_pieces(method("add"), Pieces(returns="The new total."))
    reason = "the code returns no value; leave returns out"
    assert refused == [{"field": "returns", "reason": reason}]


def test_no_summary_no_docstring() -> None:
    plan = compose(method("get"), Pieces(params={"sku": "Stock keeping unit."}), "google", None)
    assert plan["text"] is None


def test_what_is_missing_is_never_filled_with_code() -> None:
    # Issue 57: a default or a type alone ("default (int): Defaults to ``0``.", a bare
    # "KeyError:") repeats the signature; the section is written only when every parameter
    # says something, and an exception only with words of the model's or the author's:
    # its raise's condition as code ("If ``not sku``.") was merged once in eight.
    given = Pieces(summary="look up a SKU in stock", params={"sku": "Stock keeping unit to find."})
    plan = compose(method("get"), given, "google", None)
    assert plan["text"] == "Look up a SKU in stock."
    assert plan["filled"] == []
    assert plan["left_out"] == [
        "params: not every parameter has a description",
        "raises.KeyError: nothing known about when it is raised",
        "raises: not every exception says when it is raised",
    ]
    given.params["default"] = "What to return when the SKU is empty."
    given.raises["KeyError"] = "If the SKU is empty."
    plan = compose(method("get"), given, "google", None)
    assert plan["text"] == (
        "Look up a SKU in stock.\n\n"
        "Args:\n"
        "    sku (str): Stock keeping unit to find.\n"
        "    default (int): What to return when the SKU is empty.\n\n"
        "Raises:\n"
        "    KeyError: If the SKU is empty."
    )


def test_an_existing_docstring_fills_what_the_model_left_out() -> None:
    current = (
        "Find a SKU.\n\nArgs:\n    sku: Code printed on the label.\n\nReturns:\n    The count."
    )
    given = Pieces(summary="Total: 10.000", params={"default": "Count for an empty SKU."})
    plan = compose(method("get"), given, "numpy", current)
    assert plan["refused"][0]["field"] == "summary"
    assert plan["text"] == (
        "Find a SKU.\n\n"
        "Parameters\n----------\nsku : str\n    Code printed on the label.\n"
        "default : int\n    Count for an empty SKU.\n\n"
        "Returns\n-------\nint\n    The count."
    )
    # Issue 57: without a description of ``default`` the section cannot be completed, and
    # the author's entry is not dropped either: the docstring is kept as it is.
    plan = compose(method("get"), Pieces(), "numpy", current)
    assert plan["text"] is None and plan["kept"] == "entries ['params.sku'] Remora cannot complete"


def test_sections_that_are_not_rebuilt_keep_the_docstring_as_it_is() -> None:
    node = method("report")
    current = "Print the stock.\n\nExamples:\n    >>> Warehouse().report()"
    plan = compose(node, Pieces(summary="Print every item in stock."), "google", current)
    assert plan["text"] is None and plan["kept"] == "sections ['examples']"


def test_sphinx_style() -> None:
    given = Pieces(
        summary="Look up a SKU in stock.",
        returns="The count found.",
        params={"sku": "Code printed on the label.", "default": "Count for an empty SKU."},
        raises={"KeyError": "If the SKU is empty."},
    )
    plan = compose(method("get"), given, "sphinx", None)
    assert plan["text"] == (
        "Look up a SKU in stock.\n\n"
        ":param sku: Code printed on the label.\n:type sku: str\n"
        ":param default: Count for an empty SKU.\n:type default: int\n"
        ":returns: The count found.\n:rtype: int\n"
        ":raises KeyError: If the SKU is empty."
    )


def test_json_may_be_named_where_the_code_names_it() -> None:
    source = "import json\n\n\ndef dump(order):\n    return json.dumps(order)\n"
    node = locate(parse(source), NodeRef("function", "dump", 4))
    pieces = Pieces(summary="Serialise the order as JSON.")
    accepted, refused = check_pieces(node, pieces)
    assert refused == [] and accepted.summary == "Serialise the order as JSON."
    _, refused = check_pieces(method("get"), pieces)
    assert [r["field"] for r in refused] == ["summary"]


def test_a_summary_that_spells_the_functions_own_identifier_is_refused() -> None:
    source = "def dumb_sort(items):\n    return sorted(items, key=str)\n\n\n"
    source += "def sort(items):\n    return sorted(items)\n"
    tree = parse(source)
    dumb = locate(tree, NodeRef("function", "dumb_sort", 1))
    plain = locate(tree, NodeRef("function", "sort", 5))
    _, refused = check_pieces(dumb, Pieces(summary="Return the result of dumb_sort."))
    assert next(r["reason"] for r in refused).startswith("it names dumb_sort instead")
    # One word of English is no identifier: "Sort" may name what sort does.
    assert check_pieces(plain, Pieces(summary="Sort the items and return a new list."))[1] == []
