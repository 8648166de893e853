"""A summary's claims checked against the code (issue 57): its nouns are the node's own, its
verb rests on what the body does, a predicate keeps its sense, a comparison dunder says which
comparison; parameter and exception entries say something; docstrings Python never shows or
the program reads are left alone."""

from __future__ import annotations

import pytest

from remora.code.docstring.behaviour import body_facts
from remora.code.docstring.comparisons import comparison_summary
from remora.code.docstring.left_alone import left_alone
from remora.code.docstring.pieces import Pieces, check_pieces
from remora.code.docstring.text import compose
from remora.code.parsing import NodeRef, SourceNode, locate, parse

# Two modules of one made-up package: a garden's beds, and the seeds sown in them.
BEDS = '''\
"""Garden beds and what grows in them."""

from garden.plants import Plant, Seed


class Greenhouse:
    def __init__(self, beds):
        self.beds = beds


class Bed:
    def __init__(self, width, soil):
        self.width = width
        self.soil = soil
        self._rows = []

    def area(self):
        return self.width * len(self._rows)

    def dry(self):
        return self.soil.moisture < self.soil.wilting_point

    def named(self, label):
        self.label = label
        return self

    def show(self):
        return "\\n".join(str(row) for row in self._rows)

    def dump(self, stream):
        stream.write(self.show())

    def on_rain(self, callback):
        self._rows.append(callback)
        return callback

    def sow(self, row):
        if row < 0:
            raise IndexError(row)
        self._rows.append(row)

    def fixed_pause(self, attempt):
        return self.width * 100

    def rest(self, seconds):
        time.sleep(seconds)

    def __lt__(self, other):
        return self.width < other.width

    def __ge__(self, other):
        return self.width >= other.width

    @property
    def label(self):
        return self._label

    @label.setter
    def label(self, value):
        self._label = value
'''


def node(name: str, source: str = BEDS, kind: str = "method") -> SourceNode:
    tree = parse(source, "garden/beds.py")
    line = next(
        i
        for i, text in enumerate(source.splitlines(), 1)
        if f"def {name.rsplit('.', 1)[-1]}(" in text or f"class {name}" in text
    )
    return locate(tree, NodeRef(kind, name, line))


def refusal(name: str, summary: str, source: str = BEDS, kind: str = "method") -> str:
    _, refused = check_pieces(node(name, source, kind), Pieces(summary=summary))
    return "; ".join(r["reason"] for r in refused if r["field"] == "summary")


@pytest.mark.parametrize(
    ("name", "summary", "reason"),
    [
        # Another class's nouns (defined or imported in the module): nothing of Bed.area
        # holds a greenhouse, its plants or seeds.
        ("Bed.area", "Calculate the total area of the greenhouse.", "it speaks of 'greenhouse'"),
        ("Bed.area", "Return the area of the plants.", "it speaks of 'plants'"),
        ("Bed.__init__", "Store the seeds of all greenhouses.", "it speaks of 'seeds'"),
        # The fixed style examples' class is a Stack: not this code's.
        ("Bed.area", "Return the area of the stack.", "it speaks of 'stack'"),
        # Its own words: the method's, its class's (rows, width), its module's (garden, beds);
        # and words that name nothing in sight are the model's description, not borrowed.
        ("Bed.area", "Return the area of the rows of this garden bed, in square units.", ""),
        ("Bed.__init__", "Set up a bed of the given width and soil.", ""),
        ("Greenhouse.__init__", "Keep the beds of this greenhouse.", ""),
        # Six words in a row of another docstring (the module's) are a copy.
        ("Bed.area", "Return the area; what grows in them.", ""),
        ("Bed.area", "Return the area of garden beds and what grows in them.", "it repeats"),
    ],
)
def test_a_summary_borrows_no_other_classs_nouns(name: str, summary: str, reason: str) -> None:
    found = refusal(name, summary)
    assert found.startswith(reason) if reason else found == "", found


