"""per_text: results kept per text, bounded by the texts' size and count; ast_tree shared."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from remora.code.parsing import ast_tree, per_text


def _counted(max_chars: int, max_entries: int = 64) -> tuple[list[str], object]:
    calls: list[str] = []

    @per_text(max_chars=max_chars, max_entries=max_entries)
    def length(text: str, extra: int = 0) -> int:
        calls.append(text)
        return len(text) + extra

    return calls, length


def test_results_are_kept_per_text_and_arguments() -> None:
    calls, length = _counted(max_chars=100)
    assert [length("abc"), length("abc"), length("abc", 1), length("abc", extra=1)] == [3, 3, 4, 4]
    assert calls == ["abc", "abc", "abc"]  # positional and keyword extra are different keys


def test_the_oldest_texts_go_when_the_kept_ones_pass_max_chars() -> None:
    calls, length = _counted(max_chars=10)
    for text in ("aaaa", "bbbb", "cccc", "bbbb"):  # 12 chars: aaaa goes when cccc comes
        length(text)
    length("aaaa")
    assert calls == ["aaaa", "bbbb", "cccc", "aaaa"]


def test_a_text_over_max_chars_alone_is_still_kept_as_the_newest() -> None:
    calls, length = _counted(max_chars=3)
    length("a long text")
    length("a long text")
    assert calls == ["a long text"]


def test_max_entries_bounds_small_texts() -> None:
    calls, length = _counted(max_chars=1000, max_entries=2)
    for text in ("a", "b", "c", "a"):
        length(text)
    assert calls == ["a", "b", "c", "a"]
    length.cache_clear()
    length("c")
    assert calls[-1] == "c"


def test_ast_tree_is_one_shared_tree_per_text_and_none_for_bad_syntax() -> None:
    text = "def f(a):\n    return a\n"
    with ThreadPoolExecutor(max_workers=4) as pool:
        trees = list(pool.map(lambda _: ast_tree(text), range(8)))
    assert trees[0] is not None and all(tree is ast_tree(text) for tree in trees[1:])
    assert ast_tree("def f(:\n") is None
