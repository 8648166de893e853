"""Gitignore-style matching: the cases projects write."""

from __future__ import annotations

import pytest

from remora.discovery.ignore import IgnoreRules, compile_pattern, parse_lines


def ignored(lines: list[str], path: str, is_dir: bool = False) -> bool:
    return IgnoreRules.build(lines, defaults=()).is_ignored(path, is_dir)


@pytest.mark.parametrize(
    ("pattern", "path", "is_dir", "expected"),
    [
        # no slash: any level, files and directories
        ("*.log", "app.log", False, True),
        ("*.log", "deep/er/app.log", False, True),
        ("*.log", "app.log.txt", False, False),
        ("build", "build", True, True),
        ("build", "src/build", True, True),
        ("build", "build.py", False, False),
        # trailing slash: directories only
        ("out/", "out", True, True),
        ("out/", "out", False, False),
        ("out/", "a/out", True, True),
        # leading slash: anchored at the base
        ("/setup.py", "setup.py", False, True),
        ("/setup.py", "pkg/setup.py", False, False),
        # inner slash: anchored too
        ("docs/*.py", "docs/conf.py", False, True),
        ("docs/*.py", "x/docs/conf.py", False, False),
        ("docs/*.py", "docs/sub/conf.py", False, False),
        # ** forms
        ("**/fixtures", "fixtures", True, True),
        ("**/fixtures", "a/b/fixtures", True, True),
        ("data/**", "data/x/y.py", False, True),
        ("data/**", "data", True, False),
        ("a/**/z.py", "a/z.py", False, True),
        ("a/**/z.py", "a/b/c/z.py", False, True),
        ("a/**/z.py", "b/a/z.py", False, False),
        # ?, classes, escapes
        ("test_?.py", "test_a.py", False, True),
        ("test_?.py", "test_ab.py", False, False),
        ("v[0-9].py", "v3.py", False, True),
        ("v[!0-9].py", "v3.py", False, False),
        ("v[!0-9].py", "vx.py", False, True),
        ("\\#notes.py", "#notes.py", False, True),
        ("*.egg-info", "remora.egg-info", True, True),
    ],
)
def test_single_patterns(pattern: str, path: str, is_dir: bool, expected: bool) -> None:
    assert ignored([pattern], path, is_dir) is expected


def test_comments_and_blank_lines_are_not_patterns() -> None:
    assert parse_lines(["# a comment", "", "   ", "*.tmp"]) == [compile_pattern("*.tmp")]


def test_negation_reincludes_and_last_match_wins() -> None:
    lines = ["*.py", "!keep.py", "keep.py"]
    assert ignored(lines[:2], "keep.py") is False
    assert ignored(lines[:2], "drop.py") is True
    assert ignored(lines, "keep.py") is True


def test_trailing_spaces_are_dropped() -> None:
    assert ignored(["secret.py   "], "secret.py") is True


def test_nested_gitignore_applies_below_its_directory_and_wins() -> None:
    rules = IgnoreRules.build((), defaults=())
    rules = rules.with_gitignore("", "*.gen.py\n")
    rules = rules.with_gitignore("pkg", "!*.gen.py\n/local.py\n")
    assert rules.is_ignored("a.gen.py", False)
    assert not rules.is_ignored("pkg/a.gen.py", False)
    assert rules.is_ignored("pkg/local.py", False)
    assert not rules.is_ignored("local.py", False)
    assert not rules.is_ignored("pkg/sub/local.py", False)


def test_config_patterns_override_defaults_and_gitignore() -> None:
    rules = IgnoreRules.build(["!venv"]).with_gitignore("", "venv/\n")
    assert not rules.is_ignored("venv", True)
    assert IgnoreRules.build().is_ignored("venv", True)
    assert IgnoreRules.build().is_ignored("pkg/__pycache__", True)
    assert IgnoreRules.build().is_ignored("remora.egg-info", True)
    assert not IgnoreRules.build().is_ignored("src/builder.py", False)
