"""An exception is pinned as the node's behaviour only when the node's own code raises it.

The real call probe runs on a made-up two-module project (a registry, and an order
that reserves from it): the ``KeyError`` of an empty registry's lookup is the
set-up's failure, the order's own ``raise`` and a private helper's are its
behaviour, and an exception no ``raise`` states is the set's doing.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from probe_support import probe_outcome

from remora.code.probes.own_raises import documented_exceptions, is_node_behaviour, setup_failure

REGISTRY = """\
class Registry:
    def __init__(self, name):
        self.name = name
        self._items = {}

    def get(self, key):
        if key not in self._items:
            raise KeyError(key)
        return self._items[key]
"""

ORDERS = '''\
from shop.registry import Registry


def _checked(count):
    if count < 0:
        raise ValueError("a count is never negative")
    return count


class Order:
    def __init__(self, keys, state="open"):
        self.keys = keys
        self.state = state

    def reserve(self, registry: Registry):
        if self.state != "open":
            raise RuntimeError("only an open order reserves")
        return [registry.get(key) for key in self.keys]

    def reserve_documented(self, registry):
        """Reserve every key; KeyError when the registry lacks one."""
        return [registry.get(key) for key in self.keys]

    def count(self, count):
        return _checked(count)

    def first(self):
        return self.keys[0]

    def checked_keys(self, limit):
        assert len(self.keys) <= limit, "too many keys"
        return self.keys

    def stated_check(self, limit):
        if len(self.keys) > limit:
            raise AssertionError("too many keys")
        return self.keys
'''


def _probe(tmp_path: Path, qualname: str, owner_args: dict[str, Any], args: dict[str, Any]) -> Any:
    package = tmp_path / "shop"
    package.mkdir(exist_ok=True)
    (package / "__init__.py").write_text("")
    (package / "registry.py").write_text(REGISTRY)
    (package / "orders.py").write_text(ORDERS)
    outcome = probe_outcome(
        tmp_path, "shop.orders", qualname, args, owner="Order", owner_args=owner_args
    )
    return outcome["raised"]


EMPTY = {"__class__": "Registry", "args": {"name": "main"}}


@pytest.mark.parametrize(
    ("qualname", "owner", "args", "kind", "behaviour"),
    [
        # The registry the set built is empty: its lookup's KeyError is the set-up failing.
        ("Order.reserve", {"keys": ["k"]}, {"registry": EMPTY}, "KeyError", False),
        # The order's own raise, on its own state.
        (
            "Order.reserve",
            {"keys": [], "state": "placed"},
            {"registry": EMPTY},
            "RuntimeError",
            True,
        ),
        # The docstring names the registry's KeyError: documented behaviour.
        ("Order.reserve_documented", {"keys": ["k"]}, {"registry": EMPTY}, "KeyError", True),
        # A private helper of the node's module raises for the node.
        ("Order.count", {"keys": []}, {"count": -1}, "ValueError", True),
        # No `raise` states it: an empty list's IndexError is the set's doing.
        ("Order.first", {"keys": []}, {}, "IndexError", False),
        # An `assert` that failed states no behaviour (`python -O` removes it) ...
        ("Order.checked_keys", {"keys": ["k"]}, {"limit": 0}, "AssertionError", False),
        # ... a `raise AssertionError` does.
        ("Order.stated_check", {"keys": ["k"]}, {"limit": 0}, "AssertionError", True),
    ],
)
def test_only_the_nodes_own_raises_are_its_behaviour(
    tmp_path: Path,
    qualname: str,
    owner: dict[str, Any],
    args: dict[str, Any],
    kind: str,
    behaviour: bool,
) -> None:
    raised = _probe(tmp_path, qualname, owner, args)
    assert raised["type"] == kind
    docstring = ORDERS.split('"""')[1] if qualname == "Order.reserve_documented" else ""
    found = is_node_behaviour(raised, qualname, "shop/orders.py", documented_exceptions(docstring))
    assert found is behaviour
    if not behaviour:
        assert "set-up" in setup_failure({"raised": raised})


def test_a_raise_in_another_file_of_the_same_name_is_not_the_nodes(tmp_path: Path) -> None:
    raised = _probe(tmp_path, "Order.reserve", {"keys": ["k"]}, {"registry": EMPTY})
    assert raised["frame"]["function"] == "Registry.get"
    assert not is_node_behaviour(raised, "Registry.get", "shop/orders.py", frozenset())
    assert is_node_behaviour(raised, "Registry.get", "shop/registry.py", frozenset())


def test_documented_exceptions_are_the_docstrings_capitalised_identifiers() -> None:
    found = documented_exceptions("Raises:\n    KeyError: when missing.\n(`OutOfStock`) or not")
    assert {"KeyError", "OutOfStock"} <= found
    assert "when" not in found
