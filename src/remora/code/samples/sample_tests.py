"""The sample_data agent's change: a class's fixtures in the tests' conftest and the test that
reads them; a function's table as a parametrized test.

:func:`write_sample_fixtures` selects the node's sets (:mod:`remora.code.samples.sample_sets`),
writes them as fixtures beside the module's test file with the parametrized
tests that read them, or as a parametrized test alone
(:mod:`remora.code.samples.sample_fixtures`), and runs that test
file with pytest twice in the command sandbox (:func:`run_pytest`). A set whose
case fails either run is taken out and the rest run twice again; when none is
left both files are put back as they were, so no fixture is offered that no
passing test reads. The JSON file of argument sets
(:func:`remora.code.samples.fixtures.add_to_sample_fixture`) is written too only when
``export_json`` asks for it: an export for other tools, not the change a
maintainer reviews.
"""

from __future__ import annotations

from typing import Any

from remora.code.context import CodeContext
from remora.code.host_function import host_function
from remora.code.line_length import project_line_length
from remora.code.parsing import module_names
from remora.code.probes import (
    PytestReport,
    module_test_file,
    node_call_target,
    node_span,
    pytest_own_module,
    restore_file,
    run_pytest,
    run_pytest_measured,
    tests_in_file,
)
from remora.code.samples.fixtures import add_to_sample_fixture
from remora.code.samples.kept_sets import KeptSet, Selection
from remora.code.samples.pytest_projects import not_pytest_reason
from remora.code.samples.sample_files import conftest_path, top_level_names, with_code
from remora.code.samples.sample_fixtures import sample_code
from remora.code.samples.sample_results import SampleTests, SampleWrite
from remora.code.samples.sample_sets import select_sets
from remora.code.values import (
    CallTarget,
    Candidate,
    arguments_from_text,
    parameter_of,
    project_class_lookup,
)
from remora.code.values.filled_instances import is_filled

__all__ = [
    "failed_ids",
    "model_candidates",
    "without_ids",
    "write_sample_fixtures",
]

_REASON = "sample data: why none was written"


def model_candidates(
    context: CodeContext, target: CallTarget, sets: list[dict[str, Any]]
) -> tuple[list[Candidate], list[str]]:
    """The model's sets (``{name, args}``, args as call text) as candidates, and the
    reasons of those that are not call arguments of the node."""
    params = [parameter_of(p) for p in target["parameters"]]
    lookup = project_class_lookup(context)
    found: list[Candidate] = []
    refused: list[str] = []
    for index, entry in enumerate(sets, 1):
        name = str(entry.get("name") or f"set_{index}") if isinstance(entry, dict) else ""
        args = entry.get("args") if isinstance(entry, dict) else None
        try:
            if isinstance(args, str):
                found.append(Candidate(arguments_from_text(args, params, lookup), "proposed"))
            elif isinstance(args, dict):
                found.append(Candidate(dict(args), "proposed"))
            else:
                raise ValueError("'args' are call arguments as text (a=1, b='x')")
        except ValueError as exc:
            refused.append(f"{name}: {exc}")
    return found, refused


def failed_ids(report: PytestReport, tests: list[str]) -> tuple[set[str], bool]:
    """(the ids of the parametrized cases of ``tests`` that did not pass, whether any of
    ``tests`` did not run at all)."""
    failed: set[str] = set()
    seen = {name: False for name in tests}
    for row in report["tests"]:
        function, _, case = str(row["name"]).partition("[")
        if function not in seen:
            continue
        seen[function] = True
        if row["outcome"] != "passed":
            failed.add(case.rstrip("]") or function)  # a test of no parameters by its name
    return failed, not all(seen.values()) or not report["ran"] or bool(report["collection_errors"])


def without_ids(kept: list[KeptSet], ids: set[str]) -> list[KeptSet]:
    """The sets whose case id (their words, numbered as the fixture numbers repeats) is
    not among ``ids``."""
    out: list[KeptSet] = []
    used: set[str] = set()
    for entry in kept:
        words = entry.name.split(":")[0]
        label, number = words, 2
        while label in used:
            label, number = f"{words}_{number}", number + 1
        used.add(label)
        if label not in ids:
            out.append(entry)
    return out


