"""What is computed once per file text (line starts, a file's docstring summaries and examples)
gives what the per-call computation gave, and a caller's copy is its own."""

from __future__ import annotations

import gc
import itertools
import weakref
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import libcst as cst
import pytest

from remora.code.docstring.draft import file_docstring_summaries, file_examples
from remora.code.parsing import NodeRef, line_starts, locate, parse, parse_cache

SAMPLE = Path(__file__).resolve().parents[3] / "examples" / "sample_project"


def _reference_starts(data: bytes) -> list[int]:
    """Line starts by walking byte by byte: LF, CR and CRLF each end one line."""
    starts, index = [0], 0
    while index < len(data):
        if data[index : index + 2] == b"\r\n":
            index += 2
        elif data[index : index + 1] in (b"\n", b"\r"):
            index += 1
        else:
            index += 1
            continue
        starts.append(index)
    return starts


@pytest.mark.parametrize("length", range(7))
def test_line_starts_match_a_byte_walk_for_every_mix_of_line_endings(length: int) -> None:
    for parts in itertools.product([b"a", b"\n", b"\r", b"\r\n"], repeat=length):
        data = b"".join(parts)
        assert line_starts(data) == _reference_starts(data), data


def test_positions_use_the_line_starts_on_demand() -> None:
    file = parse("x = 1\r\ndef f():\r    return 'é'\n", "crlf.py")
    (_, definition), *_ = file.definitions
    position = file.positions[definition]
    assert (position.start.line, position.start.column) == (2, 0)
    assert (position.end.line, position.end.column) == (3, 14)


DOCUMENTED = '''"""The module."""


def first(a):
    """Add one to a."""
    return a + 1


def second(b):
    """Double b."""
    return b * 2
'''


def test_summaries_are_a_new_dict_for_each_caller() -> None:
    mine = file_docstring_summaries(DOCUMENTED)
    assert mine == {"the module": "The module.", "first": "Add one to a.", "second": "Double b."}
    mine.clear()
    assert file_docstring_summaries(DOCUMENTED)["first"] == "Add one to a."


def test_examples_leave_out_the_node_at_skip_line_only() -> None:
    assert [e.name for e in file_examples(DOCUMENTED)] == ["first", "second"]
    assert [e.name for e in file_examples(DOCUMENTED, skip_line=9)] == ["first"]
    assert [e.name for e in file_examples(DOCUMENTED, skip_line=4)] == ["second"]


def test_a_text_equal_to_a_kept_base_is_that_base_without_a_parse() -> None:
    text = "def f(a):\n    return a\n\n\nclass C:\n    def m(self):\n        return 1\n"
    first = parse(text, "kept_base.py")
    parse_cache._PARSED.clear()  # as when other texts pushed it out of the small cache
    again = parse(text, "kept_base.py")
    assert again is first
    changed = parse(text.replace("return 1", "return 2"), "kept_base.py")
    assert changed is not first and changed.derived  # the changed definition alone re-parsed


def test_threads_asking_for_one_new_text_at_once_share_one_parse() -> None:
    # Host functions run on the sandbox's threads too: the second waits for the first's parse.
    text = "".join(f"def f{i}(a):\n    return a + {i}\n\n\n" for i in range(300))
    with ThreadPoolExecutor(max_workers=4) as pool:
        files = list(pool.map(lambda _: parse(text, "threads.py"), range(8)))
    assert all(file is files[0] for file in files)


