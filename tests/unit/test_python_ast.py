"""remora.python_ast: one thread in the parser at a time, and no module around it.

The race (python/cpython#106905) is made certain here rather than waited for: a
garbage collection that starts on the parsing thread, inside its tree
construction, starts a second thread that parses and waits for it. The raw
``ast.parse`` then fails on Python 3.11 (the harness bites); remora's parser
makes the second thread wait instead.
"""

from __future__ import annotations

import ast
import gc
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from remora import python_ast

SRC = Path(__file__).resolve().parents[2] / "src" / "remora"
LARGE = Path(ast.__file__).read_text(encoding="utf-8")  # ~1,800 lines: many collections


@pytest.fixture
def frequent_collections() -> Iterator[None]:
    threshold = gc.get_threshold()
    gc.set_threshold(100)
    try:
        yield
    finally:
        gc.set_threshold(*threshold)


def _race(parse: Callable[[str], Any]) -> tuple[list[BaseException], list[str]]:
    """Parse ``LARGE`` on one thread while a second parses from inside its collection."""
    errors: list[BaseException] = []
    finished: list[str] = []
    fired = threading.Event()

    def second() -> None:
        parse("x = [1, [2, [3]]]")
        finished.append("second")

    def during_collection(phase: str, info: dict[str, int]) -> None:
        first_thread = threading.current_thread().name == "first"
        if phase == "start" and first_thread and not fired.is_set():
            fired.set()
            other = threading.Thread(target=second)
            other.start()
            other.join(0.2)  # the raw parser lets it finish here; remora's makes it wait

    def first() -> None:
        try:
            parse(LARGE)
        except SystemError as exc:
            errors.append(exc)
        finished.append("first")

    gc.callbacks.append(during_collection)
    try:
        thread = threading.Thread(target=first, name="first")
        thread.start()
        thread.join()
    finally:
        gc.callbacks.remove(during_collection)
    for _ in range(50):  # the second thread, when it waited for the first
        if len(finished) == 2:
            break
        threading.Event().wait(0.02)
    assert fired.is_set()
    return errors, finished


@pytest.mark.usefixtures("frequent_collections")
def test_a_second_thread_waits_for_the_parse_under_way() -> None:
    errors, finished = _race(python_ast.parse)
    assert errors == []
    assert finished == ["first", "second"]


@pytest.mark.skipif(sys.version_info[:2] != (3, 11), reason="the race is CPython 3.11's")
@pytest.mark.usefixtures("frequent_collections")
def test_the_harness_makes_the_raw_parser_fail() -> None:
    errors, finished = _race(ast.parse)
    assert finished == ["second", "first"]
    assert [str(e).split(" (")[0] for e in errors] == ["AST constructor recursion depth mismatch"]


def test_the_parses_match_the_ast_modules() -> None:
    text = "async def f():\n    return {'a': [1, 2]}\n"
    assert ast.dump(python_ast.parse(text, "f.py")) == ast.dump(ast.parse(text, "f.py"))
    expression = "f(x, *y, k=1) + 2"
    assert ast.dump(python_ast.parse_expression(expression)) == ast.dump(
        ast.parse(expression, mode="eval").body
    )
    assert python_ast.literal_eval("  (1, 'two', [3.0])") == (1, "two", [3.0])
    assert python_ast.literal_eval(ast.parse("{1: None}", mode="eval").body) == {1: None}
    awaited = python_ast.parse("x = await f()\n", top_level_await=True)
    assert isinstance(awaited.body[0], ast.Assign)
    with pytest.raises(SyntaxError) as raised:
        python_ast.parse("def f(:\n", "broken.py")
    assert raised.value.filename == "broken.py"
    assert raised.value.lineno == 1


def _own_parses(path: Path) -> list[str]:
    """``file:line`` of each ``ast.parse``/``ast.literal_eval``/``compile(..., PyCF_ONLY_AST)``
    and of each use of LibCST's ``evaluated_value`` (which calls ``ast.literal_eval``)."""
    text = path.read_text(encoding="utf-8")
    words = ("ast.parse", "ast.literal_eval", "PyCF_ONLY_AST", "evaluated_value")
    if not any(word in text for word in words):
        return []  # nothing to find: the walk below is most of the test's time
    found = []
    for call in ast.walk(python_ast.parse(text, str(path))):
        if isinstance(call, ast.Attribute) and call.attr == "evaluated_value":
            found.append(f"{path.relative_to(SRC)}:{call.lineno}")  # LibCST's literal_eval
        if not isinstance(call, ast.Call):
            continue
        function = call.func
        direct = (
            isinstance(function, ast.Attribute)
            and isinstance(function.value, ast.Name)
            and function.value.id == "ast"
            and function.attr in {"parse", "literal_eval"}
        )
        compiled = (
            isinstance(function, ast.Name)
            and function.id == "compile"
            and any(
                isinstance(n, ast.Attribute) and n.attr == "PyCF_ONLY_AST"
                for argument in [*call.args, *(k.value for k in call.keywords)]
                for n in ast.walk(argument)
            )
        )
        if direct or compiled:
            found.append(f"{path.relative_to(SRC)}:{call.lineno}")
    return found


def test_no_module_but_python_ast_parses() -> None:
    # code/probes/programs/ are sandboxed programs run in processes of their own, one thread each.
    modules = [
        p
        for p in SRC.rglob("*.py")
        if p.name != "python_ast.py" and "programs" not in p.relative_to(SRC).parts
    ]
    assert len(modules) > 100
    found = [hit for path in modules for hit in _own_parses(path)]
    assert found == [], f"parse with remora.python_ast instead: {found}"


@pytest.mark.parametrize(
    "literal",
    ["'a'", 'b"x"', '"""doc\n  more"""', "'a' 'b'", "b'a' b'b'", "f'{x}' 'a'",
     "1_000", "0x1F", "1.5e3", "2j"],
)  # fmt: skip
def test_literal_value_is_libcsts_evaluated_value(literal: str) -> None:
    import libcst as cst

    from remora.code.parsing import literal_value

    node = cst.parse_expression(literal)
    assert literal_value(node) == node.evaluated_value  # type: ignore[attr-defined]
