"""Store reads of ``arena serve``, run out of its process: a small pool of reader processes.

``arena serve`` plays its matches in the process that serves the operator service, and a
match's clock waits for the bots' answers there. A read in a worker thread of that process
keeps the event loop free, but not the interpreter's lock: a list of 10,000 matches is about
2 s of Python, and twenty such reads at once held the lock long enough for seats on a 50 ms
move clock to time out (tests/service/test_loop_stall.py). So the reads go to
:data:`READERS` reader processes, each with a :class:`~arena.storage.store.Store` of its own
opened on the served database: the system shares the CPU between them and the server, and the
server's loop thread waits for nothing but the result.

:meth:`Readers.run` takes a read as the operator service holds it, a callable with no
argument. It runs in a reader when it pickles: a method of the served store, or a
``functools.partial`` of a module-level function over the store and plain values (the store
is sent as a reference, and is the reader's own over there). Anything else (a closure, a
lambda, a method of an object of this process) runs in a worker thread of this process, as
before, and so does every read until the readers have started. A reader that dies is
replaced, and its read fails UNAVAILABLE.

:func:`run` is what the operator service calls: the readers :func:`serving` installed for
the process's store, else a worker thread.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import io
import multiprocessing
import multiprocessing.connection
import os
import pickle
import signal
import threading
import types
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar, cast

from arena.errors import ErrorKind
from arena.storage.store import Store, StoreError, keeps_nothing

T = TypeVar("T")

READERS = 2
"""Reader processes at most (one from the start, the second once reads overlap): the heavy
reads a server gets at once queue for them."""
_STORE = "store"
"""The served store's reference in a pickled read."""


class _ReadPickler(pickle.Pickler):
    """Pickles a read for a reader: ``store`` as a reference; a method of anything else
    refused (it would copy an object of this process, or fail half-way)."""

    def __init__(self, file: io.BytesIO, store: Store) -> None:
        super().__init__(file, protocol=pickle.HIGHEST_PROTOCOL)
        self._store = store

    def persistent_id(self, obj: Any) -> str | None:
        return _STORE if obj is self._store else None

    def reducer_override(self, obj: Any) -> Any:
        if isinstance(obj, types.MethodType) and obj.__self__ is not self._store:
            raise pickle.PicklingError(f"{obj!r} is not a method of the store")
        if isinstance(obj, Store):
            raise pickle.PicklingError("another store than the one served")
        return NotImplemented


class _ReadUnpickler(pickle.Unpickler):
    def persistent_load(self, pid: Any) -> Any:
        if pid != _STORE or _reader_store is None:
            raise pickle.UnpicklingError(f"unknown reference {pid!r}")
        return _reader_store


_reader_store: Store | None = None
"""In a reader process: its own store, opened on the served database."""


def _open_reader(url: str) -> None:
    """A reader's start: Ctrl-C is the server's to handle (it stops its readers), not theirs;
    it ends when the server does."""
    global _reader_store
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    parent = multiprocessing.parent_process()
    if parent is not None:
        threading.Thread(target=_end_with, args=(parent.sentinel,), daemon=True).start()
    _reader_store = Store(url)
    gc.freeze()  # the reader's code and store: never garbage, never walked again


def _end_with(sentinel: int) -> None:
    """In a reader: end as the server ends, however it ended (``kill -9`` too), rather than
    wait for reads that will never come."""
    multiprocessing.connection.wait([sentinel])
    os._exit(0)


def _in_reader(payload: bytes) -> Any:
    """In a reader process: the read ``payload`` pickles, run over the reader's store."""
    read = _ReadUnpickler(io.BytesIO(payload)).load()
    # A list of 10,000 matches makes some 270,000 objects, freed by their counts as the answer
    # is sent; collecting meanwhile walked them again and again (a quarter of the read's time).
    gc.disable()
    try:
        return read()
    finally:
        gc.enable()


def _ready() -> None:
    """Nothing: a reader started and waiting."""


class Readers:
    """Up to :data:`READERS` reader processes over the database of ``store`` (its URL, not
    an in-memory one): one from the start, another as reads overlap; :meth:`close` stops
    them."""

    def __init__(self, store: Store, processes: int = READERS) -> None:
        if keeps_nothing(store.url):
            raise ValueError("a database in memory cannot be read from another process")
        self.store = store
        self.processes = processes
        self._pool = self._start()
        self._closed = False

    def _start(self) -> ProcessPoolExecutor:
        # spawn, never fork: this process has gRPC's threads (and the loop's) running
        pool = ProcessPoolExecutor(self.processes, mp_context=multiprocessing.get_context("spawn"),
                                   initializer=_open_reader, initargs=(self.store.url,))
        # One reader started now, not as the first heavy reads come; the others as reads
        # find every reader busy (a spawning pool starts a process for a read when none is
        # idle, up to its size; the read waits in its queue meanwhile, not in this process).
        # Most servers never read two things at once, and a reader is 0.7 CPU s to start.
        self._first = pool.submit(_ready)
        return pool

    def ready(self) -> bool:
        """Whether the first reader has started. Until then (a second or more of imports, on a
        loaded machine many) reads run in worker threads, as they do if the readers could not
        start (the database cannot be opened over there)."""
        first = self._first
        return first.done() and not first.cancelled() and first.exception() is None

    def payload(self, read: Callable[[], object]) -> bytes | None:
        """``read`` pickled for a reader; None if it cannot go to one."""
        data = io.BytesIO()
        try:
            _ReadPickler(data, self.store).dump(read)
        except (pickle.PicklingError, TypeError, AttributeError):
            return None
        return data.getvalue()

    async def run(self, read: Callable[[], T]) -> T:
        """The result of ``read``, run in a reader if it can go to one, else in a worker
        thread; its errors raised here (StoreError UNAVAILABLE if its reader died)."""
        payload = None if self._closed or not self.ready() else self.payload(read)
        if payload is None:
            return await asyncio.to_thread(read)
        pool = self._pool
        try:
            return cast(T, await asyncio.wrap_future(pool.submit(_in_reader, payload)))
        except BrokenProcessPool:
            if pool is self._pool and not self._closed:  # the first read to see it replaces it
                self._pool = self._start()
                await _shut(pool)
            raise StoreError("a reader process of the server ended during this read; "
                             "try again", kind=ErrorKind.UNAVAILABLE) from None

    async def close(self) -> None:
        """No more reads; back once the readers have ended (after their read under way)."""
        self._closed = True
        await _shut(self._pool)


async def _shut(pool: ProcessPoolExecutor) -> None:
    """Stop ``pool`` (what waits for a reader is cancelled) and wait, off the loop, until its
    processes and its thread have ended: a pool left to end by itself may still be closing its
    pipe as the interpreter exits, which then writes to it (EBADF, a traceback at exit)."""
    await asyncio.to_thread(pool.shutdown, wait=True, cancel_futures=True)


_serving: Readers | None = None


@contextlib.asynccontextmanager
async def serving(store: Store) -> AsyncIterator[Readers | None]:
    """Readers over ``store`` for :func:`run` while the block runs (none for a database in
    memory: its reads run in worker threads)."""
    global _serving
    if keeps_nothing(store.url) or _serving is not None:
        yield None
        return
    readers = _serving = Readers(store)
    try:
        yield readers
    finally:
        _serving = None
        await readers.close()


async def run(read: Callable[[], T]) -> T:
    """The result of ``read``: in a reader process while :func:`serving`, else (or when it
    cannot go to one) in a worker thread."""
    if _serving is None:
        return await asyncio.to_thread(read)
    return await _serving.run(read)


__all__ = ["READERS", "Readers", "run", "serving"]
