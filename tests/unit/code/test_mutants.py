"""Mutants of one function: one change each, every line kept at its number."""

from __future__ import annotations

import ast

from remora.code.testgen.mutants import identity_parameter, node_mutants

SOURCE = '''import math


class Box:
    def fill(self, amount, label=f"{1}"):
        """Put amount in the box."""
        if amount <= 0:
            raise ValueError("amount must be positive")
        self.level = self.level + amount
        self.seen[amount] = True
        self.log.append(
            amount,
        )

        def inner():
            return 99

        if self.open:
            return not self.full and self.level > 3
        return f"{amount} {self.level}"
'''


def _fill(source: str = SOURCE) -> ast.FunctionDef:
    tree = ast.parse(source)
    box = tree.body[1]
    assert isinstance(box, ast.ClassDef)
    method = box.body[0]
    assert isinstance(method, ast.FunctionDef)
    return method


def test_each_kind_of_change_is_made_once_where_the_code_has_it() -> None:
    words = [m.description for m in node_mutants(SOURCE, _fill())]
    assert words == [
        "line 7: the body -> `return self` (`self` handed back unchanged)",
        "line 7: the body -> `return ''` (the call doing nothing)",
        "line 7: `<=` -> `<` in `amount <= 0`",
        "line 7: 0 -> 1",
        "line 8: `raise ValueError('amount must be posi...` removed",
        "line 8: 'amount must be posit' -> 'XXamount must be positXX'",
        "line 9: `self.level = self.level + amount` -> `= None`",
        "line 9: `+` -> `-` in `self.level + amount`",
        "line 10: `self.seen[amount] = True` removed",
        "line 10: True -> False",
        "line 11: `self.log.append(amount)` removed",
        "line 18: condition `self.open` negated",
        "line 19: `return not self.full and self.level > 3` -> `return None`",
        "line 19: `and` -> `or` in `not self.full and self.level > 3`",
        "line 19: `not` dropped in `not self.full`",
        "line 19: `>` -> `>=` in `self.level > 3`",
        "line 19: 3 -> 4",
        "line 20: `return f'{amount} {self.level}'` -> `return None`",
    ]


def test_every_mutant_parses_keeps_its_line_numbers_and_differs_from_the_code() -> None:
    for mutant in node_mutants(SOURCE, _fill()):
        assert len(mutant.source.splitlines()) == len(SOURCE.splitlines()), mutant.description
        assert ast.dump(ast.parse(mutant.source)) != ast.dump(ast.parse(SOURCE))
        # Everything outside the function is left as it was.
        assert mutant.source.splitlines()[:5] == SOURCE.splitlines()[:5]


def test_a_multi_line_statement_removed_leaves_blank_lines_in_its_place() -> None:
    removed = next(m for m in node_mutants(SOURCE, _fill()) if "append" in m.description)
    lines = removed.source.splitlines()
    assert [line.strip() for line in lines[10:13]] == ["pass", "", ""]
    assert removed.line == 11
    assert removed.kind == "statement"


def test_nested_definitions_the_docstring_and_f_strings_are_left_alone() -> None:
    whole_body = ("identity", "empty")
    sources = [m.source for m in node_mutants(SOURCE, _fill()) if m.kind not in whole_body]
    assert all("return 99" in s and "Put amount in the box." in s for s in sources)
    assert all('return f"{amount} {self.level}"' in s or "return None" in s for s in sources)


def test_more_mutants_than_the_limit_are_spread_over_the_body() -> None:
    every = node_mutants(SOURCE, _fill())
    some = node_mutants(SOURCE, _fill(), limit=4)
    assert len(some) == 4
    assert [m.line for m in some] == sorted(m.line for m in some)
    assert some[0].line == every[0].line and some[-1].line > some[0].line


def test_a_function_with_nothing_to_change_has_no_mutant() -> None:
    source = "def nothing(x):\n    pass\n"
    function = ast.parse(source).body[0]
    assert isinstance(function, ast.FunctionDef)
    assert node_mutants(source, function) == []


