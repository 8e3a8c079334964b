"""The reader processes of ``arena serve`` (:mod:`arena.service.reads`), over a real SQLite
file: a read that pickles runs in a reader, over the reader's own store, and answers what it
would in this process; its errors come back with their kinds; anything else runs in a worker
thread here; a reader that dies fails its read UNAVAILABLE and is replaced; a reader ends
with its server, even one killed with SIGKILL."""

from __future__ import annotations

import asyncio
import functools
import multiprocessing
import os
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TypeVar

import pytest

from arena.errors import ErrorKind
from arena.service import reads
from arena.storage.store import NotFoundError, Store, StoreError
from tests.helpers import eventually

T = TypeVar("T")


def where(store: Store) -> tuple[int, list[str]]:
    """A read: the process it ran in, and the bots it found."""
    return os.getpid(), [b.name for b in store.list_bots()]


def conflict(store: Store) -> None:
    raise StoreError("a name taken", kind=ErrorKind.CONFLICT)


def die(store: Store) -> None:
    os._exit(3)


def ran(readers: reads.Readers, read: Callable[[], T]) -> T:
    return asyncio.run(readers.run(read))


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Store:
    store = Store(str(tmp_path_factory.mktemp("reads") / "arena.db"))
    store.add_bot("first", "python -m bots.random_bot")
    return store


@pytest.fixture(scope="module")
def readers(store: Store) -> Iterator[reads.Readers]:
    readers = reads.Readers(store, processes=1)
    eventually("the reader to start", readers.ready)
    yield readers
    asyncio.run(readers.close())


def test_a_read_that_pickles_runs_in_a_reader_over_its_own_store(
        store: Store, readers: reads.Readers) -> None:
    pid, bots = ran(readers, functools.partial(where, store))
    assert pid != os.getpid()
    assert bots == ["first"]
    store.add_bot("second", "python -m bots.random_bot")  # written here, read there
    assert ran(readers, functools.partial(where, store)) == (pid, ["first", "second"])
    assert [b.name for b in ran(readers, store.list_bots)] == ["first", "second"]


def test_its_errors_come_back_with_their_kinds(store: Store, readers: reads.Readers) -> None:
    with pytest.raises(NotFoundError, match="no tournament with id 999") as found:
        ran(readers, functools.partial(store.get_tournament, 999))
    assert found.value.kind is ErrorKind.NOT_FOUND
    with pytest.raises(StoreError, match="a name taken") as taken:
        ran(readers, functools.partial(conflict, store))
    assert taken.value.kind is ErrorKind.CONFLICT


def test_anything_else_runs_in_a_thread_of_this_process(
        store: Store, readers: reads.Readers) -> None:
    here = threading.get_ident()

    def closure() -> tuple[int, int]:
        return os.getpid(), threading.get_ident()

    pid, thread = ran(readers, closure)
    assert pid == os.getpid() and thread != here

    class Holder:  # a method of an object of this process: never copied to a reader
        def __init__(self) -> None:
            self.store = store

        def read(self) -> int:
            return os.getpid()

    assert readers.payload(Holder().read) is None
    assert ran(readers, Holder().read) == os.getpid()
    other = Store("sqlite://")  # another store than the one served
    assert readers.payload(functools.partial(where, other)) is None
    assert ran(readers, functools.partial(where, other)) == (os.getpid(), [])


def test_a_reader_that_dies_fails_its_read_and_is_replaced(store: Store) -> None:
    readers = reads.Readers(store, processes=1)
    try:
        # until it has started, a read runs here (its start is a process's imports: no test
        # gets here after it)
        assert not readers.ready() and ran(readers, functools.partial(where, store))[0] == os.getpid()
        eventually("the reader to start", readers.ready)
        with pytest.raises(StoreError, match=r"reader process .* ended") as died:
            ran(readers, functools.partial(die, store))
        assert died.value.kind is ErrorKind.UNAVAILABLE
        eventually("another reader to start", readers.ready)
        pid, bots = ran(readers, functools.partial(where, store))
        assert pid != os.getpid() and "first" in bots
    finally:
        asyncio.run(readers.close())


def meet(folder: Path, store: Store) -> int:
    """A read that waits, in its reader, until another read is in another reader (each
    leaves a file named after its process in ``folder``); the process it ran in."""
    (folder / str(os.getpid())).touch()
    eventually("another read in another reader", lambda: len(list(folder.iterdir())) >= 2)
    return os.getpid()


def test_one_reader_starts_at_once_and_another_when_reads_overlap(store: Store,
                                                                   tmp_path: Path) -> None:
    before = set(multiprocessing.active_children())
    readers = reads.Readers(store, processes=2)
    try:
        eventually("the first reader to start", readers.ready)
        started = set(multiprocessing.active_children()) - before
        assert len(started) == 1, started
        ran(readers, functools.partial(where, store))  # one read at a time: the same reader
        assert set(multiprocessing.active_children()) - before == started

        async def both() -> list[int]:
            read = functools.partial(meet, tmp_path, store)
            return list(await asyncio.gather(readers.run(read), readers.run(read)))

        pids = asyncio.run(both())  # the two meet: each in a reader of its own
        assert len(set(pids)) == 2 and os.getpid() not in pids
        assert len(set(multiprocessing.active_children()) - before) == 2
    finally:
        asyncio.run(readers.close())


def test_serving_installs_readers_for_a_file_and_none_for_memory(store: Store) -> None:
    async def pid() -> int:
        return (await reads.run(functools.partial(where, store)))[0]

    async def served() -> None:
        assert await pid() == os.getpid()  # not serving: a worker thread
        async with reads.serving(store) as readers:
            assert readers is not None
            eventually("the readers to start", readers.ready)
            assert await pid() != os.getpid()
        assert await pid() == os.getpid()
        async with reads.serving(Store("sqlite://")) as none:
            assert none is None

    asyncio.run(served())


def test_memory_cannot_be_read_by_readers() -> None:
    with pytest.raises(ValueError, match="in memory"):
        reads.Readers(Store("sqlite://"))


def test_a_reader_ends_with_its_server_however_it_ends(tmp_path: Path) -> None:
    """A server killed with SIGKILL leaves no reader waiting for ever."""
    script = (
        "import asyncio, functools, sys\n"
        "from arena.service import reads\n"
        "from arena.storage.store import Store\n"
        "from tests.helpers import eventually\n"
        "from tests.service.test_reads import where\n"
        "store = Store(sys.argv[1])\n"
        "readers = reads.Readers(store, processes=1)\n"
        "eventually('the readers to be ready', readers.ready, every=0.05)\n"
        "print(asyncio.run(readers.run(functools.partial(where, store)))[0], flush=True)\n"
        "sys.stdin.read()\n")
    server = subprocess.Popen([sys.executable, "-c", script, str(tmp_path / "arena.db")],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert server.stdout is not None
        reader = int(server.stdout.readline())
        assert reader != server.pid and _alive(reader)
    finally:
        server.kill()
        server.wait()
    eventually("the reader to end with its server", lambda: not _alive(reader), timeout=60)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return not Path(f"/proc/{pid}/stat").read_text().split(") ")[-1].startswith("Z")
