"""scripts/test.sh's xdist scheduler: the tests of the model's modules form one scope."""

from __future__ import annotations

from collections import OrderedDict
from types import SimpleNamespace

import pytest
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


class _Worker:
    """What the scheduler asks of a worker: the test indexes sent to any worker, in order."""

    shutting_down = False

    def __init__(self, name: str, sent: list[tuple[str, list[int]]]) -> None:
        self.gateway = SimpleNamespace(id=name)
        self.sent = sent

    def send_runtest_some(self, indexes: list[int]) -> None:
        self.sent.append((self.gateway.id, indexes))

    def shutdown(self) -> None:
        self.shutting_down = True


@pytest.mark.parametrize("reorder", [True, False])
def test_the_model_group_is_sent_first_and_the_rest_in_collection_order(reorder: bool) -> None:
    # scripts/test.sh counts on it (CONTRIBUTING.md): the model's minutes start at once,
    # beside the long integration tests, and the short unit tests come last on both workers.
    model = sorted(MODEL_MODULES)[0]
    collection = [
        "tests/integration/test_analyze_processes.py::test_a",
        "tests/integration/test_analyze_processes.py::test_b",
        f"{model}::test_one",
        f"{model}::test_two",
        "tests/unit/test_errors.py::test_c",
        "tests/unit/test_errors.py::test_d",
    ]
    scheduling = object.__new__(ModelGroupScheduling)
    scheduling.numnodes = 2
    scheduling.collection = None
    scheduling.workqueue = OrderedDict()
    scheduling.assigned_work = {}
    scheduling.registered_collections = {}
    scheduling.log = lambda *args: None
    scheduling.config = SimpleNamespace(option=SimpleNamespace(loadscopereorder=reorder))
    sent: list[tuple[str, list[int]]] = []
    workers = [_Worker("gw0", sent), _Worker("gw1", sent)]
    for worker in workers:
        scheduling.add_node(worker)
        scheduling.add_node_collection(worker, collection)
    scheduling.schedule()
    # The model's group, whole, to one worker; then one test at a time in collection order.
    assert sent[0] == ("gw0", [2, 3])
    assert [indexes for _, indexes in sent[1:]] == [[0], [1], [4]]
    assert list(scheduling.workqueue) == [collection[5]]