def test_the_identity_mutant_hands_back_the_instance_in_place_of_the_whole_body() -> None:
    identity = node_mutants(SOURCE, _fill())[0]
    lines = identity.source.splitlines()
    assert (identity.kind, identity.line) == ("identity", 7)
    assert lines[6].strip() == "return self" and not "".join(lines[7:20]).strip()
    assert '"""Put amount in the box."""' in lines[5]
    assert len(lines) == len(SOURCE.splitlines())


def _first(source: str) -> ast.FunctionDef:
    return next(n for n in ast.walk(ast.parse(source)) if isinstance(n, ast.FunctionDef))


def test_the_identity_mutant_returns_the_first_argument_and_skips_cls() -> None:
    function = "def trimmed(text, chars=None):\n    return text.strip(chars)\n"
    assert identity_parameter(_first(function)) == "text"
    made = "class T:\n    @classmethod\n    def made(cls, rows):\n        return cls(rows)\n"
    assert identity_parameter(_first(made)) == "rows"
    assert "return rows" in node_mutants(made, _first(made))[0].source


def test_no_identity_mutant_where_the_node_returns_nothing_yields_or_takes_nothing() -> None:
    procedure = "def store(self, x):\n    self.x = x\n    return\n"
    generator = "def items(self):\n    yield self\n    return 1\n"
    bare = "def now():\n    return 1\n"
    for source in (procedure, generator, bare):
        assert identity_parameter(_first(source)) is None
        assert all(m.kind != "identity" for m in node_mutants(source, _first(source)))
    # A body that already hands back its instance has no identity mutant to add.
    fluent = "def done(self):\n    return self\n"
    assert [m.kind for m in node_mutants(fluent, _first(fluent))] == ["return"]


def test_the_identity_mutant_knows_the_returns_that_give_its_parameter_back() -> None:
    source = (
        "def snake(text):\n"
        "    text = text.strip()\n"
        "    if not text:\n"
        "        return text\n"
        "    if text.isupper():\n"
        "        return text.lower() if len(text) > 1 else text\n"
        "    return text.lower()\n"
    )
    identity = node_mutants(source, _first(source))[0]
    assert identity.kind == "identity"
    assert identity.given_back == {4, 6}
    assert all(not m.given_back for m in node_mutants(source, _first(source))[1:])
    copied = "def copied(self):\n    return dict(self)\n"
    assert node_mutants(copied, _first(copied))[0].given_back == frozenset()


def test_a_conditional_expression_is_replaced_by_each_side() -> None:
    # A branch inside one line: coverage cannot see which side ran, a mutant can.
    source = "def to_seconds(t):\n    return float(t.total_seconds() if isinstance(t, D) else t)\n"
    sides = [
        m for m in node_mutants(source, _first(source)) if "whatever the condition" in m.description
    ]
    assert {m.source.splitlines()[1].strip() for m in sides} == {
        "return float((t))",
        "return float((t.total_seconds()))",
    }


def test_the_identity_mutant_knows_a_decorator_that_may_change_the_value() -> None:
    validator = "@validator\ndef md5(value, /):\n    return re.match(P, value)\n"
    assert node_mutants(validator, _first(validator))[0].wrapped
    called = "@utils.validator(strict=True)\ndef md5(value):\n    return re.match(P, value)\n"
    assert node_mutants(called, _first(called))[0].wrapped
    for decorator in ("staticmethod", "functools.lru_cache(maxsize=8)", "abc.abstractmethod"):
        plain = f"@{decorator}\ndef trimmed(text):\n    return text.strip()\n"
        assert not node_mutants(plain, _first(plain))[0].wrapped, decorator


PREDICATE = '''def holds(subject, search):
    """Whether search is in subject."""
    return search in subject
'''


def _holds() -> ast.FunctionDef:
    node = ast.parse(PREDICATE).body[0]
    assert isinstance(node, ast.FunctionDef)
    return node


