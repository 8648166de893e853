"""Which annotation rewrites change what a type checker accepts: read from the texts with ast.

Spelling the same type another way (ruff's UP006, UP007, UP045, UP035, UP037 fixes) is
no change; ``Any`` → ``object`` (PYI032), an ``Optional`` added or an annotation added
or removed is.
"""

from __future__ import annotations

import pytest

from remora.code.lint.annotation_meaning import changed_annotations

HEAD = "from typing import Any, Callable, Dict, List, Literal, Optional, Text, Union\n"


@pytest.mark.parametrize(
    ("before", "after"),
    [
        (
            "def f(xs: List[int]) -> Dict[str, int]: ...",
            "def f(xs: list[int]) -> dict[str, int]: ...",
        ),
        ("def f(x: Optional[int]) -> None: ...", "def f(x: int | None) -> None: ..."),
        ("def f(x: Union[int, str, None]): ...", "def f(x: None | str | int): ..."),
        ("def f(x: 'Box') -> 'List[Box]': ...", "def f(x: Box) -> list[Box]: ..."),
        (
            "def f(g: Callable[[int], str]): ...",
            "def f(g: collections.abc.Callable[[int], str]): ...",
        ),
        ("def f() -> Text: ...", "def f() -> str: ..."),
        ("def f(m: Literal['a', 'b']): ...", "def f(m: Literal['b'] | Literal['a']): ..."),
        ("def f(x: int | int | None): ...", "def f(x: int | None): ..."),
        ("class Box:\n    size: List[int]\n", "class Box:\n    size: list[int]\n"),
    ],
)
def test_the_same_type_spelled_another_way_is_no_change(before: str, after: str) -> None:
    imports = HEAD + "import collections.abc\n"
    assert changed_annotations(imports + before, imports + after) == []


@pytest.mark.parametrize(
    ("before", "after", "change"),
    [
        (
            "class Box:\n    def __eq__(self, other: Any) -> bool: ...\n",
            "class Box:\n    def __eq__(self, other: object) -> bool: ...\n",
            "Box.__eq__ parameter other: Any -> object",
        ),
        (
            "def f(x: int = None): ...",
            "def f(x: Optional[int] = None): ...",
            "f parameter x: int -> Optional[int]",
        ),
        ("def f(x): ...", "def f(x) -> None: ...", "f return: (none) -> None"),
        ("def f(x: Any): ...", "def f(x): ...", "f parameter x: Any -> (none)"),
        (
            "def f() -> List[int]: ...",
            "def f() -> list[str]: ...",
            "f return: List[int] -> list[str]",
        ),
    ],
)
def test_a_different_type_is_a_change(before: str, after: str, change: str) -> None:
    assert changed_annotations(HEAD + before, HEAD + after) == [change]


def test_typing_imported_under_another_name_is_read_through_its_import() -> None:
    before = "import typing as t\n\ndef f(xs: t.List[int]) -> t.Any: ...\n"
    after = "import typing as t\n\ndef f(xs: list[int]) -> object: ...\n"
    assert changed_annotations(before, after) == ["f return: t.Any -> object"]


def test_overloads_are_compared_one_by_one() -> None:
    before = (
        "from typing import overload, Any\n\n"
        "@overload\ndef f(x: int) -> int: ...\n@overload\ndef f(x: Any) -> str: ...\n"
    )
    after = before.replace("x: Any", "x: object")
    assert changed_annotations(before, after) == ["f parameter x: Any -> object"]


def test_a_class_named_like_a_typing_alias_is_the_projects_own() -> None:
    # `List` not imported from typing is a name of the project: not builtins' list.
    before = "class List: ...\n\ndef f(xs: List) -> None: ...\n"
    after = "class List: ...\n\ndef f(xs: list) -> None: ...\n"
    assert changed_annotations(before, after) == ["f parameter xs: List -> list"]
