"""Owners built to take a method's branches on its own state; the state a method changes."""

from __future__ import annotations

import ast
from typing import Any, cast

from remora.code.values.attribute_uses import attribute_parameters
from remora.code.values.call_render import CallRender
from remora.code.values.call_target import CallTarget
from remora.code.values.class_lookup import class_lookup
from remora.code.values.constructor import constructor_of
from remora.code.values.derived_sets import argument_sets
from remora.code.values.instance_search import (
    class_strings,
    owner_variants,
    state_boundaries,
)
from remora.code.values.method_state import changed_attributes
from remora.code.values.parameters import Parameter
from remora.code.values.value_asserts import state_asserts

ORDERS = """
from dataclasses import dataclass, field
from datetime import datetime


@dataclass
class Item:
    sku: str
    quantity: int


@dataclass
class Basket:
    owner: str
    items: list[Item] = field(default_factory=list)
    status: str = "open"
    closed_at: datetime | None = None

    def add(self, sku, quantity=1):
        if self.status != "open":
            raise RuntimeError("closed")
        for item in self.items:
            if item.sku == sku:
                item.quantity += quantity
                return item
        item = Item(sku, quantity)
        self.items.append(item)
        return item

    def close(self):
        if self.closed_at is None:
            self.closed_at = datetime.now()
        self.status = "closed"
        self.count = len(self.items)
        self._cache = None


class Shelf:
    def __init__(self, name, stock):
        self.name = name
        self.stock = stock
        self._seen = {}

    def take(self, sku):
        if sku in self.stock:
            self.stock[sku] -= 1
        if self._seen:
            return 1
        return 0
"""


def method(class_name: str, name: str) -> ast.FunctionDef:
    for node in ast.walk(ast.parse(ORDERS)):
        if isinstance(node, ast.ClassDef) and node.name == class_name:
            for stmt in node.body:
                if isinstance(stmt, ast.FunctionDef) and stmt.name == name:
                    return stmt
    raise AssertionError(f"no {class_name}.{name}")


def variants(
    class_name: str, name: str, method_args: dict[str, Any], states: bool = True
) -> dict[str, dict[str, Any]]:
    """words -> the owner arguments that differ from the typical owner's."""
    lookup = class_lookup(ORDERS)
    params = constructor_of(ORDERS, class_name).parameters
    owner = argument_sets(list(params), lookup, 1)[0]["args"]
    attributes = attribute_parameters(ORDERS, class_name, params)
    strings = class_strings(ORDERS, class_name) if states else {}
    found = owner_variants(
        method(class_name, name), attributes, owner, method_args, lookup, strings
    )
    return {words: {k: v for k, v in args.items() if owner[k] != v} for args, words in found}


def test_a_dataclass_field_is_its_own_attribute() -> None:
    params = constructor_of(ORDERS, "Basket").parameters
    assert set(attribute_parameters(ORDERS, "Basket", params)) == {
        "owner",
        "items",
        "status",
        "closed_at",
    }


def test_an_init_parameter_counts_only_where_it_is_assigned_to_an_attribute() -> None:
    params = constructor_of(ORDERS, "Shelf").parameters
    found = attribute_parameters(ORDERS, "Shelf", params)
    assert {a: p.name for a, p in found.items()} == {"name": "name", "stock": "stock"}


def test_a_comparison_of_the_state_gives_an_owner_on_each_side() -> None:
    found = variants("Basket", "add", {"sku": "sample sku", "quantity": 1}, states=False)
    assert found["self_status_is_not_open"] == {"status": ""}
    assert "self_status_is_open" not in found  # the typical owner is open already


def test_the_other_side_of_a_string_comparison_is_a_state_the_class_knows() -> None:
    assert class_strings(ORDERS, "Basket") == {"status": ["open", "closed"]}
    found = variants("Basket", "add", {"sku": "sample sku", "quantity": 1})
    assert found["self_status_is_closed"] == {"status": "closed"}
    assert not any(args.get("status") == "" for args in found.values())


def test_a_loop_over_a_collection_gives_one_item_built_by_the_constructor_rules() -> None:
    found = variants("Basket", "add", {"sku": "sample sku", "quantity": 1})
    assert found["self_items_has_one_item"] == {
        "items": [{"__class__": "Item", "args": {"sku": "sample sku", "quantity": 4}}]
    }
    other = found["self_items_has_another_item"]["items"]
    assert other[0]["args"]["sku"] != "sample sku"  # the loop's other way out
    # A branch inside the loop needs the state change and the item together.
    assert found["self_status_is_closed_and_items_has_one_item"]["status"] == "closed"


def test_is_none_gives_the_set_side_too() -> None:
    found = variants("Basket", "close", {})
    # A datetime is built as one, never its ISO text (issue 56: a str where a datetime is wanted).
    assert found["self_closed_at_is_set"] == {
        "closed_at": {
            "__class__": "datetime.datetime",
            "args": {"year": 2023, "month": 12, "day": 1, "hour": 8, "minute": 30},
        }
    }


def test_membership_in_a_dict_gives_a_dict_keyed_by_the_methods_argument() -> None:
    found = variants("Shelf", "take", {"sku": "sample sku"})
    # The item is a number: the method takes 1 from it.
    assert found["self_stock_has_key_sku"] == {"stock": {"sample sku": 10}}


