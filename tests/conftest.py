"""Shared test configuration."""

from __future__ import annotations

import signal

# A shell starts a background job (`cmd &`) with SIGINT ignored, and programs inherit an
# ignored signal: the tests that press Ctrl-C on a `remora` subprocess then waited 60 s for
# nothing. Python's own handler here is reset to the default in every program started.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)
