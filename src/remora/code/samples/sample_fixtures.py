"""Sample data the tests read: a class's fixtures in the conftest, a function's table in its test.

The sets of :mod:`remora.code.samples.sample_sets` become, for a function or a method,
one ``@pytest.mark.parametrize`` test in the module's test file
(:func:`remora.code.probes.pytest_files.module_test_file`) for the sets that return
(``test_<name>_samples``: each row its arguments and the value returned) and one for those
that raise (``test_<name>_rejected_samples``: the exception): blind reviewers found a
conftest fixture read by one test heavier than the parameters of the test itself. A
class gets a fixture of its constructor's arguments with what its parameterless members
gave (``observed``) in the ``conftest.py`` beside that file, a fixture building the
instance from them, and a test asserting each member on it. No fixture is offered that
no test reads: both files change together, and the change stands only when its tests
pass in two pytest runs (:func:`remora.code.probes.pytest_files.run_pytest`).
"""

from __future__ import annotations

import json
from typing import Any

from remora.code.line_length import DEFAULT_LINE_LENGTH
from remora.code.samples.kept_sets import KeptSet, Selection
from remora.code.values import CallRender, CallTarget, ClassLookup, snake_name
from remora.code.values.filled_instances import CALLS_KEY, is_filled, is_item_assignment

__all__ = ["SampleCode", "sample_code"]


# How a filled instance's fixture names its item sets (``obj[key] = value``).
_ITEMS = "item assignment"
# How a filled instance's fixture says it was filled, by the words of its set.
_FILLED_BY = {
    "as_built": "as the project's code does",
    "as_documented": "as the project's documentation does",
}


class _Code(str):
    """Python source written as it is (an exception class's name)."""


class _Render(CallRender):
    """Values as a formatter leaves them: strings in double quotes."""

    def value(self, value: Any) -> str:
        if isinstance(value, _Code):
            return str(value)
        if isinstance(value, str):
            return json.dumps(value, ensure_ascii=False)
        if isinstance(value, tuple):  # a reader's value (literal_eval), items as the rest
            items = [self.value(v) for v in value]
            return f"({', '.join(items)}{',' if len(items) == 1 else ''})"
        return super().value(value)