def test_state_only_other_methods_set_is_left_alone() -> None:
    found = variants("Shelf", "take", {"sku": "sample sku"})
    assert not any("seen" in words for words in found)


def test_changed_attributes_are_public_and_stable() -> None:
    assert changed_attributes(method("Basket", "add")) == ["items"]
    # closed_at comes from the clock and _cache is private: neither is asserted.
    assert changed_attributes(method("Basket", "close")) == ["status", "count"]
    assert changed_attributes(method("Shelf", "take")) == ["stock"]


def test_an_attribute_set_from_a_local_that_holds_the_time_is_not_asserted() -> None:
    source = (
        "def stamp(self):\n"
        "    started = time.time()\n"
        "    self.started = started\n"
        "    self.runs += 1\n"
    )
    stamp = ast.parse(source).body[0]
    assert isinstance(stamp, ast.FunctionDef)
    assert changed_attributes(stamp) == ["runs"]


def test_state_asserts_take_literals_and_lengths_and_leave_the_rest() -> None:
    render = CallRender(cast(CallTarget, {}), set())
    state = {
        "status": {"repr": "'closed'", "literal": True},
        "total": {"repr": "2.5", "literal": True},
        "done": {"repr": "True", "literal": True},
        "items": {"repr": "[Item(sku='A', quantity=1)]", "literal": False, "length": 1},
        "owner": {"repr": "<Owner object at 0x7f>", "literal": False},
        "opened": {
            "repr": "datetime.date(2024, 1, 2)",
            "literal": False,
            "constructed": {"imports": [["datetime"]]},
        },
        "price": {
            "repr": "Decimal('2.50')",
            "literal": False,
            "constructed": {"imports": [["decimal", "Decimal"]]},
        },
    }
    assert state_asserts("basket", state, render) == [
        "assert basket.status == 'closed'",
        "assert basket.total == pytest.approx(2.5)",
        "assert basket.done is True",
        "assert len(basket.items) == 1",
        "assert basket.opened == datetime.date(2024, 1, 2)",
        "assert basket.price == Decimal('2.50')",
    ]
    assert render.modules == {"pytest", "datetime"}
    assert render.from_imports == {("decimal", "Decimal")}


def test_a_rebuilt_class_the_nodes_module_binds_is_imported_from_it() -> None:
    # bidict: the probe names ``bidict.BidictBase`` (its ``__module__``); the test imports
    # the node from ``bidict._base``, which binds that name: one import, not two.
    render = CallRender(cast(CallTarget, {}), {"BidictBase", "Other"})
    seen = {
        "repr": "BidictBase()",
        "literal": False,
        "constructed": {"imports": [["bidict", "BidictBase"], ["kit", "Item"]]},
    }
    assert state_asserts("base", {"copy": seen}, render) == ["assert base.copy == BidictBase()"]
    assert render.imports == {"BidictBase"}
    assert render.from_imports == {("kit", "Item")}


def test_a_method_of_a_class_without_a_readable_constructor_gets_no_variants() -> None:
    assert attribute_parameters(ORDERS, "Missing", [Parameter("x", "positional_or_keyword")]) == {
        "x": Parameter("x", "positional_or_keyword")
    }


STOCK = """\
class Bin:
    def __init__(self, count: int = 0, label: str = "a"):
        self.count = count
        self.label = label

    def take(self, n):
        if n > self.count:
            raise ValueError("not enough")
        self.count -= n
"""


def test_a_parameter_compared_with_the_instances_number_gets_that_numbers_boundary() -> None:
    method = next(
        f for f in ast.walk(ast.parse(STOCK)) if isinstance(f, ast.FunctionDef) and f.name == "take"
    )
    target = {
        "kind": "method",
        "method_kind": "instance",
        "owner": "Bin",
        "owner_parameters": [
            {"name": "count", "kind": "positional_or_keyword", "annotation": "int", "default": "0"},
            {
                "name": "label",
                "kind": "positional_or_keyword",
                "annotation": "str",
                "default": "'a'",
            },
        ],
    }
    found = {value for name, value, _ in state_boundaries(method, STOCK, target, {"count": 12}, {})}
    assert {12, 13} <= found  # both sides of `n > self.count` on the instance the test builds
    assert state_boundaries(method, STOCK, target, {"label": "b"}, {}) == []


BANNER = """\
class Banner:
    def __init__(self, direction="auto"):
        self._direction = direction

    @property
    def direction(self):
        if self._direction == "auto":
            return "left-to-right"
        return self._direction
"""


def test_what_a_method_returns_beside_the_attribute_itself_is_a_state_of_it() -> None:
    # pyfiglet's ``direction``: ``Figlet(direction="")`` for the other side of "auto", a
    # blind reviewer's "pass a real value such as 'right-to-left'".
    assert class_strings(BANNER, "Banner") == {"_direction": ["auto", "left-to-right"]}
    params = constructor_of(BANNER, "Banner").parameters
    attributes = attribute_parameters(BANNER, "Banner", params)
    direction = next(
        n
        for n in ast.walk(ast.parse(BANNER))
        if isinstance(n, ast.FunctionDef) and n.name == "direction"
    )
    found = owner_variants(
        direction, attributes, {}, {}, class_lookup(BANNER), class_strings(BANNER, "Banner")
    )
    given = [args for args, _words in found]
    assert {"direction": "left-to-right"} in given and {"direction": ""} not in given