async def _write_and_run(
    context: CodeContext, target: CallTarget, selection: Selection, result: SampleWrite
) -> None:
    """Write the fixtures and tests into ``result``'s files and run them twice (fewer sets
    after a failure, once); ``result`` says what was written, or why nothing was."""
    paths = (result["test_file"], result["conftest"])
    test_path, fixture_path = paths
    originals = {
        path: context.read_text(path) if context.workspace.exists(path) else None for path in paths
    }
    names = module_names(context.node_file_text())
    span = node_span(context)
    line_length, classes = project_line_length(context), project_class_lookup(context)
    for _attempt in range(2):
        code = sample_code(target, names, selection, line_length, classes)
        taken = top_level_names(originals[fixture_path] or "")
        taken |= top_level_names(originals[test_path] or "")
        clash = sorted(taken & {*code.fixture_names, *code.test_names})
        if clash:
            result["reason"] = f"the tests already define {', '.join(clash)}"
            return
        module = str(target["module"])
        if code.fixtures:  # a class's; a function's table is its test's parameters
            conftest = with_code(
                originals[fixture_path] or "",
                fixture_path,
                module,
                code.fixture_render,
                code.fixtures,
            )
            context.write_text(fixture_path, conftest)
        tests = with_code(
            originals[test_path] or "", test_path, module, code.test_render, code.tests
        )
        context.write_text(test_path, tests)
        first = await run_pytest(context, test_path)
        # The second run as on another machine: a locale or time zone's value is no sample.
        second, _ = await run_pytest_measured(context, test_path, span.spec(), elsewhere=True)
        failed: set[str] = set()
        broken = False
        for report in (first, second):
            ids, missing = failed_ids(report, code.test_names)
            failed |= ids
            broken = broken or missing
        if not failed and not broken:
            result["written"] = True
            result["fixtures"], result["tests"] = code.fixture_names, code.test_names
            result["sets"] = len(selection.kept)
            return
        for path, text in originals.items():
            restore_file(context, path, text)
        dropped = {code.filled_tests[test] for test in failed if test in code.filled_tests}
        plain = [k for k in selection.kept if not is_filled(k.args)]
        filled = [k for k in selection.kept if is_filled(k.args) and k.name not in dropped]
        selection.kept = [*without_ids(plain, failed), *filled]
        if broken or not selection.kept:
            break
    result["reason"] = "its tests did not pass twice"


@host_function
async def write_sample_fixtures(
    context: CodeContext,
    sets: list[dict[str, Any]],
    export_json: bool = False,
    argument_tables: bool = False,
) -> SampleWrite:
    """Select, write and run the node's sample data (``reason`` '' when it was written).

    ``sets``: the model's argument sets (``{name, args}``), tried after the project's
    own usage and the derived ones, under the same checks. ``export_json``: also add
    the kept sets to ``tests/fixtures/<module>/<name>_samples.json``.
    ``argument_tables``: a function's or a method's cases too, as a table (else only
    a class's instances: the test agent's tests reach a function's cases).
    """
    target = node_call_target(context)
    extra, refused = model_candidates(context, target, sets) if not target["reason"] else ([], [])
    # A project whose tests pytest does not run gets none: nothing is searched or probed.
    runner = not_pytest_reason(context) or pytest_own_module(target["module"])
    selection = Selection([], reason=runner)
    if not runner:
        selection = await select_sets(context, target, extra, tables=argument_tables)
    found = module_test_file(context)
    result: SampleWrite = {
        "written": False,
        "test_file": str(found["path"]),
        "conftest": conftest_path(str(found["path"])),
        "fixtures": [],
        "tests": [],
        "sets": 0,
        "dropped": selection.dropped,
        "refused": refused,
        "reason": "",
    }
    if not selection.kept:
        result["reason"] = selection.reason or "no set was kept"
    else:
        await _write_and_run(context, target, selection, result)
    if not result["written"]:
        # For the submit, which asks at the same workspace revision (nothing was written).
        reason = result["reason"]
        context.kept(_REASON, lambda: reason)
        return result
    if export_json and target["kind"] != "class":
        add_to_sample_fixture(
            context, [{"name": k.name.split(":")[0], "args": k.args} for k in selection.kept]
        )
    return result


@host_function
def sample_tests_written(context: CodeContext) -> SampleTests:
    """What the run wrote: the functions each file has that the project's does not (empty
    when the run wrote none, and then ``reason`` says why)."""
    test_file = str(module_test_file(context)["path"])
    facts: SampleTests = {
        "conftest": conftest_path(test_file),
        "test_file": test_file,
        "fixtures": [],
        "tests": [],
        "reason": context.kept(_REASON, lambda: ""),
    }
    changes = {c.path: c for c in context.workspace.changes()}
    for path in (facts["conftest"], test_file):
        change = changes.get(path)
        if change is None or not context.workspace.exists(path):
            continue
        before = top_level_names(change.old.decode("utf-8")) if change.old is not None else set()
        now = context.read_text(path)
        added = sorted(top_level_names(now) - before)
        if path == facts["conftest"]:
            facts["fixtures"] = added
        else:
            facts["tests"] = [n for n in tests_in_file(now, path) if n in added]
    return facts
