"""Small real agent files for the agents tests (scripts run on the real .pym loader)."""

from __future__ import annotations

GREET = """\
from remora.pym import Input

name: str = Input("name", description="Who to greet")
times: int = Input("times", default=1, description="How often")

{"greeting": ("hi " + name + " ") * times}
"""

SUBMIT = """\
from remora.pym import Input

summary: str = Input("summary", description="What was done")

{"summary": summary.strip()}
"""

CONTEXT = """\
"line-length = 100"
"""

AGENT = """\
name: greeter
description: Greets.
node_types: [function]
max_turns: 4
initial_context:
  system_prompt: You greet.
  node_context: "{{ node_name }}"
tools:
  - name: greet
    pym: tools/greet.pym
    description: Greet someone.
    context_providers: [context/cfg.pym]
  - name: submit_result
    pym: tools/submit.pym
    description: Finish.
"""