def test_kept_whole_parses_are_bounded_by_their_texts_size(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(parse_cache, "_BASES", type(parse_cache._BASES)())
    monkeypatch.setattr(parse_cache, "_BASE_BYTES", 4_000)
    text = "".join(f"def f{i}(a):\n    return a + {i}\n\n\n" for i in range(40))  # 1.3 KB
    for name in ("a.py", "b.py", "c.py", "d.py"):
        parse(text, name)
    assert list(parse_cache._BASES) == ["b.py", "c.py", "d.py"]  # the oldest path went first
    big = text * 4  # alone over the budget: still kept, as the file in use
    parse(big, "e.py")
    assert list(parse_cache._BASES) == ["e.py"]


def test_no_tree_outlives_its_files_bases(monkeypatch: pytest.MonkeyPatch) -> None:
    # A file made from a base holds the base's tree: kept after the base went, the bound on
    # the bases bounded nothing.
    monkeypatch.setattr(parse_cache, "_BASES", type(parse_cache._BASES)())
    monkeypatch.setattr(parse_cache, "_PARSED", type(parse_cache._PARSED)())
    monkeypatch.setattr(parse_cache, "_BASE_BYTES", 2_000)
    text = "".join(f"def f{i}(a):\n    return a + {i}\n\n\n" for i in range(40))  # 1.3 KB
    base = parse(text, "a.py")
    derived = parse(text.replace("a + 39\n", "a + 40\n"), "a.py")
    assert derived.derived
    gone = weakref.ref(base)
    del base, derived
    parse(text, "b.py")  # a.py's base goes over the budget, and what was made from it
    gc.collect()
    assert gone() is None
    assert [path for _, path in parse_cache._PARSED] == ["b.py"]


RAISING = """def check(value):
    try:
        return int(value)
    except (TypeError, ValueError):
        raise
    raise KeyError(value)
"""


def test_raises_are_a_new_list_for_each_caller() -> None:
    from remora.code.parsing import node_raises, node_returns

    node = locate(parse(RAISING, "raising.py"), NodeRef("function", "check", 1))
    mine = node_raises(node)
    assert [(r["name"], r["line"], r["reraise"]) for r in mine] == [
        ("TypeError", 5, True),
        ("ValueError", 5, True),
        ("KeyError", 6, False),
    ]
    mine[0]["name"] = "changed"
    mine.pop()
    assert [r["name"] for r in node_raises(node)] == ["TypeError", "ValueError", "KeyError"]
    assert node_returns(node) == {"returns_value": True, "is_generator": False, "annotation": None}


def _facts_by_visit(root: cst.CSTNode) -> tuple[frozenset[float], frozenset[str]]:
    """The facts as a LibCST visitor gathers them: every node the visit passes."""
    from remora.code.docstring.facts import name_words, word_tokens

    numbers: set[float] = set()
    words: set[str] = set()

    class Scan(cst.CSTVisitor):
        def on_visit(self, node: cst.CSTNode) -> bool:
            if isinstance(node, cst.Integer | cst.Float):
                numbers.add(float(node.evaluated_value))
            elif isinstance(node, cst.Name):
                words.update(name_words(node.value))
            elif isinstance(node, cst.SimpleString):
                value = node.evaluated_value
                text = value if isinstance(value, str) else value.decode("latin-1")
                words.update(word_tokens(text))
            elif isinstance(node, cst.FormattedStringText | cst.Comment):
                words.update(word_tokens(node.value))
            return True

    root.visit(Scan())
    return frozenset(numbers), frozenset(w for w in words if len(w) >= 3)


NESTED = '''
@decorate(7)  # the decorator's line is the function's
def outer(a=1):
    # leading words
    class Inner:
        size = 2.5

        def deep(self):
            return "deep text"

    return Inner, 3


class Later:
    """Later words."""
'''


def test_code_facts_of_every_definition_are_what_a_visit_of_it_finds() -> None:
    """One walk of the file gives each definition the facts of its own subtree."""
    from remora.code.docstring.facts import code_facts, file_facts

    texts = [p.read_text(encoding="utf-8") for p in sorted(SAMPLE.rglob("*.py"))]
    texts.append('x = f"a {b!r:>{width}} cé" + b"bytes" + 0x1F + 1.5e3 + 2j  # note\n')
    texts.append(NESTED)
    checked = 0
    for text in texts:
        file = parse(text, "facts.py")
        by_start = file_facts(file)
        assert len(by_start) == len(file.definitions) + 1
        roots = [(-1, file.module), *((file.spans[d].start, d) for _, d in file.definitions)]
        for at, root in roots:
            facts = by_start[at]
            assert (facts.numbers, facts.words) == _facts_by_visit(root)
            checked += 1
        for name, definition in file.definitions:
            kind = "class" if isinstance(definition, cst.ClassDef) else "function"
            node = locate(file, NodeRef(kind, name, file.positions[definition].start.line))
            assert code_facts(node) == by_start[file.spans[definition].start]
    assert checked > 20
    outer = file_facts(parse(NESTED, "nested.py"))[NESTED.index("def outer")]
    assert outer.numbers == {7.0, 1.0, 2.5, 3.0}  # the decorator's and the nested class's too
    assert {"decorate", "leading", "deep", "text", "inner"} <= outer.words
    assert "later" not in outer.words