def test_a_summary_labelled_with_another_class_is_that_class_s_entry() -> None:
    # "Token: a single character or a substring of a string." on ``def tokenize``: a
    # blind reviewer, "it describes the Token type, not the function".
    assert refusal("Bed.area", "Greenhouse: the beds under one roof.").startswith(
        "it says what the class Greenhouse is"
    )
    assert refusal("Bed.area", "Bed: return its width times its rows.") == ""  # its own
    assert refusal("Bed.area", "Note: return its width times its rows.") == ""  # no class


def test_the_nouns_of_a_neighbouring_file_are_not_borrowed() -> None:
    neighbour = "class Order:\n    pass\n\n\nclass OrderLine:\n    pass\n"
    pieces = Pieces(summary="Return the area of the order.")
    _, refused = check_pieces(node("Bed.area"), pieces, (neighbour,))
    assert refused[0]["reason"].startswith("it speaks of 'order', another class's")
    # Where the module is about orders, the word is its own.
    tree = parse(BEDS, "shop/orders.py")
    area = locate(tree, NodeRef("method", "Bed.area", node("Bed.area").ref.start_line))
    assert check_pieces(area, pieces, (neighbour,))[1] == []


@pytest.mark.parametrize(
    ("name", "summary", "reason"),
    [
        # `return self`: a builder, not a getter of what it sets.
        ("Bed.named", "Return the label.", "it returns only the instance itself"),
        ("Bed.named", "Set the label and return the instance.", ""),
        # No value returned: never "Return …".
        ("Bed.sow", "Return the row sown.", "it says the code returns something"),
        # It returns the text: nothing prints.
        ("Bed.show", "Print the rows of the bed.", "it says the code does 'print'"),
        ("Bed.show", "Pretty-print the rows of the bed.", "it says the code does 'print'"),
        ("Bed.show", "Return the rows of the bed as text.", ""),
        # An object the code never names (uritools' "from the request object": none exists).
        (
            "Bed.area",
            "Return the width of the request object times its row count.",
            "it speaks of the request object",
        ),
        ("Bed.area", "Return the width times the row count of the soil object.", ""),
        ("Bed.area", "Return the width of the current object times its row count.", ""),
        ("Bed.area", "Return the width of the Bed instance times its row count.", ""),
        ("Bed.dump", "Write the rows of the bed to the stream.", ""),
        # It writes: nothing is read.
        ("Bed.dump", "Read the rows of the bed from the stream.", "it says the code does 'read'"),
        # Where an effect lands is named by the code: the stream, never a database.
        ("Bed.dump", "Write the rows to the database.", "it says the code puts something in"),
        ("Bed.on_rain", "Register the callback in the registry.", "it says the code puts"),
        # A parameter without a default is not optional.
        ("Bed.__init__", "Set up a bed; the soil is optional.", "it says soil is optional"),
        # It stores the callback: it never runs it.
        ("Bed.on_rain", "Run the callback.", "it says the code does 'run'"),
        ("Bed.on_rain", "Register the callback and return it.", ""),
        # It returns the pause; its caller sleeps (retrying's `fixed_sleep`: false).
        ("Bed.fixed_pause", "Sleep for a fixed time.", "it says the code does 'sleep'"),
        ("Bed.fixed_pause", "Return the pause, a hundred times the width.", ""),
        ("Bed.rest", "Sleep for the given seconds.", ""),
        ("Bed.area", "Raise the width of the bed.", "it says the code does 'raise'"),
        ("Bed.sow", "Add a row to the bed, or raise an error.", ""),
        # A predicate keeps its sense: moisture < wilting point is dry, not above it.
        (
            "Bed.dry",
            "Check whether the moisture is above the wilting point.",
            "it says the opposite",
        ),
        ("Bed.dry", "Check whether the moisture is below the wilting point.", ""),
        ("Bed.dry", "Check whether the moisture is not below the wilting point.", "it says the op"),
        ("Bed.dry", "Check whether the wilting point exceeds the moisture.", ""),
        # A comparison dunder says which comparison, from the table.
        ("Bed.__lt__", "Compare the widths of two beds.", "it does not say which comparison"),
        ("Bed.__ge__", "Return whether this bed is greater than the other.", "it says 'greater th"),
        ("Bed.__ge__", "Return whether its width is at least the other width.", ""),
    ],
)
def test_the_verb_rests_on_what_the_body_does(name: str, summary: str, reason: str) -> None:
    found = refusal(name, summary)
    assert found.startswith(reason) if reason else found == "", found


