"""Every module of src/remora stays under 450 lines (CONTRIBUTING.md): split one that grows.

The toolkit (``code/``) is held to 350, as issue 53 asks of it: a sub-package a reader
can name, each module one idea, none hugging the limit.
"""

from __future__ import annotations

from pathlib import Path

SRC = Path(__file__).resolve().parents[2] / "src" / "remora"
LIMIT = 450
CODE_LIMIT = 350


def _over(root: Path, limit: int) -> dict[str, int]:
    sizes = {p: len(p.read_text(encoding="utf-8").splitlines()) for p in root.rglob("*.py")}
    assert len(sizes) > 50  # the tree was found
    return {str(p.relative_to(SRC)): n for p, n in sizes.items() if n > limit}


def test_no_module_is_over_the_limit() -> None:
    over = _over(SRC, LIMIT)
    assert over == {}, f"split these modules (over {LIMIT} lines): {over}"


def test_no_module_of_the_toolkit_is_over_its_limit() -> None:
    over = _over(SRC / "code", CODE_LIMIT)
    assert over == {}, f"split these modules of code/ (over {CODE_LIMIT} lines): {over}"
