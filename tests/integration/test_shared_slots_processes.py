"""A process killed while it holds a server's shared slots (providers/shared_slots.py): the
parent puts them back, so the other processes are not left waiting for ever. A real
child process, the fds passed as a shard's are."""

from __future__ import annotations

import pickle
import signal
import subprocess
import sys
from pathlib import Path

from remora.config import ModelConfig
from remora.providers.shared_slots import SlotPools, join_slots, slot_keys

MODEL = ModelConfig(provider="openai", id="served", base_url="http://a/v1", max_in_flight=3)

CHILD = """
import pickle, sys, time
from remora.providers.shared_slots import join_slots
spec, key = pickle.loads(bytes.fromhex(sys.argv[1]))
slots = join_slots(spec, 1)[key]
print(slots.take() and slots.take(), flush=True)
time.sleep(60)
"""


def test_a_killed_process_slots_are_put_back(tmp_path: Path) -> None:
    pools = SlotPools.for_models([MODEL], 2, tmp_path)
    key = slot_keys(MODEL)[0]
    argument = pickle.dumps((pools.spec, key)).hex()
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, argument],
        stdout=subprocess.PIPE,
        text=True,
        pass_fds=pools.spec.pass_fds(),
    )
    try:
        assert child.stdout is not None and child.stdout.readline().strip() == "True"
        mine = join_slots(pools.spec, 0)[key]
        assert [mine.take() for _ in range(2)] == [True, False]  # the child holds two
        child.send_signal(signal.SIGKILL)
        child.wait(10)
        pools.put_back(1)
        assert [mine.take() for _ in range(3)] == [True, True, False]
    finally:
        child.kill()
        child.wait()
        pools.close()
