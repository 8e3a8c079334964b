"""The background worker that computes the win-probability graphs (:mod:`arena.app.graphs`)
of finished matches whose deals are over: a process of its own, started by ``arena web`` and
``arena serve`` (``--graph-cpu``), at the lowest priority.

**Which matches, in which order.** The finished matches in the order they were rated
(``finish_seq``: a tournament's in schedule order, an ad-hoc match as it finishes): first
those rated since it last looked, then, newest first, those rated before it started (the
backlog of an older database). A match whose deal another rotation still has to play is held,
and looked at again each time the worker looks for work, until its deal is over; whether it
is over is :mod:`arena.app.visibility`'s rule (:func:`arena.app.graphs.deal_over`), the very
rule that shows or hides the match's full view. A match with a graph (or a recorded failure
to make one) is never computed again; ``arena match graph ID`` computes one anew.

**Never in the way.** The graphs are CPU work (at most ``cap_s`` CPU seconds a match), and
``arena serve``'s event loop runs match clocks: so the worker is a process of its own
(spawned, never forked: the server has threads), ``os.nice(19)``, which holds neither the
server's loop nor its interpreter lock. It opens the database on its own, writes one row per
match (a short transaction), sleeps :data:`POLL_S` when there is nothing to do, and ends
with the process that started it, however that one ends. If the database refuses its
writes (read-only, full), it says so in one line on stderr and stops; the web app goes on.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import multiprocessing.connection
import os
import signal
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from types import TracebackType

from arena.app.graphs import DEFAULT_CAP_S, NotFinished, compute, deal_over
from arena.app.matches import Hidden
from arena.storage.store import (
    NotFoundError,
    RatedMatch,
    Store,
    StoredGraph,
    StoreError,
    keeps_nothing,
)

POLL_S = 5.0
"""Seconds the worker waits before it looks again when it found nothing to compute."""
LOOK_AHEAD = 200
"""Rated matches read at once."""
READS_PER_LOOK = 50
"""Reads of :data:`LOOK_AHEAD` rated matches at most, each time the worker looks for work."""


@dataclass
class GraphQueue:
    """The worker's place in the rating order: ``newest``, the last ``finish_seq`` it has
    read; ``oldest``, the first (below it: the backlog, read newest first); ``held``, matches
    whose deal was in play when last asked; ``todo``, the matches to compute next."""

    store: Store
    newest: int | None = None
    oldest: int | None = None
    held: set[int] = field(default_factory=set)
    todo: list[int] = field(default_factory=list)

    def take(self) -> int | None:
        """The next match to compute (None: nothing now)."""
        if not self.todo:
            self._look()
        return self.todo.pop(0) if self.todo else None

    def _read(self) -> list[RatedMatch]:
        """The next rated matches: those rated since it last read, else older ones."""
        if self.newest is None or self.oldest is None:
            self.newest = self.store.last_rated()
            self.oldest = self.newest + 1
        found = self.store.rated_after(self.newest, LOOK_AHEAD)
        if found:
            self.newest = found[-1].finish_seq
            return found
        found = self.store.rated_before(self.oldest, LOOK_AHEAD)
        if found:
            self.oldest = found[-1].finish_seq
        return found

    def _look(self) -> None:
        candidates = sorted(self.held)
        for _ in range(READS_PER_LOOK):  # past the matches that have their graphs already
            found = self._read()
            new = [m.match_id for m in found if not m.graphed]
            candidates += new
            if new or not found:
                break
        over = set(deal_over(self.store, candidates))
        self.held = {m for m in candidates if m not in over}
        self.todo = [m for m in candidates if m in over]


def one(store: Store, match_id: int, cap_s: float = DEFAULT_CAP_S) -> StoredGraph | None:
    """Match ``match_id``'s graph, computed and kept (None: not now: void, or its deal in
    play again since it was asked). A failure other than the database's is kept as the
    graph's error, so that the match is not tried again and again."""
    try:
        return compute(store, match_id, cap_s=cap_s)
    except (Hidden, NotFinished, NotFoundError):
        return None
    except StoreError:
        raise
    except Exception as error:  # a bug met in this match: kept as its graph's error
        failed = StoredGraph(match_id, 0, 0, (), (), 0.0, error=f"{type(error).__name__}: {error}")
        store.save_graph(failed)
        return failed


def drain(store: Store, queue: GraphQueue, cap_s: float = DEFAULT_CAP_S,
          stop: threading.Event | None = None,
          done: Callable[[StoredGraph], object] | None = None) -> int:
    """Compute every graph ``queue`` gives until it gives none (or ``stop`` is set), each
    told to ``done``; how many were computed."""
    count = 0
    while stop is None or not stop.is_set():
        match_id = queue.take()
        if match_id is None:
            break
        graph = one(store, match_id, cap_s)
        if graph is not None:
            count += 1
            if done is not None:
                done(graph)
    return count


def work(store: Store, stop: threading.Event, cap_s: float = DEFAULT_CAP_S,
         poll_s: float = POLL_S) -> None:
    """Compute graphs until ``stop`` is set (:func:`drain`), waiting ``poll_s`` whenever there
    is none to compute. A :class:`~arena.storage.store.StoreError` (the database refusing a
    write, or gone) ends it."""
    queue = GraphQueue(store)
    while not stop.is_set():
        drain(store, queue, cap_s, stop)
        stop.wait(poll_s)


def _end_with(sentinel: int) -> None:
    """End this process as the one that started it ends, however that one ended."""
    multiprocessing.connection.wait([sentinel])
    os._exit(0)


def _run(url: str, cap_s: float, poll_s: float) -> None:
    """The worker process: lowest priority, Ctrl-C left to the process that started it."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    parent = multiprocessing.parent_process()
    if parent is not None:
        threading.Thread(target=_end_with, args=(parent.sentinel,), daemon=True).start()
    with contextlib.suppress(OSError):  # else as it is: still apart from the server's loop
        os.nice(19)
    try:
        with Store(url) as store:
            work(store, threading.Event(), cap_s, poll_s)
    except StoreError as error:
        print(f"win-probability graphs: stopped: {error}", file=sys.stderr, flush=True)


class GraphWorker:
    """The worker process over the database at ``url``: :meth:`start`, :meth:`stop` (or use
    it as a context manager). Nothing is started for a database in memory (another process
    cannot open it) or with ``cap_s`` 0."""

    def __init__(self, url: str, cap_s: float = DEFAULT_CAP_S, poll_s: float = POLL_S) -> None:
        self.url, self.cap_s, self.poll_s = url, cap_s, poll_s
        self.process: multiprocessing.process.BaseProcess | None = None

    @property
    def enabled(self) -> bool:
        return self.cap_s > 0 and not keeps_nothing(self.url)

    def start(self) -> GraphWorker:
        if self.enabled and self.process is None:
            context = multiprocessing.get_context("spawn")
            self.process = context.Process(target=_run, args=(self.url, self.cap_s, self.poll_s),
                                           name="arena-graphs", daemon=True)
            self.process.start()
        return self

    def stop(self) -> None:
        process, self.process = self.process, None
        if process is not None:
            process.terminate()
            process.join(10)
            if process.is_alive():
                process.kill()
                process.join()

    def __enter__(self) -> GraphWorker:
        return self.start()

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.stop()


__all__ = ["LOOK_AHEAD", "POLL_S", "GraphQueue", "GraphWorker", "drain", "one", "work"]
