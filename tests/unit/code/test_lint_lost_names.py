"""A lint rewrite may not change what the code does: dropped calls and reads are refused."""

from __future__ import annotations

import pytest

from remora.code.lint import lost_names

PARAMETERIZE = (
    "def f(string, separator):\n"
    "    sep = escape(separator)\n"
    "    string = sub(r'%s{2,}' % sep, separator, string)\n"
    "    return string\n"
)


@pytest.mark.parametrize(
    ("after", "lost"),
    [
        # UP031 fixed: the same reads and calls.
        (PARAMETERIZE.replace("r'%s{2,}' % sep", "rf'{sep}{{2,}}'"), []),
        # What SmolLM2 wrote for that UP031: the finding is gone, and so is the work.
        (
            PARAMETERIZE.replace("r'%s{2,}' % sep, separator, string", "r'%s{2,}', '%.2f'"),
            ["sep", "separator", "string"],
        ),
        # A call dropped with its unused result (F841 by deletion) changes behaviour.
        (PARAMETERIZE.replace("    sep = escape(separator)\n", ""), ["escape()"]),
    ],
)
def test_a_rewrite_keeps_the_reads_and_calls(after: str, lost: list[str]) -> None:
    assert lost_names(PARAMETERIZE, after) == lost


def test_an_assignment_may_go_with_its_reads() -> None:
    # F841: an unused variable of a plain name; RET504: a temporary returned at once.
    assert lost_names("def f(x):\n    y = x\n    return x\n", "def f(x):\n    return x\n") == []
    temporary = "def f(x):\n    t = g(x)\n    return t\n"
    assert lost_names(temporary, "def f(x):\n    return g(x)\n") == []
