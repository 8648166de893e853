"""One pytest-xdist worker for the tests that run the model (``scripts/test.sh``: ``-n 2``).

The tests that use the ``embedded_model_path`` or ``llama_server_url`` fixture
(tests/integration/conftest.py) run one after another on one worker, while the other
worker takes everything else: the llama.cpp server starts once per run, and two engines
never share the two cores (their threads meet at a barrier at every step:
``remora.providers.llama_engine.default_threads``).

``--dist loadgroup`` with ``xdist_group`` marks cannot do this here: pytest-xdist 3.8.0
groups by appending ``@group`` to ``item._nodeid``, which pytest 9.2 no longer reads
(pytest-dev/pytest-xdist#1386), so the marks are silently ignored. The controller, which
picks the worker, sees only node ids, so the group is named by module: ``MODEL_MODULES``.
``model_modules_problems`` (tests/integration/conftest.py, at collection) fails the run
when a test using the model lives in a module missing from it.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

import pytest
from xdist.scheduler import LoadGroupScheduling

if TYPE_CHECKING:
    from xdist.workermanage import WorkerController

MODEL_FIXTURES = frozenset({"embedded_model_path", "llama_server_url"})
MODEL_GROUP = "model"
MODEL_MODULES = frozenset(
    f"tests/integration/{name}.py"
    for name in (
        "test_agent_all_providers",
        "test_analyze_embedded",
        "test_assistant_default_model",
        "test_assistant_embedded",
        "test_completion_real_model",
        "test_engine_queue",
        "test_library_use",
        "test_providers_local_embedded",
        "test_providers_local_openai",
        "test_providers_local_serve",
        "test_providers_remote_llm",
    )
)


def module_of(nodeid: str) -> str:
    """The test module's path in a node id (``tests/x/test_y.py::test_z[1]``)."""
    return nodeid.split("::", 1)[0]


class ModelGroupScheduling(LoadGroupScheduling):
    """``--dist loadgroup``, with every test of ``MODEL_MODULES`` in one group."""

    def _split_scope(self, nodeid: str) -> str:
        if module_of(nodeid) in MODEL_MODULES:
            return MODEL_GROUP
        return str(super()._split_scope(nodeid))

    def _assign_work_unit(self, node: WorkerController) -> None:
        """The model's group first: it is the longest unit (minutes of generation, one test
        after another), so the other worker's units fill the time beside it and neither
        waits long for the other at the end. ``--loadscope-reorder`` (pytest-xdist's
        default) puts it first too, as the only unit of more than one test; this keeps it
        first without that option."""
        if MODEL_GROUP in self.workqueue:
            self.workqueue.move_to_end(MODEL_GROUP, last=False)
        super()._assign_work_unit(node)


def model_modules_problems(items: Iterable[pytest.Item]) -> list[str]:
    """The modules of these tests that use the model but are missing from ``MODEL_MODULES``."""
    using = {
        module_of(item.nodeid)
        for item in items
        if MODEL_FIXTURES.intersection(getattr(item, "fixturenames", ()))
    }
    return [
        f"{module} uses {' or '.join(sorted(MODEL_FIXTURES))}: add it to MODEL_MODULES "
        "in tests/model_worker.py"
        for module in sorted(using - MODEL_MODULES)
    ]
