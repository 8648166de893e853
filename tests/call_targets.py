"""A method's CallTarget for the tests of the value search and the rendered calls."""

from __future__ import annotations

from remora.code.values import CallTarget


def method_target(module: str, owner: str, name: str) -> CallTarget:
    """``owner.name``, an instance method of ``module`` taking nothing, as discovery gives it."""
    return {
        "module": module,
        "qualname": f"{owner}.{name}",
        "name": name,
        "kind": "method",
        "owner": owner,
        "method_kind": "instance",
        "is_async": False,
        "is_generator": False,
        "parameters": [],
        "owner_parameters": [],
        "reason": "",
    }
