"""Command-line interface."""

import os
import signal
import sys

from remora.cli.app import app, main

# The `remora` console script loaded its modules under remora/__init__.py's handler
# (Ctrl-C then ends it with exit 130 at once); from here Python's own handler raises
# KeyboardInterrupt, which main() reports as "interrupted", exit 130.
if sys.argv and os.path.basename(sys.argv[0]) == "remora":
    signal.signal(signal.SIGINT, signal.default_int_handler)

__all__ = ["app", "main"]