class SampleCode:
    """The fixtures and tests of one node, and the names each file must import; ``classes``
    reads the constructors of the instances among the values (by position where they take
    positional-only parameters, as the probe built them)."""

    def __init__(
        self,
        target: CallTarget,
        module_names: set[str],
        line_length: int,
        classes: ClassLookup | None = None,
    ) -> None:
        self.target = target
        self.module_names = module_names
        self.line_length = line_length
        self.classes = classes
        self.fixture_render = _Render(target, module_names, classes)
        self.test_render = _Render(target, module_names, classes)
        self.fixtures: list[str] = []
        self.tests: list[str] = []
        self.fixture_names: list[str] = []
        self.test_names: list[str] = []
        # A filled instance's test, by the name of the set it reads (a failure drops it).
        self.filled_tests: dict[str, str] = {}

    def _param_list(self, entries: list[tuple[dict[str, Any], str]]) -> str:
        return "\n".join(self._params([([self._mapping(v)], words) for v, words in entries]))

    def _params(self, rows: list[tuple[list[str], str]]) -> list[str]:
        """A ``pytest.param(...)`` line per row (its rendered values and the words of its id,
        numbered when they repeat), wrapped one argument a line as a formatter would."""
        used: set[str] = set()
        lines = []
        for values, words in rows:
            label, number = words, 2
            while label in used:
                label, number = f"{words}_{number}", number + 1
            used.add(label)
            line = f"        pytest.param({', '.join(values)}, id={json.dumps(label)}),"
            if len(line) > self.line_length:
                inner = "".join(f"            {v},\n" for v in values)
                line = (
                    f"        pytest.param(\n{inner}            id={json.dumps(label)},\n        ),"
                )
            lines.append(line)
        return lines

    def _mapping(self, value: dict[str, Any]) -> str:
        render = self.fixture_render
        return (
            "{" + ", ".join(f"{json.dumps(k)}: {render.value(v)}" for k, v in value.items()) + "}"
        )

    def _fixture(self, name: str, doc: str, entries: list[tuple[dict[str, Any], str]]) -> None:
        self.fixture_names.append(name)
        self.fixtures.append(
            "@pytest.fixture(\n    params=[\n"
            f"{self._param_list(entries)}\n    ]\n)\n"
            f"def {name}(request):\n"
            f'    """{doc}"""\n'
            "    return request.param\n"
        )

    def _exception(self, kind: str, module: str) -> _Code:
        if module != "builtins":
            self.test_render.imports.add(kind.split(".")[0])
        return _Code(kind)

    def _owner(self, kept: list[KeptSet], column: str) -> tuple[str, list[str], bool]:
        """(how the test reaches the node, the lines building its instance, whether the
        instance's arguments are a column of the table: they differ from row to row)."""
        target = self.target
        if target["kind"] != "method":
            self.test_render.imports.add(target["qualname"].split(".")[0])
            return target["qualname"], [], False
        owner = target["owner"]
        self.test_render.imports.add(owner.split(".")[0])
        if target["method_kind"] in ("staticmethod", "classmethod"):
            return f"{owner}.{target['name']}", [], False
        variable = snake_name(owner.split(".")[-1])
        names = {target["name"], *(p["name"] for p in target["parameters"])}
        variable = f"{variable}_obj" if variable in names else variable
        owners = {json.dumps(k.owner_args or {}, sort_keys=True, default=repr) for k in kept}
        if len(owners) > 1:
            return f"{variable}.{target['name']}", [f"{variable} = {owner}(**{column})"], True
        fixed = kept[0].owner_args or {}
        arguments = ", ".join(f"{k}={self.test_render.value(v)}" for k, v in fixed.items())
        return f"{variable}.{target['name']}", [f"{variable} = {owner}({arguments})"], False

    def _columns(self, columns: list[str]) -> str:
        """The columns as a call's arguments: by position while they are the signature's
        first positional-or-keyword parameters in order (``f(part)``), then by keyword."""
        order = [p for p in self.target["parameters"] if p["name"] in columns]
        leading = 0
        for index, parameter in enumerate(self.target["parameters"]):
            plain = parameter["kind"] == "positional_or_keyword"
            if index >= len(order) or not plain or parameter["name"] != order[index]["name"]:
                break
            leading += 1
        named = [p["name"] for p in order]
        return ", ".join([*named[:leading], *(f"{n}={n}" for n in named[leading:])])

    def _call(self, callee: str, arguments: str) -> str:
        call = f"{callee}({arguments})"
        if self.target["is_async"]:
            self.test_render.modules.add("asyncio")
            return f"asyncio.run({call})"
        return self.test_render.drained(call)  # a generator's items (never a capped one's)

    def add_calls(self, kept: list[KeptSet]) -> None:
        """A function's or a method's table: a parametrized test of the sets that return,
        one of those that raise; each set's arguments a column of their own when every set
        names the same ones (else one ``args`` mapping), a method's instance built once
        (a column when the sets build it differently)."""
        base = snake_name(self.target["qualname"])
        returning = [k for k in kept if k.raises is None]
        raising = [k for k in kept if k.raises is not None]
        for group, kind in ((returning, "returns"), (raising, "raises")):
            if not group:
                continue
            names = [str(p["name"]) for p in self.target["parameters"]]
            shapes = {tuple(k.args) for k in group}
            columns = [n for n in names if n in group[0].args] if len(shapes) == 1 else []
            if self.target["qualname"].split(".")[0] in columns:
                columns = []  # a column would hide the function the test calls: one mapping
            taken = set(names)
            mapping = "" if columns else _free("args", taken)
            owner_column = _free("owner", taken | {mapping})
            callee, setup, owned = self._owner(group, owner_column)
            outcome = _free("expected" if kind == "returns" else "error", taken)
            heads = [*columns, *([mapping] if mapping else []), *([owner_column] if owned else [])]
            rows: list[tuple[list[Any], str]] = []
            for entry in group:
                cells: list[Any] = [entry.args[c] for c in columns]
                cells += [entry.args] if mapping else []
                cells += [entry.owner_args or {}] if owned else []
                cells.append(
                    entry.returns if entry.raises is None else self._exception(*entry.raises)
                )
                rows.append((cells, entry.name.split(":")[0]))
            arguments = f"**{mapping}" if mapping else self._columns(columns)
            call = self._call(callee, arguments)
            if kind == "returns":
                test, body = f"test_{base}_samples", [*setup, *self._equal(call, outcome)]
            else:
                test = f"test_{base}_rejected_samples"
                body = [*setup, f"with pytest.raises({outcome}):", f"    {call}"]
            self._table(test, [*heads, outcome], rows, body)

    def add_instances(self, selection: Selection) -> None:
        """A class's fixtures (its arguments and what its members gave; the instance) and
        the test that asserts each member on the instance; a filled instance's fixture
        and test of its own."""
        plain = [k for k in selection.kept if not is_filled(k.args)]
        if plain:
            self._constructed(plain, selection)
        for entry in selection.kept:
            if is_filled(entry.args):
                self._filled(entry, selection.properties)

    def _constructed(self, kept: list[KeptSet], selection: Selection) -> None:
        """The instances built from constructor arguments alone: a parametrized fixture of
        their arguments and what the readers gave, one building the instance, one test."""
        qualname = self.target["qualname"]
        base = snake_name(qualname)
        entries = [({"args": k.args, "observed": k.observed}, k.name.split(":")[0]) for k in kept]
        sample = f"{base}_sample"
        self._fixture(sample, f"Arguments of {qualname}, each with what its members give.", entries)
        self.fixture_names.append(base)
        self.fixture_render.imports.add(qualname.split(".")[0])
        self.fixtures.append(
            f"@pytest.fixture\ndef {base}({sample}):\n"
            f'    """{qualname} built from each sample\'s arguments."""\n'
            f'    return {qualname}(**{sample}["args"])\n'
        )
        members = selection.properties
        body = [f'observed = {sample}["observed"]']
        for member in selection.members:
            read = f"{base}.{member}" if member in members else f"{base}.{member}()"
            body += self._equal(read, f'observed["{member}"]')
        self._test(f"test_{base}_samples", f"{base}, {sample}", body)

    def _filled(self, entry: KeptSet, properties: list[str]) -> None:
        """A filled instance: a fixture building it and making its calls as the project
        does (or as the filled-instance search does), and the test asserting what each
        reader gives on it."""
        qualname = self.target["qualname"]
        words = entry.name.split(":")[0]
        name = _free(f"{snake_name(qualname)}_{words}", {*self.fixture_names, *self.test_names})
        owner: CallTarget = {
            **self.target,
            "kind": "method",
            "method_kind": "instance",
            "owner": qualname,
            "owner_parameters": self.target["parameters"],  # the class's: its constructor's
            "name": name,
        }
        render = _Render(owner, self.module_names, self.classes)
        _callee, lines = render.setup(entry.args)
        self.fixture_render.imports |= render.imports
        self.fixture_render.modules |= render.modules
        steps = [
            _ITEMS if is_item_assignment(c) else f"{c['method']}()" for c in entry.args[CALLS_KEY]
        ]
        how = _FILLED_BY.get(words, "as the value search fills it")
        self.fixture_names.append(name)
        self.fixtures.append(
            f"@pytest.fixture\ndef {name}():\n"
            f'    """{qualname} filled through {", ".join(dict.fromkeys(steps))}, {how}."""\n'
            + "".join(f"    {line}\n" for step in lines for line in self._wrapped(step, 4))
            + f"    return {render.instance}\n"
        )
        body: list[str] = []
        for member, value in entry.observed.items():
            read = f"{name}.{member}" if member in properties else f"{name}.{member}()"
            if value is None or isinstance(value, bool):
                body.append(f"assert {read} is {value!r}")  # a singleton, by identity
            else:
                body += self._equal(read, self.test_render.value(value))
        test = f"test_{name}"
        self.filled_tests[test] = entry.name
        self._test(test, name, body)

    def _wrapped(self, line: str, indent: int) -> list[str]:
        """A call's line, its arguments on a line of their own when it is too long."""
        opening = line.find("(")
        if len(line) + indent <= self.line_length or opening < 0 or not line.endswith(")"):
            return [line]
        return [line[: opening + 1], f"    {line[opening + 1 : -1]}", ")"]

    def _equal(self, left: str, right: str) -> list[str]:
        """``assert left == right``, split as a formatter splits it when too long."""
        line = f"assert {left} == {right}"
        if len(line) + 4 <= self.line_length:
            return [line]
        return ["assert (", f"    {left}", f"    == {right}", ")"]

    def _table(
        self, name: str, heads: list[str], rows: list[tuple[list[Any], str]], body: list[str]
    ) -> None:
        """A test parametrized by ``rows`` (their cells under ``heads``, each with its id)."""
        self.test_render.modules.add("pytest")
        params = self._params(
            [([self.test_render.value(c) for c in cells], w) for cells, w in rows]
        )
        names = ", ".join(json.dumps(h) for h in heads)
        names = f"({names},)" if len(heads) == 1 else f"({names})"
        lines = "\n".join(f"    {line}" for line in body)
        self.test_names.append(name)
        self.tests.append(
            f"@pytest.mark.parametrize(\n    {names},\n    [\n"
            + "\n".join(params)
            + f"\n    ],\n)\ndef {name}({', '.join(heads)}):\n{lines}\n"
        )

    def _test(self, name: str, fixtures: str, body: list[str]) -> None:
        self.test_names.append(name)
        lines = "\n".join(f"    {line}" for line in body)
        self.tests.append(f"def {name}({fixtures}):\n{lines}\n")


def _free(name: str, taken: set[str]) -> str:
    """``name``, or ``name`` with ``_value`` added while a parameter has it."""
    while name in taken:
        name = f"{name}_value"
    return name


def sample_code(
    target: CallTarget,
    module_names: set[str],
    selection: Selection,
    line_length: int = DEFAULT_LINE_LENGTH,
    classes: ClassLookup | None = None,
) -> SampleCode:
    """The fixtures and tests for a node's kept sets (params wrapped past ``line_length``;
    ``classes``: the constructors of the instances among the values)."""
    code = SampleCode(target, module_names, line_length, classes)
    if target["kind"] == "class":
        code.add_instances(selection)
    else:
        code.add_calls(selection.kept)
    code.fixture_render.modules.add("pytest")
    return code
