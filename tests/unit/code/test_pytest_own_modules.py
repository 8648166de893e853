"""A project that pytest or coverage.py runs on is not tested: its tests would run the
installed copy (pluggy 1.6.0's every test was dropped for covering none of its lines)."""

from __future__ import annotations

import pytest

from remora.code.probes import pytest_own_module


@pytest.mark.parametrize("module", ["pluggy", "pluggy._manager", "iniconfig", "_pytest.main"])
def test_a_module_the_test_run_loads_first_is_not_tested(module: str) -> None:
    top = module.split(".")[0]
    assert pytest_own_module(module).startswith(f"the test run loads the installed {top} ")


@pytest.mark.parametrize("module", ["shop.orders", "pluggyish", "events"])
def test_any_other_module_is(module: str) -> None:
    assert pytest_own_module(module) == ""
