"""A parameter annotated with a project class gets the instance the project builds.

Made-up package: an engine whose constructor takes rules it checks against the names it
knows, built at the package's top from an annotated constant (``RULES: list[...] = [...]``
of builtin classes and names); a step of another module takes an engine, annotated through
the module it imports by dotted name (``kit.engine.Engine`` after ``import kit.engine``).
Rules derived from the constructor's parameters are made-up names the engine refuses; the
project's construction is the one a test builds. Real discovery, ``ast`` and a real
workspace; nothing of the package runs.
"""

from __future__ import annotations

from pathlib import Path

from candidate_support import candidates_of

from remora.code.values.call_render import CallRender
from remora.code.values.call_sites import call_site_arguments
from remora.code.values.call_target import CallTarget
from remora.code.values.unspelled_values import tuple_of, type_of

ENGINE = """\
class Engine:
    def __init__(self, rules, fallback):
        for kind, rule in rules:
            if rule not in ("add", "keep"):
                raise ValueError(rule)
        self.rules = dict(rules)
        self.fallback = fallback
"""
PACKAGE = """\
from .engine import Engine

RULES: list[tuple[type, str]] = [(list, "add"), (dict, "keep")]
default_engine: Engine = Engine(RULES, ["keep"])
"""
STEPS = """\
import kit.engine


def combine(engine: kit.engine.Engine, base: list, extra: list) -> list:
    if engine.rules.get(list) == "add":
        return base + extra
    return base
"""


def test_an_annotated_constant_of_builtin_classes_is_read_where_a_call_names_it() -> None:
    assert call_site_arguments(PACKAGE, "Engine") == ['[(list, "add"), (dict, "keep")], ["keep"]']


def test_a_parameter_of_a_project_class_gets_the_projects_construction(tmp_path: Path) -> None:
    (tmp_path / "kit").mkdir()
    (tmp_path / "kit" / "__init__.py").write_text(PACKAGE)
    (tmp_path / "kit" / "engine.py").write_text(ENGINE)
    found = candidates_of(tmp_path, "kit/steps.py", STEPS, "combine")
    engines = [c.args["engine"] for c in found if "engine" in c.args]
    assert engines
    assert engines[0] == {
        "__class__": "kit.engine.Engine",
        "args": {
            "rules": [tuple_of([type_of("list"), "add"]), tuple_of([type_of("dict"), "keep"])],
            "fallback": ["keep"],
        },
    }


def test_a_class_named_through_an_imported_module_is_imported_as_that_module() -> None:
    target: CallTarget = {
        "module": "kit.steps",
        "qualname": "combine",
        "name": "combine",
        "kind": "function",
        "owner": "",
        "method_kind": "",
        "is_async": False,
        "is_generator": False,
        "parameters": [{"name": "engine", "kind": "positional_or_keyword"}],
        "owner_parameters": [],
        "reason": "",
    }
    engine = {"__class__": "kit.engine.Engine", "args": {"fallback": ["keep"]}}
    render = CallRender(target, {"kit", "combine"}, plain=frozenset({"kit.engine"}))
    assert render.value(engine) == "kit.engine.Engine(fallback=['keep'])"
    assert (render.modules, render.imports) == ({"kit.engine"}, set())
    # Without the module's import: the name the node's module binds, imported from it.
    bare = CallRender(target, {"kit", "combine"})
    bare.value(engine)
    assert (bare.modules, bare.imports) == (set(), {"kit"})