def test_a_predicate_s_body_is_replaced_by_each_outcome_and_they_outlast_the_limit() -> None:
    mutants = node_mutants(PREDICATE, _holds())
    outcomes = [m for m in mutants if m.kind == "outcome"]
    assert [m.description for m in outcomes] == [
        "line 3: the body -> `return True` (the same outcome whatever the call)",
        "line 3: the body -> `return False` (the same outcome whatever the call)",
    ]
    assert "return False" in outcomes[1].source and "search in subject" not in outcomes[1].source
    assert outcomes[1].source.splitlines()[1] == PREDICATE.splitlines()[1]  # the docstring stays
    kept = node_mutants(PREDICATE, _holds(), limit=3)
    assert [m.kind for m in kept] == ["identity", "outcome", "outcome"]


def test_a_node_returning_other_values_gets_no_outcome_mutant() -> None:
    assert all(m.kind != "outcome" for m in node_mutants(SOURCE, _fill()))


VALUES = '''def set(obj, glob):
    return 0


def values(obj, glob):
    """The values glob matches."""
    found = [v for p, v in obj.items() if p == glob]
    return found or None


def fold(obj, f, acc):
    for pair in obj.items():
        f(obj, pair, acc)
    return acc


def merge(dst, src):
    dst.update(src)
    return dst
'''


def _defined(name: str) -> ast.FunctionDef:
    node = next(n for n in ast.parse(VALUES).body if getattr(n, "name", "") == name)
    assert isinstance(node, ast.FunctionDef)
    return node


def test_a_node_returning_values_gets_its_body_returning_each_empty_value() -> None:
    mutants = node_mutants(VALUES, _defined("values"), observed=["list", "set", "NoneType"])
    empties = [m for m in mutants if m.kind == "empty"]
    # `set()` is left out: the module binds `set` to its own function; None is no empty value.
    assert [m.description for m in empties] == [
        "line 7: the body -> `return []` (the call doing nothing)",
    ]
    assert empties[0].must_fail == "empty"
    assert empties[0].source.splitlines()[4:8] == [
        "def values(obj, glob):",
        '    """The values glob matches."""',
        "    return []",
        "",
    ]
    kept = node_mutants(VALUES, _defined("values"), limit=2, observed=["list", "str"])
    assert [m.kind for m in kept] == ["empty", "empty"]


def test_the_parameter_every_return_hands_back_is_a_value_a_kept_set_must_fail() -> None:
    fold = node_mutants(VALUES, _defined("fold"), observed=["str"])
    assert [(m.description, m.must_fail) for m in fold if m.must_fail] == [
        ("line 12: the body -> `return acc` (the call doing nothing)", "empty"),
        ("line 12: the body -> `return ''` (the call doing nothing)", "empty"),
    ]
    # Handed back as the first parameter: the identity mutant is that one.
    merge = node_mutants(VALUES, _defined("merge"), observed=["dict"])
    assert [(m.kind, m.must_fail) for m in merge][:2] == [("identity", "empty"), ("empty", "empty")]
    assert merge[1].description == "line 18: the body -> `return {}` (the call doing nothing)"


def test_a_comprehensions_filter_is_dropped_one_at_a_time() -> None:
    # deepmerge's append_unique: `[n for n in nxt if n not in seen]` with the filter gone
    # keeps every item; only a call whose lists share one tells them apart.
    source = (
        "def unique(base, nxt):\n"
        "    seen = set(base)\n"
        "    return base + [n for n in nxt if n not in seen if n]\n"
    )
    function = ast.parse(source).body[0]
    assert isinstance(function, ast.FunctionDef)
    dropped = [m for m in node_mutants(source, function) if "` dropped in `" in m.description]
    assert [m.description.split("`")[1] for m in dropped] == ["if n not in seen", "if n"]
    assert "[n for n in nxt if n]" in dropped[0].source
    assert "[n for n in nxt if n not in seen]" in dropped[1].source
