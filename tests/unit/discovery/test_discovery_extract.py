"""One file's source to CSTNodes, with the bundled remora_core pack and real tree-sitter."""

from __future__ import annotations

import hashlib
import textwrap

from remora.discovery import CSTNode, make_node_id, parse_source


def nodes_of(code: str, rel: str = "pkg/mod.py") -> list[CSTNode]:
    nodes, warnings = parse_source(textwrap.dedent(code).encode(), rel)
    assert warnings == []
    return nodes


def by_name(nodes: list[CSTNode]) -> dict[str, CSTNode]:
    return {n.full_name: n for n in nodes}


def test_file_node_covers_the_whole_file() -> None:
    source = b"import os\n\nX = 1\n"
    nodes, _ = parse_source(source, "pkg/mod.py")
    (file_node,) = nodes
    assert file_node.node_type == "file"
    assert file_node.name == "mod.py"
    assert file_node.full_name == "pkg/mod.py"
    assert (file_node.start_byte, file_node.end_byte) == (0, len(source))
    assert (file_node.start_line, file_node.end_line) == (1, 3)
    assert file_node.text == source.decode()
    assert file_node.text_hash == hashlib.sha256(source).hexdigest()
    assert file_node.node_id == make_node_id("pkg/mod.py", "pkg/mod.py", "file")


def test_empty_file_is_one_file_node() -> None:
    nodes, warnings = parse_source(b"", "empty.py")
    assert warnings == []
    assert [(n.node_type, n.start_line, n.end_line, n.text) for n in nodes] == [("file", 1, 1, "")]


def test_same_named_methods_in_two_classes_are_two_nodes() -> None:
    nodes = nodes_of("""
        class Reader:
            def close(self):
                pass

        class Writer:
            def close(self):
                pass
    """)
    methods = [n for n in nodes if n.node_type == "method"]
    assert [m.full_name for m in methods] == ["Reader.close", "Writer.close"]
    assert all(m.name == "close" for m in methods)
    assert methods[0].node_id != methods[1].node_id


def test_nested_classes_and_functions_get_qualified_names() -> None:
    nodes = nodes_of("""
        class Outer:
            class Inner:
                def method(self):
                    def helper():
                        class Local:
                            def run(self): ...
                        return Local
                    return helper

        def top():
            def inner():
                pass
            return inner
    """)
    kinds = {n.full_name: n.node_type for n in nodes if n.node_type != "file"}
    assert kinds == {
        "Outer": "class",
        "Outer.Inner": "class",
        "Outer.Inner.method": "method",
        "Outer.Inner.method.helper": "function",
        "Outer.Inner.method.helper.Local": "class",
        "Outer.Inner.method.helper.Local.run": "method",
        "top": "function",
        "top.inner": "function",
    }


def test_decorated_definitions_start_at_the_first_decorator() -> None:
    code = textwrap.dedent("""\
        import functools

        @functools.total_ordering
        @register(
            name="point",
        )
        class Point:
            @staticmethod
            def origin():
                return Point()

            @functools.cache
            def norm(self):
                return 0
    """)
    source = code.encode()
    found = by_name(parse_source(source, "p.py")[0])
    point = found["Point"]
    assert point.text.startswith("@functools.total_ordering\n@register(")
    assert point.start_line == 3
    assert point.decorators == ("functools.total_ordering", 'register(\n    name="point",\n)')
    assert source[point.start_byte : point.end_byte].decode() == point.text
    origin = found["Point.origin"]
    assert origin.node_type == "method"
    assert origin.text.startswith("@staticmethod\n    def origin():")
    assert origin.decorators == ("staticmethod",)
    assert (origin.start_line, origin.end_line) == (8, 10)
    assert found["Point.norm"].decorators == ("functools.cache",)


def test_async_functions_and_methods() -> None:
    found = by_name(
        nodes_of("""
        async def fetch(url):
            return url

        class Client:
            @retry
            async def get(self):
                return await fetch("x")

            def sync(self):
                pass
    """)
    )
    assert found["fetch"].is_async and found["fetch"].node_type == "function"
    assert found["Client.get"].is_async and found["Client.get"].text.startswith("@retry")
    assert not found["Client.sync"].is_async
    assert not found["Client"].is_async


def test_methods_under_control_flow_in_a_class_are_methods() -> None:
    found = by_name(
        nodes_of("""
        import sys

        class Compat:
            if sys.version_info >= (3, 12):
                def now(self):
                    return 1
            else:
                def now(self):
                    return 0

        def outer():
            class Made:
                def m(self): ...
            return Made
    """)
    )
    assert found["Compat.now"].node_type == "method"
    assert found["outer.Made"].node_type == "class"
    assert found["outer.Made.m"].node_type == "method"


def test_redefined_names_get_distinct_stable_ids() -> None:
    code = """
        class Box:
            @property
            def size(self):
                return self._size

            @size.setter
            def size(self, value):
                self._size = value
    """
    first = [n for n in nodes_of(code) if n.full_name == "Box.size"]
    second = [n for n in nodes_of(code) if n.full_name == "Box.size"]
    assert len(first) == 2
    assert first[0].node_id != first[1].node_id
    assert [n.node_id for n in first] == [n.node_id for n in second]
    # The first keeps the plain id, so a later redefinition does not change it.
    assert first[0].node_id == make_node_id("pkg/mod.py", "Box.size", "method")
    assert first[1].decorators == ("size.setter",)


