"""The docstring agent's tool scripts in the real sandbox, on real files."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from ast_definitions import definition_named
from bundled_agents_support import bench, copy_sample, find_node, write_project

from remora.workspace.diff import change_stats

pytestmark = pytest.mark.integration

SOURCE = '''\
#!/usr/bin/env python
# A header comment.
import os


def total(items: list[float], tax: float = 0.1, *args, rounded: bool = False, **kw) -> float:
    if tax < 0:
        raise ValueError("tax must be positive")
    return sum(items) * (1 + tax)


def inline(x): return x


class Cart:
    """A cart.

    Args:
        owner: Who owns it.

    Examples:
        >>> Cart("a")
    """

    def add(self, item: str, qty: int = 1) -> None:
        \'\'\'Add an item.

        Args:
            item (str): The thing to add.
        \'\'\'
        pass

    async def fetch(
        self,
        url: str,  # the url
    ):
        return url
'''


def docstring_of(text: str, qualname: str) -> str | None:
    if qualname == "":
        return ast.get_docstring(ast.parse(text))
    return ast.get_docstring(definition_named(text, qualname))


def outside(old: str, new: str, inserted: str) -> None:
    """Every byte of old is in new, in order, and the rest is exactly ``inserted``."""
    assert new.replace(inserted, "", 1) == old


async def write(
    root: Path,
    qualname: str | None,
    style: str,
    summary: str = "Compute the total of the items with tax.",
    **pieces: object,
) -> tuple[dict[str, object], str]:
    node = find_node(root, "m.py", qualname)
    async with bench(root) as b:
        result = await b.run(
            "docstring",
            "write_docstring",
            node,
            {"summary": summary, "style": style, "details": True, **pieces},
        )
        return result, b.text("docstring", node, "m.py")


# Issue 57: every parameter described, or no section (a bare "*args:" or "Defaults to
# ``0.1``." only repeats the signature).
TOTAL_PIECES: dict[str, object] = {
    "params": {
        "items": "Prices to add up.",
        "tax": "Rate added on top.",
        "*args": "Further values.",
        "rounded": "Round the result to cents.",
        "**kw": "Further options.",
    },
    "returns": "The price with tax.",
    "raises": {"ValueError": "If tax is negative."},
}


async def test_google_style_for_a_function(tmp_path: Path) -> None:
    root = write_project(tmp_path, {"m.py": SOURCE})
    result, text = await write(root, "total", "google", **TOTAL_PIECES)
    assert result["written"] is True and result["refused"] == []
    doc = docstring_of(text, "total")
    assert doc == (
        "Compute the total of the items with tax.\n\n"
        "Args:\n"
        "    items (list[float]): Prices to add up.\n"
        "    tax (float): Rate added on top.\n"
        "    *args: Further values.\n"
        "    rounded (bool): Round the result to cents.\n"
        "    **kw: Further options.\n\n"
        "Returns:\n"
        "    float: The price with tax.\n\n"
        "Raises:\n"
        "    ValueError: If tax is negative."  # the model's words, never the code's condition
    )
    start = text.index('    """Compute')
    end = text.index('"""\n', start + 8) + 4
    outside(SOURCE, text, text[start:end])


async def test_numpy_style_for_a_function(tmp_path: Path) -> None:
    root = write_project(tmp_path, {"m.py": SOURCE})
    _, text = await write(root, "total", "numpy", **TOTAL_PIECES)
    doc = docstring_of(text, "total")
    assert doc is not None
    assert "Parameters\n----------\nitems : list[float]\n    Prices to add up." in doc
    assert "Returns\n-------\nfloat\n    The price with tax." in doc
    assert "Raises\n------\nValueError\n    If tax is negative." in doc


async def test_sphinx_style_for_a_one_line_function(tmp_path: Path) -> None:
    root = write_project(tmp_path, {"m.py": SOURCE})
    _, text = await write(
        root, "inline", "sphinx", "Return x unchanged.", params={"x": "What to give back."}
    )
    # The docstring becomes the first statement of the same line: no other byte moves.
    assert (
        'def inline(x): """Return x unchanged.\n\n    :param x: What to give back.\n    """; '
        "return x\n" in text
    )
    assert docstring_of(text, "inline") == "Return x unchanged.\n\n:param x: What to give back."


async def test_existing_docstring_keeps_what_it_said_when_the_model_says_less(
    tmp_path: Path,
) -> None:
    root = write_project(tmp_path, {"m.py": SOURCE})
    result, text = await write(root, "Cart.add", "numpy", "Put an item in the cart.")
    # Issue 57: ``qty`` has nothing to say but its default, so the section cannot be
    # completed; the author's entry for ``item`` is not dropped either: kept as it is.
    assert result["written"] is False and "params.item" in str(result["reason"])
    assert text == SOURCE
    result, text = await write(
        root, "Cart.add", "numpy", "Put qty of an item in the cart.", params={"qty": "How many."}
    )
    assert "params.item" in result["filled"]
    assert "summary kept from the existing docstring" in result["filled"]
    assert docstring_of(text, "Cart.add") == (
        "Add an item.\n\n"
        "Parameters\n----------\n"
        "item : str\n    The thing to add.\n"
        "qty : int\n    How many."
    )


async def test_class_docstring_with_sections_it_does_not_rebuild_is_kept(tmp_path: Path) -> None:
    root = write_project(tmp_path, {"m.py": SOURCE})
    result, text = await write(root, "Cart", "google")
    assert result["written"] is False and "examples" in str(result["reason"])
    assert text == SOURCE


