"""A registry a module holds is asserted by no length: its size is what was registered.

A blind reviewer rejected ``len(get_services()) == 4`` ("a magic count that breaks whenever
a plugin is installed or a service is added"). The probe's real program runs the invented
module on a Python subprocess (``probe_support``).
"""

from __future__ import annotations

from pathlib import Path

from probe_support import probe_outcome

REGISTRY = """\
SERVICES = {"a": len, "b": print}


def get_services():
    return SERVICES


def fresh_services():
    return dict(SERVICES)
"""


def test_a_container_a_module_holds_gets_no_length_and_a_copy_does(tmp_path: Path) -> None:
    (tmp_path / "registry.py").write_text(REGISTRY)
    held = probe_outcome(tmp_path, "registry", "get_services", {})["returned"]
    assert held.get("module_held") is True and "length" not in held
    copy = probe_outcome(tmp_path, "registry", "fresh_services", {})["returned"]
    assert copy["length"] == 2 and "module_held" not in copy
