"""What runs the project's own code: in the command sandbox, never in Remora's process.

- :mod:`.sandboxed`: one of :mod:`.programs` run on the workspace's copy of the project;
- :mod:`.calls`: how a caller reaches the node, and argument sets bound and called
  (``call_target``, ``derived_argument_sets``, ``check_argument_sets``: :mod:`.checked_sets`);
- :mod:`.coverage_probe`: the node's line and branch coverage, reported as its source;
- :mod:`.pytest_files`: where a module's tests live, pytest run on one, tests that pass added
  (as :mod:`.unittest_methods` where :mod:`.test_runner` says the project's are unittest's),
  with only the installed pytest plugins the project declares (:mod:`.pytest_plugins`; the
  requirements it lists: :mod:`.project_requirements`, ``setup.py``'s by :mod:`.setup_script`);
  a test file's text, its tests and the pieces added to it, is :mod:`.test_file_text`'s;
- :mod:`.own_raises`: whether an exception a probed call raised is the node's behaviour
  (not a shared helper's guard on an instance built unusable: :mod:`.instance_guards`).

It may read the value search (:mod:`remora.code.values`); the agents' packages above it
(``testgen``, ``samples``, ``lint``) use it.
"""

from remora.code.probes import calls, pytest_files
from remora.code.probes.calls import (
    derived_argument_sets,
    node_call_target,
    pins_behaviour,
    probe_argument_sets,
)
from remora.code.probes.coverage_probe import (
    Coverage,
    CoverageSummary,
    Span,
    context_units,
    measure_test_file,
    missed_report,
    node_span,
)
from remora.code.probes.machine_settings import OTHER_MACHINE_WORDS
from remora.code.probes.own_raises import in_file, raise_is_behaviour, setup_reason, unusable_reason
from remora.code.probes.pytest_files import (
    add_passing_tests,
    module_test_file,
    overlay_digest,
    pytest_args,
    restore_file,
    run_pytest,
    run_pytest_measured,
    written_class,
)
from remora.code.probes.pytest_own_modules import pytest_own_module
from remora.code.probes.pytest_results import PytestReport, PytestTest
from remora.code.probes.sandboxed import run_program
from remora.code.probes.test_file_text import (
    add_to_test_file,
    reported_name,
    taken_names,
    tests_in_file,
    with_pieces,
)
from remora.code.probes.test_runner import shared_futures

__all__ = [
    "OTHER_MACHINE_WORDS",
    "Coverage",
    "CoverageSummary",
    "PytestReport",
    "PytestTest",
    "Span",
    "add_passing_tests",
    "add_to_test_file",
    "calls",
    "context_units",
    "derived_argument_sets",
    "in_file",
    "measure_test_file",
    "missed_report",
    "module_test_file",
    "node_call_target",
    "node_span",
    "overlay_digest",
    "pins_behaviour",
    "probe_argument_sets",
    "pytest_args",
    "pytest_files",
    "pytest_own_module",
    "raise_is_behaviour",
    "reported_name",
    "restore_file",
    "run_program",
    "run_pytest",
    "run_pytest_measured",
    "setup_reason",
    "shared_futures",
    "taken_names",
    "tests_in_file",
    "unusable_reason",
    "with_pieces",
    "written_class",
]
