"""Fan-out of nodes × operations to agent runs, with results and review.

::

    async with Coordinator(config, project_root, progress=bar) as coordinator:
        report = await coordinator.analyze(nodes, ["lint", "docstring"])
    sys.exit(report.exit_code)
"""

from remora.coordinator.batch import OPERATIONAL_ERRORS, Coordinator
from remora.coordinator.binding import OptionBoundExecutor, bind_options, check_options
from remora.coordinator.provider_pool import ProviderFactory, ProviderPool, model_key
from remora.coordinator.report import AnalyzeReport, NullProgress, ProgressSink, TaskOutcome
from remora.coordinator.tasks import (
    OperationPlan,
    Task,
    parse_operations,
    plan_operations,
    plan_tasks,
)
from remora.coordinator.watch import (
    ChangeBatch,
    FileSkip,
    NodeIndex,
    WatchFilter,
    examine_changes,
    watch_loop,
)

__all__ = [
    "OPERATIONAL_ERRORS",
    "AnalyzeReport",
    "ChangeBatch",
    "Coordinator",
    "FileSkip",
    "NodeIndex",
    "NullProgress",
    "OperationPlan",
    "OptionBoundExecutor",
    "ProgressSink",
    "ProviderFactory",
    "ProviderPool",
    "Task",
    "TaskOutcome",
    "WatchFilter",
    "bind_options",
    "check_options",
    "examine_changes",
    "model_key",
    "parse_operations",
    "plan_operations",
    "plan_tasks",
    "watch_loop",
]
