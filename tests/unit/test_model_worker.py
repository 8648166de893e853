"""scripts/test.sh's xdist scheduler: the tests of the model's modules form one scope."""

from __future__ import annotations

from model_worker import MODEL_GROUP, MODEL_MODULES, ModelGroupScheduling


def test_every_test_of_a_model_module_is_in_the_model_scope_and_others_alone() -> None:
    # Built without __init__, which wants the controller's --tx nodes; the scope of a node
    # id reads no state of the scheduler.
    scheduling = object.__new__(ModelGroupScheduling)
    for module in MODEL_MODULES:
        assert scheduling._split_scope(f"{module}::test_x[a::b]") == MODEL_GROUP
    for nodeid in (
        "tests/unit/test_errors.py::test_config_errors_exit_3",
        "tests/integration/test_lsp_protocol.py::test_show_diff_opens_the_unified_diff",
        "tests/integration/test_providers_embedded_load_errors.py::test_x",
    ):
        assert scheduling._split_scope(nodeid) == nodeid
