"""A script Monty found clean is not checked again while its code and stubs are unchanged."""

from __future__ import annotations

from pathlib import Path

import pytest

from remora.sandbox import checker

CLEAN = "x = 1\nx + 1\n"
BROKEN = "class A(B):\n    pass\n"


def test_a_clean_check_is_remembered_and_a_failing_one_is_not(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("REMORA_CHECK_CACHE", str(tmp_path))
    assert checker.monty_findings(CLEAN, "", "s.pym", "s.pym") == ([], [])
    assert len(list(tmp_path.iterdir())) == 1
    errors, _ = checker.monty_findings(BROKEN, "", "b.pym", "b.pym")
    assert errors and len(list(tmp_path.iterdir())) == 1

    def no_check(*args: object) -> object:
        raise AssertionError("a remembered clean script was checked again")

    monkeypatch.setattr(checker, "_check", no_check)
    assert checker.monty_findings(CLEAN, "", "s.pym", "s.pym") == ([], [])
    with pytest.raises(AssertionError):  # other stubs: a different check
        checker.monty_findings(CLEAN, "y: int\n", "s.pym", "s.pym")
