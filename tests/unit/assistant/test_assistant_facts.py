"""The host's facts for a question: which globals and expressions it names, and what
the capabilities return about them for the first message."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from remora.assistant.capabilities import Capabilities
from remora.assistant.executor import CapabilityExecutor
from remora.assistant.question_facts import MAX_SUBJECTS, gather_facts, question_subjects

SCRIPT = """\
class Point:
    def __init__(self, x, y):
        self.x = x
        self.y = y

def area(r):
    '''Area of a circle of radius r.'''
    return 3 * r * r

def wipe():
    stock.clear()

items = [3, 1, 2]
total = sum(items)
stock = {'apple': 12, 'plum': 7}
p = Point(3, 4)
name = 'ada'
"""


def namespace() -> dict[str, Any]:
    ns: dict[str, Any] = {"__builtins__": __builtins__}
    exec(SCRIPT, ns)
    return ns


@pytest.mark.parametrize(
    ("question", "subjects"),
    [
        ("What is the value of total?", ["total"]),
        ("What's total's value, and items'?", ["total", "items"]),
        ("Is Total the same as totals?", []),  # only names the session has, exactly
        ("What is stock['plum']?", ["stock['plum']", "stock"]),
        ('What is `stock["apple"]` now?', ["stock['apple']", "stock"]),
        ("What is p.x.", ["p.x", "p"]),
        ("What does area(2) return?", ["area(2)", "area"]),
        ("What does area(max([2, 3])) give?", ["area(max([2, 3]))", "area"]),
        ("What is len(items)?", ["len(items)", "items"]),
        ("What does area(total) give?", ["area(total)", "area", "total"]),
        # Private attributes, subscripts by a computed key, unknown callees and
        # arguments the host cannot read are left to the model's own calls.
        ("What is p._hidden or stock[k]?", ["p", "stock"]),
        ("Does print(items) work?", ["items"]),
        ("And area(*items)?", ["area", "items"]),
        ("Or wipe(lambda: 1)?", ["wipe"]),
        ("Why did it fail?", []),
    ],
)
def test_subjects_are_the_globals_and_readable_expressions_named(
    question: str, subjects: list[str]
) -> None:
    assert question_subjects(question, namespace()) == subjects


def test_hidden_and_dunder_names_are_no_subjects() -> None:
    ns = namespace()
    ns["In"] = ["x"]
    assert question_subjects("What are In and __name__ and items?", ns, {"In"}) == ["items"]


def test_subjects_are_capped() -> None:
    ns = {f"v{i}": i for i in range(MAX_SUBJECTS + 3)}
    question = " ".join(ns)
    assert question_subjects(question, ns) == list(ns)[:MAX_SUBJECTS]


def facts_for(question: str, error: BaseException | None = None) -> tuple[str, list[Any]]:
    executor = CapabilityExecutor(Capabilities(namespace(), last_exception=lambda: error))
    facts = gather_facts(question, executor)
    assert list(facts.records) == executor.facts and executor.records == []
    assert all(record.by == "host" for record in facts.records)
    return facts.text, [(r.name, r.arguments) for r in facts.records]


def test_a_value_gets_its_type_repr_and_length_from_the_capabilities() -> None:
    text, _ = facts_for("What is name?")
    assert "- name: type str, value 'ada', 3 characters (its len)" in text
    text, calls = facts_for("What is the value of total? And items?")
    assert text.splitlines() == [
        "Facts the functions returned for this question:",
        "- total: type int, value 6",
        "- items: type list, value [3, 1, 2], 3 items (its len)",
    ]
    assert calls == [
        ("get_type", {"expr": "total"}),
        ("get_repr", {"expr": "total", "max_chars": 400}),
        ("get_type", {"expr": "items"}),
        ("get_repr", {"expr": "items", "max_chars": 400}),
        ("eval_expr", {"expr": "len(items)"}),
        ("get_last_exception", {}),
    ]


def test_an_instance_gets_its_attributes_and_a_function_its_docstring() -> None:
    text, _ = facts_for("What is p? What is area?")
    assert "- p: type Point, value <" in text
    assert "attributes {'x': 3, 'y': 4}" in text
    assert "- area: type function, docstring 'Area of a circle of radius r.'\n" in text + "\n"


def test_a_call_the_question_writes_is_evaluated_once() -> None:
    text, calls = facts_for("What does area(2) return?")
    assert "- area(2) returns 12" in text
    assert calls.count(("eval_expr", {"expr": "area(2)"})) == 1


def test_a_failing_expression_is_a_fact_too() -> None:
    text, _ = facts_for("What is stock['pear']?")
    assert "- stock['pear']: evaluating it raised KeyError: 'pear'" in text


def test_the_last_exception_comes_with_where_it_was_raised(tmp_path: Path) -> None:
    ns: dict[str, Any] = {}
    script = tmp_path / "job.py"
    script.write_text("def inner(d):\n    return d['k']\n\ndef outer():\n    return inner({})\n")
    exec(compile(script.read_text(), str(script), "exec"), ns)
    try:
        ns["outer"]()
    except KeyError as exc:
        error: BaseException = exc
    text, calls = facts_for("Why did it fail?", error)
    assert ("list_globals", {}) in calls and calls[-1] == ("get_last_exception", {})
    lines = text.splitlines()
    assert "- the session's globals: Point (type), area (function)" in lines[1]
    at = lines.index("- the last exception raised: KeyError: 'k'")
    assert lines[at + 1] == "  raised at line 2 of job.py, in inner(): return d['k']"
    assert lines[at + 2] == "  called from line 5 of job.py, in outer(): return inner({})"


def test_no_subject_and_no_exception_gives_the_globals_only() -> None:
    text, calls = facts_for("hello?")
    assert calls == [("list_globals", {}), ("get_last_exception", {})]
    assert text.count("\n- ") == 1


def test_an_object_whose_attribute_lookup_raises_still_gets_facts() -> None:
    class Hostile:
        def __getattr__(self, name: str) -> Any:
            raise RuntimeError(f"no {name}")

        def __repr__(self) -> str:
            raise ValueError("no repr either")

    ns = {"h": Hostile()}
    executor = CapabilityExecutor(Capabilities(ns, last_exception=lambda: None))
    text = gather_facts("What is h?", executor).text
    assert "- h: type Hostile, repr() raised ValueError: no repr either, attributes {}" in text
    assert executor.facts[1].envelope["error"]["message"] == "ValueError: no repr either"
