"""A literal the project's own calls pass for a parameter stands in for a made-up value.

Made-up module: a validator whose ``field(self, expr, label)`` its ``check`` calls as
``self.field(parts[0], "Minute")``: the label is the project's literal, the expression
computed. The search gives ``label`` that literal, not ``"sample label"``; ``expr`` stays
the search's own. Real ``ast``, discovery and a real workspace; nothing runs.
"""

from __future__ import annotations

from pathlib import Path

from candidate_support import candidates_of

from remora.code.values.call_sites import literal_arguments

CHECKS = """\
class Checker:
    def check(self, text):
        parts = text.split()
        self.field(parts[0], "Minute")
        self.field(parts[1], label="Hour")

    def field(self, expr, label):
        if not expr.isdigit():
            raise ValueError(f"({label}) not a number: {expr!r}")
        return int(expr)
"""


def test_the_literal_arguments_of_calls_whose_others_are_computed() -> None:
    found = literal_arguments(CHECKS, "field", "Checker")
    assert found == [(1, "Minute"), ("label", "Hour")]
    # Positions after a spread say nothing.
    assert literal_arguments("f(*xs, 2)\nf(1, *xs)\n", "f") == [(0, 1)]
    # Another object's method of the same name is not this code: a dict's get, a list's
    # append; nor a function's name called on something.
    other = "cache.get(key, None)\nrows.append('x')\nself.get('k')\nm.f(3)\n"
    assert literal_arguments(other, "get", "Store") == [(0, "k")]
    assert literal_arguments(other, "append", "Store") == []
    assert literal_arguments(other, "f") == []
    # A name the module binds to an instance of the class is one: annotated or built.
    users = "def announce(bus: Bus):\n    bus.publish('news')\nb = Bus()\nb.publish(topic='x')\n"
    assert set(literal_arguments(users, "publish", "Bus")) == {(0, "news"), ("topic", "x")}
    assert literal_arguments(users, "publish", "Queue") == []


def test_the_search_gives_a_parameter_the_projects_literal(tmp_path: Path) -> None:
    found = candidates_of(tmp_path, "checks.py", CHECKS, "Checker.field")
    labels = {c.args.get("label") for c in found if "label" in c.args}
    # The made-up texts ("sample label", "other label") gone; an edge value (None) stays.
    assert "Minute" in labels and not {"sample label", "other label"} & labels, labels
    assert any(c.args.get("expr") not in ("Minute", None) for c in found)


TRANSLATOR = """\
class Translator:
    def xpath_attrib(self, xpath, operator, name, value):
        method = getattr(self, "xpath_attrib_%s" % operator)
        return method(xpath, "@" + name, value)

    def xpath_class(self, xpath, value):
        return self.xpath_attrib_includes(xpath, "@class", value)

    def xpath_attrib_includes(self, xpath, name, value):
        return f"{xpath}[contains({name}, {value!r})]"

    def xpath_attrib_exists(self, xpath, name, value):
        return f"{xpath}[{name}]"

    def xpath_other(self, xpath, label, value):
        return f"{xpath}[{label}]"
"""


def test_a_method_takes_what_the_project_passes_to_a_sibling_of_the_same_parameters(
    tmp_path: Path,
) -> None:
    # cssselect's ``xpath_attrib_exists`` is called only through getattr: its tests gave
    # ``name="Alice"`` (reviewer: edit, "callers pass an XPath attribute such as '@lang'").
    found = candidates_of(tmp_path, "xpath.py", TRANSLATOR, "Translator.xpath_attrib_exists")
    names = {c.args.get("name") for c in found if "name" in c.args}
    assert "@class" in names and "Alice" not in names, names
    # A method whose parameters differ is no sibling: nothing lent to its ``label``.
    other = candidates_of(tmp_path, "xpath.py", TRANSLATOR, "Translator.xpath_other")
    assert "@class" not in {c.args.get("label") for c in other}
