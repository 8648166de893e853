"""Every module of src/remora stays under 450 lines (CONTRIBUTING.md): split one that grows."""

from __future__ import annotations

from pathlib import Path

SRC = Path(__file__).resolve().parents[2] / "src" / "remora"
LIMIT = 450


def test_no_module_is_over_the_limit() -> None:
    sizes = {p: len(p.read_text(encoding="utf-8").splitlines()) for p in SRC.rglob("*.py")}
    assert len(sizes) > 100  # the tree was found
    over = {str(p.relative_to(SRC)): n for p, n in sizes.items() if n > LIMIT}
    assert over == {}, f"split these modules (over {LIMIT} lines): {over}"
