"""The constants a module imports by name from the project's other modules
(values/imported_modules.py): unidiff's ``LINE_TYPE_ADDED`` lies in ``constants.py``."""

from __future__ import annotations

import ast

from remora.code.values.imported_modules import imported_constants

FILES = {
    "pkg/marks.py": 'ADDED = "+"\nREMOVED = "-"\nCHANGED = "~"\nCHANGED = "!"\nLIMIT = len("ab")\n',
    "pkg/sub/deep.py": "DEPTH = 3\n",
}


def _constants(source: str, path: str = "pkg/rows.py") -> dict[str, object]:
    return imported_constants(ast.parse(source), path, FILES.get)


def test_a_name_imported_from_the_package_is_its_constant_under_its_own_or_its_alias() -> None:
    source = "from pkg.marks import ADDED, REMOVED as GONE\nfrom .sub.deep import DEPTH\n"
    assert _constants(source) == {"ADDED": "+", "GONE": "-", "DEPTH": 3}


def test_names_bound_twice_computed_or_of_another_package_are_left_out() -> None:
    source = "from pkg.marks import CHANGED, LIMIT\nfrom os.path import sep\n"
    assert _constants(source) == {}


def test_a_relative_import_from_a_parent_package() -> None:
    assert _constants("from ..marks import ADDED\n", "pkg/sub/rows.py") == {"ADDED": "+"}
