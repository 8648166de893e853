"""Dicts with the keys a function reads, instances with the attributes it reads."""

from __future__ import annotations

import ast

from remora.code.values.class_lookup import class_lookup
from remora.code.values.keyed_arguments import attribute_classes, fitted_arguments, keyed_dicts

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


@dataclass
class Shortage:
    sku: str


@dataclass
class Line:
    product: Product
    quantity: int


class Shelf:
    def __init__(self, name):
        self.name = name


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
    assert required == {"data": {"customer": "sample customer"}}
    # .get keys are tried besides: a loop over one gives one item with the loop's keys,
    # and catalogue, looked up with the item's "sku", holds that key.
    assert fuller == [
        (
            {
                "data": {
                    "customer": "sample customer",
                    "lines": [{"sku": "sample sku", "quantity": 4}],
                },
                "catalogue": {"sample sku": "sample catalogue"},
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
    assert found == {
        "product": {"__class__": "Product", "args": {"sku": "sample sku", "price": 19.0}}
    }


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
    assert updates == {"data": {"customer": "sample customer"}}
    assert [c.why for c in extra] == ["data_has_customer_lines"]
    assert extra[0].args["catalogue"] == {"sample sku": "sample catalogue"}


def test_a_parameter_annotated_as_something_else_keeps_its_value() -> None:
    parameters = [{"name": "data", "kind": "positional_or_keyword", "annotation": "str"}]
    updates, extra = fitted_arguments(
        function("order_from_dict"), parameters, {"data": "x"}, [], class_lookup(MODULE)
    )
    assert updates == {}
    assert extra == []


def test_a_field_of_that_name_says_which_class_a_parameter_is() -> None:
    # Shortage takes fewer arguments, but Line.product is a Product.
    names = ["Line", "Order", "Product", "Shortage"]
    found = attribute_classes(function("describe"), ["product"], names, class_lookup(MODULE))
    assert found["product"]["__class__"] == "Product"
    found = attribute_classes(function("describe"), ["product"], ["Shortage"], class_lookup(MODULE))
    assert found == {}  # Shortage has no price


def test_a_parameter_named_after_a_class_is_one_even_when_only_its_methods_are_called() -> None:
    source = "def restock(shelf, sku):\n    return shelf.get(sku)\n"
    tree = ast.parse(source).body[0]
    assert isinstance(tree, ast.FunctionDef)
    found = attribute_classes(tree, ["shelf", "sku"], ["Shelf", "Product"], class_lookup(MODULE))
    assert found == {"shelf": {"__class__": "Shelf", "args": {"name": "Alice"}}}


TREE_WALKS = """
def flatten(part, seen):
    for part in part["parts"]:
        seen.append(part["label"])
    return seen


def pairs(left, right):
    for right in left["right"]:
        for left in right["left"]:
            yield left
"""


def test_a_loop_that_reads_its_own_name_again_gets_a_bounded_nest() -> None:
    # ``for part in part["parts"]``: the loop's reads are of the name iterated, so the
    # item's keys include "parts" again; before, the search recursed until RecursionError.
    tree = ast.parse(TREE_WALKS)
    functions = {f.name: f for f in tree.body if isinstance(f, ast.FunctionDef)}
    required, _ = keyed_dicts(functions["flatten"], class_lookup(TREE_WALKS))
    label = "sample label"
    leaf = {"parts": ["sample part"], "label": label}  # the name's typical value below
    assert required == {"part": {"parts": [{"parts": [leaf], "label": label}], "label": label}}
    # Two loops reading each other's names are bounded the same way.
    required, _ = keyed_dicts(functions["pairs"], class_lookup(TREE_WALKS))
    assert required["left"] == {"right": [{"left": [{"right": "sample right"}]}]}
