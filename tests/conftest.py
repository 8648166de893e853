"""Shared test configuration."""

from __future__ import annotations

import signal
from typing import TYPE_CHECKING

import pytest
from model_worker import ModelGroupScheduling
from xdist.scheduler import LoadGroupScheduling

if TYPE_CHECKING:
    from xdist.remote import Producer

# A shell starts a background job (`cmd &`) with SIGINT ignored, and programs inherit an
# ignored signal: the tests that press Ctrl-C on a `remora` subprocess then waited 60 s for
# nothing. Python's own handler here is reset to the default in every program started.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


@pytest.hookimpl(optionalhook=True)  # pytest-xdist's hook; absent under `-p no:xdist`
def pytest_xdist_make_scheduler(config: pytest.Config, log: Producer) -> LoadGroupScheduling | None:
    """``--dist loadgroup`` (scripts/test.sh): the model's tests on one worker."""
    if config.getoption("dist") == "loadgroup":
        return ModelGroupScheduling(config, log)
    return None
