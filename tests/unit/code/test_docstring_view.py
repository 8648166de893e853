"""A node longer than the model's context is shown shortened, never whole (issue 57: a large
class failed its docstring run with a context overflow)."""

from __future__ import annotations

from remora.code.docstring.view import VIEW_CHARS, view_of
from remora.code.parsing import NodeRef, locate, parse
from remora.config.model import ModelConfig


def big_class(methods: int) -> str:
    lines = [
        "import math",
        "",
        "",
        "@dataclass",
        "class Ledger(Base):",
        "    rate: float = 0.5",
        "",
    ]
    lines += ["    limit = 10", ""]
    for i in range(methods):
        lines += [
            f"    def entry_{i}(self, amount: float, *, note: str = '') -> float:",
            f"        total = amount * self.rate + {i}",
            "        if total > self.limit:",
            "            total = math.floor(total)",
            "        return total",
            "",
        ]
    return "\n".join(lines) + "\n"


def test_the_view_fits_half_the_default_context() -> None:
    assert ModelConfig().n_ctx_per_slot // 2 * 3 == VIEW_CHARS


def test_a_node_that_fits_is_shown_whole() -> None:
    source = big_class(2)
    node = locate(parse(source, "m.py"), NodeRef("class", "Ledger", 4))
    view = view_of(node)
    assert not view["shortened"] and view["text"] == source[source.index("@dataclass") :].rstrip()


def test_a_class_longer_than_the_context_keeps_its_header_attributes_and_signatures() -> None:
    source = big_class(120)  # ~26,000 characters: several times the context
    node = locate(parse(source, "m.py"), NodeRef("class", "Ledger", 4))
    view = view_of(node)
    text = view["text"]
    assert view["shortened"] and view["lines"] > 700
    assert len(text) <= VIEW_CHARS
    assert text.startswith("@dataclass\nclass Ledger(Base):\n    rate: float = 0.5\n")
    assert "    limit = 10" in text
    # Every signature it could fit, in order; the bodies left out are marked.
    assert "    def entry_0(self, amount: float, *, note: str = '') -> float:" in text
    assert "        ... # 5 lines not shown" in text  # a body and the blank line after it
    shown = [line for line in text.splitlines() if line.startswith("    def ")]
    assert len(shown) > 60 and shown[-1].startswith(f"    def entry_{len(shown) - 1}(")


def test_a_long_function_keeps_its_signature_and_the_top_of_its_body() -> None:
    body = "".join(
        f"    x{i} = value * {i}  # step {i} of the long computation\n" for i in range(400)
    )
    source = f"def long(value: int) -> int:\n{body}    return value\n"
    node = locate(parse(source, "m.py"), NodeRef("function", "long", 1))
    view = view_of(node, max_chars=2000)
    lines = view["text"].splitlines()
    assert len(view["text"]) <= 2000
    assert lines[0] == "def long(value: int) -> int:" and lines[1].startswith("    x0 = value * 0")
    assert lines[-1].startswith("    ... #") and lines[-1].endswith("lines not shown")
