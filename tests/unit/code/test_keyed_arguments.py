"""Dicts with the keys a function reads, instances with the attributes it reads."""

from __future__ import annotations

import ast

from remora.code.constructor import class_lookup
from remora.code.keyed_arguments import attribute_classes, fitted_arguments, keyed_dicts

MODULE = """
from dataclasses import dataclass


@dataclass
class Product:
    sku: str
    price: float


@dataclass
class Order:
    customer: str
    priority: int = 0


def order_from_dict(data, catalogue):
    order = Order(customer=data["customer"])
    for entry in data.get("lines", []):
        order.add(catalogue[entry["sku"]], entry.get("quantity", 1))
    return order


def describe(product, note):
    if product.price > 100:
        return product.sku + note.upper()
    return product.sku
"""


def function(name: str) -> ast.FunctionDef:
    for node in ast.parse(MODULE).body:
        if isinstance(node, ast.FunctionDef) and node.name == name:
            return node
    raise AssertionError(name)


def test_a_subscripted_parameter_gets_the_keys_it_is_read_with() -> None:
    required, fuller = keyed_dicts(function("order_from_dict"), class_lookup(MODULE))
    # The value of "customer" is what Order's constructor takes for customer (a str).
    assert required == {"data": {"customer": "Ada"}}
    # .get keys are tried besides: a loop over one gives one item with the loop's keys,
    # and catalogue, looked up with the item's "sku", holds that key.
    assert fuller == [
        (
            {
                "data": {"customer": "Ada", "lines": [{"sku": "SKU-001", "quantity": 3}]},
                "catalogue": {"SKU-001": "sample catalogue"},
            },
            "data_has_customer_lines",
        )
    ]


def test_a_parameter_read_without_constant_keys_gets_no_dict() -> None:
    required, fuller = keyed_dicts(function("describe"), class_lookup(MODULE))
    assert required == {}
    assert fuller == []


def test_an_unannotated_parameter_whose_attributes_are_read_gets_a_class_that_has_them() -> None:
    found = attribute_classes(
        function("describe"), ["product", "note"], ["Order", "Product"], class_lookup(MODULE)
    )
    # note.upper() is a call, not an attribute read: nothing says note is a project class.
    assert found == {"product": {"__class__": "Product", "args": {"sku": "SKU-001", "price": 9.99}}}


def test_no_class_is_chosen_when_none_takes_every_attribute_read() -> None:
    source = "def f(item):\n    return item.sku + item.colour\n"
    tree = ast.parse(source).body[0]
    assert isinstance(tree, ast.FunctionDef)
    assert attribute_classes(tree, ["item"], ["Order", "Product"], class_lookup(MODULE)) == {}


def test_fitted_arguments_change_the_typical_set_and_add_the_fuller_dict() -> None:
    parameters = [
        {"name": "data", "kind": "positional_or_keyword", "annotation": None, "default": None},
        {"name": "catalogue", "kind": "positional_or_keyword", "annotation": None},
    ]
    base = {"data": "sample data", "catalogue": "sample catalogue"}
    updates, extra = fitted_arguments(
        function("order_from_dict"), parameters, base, ["Order", "Product"], class_lookup(MODULE)
    )
    assert updates == {"data": {"customer": "Ada"}}
    assert [c.why for c in extra] == ["data_has_customer_lines"]
    assert extra[0].args["catalogue"] == {"SKU-001": "sample catalogue"}


def test_a_parameter_annotated_as_something_else_keeps_its_value() -> None:
    parameters = [{"name": "data", "kind": "positional_or_keyword", "annotation": "str"}]
    updates, extra = fitted_arguments(
        function("order_from_dict"), parameters, {"data": "x"}, [], class_lookup(MODULE)
    )
    assert updates == {}
    assert extra == []