async def test_multiline_signature_method_gets_a_docstring_at_body_indent(tmp_path: Path) -> None:
    root = write_project(tmp_path, {"m.py": SOURCE})
    summary = "Fetch the url and return it."
    _, text = await write(root, "Cart.fetch", "google", summary, returns="The url.")
    assert f'        url: str,  # the url\n    ):\n        """{summary}\n' in text
    # Issue 57: no bare "url (str):" entry; a section only when every parameter says something.
    assert docstring_of(text, "Cart.fetch") == f"{summary}\n\nReturns:\n    The url."


async def test_module_docstring_goes_after_the_header_comments(tmp_path: Path) -> None:
    root = write_project(tmp_path, {"m.py": SOURCE})
    _, text = await write(root, None, "google", "Shopping cart helpers.")
    assert text.startswith(
        '#!/usr/bin/env python\n# A header comment.\n"""Shopping cart helpers."""\n\nimport os\n'
    )
    outside(SOURCE, text, '"""Shopping cart helpers."""\n\n')


@pytest.mark.parametrize(
    ("given", "reason"),
    [
        ("def total(): return 1", "it is Python code, not words about what the code does"),
        ("One sentence saying what the code does.", "it echoes the instructions"),
        ("Total: 10.000.000.000.000", "it is mostly digits or punctuation"),
        ("The total.", "it restates the name 'total'; say what it returns"),
        ("Add prices. Then apply tax.", "it runs past one sentence"),
    ],
)
async def test_an_unusable_summary_is_refused_with_its_reason_and_nothing_invented(
    tmp_path: Path, given: str, reason: str
) -> None:
    root = write_project(tmp_path, {"m.py": SOURCE})
    result, text = await write(root, "total", "google", given)
    assert result["written"] is False
    assert any(r.startswith("summary: " + reason) for r in result["to_fix"]), result
    assert "refused" not in result  # the same list, once
    assert text == SOURCE


async def test_the_model_s_sections_wait_for_the_details_option(tmp_path: Path) -> None:
    # Blind reviewers merged 2 of 27 drafts with the model's description or entries as
    # they were ("the Args entries just restate the signature"): by default only the
    # summary is written, and left_out says what was not.
    root = write_project(tmp_path, {"m.py": "def f(a):\n    return a\n"})
    node = find_node(root, "m.py", "f")
    async with bench(root) as b:
        result = await b.run(
            "docstring",
            "write_docstring",
            node,
            {"summary": "Echo a.", "params": {"a": "Anything."}, "returns": "The same a."},
        )
        text = b.text("docstring", node, "m.py")
    assert text == 'def f(a):\n    """Echo a."""\n    return a\n', text
    for piece in ("params", "returns"):
        assert f"{piece}: written only with the option details: true" in result["left_out"]


async def test_crlf_file_keeps_its_line_endings(tmp_path: Path) -> None:
    source = "def f(a):\r\n    return a\r\n"
    root = write_project(tmp_path, {"m.py": source})
    node = find_node(root, "m.py", "f")
    async with bench(root) as b:
        await b.run(
            "docstring",
            "write_docstring",
            node,
            {
                "summary": "Echo a.",
                "params": {"a": "Anything."},
                "returns": "The same a.",
                "details": True,
            },
        )
        data = b.workspace("docstring", node).read("m.py")
    assert data == (
        b'def f(a):\r\n    """Echo a.\r\n\r\n    Args:\r\n        a: Anything.\r\n\r\n'
        b'    Returns:\r\n        The same a.\r\n    """\r\n    return a\r\n'
    )


async def test_read_docstring_and_submit_report_facts(tmp_path: Path) -> None:
    root = copy_sample(tmp_path)
    node = find_node(root, "inventory/pricing.py", "tax_for")
    async with bench(root) as b:
        before = await b.run("docstring", "read_docstring", node)
        await b.run(
            "docstring",
            "write_docstring",
            node,
            {"summary": "Tax owed on an amount in a category.", "style": "google"},
        )
        after = await b.run("docstring", "submit", node)
        ws = b.workspace("docstring", node)
    assert before["current_docstring"] is None
    assert [p.split(":")[0] for p in before["parameters"]] == ["category", "amount"]
    assert after["has_docstring"] is True
    assert after["docstring"].startswith("Tax owed on an amount in a category.")
    assert ws.changed_files() == ["inventory/pricing.py"]
    assert change_stats(ws.changes())["deletions"] == 0


async def test_a_docstring_kept_as_it_was_is_no_success(tmp_path: Path) -> None:
    root = copy_sample(tmp_path)
    node = find_node(root, "inventory/orders.py", "Order")  # has a docstring
    async with bench(root) as b:
        kept = await b.run("docstring", "submit", node)
        await b.run("docstring", "write_docstring", node, {"summary": "A customer's order."})
        written = await b.run("docstring", "submit", node)
    # The submit says why nothing changed; the host skips the run (runner.settle).
    assert "status" not in kept
    assert kept["summary"] == (
        "docstring of Order kept as it was: "
        "A customer's order; lines can change until it is placed."
    )
    # Issue 57: no parameter section of bare types and defaults is added: nothing changes.
    assert "status" not in written and "Args:" not in written["docstring"]
    assert written["summary"].startswith("docstring of Order kept as it was")
