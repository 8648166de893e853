"""Copy each shared block of the bundled agents (``_shared_*.pym.part``) into every
``.pym`` script that carries its markers. Monty scripts cannot import one another,
so shared code is repeated; ``tests/unit/bundled`` fails when a copy drifts.

Usage: python scripts/sync_bundled_parts.py
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

BUNDLED = Path(__file__).resolve().parents[1] / "src" / "remora" / "agents" / "bundled"
HEADER = re.compile(r"# --- shared: (.+) ---")


def _replacement(body: str) -> Callable[[re.Match[str]], str]:
    # A function, so backslashes in the body are not read as group references.
    return lambda _match: body


def main() -> None:
    parts: dict[str, str] = {}
    for part in sorted(BUNDLED.glob("_shared_*.pym.part")):
        text = part.read_text(encoding="utf-8")
        found = HEADER.match(text)
        if found is None:
            raise SystemExit(f"{part}: must start with '# --- shared: NAME ---'")
        parts[found.group(1)] = text
    for script in sorted(BUNDLED.glob("*/*/*.pym")):
        text = script.read_text(encoding="utf-8")
        new = text
        for name, body in parts.items():
            block = re.compile(
                r"# --- shared: " + re.escape(name) + r" ---\n.*?"
                r"# --- end shared: " + re.escape(name) + r" ---\n",
                re.S,
            )
            new = block.sub(_replacement(body), new)
        if new != text:
            script.write_text(new, encoding="utf-8")
            print(f"synced {script.relative_to(BUNDLED)}")


if __name__ == "__main__":
    main()