def test_ids_depend_on_path_and_qualified_name_not_position() -> None:
    one = by_name(nodes_of("def f():\n    pass\n"))
    moved = by_name(nodes_of("\n\n# comment\ndef f():\n    return 1\n"))
    other_file = by_name(nodes_of("def f():\n    pass\n", rel="pkg/other.py"))
    assert one["f"].node_id == moved["f"].node_id
    assert one["f"].text_hash != moved["f"].text_hash
    assert one["f"].node_id != other_file["f"].node_id


def test_byte_offsets_and_text_are_exact_with_multibyte_characters() -> None:
    code = 'NAME = "café ☕"\n\ndef grüß(x):\n    """Sagt hallo."""\n    return x\n'
    source = code.encode()
    found = by_name(parse_source(source, "u.py")[0])
    node = found["grüß"]
    assert node.text == 'def grüß(x):\n    """Sagt hallo."""\n    return x'
    assert source[node.start_byte : node.end_byte] == node.text.encode()
    assert node.start_byte == len('NAME = "café ☕"\n\n'.encode())
    assert (node.start_line, node.end_line) == (3, 5)
    assert node.text_hash == hashlib.sha256(node.text.encode()).hexdigest()


def test_node_type_filter_keeps_qualified_names() -> None:
    source = b"class A:\n    def m(self):\n        pass\n\ndef f():\n    pass\n"
    nodes, _ = parse_source(source, "a.py", node_types=["method"])
    assert [(n.node_type, n.full_name) for n in nodes] == [("method", "A.m")]


def test_syntax_error_keeps_recovered_nodes_and_warns_with_line() -> None:
    source = b"def good():\n    pass\n\ndef broken(:\n    pass\n\nclass After:\n    pass\n"
    nodes, warnings = parse_source(source, "bad.py")
    names = {n.full_name for n in nodes}
    assert {"good", "After"} <= names
    (warning,) = warnings
    assert warning.file == "bad.py"
    assert warning.line == 4
    assert "syntax error" in warning.message


def test_python2_statements_parse_without_warning() -> None:
    # tree-sitter-python still accepts print/exec statements and old except
    # clauses that ``ast`` rejects; the discovery benchmark relies on knowing this.
    source = (
        b"def show(x):\n    print x\n\nclass Old:\n    def m(self):\n        exec 'x'\n"
        b"        try:\n            pass\n        except Exception, e:\n            pass\n"
    )
    nodes, warnings = parse_source(source, "py2.py")
    assert {"show", "Old", "Old.m"} <= {n.full_name for n in nodes}
    assert warnings == []


def test_binary_file_is_skipped_with_a_warning() -> None:
    nodes, warnings = parse_source(b"\x7fELF\x00\x01\x02", "lib.py")
    assert nodes == []
    assert [(w.file, w.line) for w in warnings] == [("lib.py", None)]
    assert "binary" in warnings[0].message


def test_non_utf8_file_is_skipped_with_the_line() -> None:
    source = "# -*- coding: latin-1 -*-\nx = 1\nname = 'caf\xe9'\n".encode("latin-1")
    nodes, warnings = parse_source(source, "latin.py")
    assert nodes == []
    (warning,) = warnings
    assert warning.line == 3
    assert "not UTF-8" in warning.message and "0xe9" in warning.message


def test_crlf_line_endings() -> None:
    source = b"class A:\r\n    def m(self):\r\n        pass\r\n"
    found = by_name(parse_source(source, "w.py")[0])
    assert (found["A.m"].start_line, found["A.m"].end_line) == (2, 3)
    assert found["w.py"].end_line == 3


def test_cr_only_and_mixed_line_breaks_number_lines_as_python_does() -> None:
    # tree-sitter's grammar reads a lone CR as blanks; Python, LibCST and ruff break lines there.
    lines = [b"import os", b"", b"@deco(", b"    1)", b"def f(x):", b"    return x", b""]
    lines += [b"class C:", b"    def m(self):", b"        pass"]
    lf = b"\n".join(lines) + b"\n"
    breaks = (b"\r", b"\r\n", b"\n")
    mixed = b"".join(line + breaks[i % 3] for i, line in enumerate(lines))
    expected = {n.full_name: (n.start_line, n.end_line) for n in parse_source(lf, "w.py")[0]}
    assert expected == {"w.py": (1, 10), "f": (3, 6), "C": (8, 10), "C.m": (9, 10)}
    for source in (lf.replace(b"\n", b"\r"), mixed):
        found, warnings = parse_source(source, "w.py")
        assert warnings == []
        assert {n.full_name: (n.start_line, n.end_line) for n in found} == expected
        for node in found:
            assert node.text == source[node.start_byte : node.end_byte].decode()
        (decorator,) = by_name(found)["f"].decorators
        assert decorator.startswith("deco(") and decorator.endswith("1)")
        assert decorator[5:-2].strip(" ") in ("\r", "\r\n", "\n")


def test_warning_names_the_innermost_error_line() -> None:
    # tree-sitter-python mis-reads a line dedented inside brackets (valid Python,
    # from the stdlib's test_compile.py); the error can wrap the whole file, so
    # the line must come from the innermost error, not the outer ERROR node.
    source = (
        b"import os\n\nclass T:\n    def test(self):\n        def f():\n"
        b"            (bar.\n        baz)\n        return f\n"
    )
    _, warnings = parse_source(source, "t.py")
    assert [w.line for w in warnings] == [6]