def test_a_comparison_dunders_summary_comes_from_the_table() -> None:
    assert comparison_summary(node("Bed.__lt__")) == (
        "Return whether this instance is less than ``other``."
    )
    assert comparison_summary(node("Bed.__ge__")) == (
        "Return whether this instance is greater than or equal to ``other``."
    )
    assert comparison_summary(node("Bed.area")) == ""
    for name in ("Bed.__lt__", "Bed.__ge__"):
        summary = comparison_summary(node(name))
        assert refusal(name, summary) == ""


def test_the_raise_and_its_condition_are_read_once_from_the_body() -> None:
    facts = body_facts(node("Bed.sow"))
    assert facts.raises and facts.raise_conditions == {"IndexError": ["row < 0"]}
    assert body_facts(node("Bed.named")).builder
    assert not body_facts(node("Bed.area")).builder


def test_an_exception_entry_says_when_it_is_raised_or_is_left_out() -> None:
    plan = compose(node("Bed.sow"), Pieces(summary="Add a row to the bed."), "google", None)
    assert plan["text"] == "Add a row to the bed."  # never its condition as code
    given = Pieces(
        summary="Add a row to the bed.", raises={"IndexError": "If the row is negative."}
    )
    plan = compose(node("Bed.sow"), given, "google", None)
    assert (
        plan["text"] == "Add a row to the bed.\n\nRaises:\n    IndexError: If the row is negative."
    )
    source = (
        "def check(size):\n    for part in size:\n        if part:\n            raise KeyError()"
    )
    plan = compose(
        node("check", source + "\n", "function"),
        Pieces(summary="Check each size for a truthy part."),
        "google",
        None,
    )
    # Raised from inside a loop: no condition Remora can state, so no entry.
    assert plan["text"] == "Check each size for a truthy part."
    assert "raises.KeyError: nothing known about when it is raised" in plan["left_out"]
    _, refused = check_pieces(node("Bed.sow"), Pieces(raises={"IndexError": "An IndexError."}))
    assert refused[0]["reason"].startswith("it does not say when IndexError is raised")


def test_a_parameter_entry_with_only_its_type_or_default_is_refused() -> None:
    source = (
        "def pour(litres: float = 1.5, warm: bool = False):\n    return litres if warm else 0\n"
    )
    pour = node("pour", source, "function")
    _, refused = check_pieces(
        pour, Pieces(params={"litres": "A float.", "warm": "Defaults to False."})
    )
    assert [r["field"] for r in refused] == ["params.litres", "params.warm"]
    assert all(r["reason"].startswith("it gives only the name, type or default") for r in refused)
    plan = compose(
        pour,
        Pieces(summary="Pour the litres when warm.", params={"litres": "How much."}),
        "google",
        None,
    )
    assert plan["text"] == "Pour the litres when warm."  # warm says nothing: no section at all


@pytest.mark.parametrize(
    ("source", "name", "kind", "why"),
    [
        (
            BEDS,
            "Bed.label",
            "method",
            "Python shows the property getter's docstring, never a setter's",
        ),
        (
            '"""Water the beds."""\nimport argparse\n\n'
            "parser = argparse.ArgumentParser(description=__doc__)\n",
            "garden/water.py",
            "file",
            "the module reads its own __doc__",
        ),
        (
            "class Tool:\n    def help(self):\n        return self.__doc__\n",
            "Tool",
            "class",
            "the code reads Tool.__doc__",
        ),
        (
            "import click\n\n\n@click.command()\ndef water():\n    pass\n",
            "water",
            "function",
            "its docstring is the help text of a command",
        ),
    ],
)
def test_docstrings_python_never_shows_or_the_program_reads_are_left_alone(
    source: str, name: str, kind: str, why: str
) -> None:
    if kind == "file":
        located = locate(parse(source, name), NodeRef("file", name, 1))
    elif name == "Bed.label":
        tree = parse(source, "garden/beds.py")
        line = source.splitlines().index("    @label.setter") + 1
        located = locate(tree, NodeRef(kind, name, line))
    else:
        located = node(name, source, kind)
    assert left_alone(located).startswith(why)
    plan = compose(located, Pieces(summary="Water the beds."), "google", None)
    assert plan["text"] is None and plan["kept"].startswith(why)


