"""Slots of a server shared by the processes of a sharded run (providers/shared_slots.py):
real pipes and a real mapped table; the "processes" here are two joined sides in one
process (the fds are the same ones a child inherits). A killed child is in
tests/integration/test_shared_slots_processes.py."""

from __future__ import annotations

import asyncio
from pathlib import Path

from remora.config import ModelConfig
from remora.providers.server_pool import Server, ServerRouter
from remora.providers.shared_slots import SharedSlots, SlotPools, join_slots, slot_keys

MODEL = ModelConfig(
    provider="openai", id="served", base_url=["http://a/v1", "http://b/v1"], max_in_flight=3
)


def _one_server(tmp_path: Path, limit: int) -> tuple[SlotPools, str]:
    """The pools of a model with one server of ``limit`` slots, for two processes; its key."""
    one = MODEL.model_copy(update={"base_url": "http://a/v1", "max_in_flight": limit})
    return SlotPools.for_models([one], 2, tmp_path), slot_keys(one)[0]


def _router(slots: SharedSlots, ceiling: int) -> ServerRouter:
    """One process's router for one server whose slots are shared."""
    server = Server("http://a/v1", None, ceiling, slots=slots)
    return ServerRouter([server], cooldown_s=1, max_attempts=1, backoff_s=0,
                        back_pressure_budget_s=1)  # fmt: skip


def _sides(tmp_path: Path, processes: int = 2) -> tuple[SlotPools, list[dict[str, SharedSlots]]]:
    pools = SlotPools.for_models([MODEL], processes, tmp_path)
    return pools, [join_slots(pools.spec, i) for i in range(processes)]


def test_the_processes_together_take_no_more_than_the_limit(tmp_path: Path) -> None:
    pools, (first, second) = _sides(tmp_path)
    a, b = slot_keys(MODEL)
    assert [first[a].take(), second[a].take(), second[a].take()] == [True, True, True]
    assert not first[a].take() and not second[a].take()  # three in all, whoever holds them
    assert first[b].take()  # each server its own slots
    second[a].give()
    assert first[a].take() and not second[a].take()
    pools.close()


def test_an_ended_process_slots_are_put_back(tmp_path: Path) -> None:
    pools, (first, second) = _sides(tmp_path)
    key = slot_keys(MODEL)[0]
    assert second[key].take() and second[key].take()
    pools.put_back(1)  # process 1 ended holding two
    assert [first[key].take() for _ in range(4)] == [True, True, True, False]
    pools.put_back(1)  # nothing more: it holds none now
    assert not first[key].take()
    pools.close()


def test_two_models_on_one_server_keep_their_own_slots() -> None:
    other = MODEL.model_copy(update={"max_in_flight": 8})
    assert len(set(slot_keys(MODEL)) | set(slot_keys(other))) == 4
    assert slot_keys(MODEL) == slot_keys(MODEL.model_copy(update={"profile": "qwen"}))


async def test_routers_of_two_processes_keep_the_limit_in_total_and_wake_each_other(
    tmp_path: Path,
) -> None:
    pools, key = _one_server(tmp_path, 2)
    routers = [_router(join_slots(pools.spec, index)[key], 2) for index in range(2)]
    in_flight, most = 0, 0

    async def send(server: Server) -> int:
        nonlocal in_flight, most
        in_flight += 1
        most = max(most, in_flight)
        await asyncio.sleep(0.02)
        in_flight -= 1
        return 1

    # Each router holds two locally; the pipe makes it two in all, and a router whose
    # requests wait is woken by the other's answers (it has none of its own in flight).
    calls = [routers[i % 2].call(send) for i in range(8)]
    assert sum(await asyncio.wait_for(asyncio.gather(*calls), 5)) == 8
    assert most == 2
    side = join_slots(pools.spec, 0)[key]
    assert [side.take() for _ in range(3)] == [True, True, False]  # all given back
    pools.close()


async def test_a_cancelled_wait_leaves_no_watch_behind(tmp_path: Path) -> None:
    pools, key = _one_server(tmp_path, 1)
    held = join_slots(pools.spec, 1)[key]
    assert held.take()  # another process holds the only slot
    slots = join_slots(pools.spec, 0)[key]
    router = _router(slots, 1)
    waiting = asyncio.ensure_future(router.call(lambda server: asyncio.sleep(0)))
    await asyncio.sleep(0.05)
    assert slots.watching
    waiting.cancel()
    await asyncio.gather(waiting, return_exceptions=True)
    assert not slots.watching
    held.give()
    pools.close()


async def test_a_slot_given_back_wakes_one_waiter_not_all(tmp_path: Path) -> None:
    pools, key = _one_server(tmp_path, 1)
    sides = [join_slots(pools.spec, index)[key] for index in range(2)]
    routers = [_router(side, 4) for side in sides]
    refused = 0
    take = sides[1].take

    def counted() -> bool:
        nonlocal refused
        taken = take()
        refused += not taken
        return taken

    sides[1].take = counted  # type: ignore[method-assignment]
    answer = asyncio.Event()

    async def held(server: Server) -> int:
        await answer.wait()
        return 1

    first = asyncio.ensure_future(routers[0].call(held))  # holds the only slot
    await asyncio.sleep(0.01)
    waiting = [asyncio.ensure_future(routers[1].call(lambda server: asyncio.sleep(0, 1)))
               for _ in range(4)]  # fmt: skip
    await asyncio.sleep(0.05)
    assert sides[1].free() == 0 and refused == 4  # each tried once, then waited
    answer.set()
    assert await asyncio.wait_for(asyncio.gather(first, *waiting), 5) == [1] * 5
    assert refused == 4  # each slot given back woke one waiter, which got it
    pools.close()


async def test_two_routers_of_one_process_on_the_same_slots_are_both_woken(
    tmp_path: Path,
) -> None:
    pools, key = _one_server(tmp_path, 1)
    other = join_slots(pools.spec, 1)[key]
    assert other.take()  # another process holds the only slot
    mine = join_slots(pools.spec, 0)[key]
    routers = [_router(mine, 1), _router(mine, 1)]  # two providers of one model, say
    calls = [asyncio.ensure_future(r.call(lambda server: asyncio.sleep(0.01, 1))) for r in routers]
    await asyncio.sleep(0.05)
    other.give()  # each router's waiter is told, one after the other
    assert await asyncio.wait_for(asyncio.gather(*calls), 5) == [1, 1]
    assert not mine.watching
    pools.close()
