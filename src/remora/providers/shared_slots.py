"""A server's request slots shared by the host processes of one sharded run.

With ``--processes N`` each process has its own server router. Splitting a server's
``max_in_flight`` evenly between them left slots idle: one process's agents were all
at host work while another's waited for a slot (on 16 cores, 96 agents over 8
processes kept 55 of 64 slots busy). So the processes share the slots as GNU make's
jobs share a jobserver: a server's free slots are bytes in a pipe every process
holds; a request takes one (a non-blocking read) before it is sent and writes it
back when its answer is in. The limit holds in total, and no slot idles while any
process has a request waiting.

A process that dies holding slots would take them with it and could leave the
others waiting for ever. So each process counts what it holds in a table that all
of them map (a file: one cell per process and server, written by its owner only),
and the parent puts an ended process's slots back (:meth:`SlotPools.put_back`).
A cell goes up before the read and down after the write: a kill between the two
gives one slot too many back, never one too few.
"""

from __future__ import annotations

import array
import asyncio
import fcntl
import mmap
import os
import termios
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from remora.config import ModelConfig

__all__ = ["SharedSlots", "SlotPools", "SlotsSpec", "join_slots", "slot_keys"]

_CELL = 4  # bytes per count: the table is an array of unsigned 32-bit ints


def slot_keys(model: ModelConfig) -> list[str]:
    """One key per server of ``model``, in its router's order: a model's servers are its
    own (two models on one URL each keep their own limit, as in one process)."""
    identity = model.model_dump_json(exclude={"profile"})
    return [f"{identity}#{i}" for i in range(max(1, len(model.server_urls())))]


@dataclass(frozen=True, slots=True)
class SlotsSpec:
    """What a process needs to join the slots (it travels in the shard's pickled spec)."""

    fds: dict[str, tuple[int, int]]  # slot key -> (read end, write end) of its pipe
    table: str  # the held-counts file

    def pass_fds(self) -> tuple[int, ...]:
        return tuple(fd for pair in self.fds.values() for fd in pair)

    def cell(self, index: int, column: int) -> int:
        """Where the table counts what process ``index`` holds of the ``column``-th server."""
        return index * len(self.fds) + column


class SharedSlots:
    """One server's slots, as one process takes and gives them back."""

    def __init__(self, read_fd: int, write_fd: int, held: memoryview, cell: int) -> None:
        self._read_fd = read_fd
        self._write_fd = write_fd
        self._held = held
        self._cell = cell
        # Who to tell when the pipe is readable (each process's routers of this server).
        self._watchers: list[Callable[[], None]] = []
        self._loop: asyncio.AbstractEventLoop | None = None

    def take(self) -> bool:
        """A slot, if one is free now (never waits)."""
        self._held[self._cell] += 1  # counted first: see the module docstring
        try:
            os.read(self._read_fd, 1)
        except BlockingIOError:
            self._held[self._cell] -= 1
            return False
        return True

    def free(self) -> int:
        """How many slots are free now (another process may take them first)."""
        count = array.array("i", [0])
        fcntl.ioctl(self._read_fd, termios.FIONREAD, count, True)
        return count[0]

    def give(self) -> None:
        os.write(self._write_fd, b".")
        self._held[self._cell] -= 1

    @property
    def watching(self) -> bool:
        return bool(self._watchers)

    def watch(self, on_free: Callable[[], None]) -> None:
        """Call ``on_free`` once when a slot may be free (another process gave one back)."""
        if on_free in self._watchers:
            return
        self._watchers.append(on_free)
        if len(self._watchers) == 1:
            self._loop = asyncio.get_running_loop()
            self._loop.add_reader(self._read_fd, self._fired)

    def unwatch(self, on_free: Callable[[], None]) -> None:
        if on_free in self._watchers:
            self._watchers.remove(on_free)
            if not self._watchers:
                self._stop_reading()

    def _fired(self) -> None:
        watchers, self._watchers = self._watchers, []
        self._stop_reading()
        for on_free in watchers:
            on_free()

    def _stop_reading(self) -> None:
        loop, self._loop = self._loop, None
        if loop is not None and not loop.is_closed():
            loop.remove_reader(self._read_fd)


def _map(path: str) -> tuple[mmap.mmap, memoryview]:
    with open(path, "r+b") as file:
        table = mmap.mmap(file.fileno(), 0)
    return table, memoryview(table).cast("I")


def join_slots(spec: SlotsSpec, index: int) -> dict[str, SharedSlots]:
    """Process ``index``'s side of every server's slots, by :func:`slot_keys` key. The pipes
    are not passed on to the programs this process starts (a sandboxed program must not
    take slots)."""
    _, counts = _map(spec.table)  # mapped for the process's life: the view keeps it open
    joined = {}
    for column, (key, (read_fd, write_fd)) in enumerate(spec.fds.items()):
        os.set_inheritable(read_fd, False)
        os.set_inheritable(write_fd, False)
        joined[key] = SharedSlots(read_fd, write_fd, counts, spec.cell(index, column))
    return joined


class SlotPools:
    """The parent's side: a pipe per server holding its free slots, and the held-counts
    table, in ``folder`` (the shards' temporary folder)."""

    def __init__(self, limits: dict[str, int], processes: int, folder: Path) -> None:
        table = folder / "slots.table"
        table.write_bytes(bytes(_CELL * max(1, processes * len(limits))))  # mmap wants a byte
        fds: dict[str, tuple[int, int]] = {}
        for key, limit in limits.items():
            read_fd, write_fd = os.pipe()
            os.set_blocking(read_fd, False)  # the open file: non-blocking in every process
            os.write(write_fd, b"." * limit)  # max_in_flight <= 4096: within a pipe's buffer
            fds[key] = (read_fd, write_fd)
        self.spec = SlotsSpec(fds, str(table))
        self._table, self._counts = _map(str(table))

    @classmethod
    def for_models(cls, models: Iterable[ModelConfig], processes: int, folder: Path) -> SlotPools:
        limits = {
            key: model.max_in_flight
            for model in models
            if model.provider == "openai"
            for key in slot_keys(model)
        }
        return cls(limits, processes, folder)

    def put_back(self, index: int) -> None:
        """Process ``index`` ended: the slots it still held are free again."""
        for column, (_, write_fd) in enumerate(self.spec.fds.values()):
            cell = self.spec.cell(index, column)
            held, self._counts[cell] = self._counts[cell], 0
            if held:
                os.write(write_fd, b"." * held)

    def close(self) -> None:
        for pair in self.spec.fds.values():
            for fd in pair:
                os.close(fd)
        self._counts.release()
        self._table.close()