def test_the_getter_and_plain_code_are_not_left_alone() -> None:
    tree = parse(BEDS, "garden/beds.py")
    line = BEDS.splitlines().index("    @property") + 1
    assert left_alone(locate(tree, NodeRef("method", "Bed.label", line))) == ""
    assert left_alone(node("Bed.area")) == ""


def test_special_methods_and_modules_are_asked_only_when_the_options_say_so() -> None:
    init, area = node("Bed.__init__"), node("Bed.area")
    module = locate(parse(BEDS, "garden/beds.py"), NodeRef("file", "garden/beds.py", 1))
    assert left_alone(init).startswith("a special method means what Python's data model says")
    assert left_alone(module).startswith("a module's docstring is written only on request")
    assert left_alone(init, special_methods=True) == ""
    assert left_alone(module, modules=True) == ""
    assert left_alone(area) == ""  # a plain method is asked whatever the options
    # Asked for, a special method's docstring is written like any other.
    plan = compose(init, Pieces(summary="Make a bed of the width and soil."), "google", None)
    assert plan["text"] == "Make a bed of the width and soil."


TAGS = """\
import random


def tag_for(element, low=1, high=9):
    return "%s_%s" % (element, random.randint(low, high))


def fresh_tag(element, taken):
    tag = tag_for(element)
    while tag in taken:
        tag = tag_for(element)
    taken.append(tag)
    return tag


def kinds(items):
    return sorted(set(type(item).__name__ for item in items))


def level(kind):
    if kind in ("low", "high"):
        return kind
    return "mid"
"""


@pytest.mark.parametrize(
    ("name", "summary", "refused"),
    [
        # dicttoxml's make_id: a random number after the name keeps nothing apart (false).
        ("tag_for", "Generate a unique tag for an element within a range.", True),
        ("tag_for", "Return the element's name followed by a random number.", False),
        # A look-up among those already taken does; so does a set.
        ("fresh_tag", "Return a unique tag for the element.", False),
        ("kinds", "Return the unique type names of the items, sorted.", False),
        # A look-up among constants written out is no such check.
        ("level", "Return the unique level of the kind.", True),
    ],
)
def test_unique_rests_on_code_that_keeps_values_apart(
    name: str, summary: str, refused: bool
) -> None:
    found = refusal(name, summary, TAGS, "function")
    assert found.startswith("it says 'unique'") if refused else found == "", found


LITERALS = """\
import re


def spread(text, limit=100):
    parts = [part for part in re.split(r"[{}]", text) if part]
    return [head + tail for head in parts[:1] for tail in parts[1:limit]]


def shout(text):
    return text.upper()
"""


@pytest.mark.parametrize(
    ("name", "summary", "refused"),
    [
        # bracex's expand_str and expand: the means read off the name (both false).
        ("spread", "Expand a string by repeating it a certain number of times.", True),
        ("spread", "Expand a string by replacing escape sequences with characters.", True),
        # The module ``re`` is no abbreviation of "replacing" or "repeating" here. A means
        # the code says, in its own words or a longer form of them, stays.
        ("spread", "Join the first part of the text to the others by splitting it.", False),
        ("shout", "Return the text in capitals using upper.", False),
        # General words say nothing to check; "based on" joins the clause.
        ("shout", "Return the text using a specific case based on the text.", False),
        # A library the code never names (pyfiglet's "using the Figlet library").
        ("shout", "Return the text in capitals using the Unicode library.", True),
    ],
)
def test_a_means_is_one_the_code_says(name: str, summary: str, refused: bool) -> None:
    found = refusal(name, summary, LITERALS, "function")
    assert found.startswith("it says how") if refused else "it says how" not in found, found
