"""The docstring agent's tool scripts in the real sandbox, on real files."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from bundled_agents_support import bench, copy_sample, find_node, write_project

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
    tree = ast.parse(text)
    if qualname == "":
        return ast.get_docstring(tree)
    node: ast.AST = tree
    for part in qualname.split("."):
        node = next(
            n
            for n in ast.iter_child_nodes(node)
            if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
            and n.name == part
        )
    return ast.get_docstring(node)  # type: ignore[arg-type]


def outside(old: str, new: str, inserted: str) -> None:
    """Every byte of old is in new, in order, and the rest is exactly ``inserted``."""
    assert new.replace(inserted, "", 1) == old


async def write(
    root: Path, qualname: str | None, style: str, summary: str = "Compute the total price."
) -> tuple[dict[str, object], str]:
    node = find_node(root, "m.py", qualname)
    async with bench(root) as b:
        result = await b.run(
            "docstring", "write_docstring", node, {"summary": summary, "style": style}
        )
        return result, b.text("docstring", node, "m.py")


async def test_google_style_for_a_function(tmp_path: Path) -> None:
    root = write_project(tmp_path, {"m.py": SOURCE})
    result, text = await write(root, "total", "google")
    assert result["written"] is True
    doc = docstring_of(text, "total")
    assert doc == (
        "Compute the total price.\n\n"
        "Args:\n"
        "    items (list[float]): The items.\n"
        "    tax (float): The tax.\n"
        "    *args: The args.\n"
        "    rounded (bool): If true, rounded.\n"
        "    **kw: The kw.\n\n"
        "Returns:\n"
        "    float: The total.\n\n"
        "Raises:\n"
        "    ValueError: Tax must be positive."
    )
    start = text.index('    """Compute')
    end = text.index('"""\n', start + 8) + 4
    outside(SOURCE, text, text[start:end])


async def test_numpy_style_for_a_function(tmp_path: Path) -> None:
    root = write_project(tmp_path, {"m.py": SOURCE})
    _, text = await write(root, "total", "numpy")
    doc = docstring_of(text, "total")
    assert doc is not None
    assert "Parameters\n----------\nitems : list[float]\n    The items." in doc
    assert "Returns\n-------\nfloat\n    The total." in doc
    assert "Raises\n------\nValueError\n    Tax must be positive." in doc


async def test_sphinx_style_for_a_one_line_function(tmp_path: Path) -> None:
    root = write_project(tmp_path, {"m.py": SOURCE})
    _, text = await write(root, "inline", "sphinx", "Return x unchanged.")
    assert 'def inline(x):\n    """Return x unchanged.\n\n    :param x: The x.\n' in text
    assert docstring_of(text, "inline") == (
        "Return x unchanged.\n\n:param x: The x.\n:returns: The inline."
    )
    # The body moved under the docstring, the rest of the file is untouched.
    assert '    """\n    return x\n' in text
    ast.parse(text)


async def test_existing_docstring_is_rebuilt_in_the_style_keeping_what_it_said(
    tmp_path: Path,
) -> None:
    root = write_project(tmp_path, {"m.py": SOURCE})
    result, text = await write(root, "Cart.add", "numpy", "Something else entirely.")
    assert result["note"] == "kept the existing summary"
    assert docstring_of(text, "Cart.add") == (
        "Add an item.\n\n"
        "Parameters\n----------\n"
        "item : str\n    The thing to add.\n"
        "qty : int\n    The qty."
    )
    assert "'''" not in text.split("def add")[1].split("pass")[0]


async def test_class_docstring_keeps_its_sections(tmp_path: Path) -> None:
    root = write_project(tmp_path, {"m.py": SOURCE})
    result, text = await write(root, "Cart", "google")
    assert result["written"] is False and result["unchanged"] is True
    assert text == SOURCE


async def test_multiline_signature_method_gets_a_docstring_at_body_indent(tmp_path: Path) -> None:
    root = write_project(tmp_path, {"m.py": SOURCE})
    _, text = await write(root, "Cart.fetch", "google", "Fetch the url.")
    assert '        url: str,  # the url\n    ):\n        """Fetch the url.\n' in text
    assert docstring_of(text, "Cart.fetch") == (
        "Fetch the url.\n\nArgs:\n    url (str): The url.\n\nReturns:\n    The fetch."
    )


async def test_module_docstring_goes_after_the_header_comments(tmp_path: Path) -> None:
    root = write_project(tmp_path, {"m.py": SOURCE})
    _, text = await write(root, None, "google", "Shopping cart helpers.")
    assert text.startswith(
        '#!/usr/bin/env python\n# A header comment.\n"""Shopping cart helpers."""\n\nimport os\n'
    )
    outside(SOURCE, text, '"""Shopping cart helpers."""\n\n')


@pytest.mark.parametrize(
    "given", ["def total(): return ```", "One sentence saying what the code does."]
)
async def test_an_unusable_summary_is_replaced_by_one_derived_from_the_name(
    tmp_path: Path, given: str
) -> None:
    root = write_project(tmp_path, {"m.py": SOURCE})
    result, text = await write(root, "total", "google", given)
    assert "derived" in str(result["note"])
    doc = docstring_of(text, "total")
    assert doc is not None and doc.startswith("Return the total.\n")


async def test_crlf_file_keeps_its_line_endings(tmp_path: Path) -> None:
    source = "def f(a):\r\n    return a\r\n"
    root = write_project(tmp_path, {"m.py": source})
    node = find_node(root, "m.py", "f")
    async with bench(root) as b:
        await b.run("docstring", "write_docstring", node, {"summary": "Echo a."})
        data = b.workspace("docstring", node).read("m.py")
    assert data == (
        b'def f(a):\r\n    """Echo a.\r\n\r\n    Args:\r\n        a: The a.\r\n\r\n'
        b'    Returns:\r\n        The f.\r\n    """\r\n    return a\r\n'
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
    assert before["has_docstring"] is False
    assert before["parameters"] == ["category", "amount"]
    assert after["has_docstring"] is True
    assert after["docstring"].startswith("Tax owed on an amount in a category.")
    assert ws.changed_files() == ["inventory/pricing.py"]
    assert ws.stats()["deletions"] == 0
