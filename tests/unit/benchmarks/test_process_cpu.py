"""benchmarks/process_cpu.py: the CPU of a program its parent left behind is counted."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parents[3] / "benchmarks"

# Runs in its own interpreter: a subreaper test process would adopt (and could
# reap) the children of every other test.
MEASURE = """
import json, resource, subprocess, sys
sys.path.insert(0, sys.argv[1])
from process_cpu import become_subreaper, machine_busy_s, reap_orphans
subreaper = sys.argv[2] == "subreaper" and become_subreaper()
burn = "import time\\nt = time.process_time()\\nwhile time.process_time() - t < 0.4: pass"
# The shell starts the burner in the background and exits at once: an orphan,
# as bubblewrap's namespace init is once its outer process has exited.
busy = machine_busy_s()
subprocess.run(["sh", "-c", f'"{sys.executable}" -c "$0" & exit 0', burn], check=True)
reaped = reap_orphans(timeout_s=10)
usage = resource.getrusage(resource.RUSAGE_CHILDREN)
print(json.dumps({"subreaper": subreaper, "reaped": reaped,
                  "cpu_s": usage.ru_utime + usage.ru_stime,
                  "busy_s": machine_busy_s() - busy}))
"""


def measure(mode: str) -> dict[str, float]:
    run = subprocess.run(
        [sys.executable, "-c", MEASURE, str(BENCHMARKS), mode],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    return dict(json.loads(run.stdout))


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="prctl and /proc are Linux's")
def test_a_subreaper_counts_the_cpu_of_an_orphaned_program() -> None:
    counted = measure("subreaper")
    assert counted["subreaper"] is True
    assert counted["reaped"] == 1
    assert counted["cpu_s"] >= 0.35
    # The machine was busy at least as long as the orphan ran.
    assert counted["busy_s"] >= 0.35


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="prctl and /proc are Linux's")
def test_without_it_the_orphan_is_not_counted() -> None:
    # Why the benchmark needs the subreaper: the shell was reaped, the burner was not.
    missed = measure("plain")
    assert missed["subreaper"] is False
    assert missed["reaped"] == 0
    assert missed["cpu_s"] < 0.2


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="/proc is Linux's")
def test_host_processes_sum_rss_and_pss_of_the_marked_children() -> None:
    sys.path.insert(0, str(BENCHMARKS))
    from process_cpu import HostProcesses

    # Two children with 40 MB each of their own and the interpreter's shared pages.
    hold = "import sys, time\nblock = bytearray(40 << 20)\nsys.stdout.write('ready\\n')\n"
    hold += "sys.stdout.flush()\ntime.sleep(5)"
    kids = [
        subprocess.Popen([sys.executable, "-c", hold, "remora-test-marker"], stdout=subprocess.PIPE)
        for _ in range(2)
    ]
    try:
        for kid in kids:
            assert kid.stdout is not None and kid.stdout.readline() == b"ready\n"
        hosts = HostProcesses(os.getpid(), b"remora-test-marker", every_s=0.05)
        time.sleep(0.3)
        hosts.stop()
    finally:
        for kid in kids:
            kid.kill()
            kid.wait()
    assert hosts.peak_rss_kb >= 80 << 10  # this process and both children
    assert 80 << 10 <= hosts.peak_pss_kb < hosts.peak_rss_kb  # shared pages once
    assert set(hosts.cpu_s) == {kid.pid for kid in kids}
