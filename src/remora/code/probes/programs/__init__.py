"""Programs Remora runs inside the command sandbox, never in its own process.

Each module here is a complete program for ``python -``, or a part of one sent
ahead of it in the same text (:data:`remora.code.probes.sandboxed.PROGRAM_PARTS`:
``call_arguments`` then ``call_probe``); that text, followed by one call of its
``main`` with the request, is the command's standard input (see
:func:`remora.code.probes.sandboxed.run_program`). It runs in the workspace copy with
the project's own code, so it may import only the standard library and pytest:
the sandbox shows the interpreter and its environment, not Remora's sources.
It prints its report as one line, ``REMORA_REPORT`` and JSON, on stdout.
"""
