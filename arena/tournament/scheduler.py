"""The server's scheduler: plays queued tournaments (and any other long-running job) through
the executor, several at once within one limit of matches, and resumes after a crash.

``arena serve`` runs one :class:`Scheduler` beside its services. It looks for the
tournaments to play (:meth:`Store.tournaments_to_serve`: those queued through the
operator service, and those it was playing when its process died) when woken
(:meth:`Scheduler.wake`, as a tournament is queued) and every ``poll_s``, and plays each
with :func:`~arena.tournament.run.run_tournament`, as its :class:`PerRun` says: on this
machine or a Ray cluster, managed bots in the sandbox unless told otherwise.

**Sharing the matches.** At most ``parallel`` matches are played at once over all the
tournaments: each tournament plays at most its own ``--parallel`` matches at once, and
every match also takes one of the scheduler's ``parallel`` slots, which waiting matches
get in turn (first come, first served), so tournaments running side by side share the
slots about evenly. At most ``parallel`` tournaments run at once (each has its own bot
processes); the others wait for their turn in the order they were queued.

**Crashes.** A tournament is played under its run lock (:meth:`Store.running`), and every
match is finished exactly once by the store, so a restarted server that finds an
unfinished tournament it was given (still ``running`` in the database, or
``interrupted``, its lock free) resumes it: a match that was being played is played
again from the start, no finished match is played or counted twice. A tournament that
cannot be played (a bot that does not start) is left ``interrupted`` with a note saying
why, and not tried again until the server starts again. The note is public (every author
reads the tournament list): it names a bot that did not start and its exit code, never
what the bot printed, which only its author and the operator read (the bot's log; the
server's own output has the whole story). A server stopped gracefully
(SIGTERM, Ctrl-C) lets the matches in play finish for up to ``stop_grace_s`` and queues
the tournaments again.

**Jobs.** A tournament's run is one kind of job: :meth:`Scheduler.start_job` runs any
long-running coroutine (a ladder, say) the same way, with a stop event it must honour,
stopped with the server.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path

from arena.storage.store import Store, StoreError, TournamentStatus
from arena.tournament.errors import BotsDidNotStart
from arena.tournament.run import RunSummary, Slots, run_tournament
from arena.tournament.settings import EVERY_RUN, PerRun
from arena.tournament.setup import resume_settings

Job = Callable[[asyncio.Event], Awaitable[object]]
"""A long-running job: given the event that asks it to stop, it returns once stopped or done."""
Say = Callable[[str], None]


@dataclass
class _Running:
    stop: asyncio.Event = field(default_factory=asyncio.Event)
    task: asyncio.Future[object] | None = None
    cancelled: bool = False  # by an operator: not to be queued again


class _Both(contextlib.AbstractAsyncContextManager[object]):
    """Holds a slot of ``first`` (a scrimmage's share), then one of ``then`` (the server's)."""

    def __init__(self, first: asyncio.Semaphore, then: asyncio.Semaphore) -> None:
        self.first = first
        self.then = then

    async def __aenter__(self) -> object:
        await self.first.acquire()
        try:
            await self.then.acquire()
        except BaseException:
            self.first.release()
            raise
        return self

    async def __aexit__(self, *_exc: object) -> None:
        self.then.release()
        self.first.release()


def tournament_job(tournament_id: int) -> str:
    """The key of a tournament's job."""
    return f"tournament {tournament_id}"


class Scheduler:
    """Plays the tournaments the server is given (see the module's documentation)."""

    def __init__(self, store: Store, data_dir: Path, parallel: int = 2, *,
                 per_run: PerRun = EVERY_RUN, say: Say | None = None, poll_s: float = 2.0,
                 stop_grace_s: float = 30.0, scrimmage_slots: int | None = None) -> None:
        if parallel < 1:
            raise ValueError(f"parallel must be at least 1, not {parallel}")
        self.store = store
        self.data_dir = data_dir
        self.parallel = parallel
        self.per_run = per_run  # the sandbox, the executor
        self.poll_s = poll_s
        self.stop_grace_s = stop_grace_s
        self.slots = asyncio.Semaphore(parallel)
        # a scrimmage's match takes one of these too: scrimmages never hold more of the slots
        self.scrimmage_slots = asyncio.Semaphore(min(parallel, scrimmage_slots or parallel))
        self.notes: dict[int, str] = {}
        """Why the scheduler stopped playing a tournament (it is left interrupted), by id."""
        self._say = say or (lambda _text: None)
        self._said: set[str] = set()
        self._jobs: dict[str, _Running] = {}
        self._cancelled: set[int] = set()  # by an operator: never started again
        self._wake = asyncio.Event()
        self._stopping = False

    # ---------------------------------------------------------------- the loop

    async def run(self) -> None:
        """Look for tournaments to play until cancelled; then stop every job (see :meth:`stop`)."""
        try:
            while True:
                await self._look()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._wake.wait(), self.poll_s)
                self._wake.clear()
        finally:
            await self.stop()

    def wake(self) -> None:
        """Look for tournaments to play now (one was just queued)."""
        self._wake.set()

    def playing(self, tournament_id: int) -> bool:
        return tournament_job(tournament_id) in self._jobs

    async def _look(self) -> None:
        if self._stopping:
            return
        try:  # in a worker thread: 10 ms over 10,000 matches, every poll_s, off the match clocks
            waiting = await asyncio.to_thread(self.store.tournaments_to_serve)
        except StoreError as err:
            self._once(f"scheduler: cannot read the queue: {err}")
            return
        for tournament in waiting:
            if sum(1 for key in self._jobs if key.startswith("tournament ")) >= self.parallel:
                return
            if self.playing(tournament.id) or tournament.id in self.notes or \
                    tournament.id in self._cancelled:
                continue  # under way, given up on (its note says why) until a restart, or cancelled
            self.start_job(tournament_job(tournament.id), self._player(tournament.id))

    # ---------------------------------------------------------------- jobs

    def start_job(self, key: str, job: Job) -> bool:
        """Run ``job`` until it returns, it is cancelled, or the scheduler stops (which sets its
        stop event, then cancels it after ``stop_grace_s``); False if a job of that key runs."""
        if key in self._jobs or self._stopping:
            return False
        running = self._jobs[key] = _Running()
        running.task = asyncio.ensure_future(self._guard(key, job, running))
        return True

    async def _guard(self, key: str, job: Job, running: _Running) -> object:
        try:
            return await job(running.stop)
        except asyncio.CancelledError:
            raise
        except Exception as err:  # a job's failure is its own: the scheduler goes on
            self._say(f"{key}: {type(err).__name__}: {err}")
            return None
        finally:
            self._jobs.pop(key, None)
            self.wake()  # a place is free: the next tournament may start

    def _player(self, tournament_id: int) -> Job:
        return lambda stop: self._play(tournament_id, stop)

    async def _play(self, tournament_id: int, stop: asyncio.Event) -> RunSummary | None:
        """Play a tournament to its end (or until stopped); what went wrong goes to its note."""
        store = self.store
        try:
            info = store.get_tournament(tournament_id)
            if info.status.ended:  # cancelled meanwhile
                return None
            settings = resume_settings(store, info, min(self.parallel, max(
                1, int(info.settings.get("parallel", 2)))))
            settings = self.per_run.applied(settings)
            left = info.total - info.finished
            self._say(f"tournament {tournament_id}: playing {left} of {info.total} matches "
                      f"({info.game}, {', '.join(info.bots)})")
            slots: Slots = self.slots
            if settings.scrimmage_of is not None:
                slots = _Both(self.scrimmage_slots, self.slots)
            summary = await run_tournament(store, tournament_id, self.data_dir, settings,
                                           stop=stop, notice=self._once, slots=slots)
        except asyncio.CancelledError:
            running = self._jobs.get(tournament_job(tournament_id))
            if self._stopping and not (running is not None and running.cancelled):
                self._requeue(tournament_id)
            raise
        except Exception as err:
            # the note is public; what a bot printed is for its author and the operator only
            public = err.public if isinstance(err, BotsDidNotStart) else str(err)
            self.notes[tournament_id] = public or type(err).__name__
            self._say(f"tournament {tournament_id} stopped: {str(err) or type(err).__name__}")
            busy = "being run by another process" in str(err)
            if not busy:
                with contextlib.suppress(StoreError):
                    store.set_tournament_status(tournament_id, TournamentStatus.INTERRUPTED)
            return None
        if summary.left:  # the server is stopping
            self._requeue(tournament_id)
        else:
            how = f", decided early: {summary.decided}" if summary.decided else ""
            self._say(f"tournament {tournament_id} finished: {summary.played} matches played in "
                      f"{summary.wall_s:.1f} s{how}")
        return summary

    def _requeue(self, tournament_id: int) -> None:
        """Queue a tournament the server stopped, for its next start."""
        with contextlib.suppress(StoreError):
            if not self.store.get_tournament(tournament_id).status.ended:
                self.store.set_tournament_status(tournament_id, TournamentStatus.QUEUED)

    async def cancel_tournament(self, tournament_id: int) -> int:
        """Stop a tournament at once if this scheduler plays it (its matches in play are
        abandoned), then void its unfinished matches; how many were voided. A tournament
        another process runs is a :class:`StoreError`, as :meth:`Store.cancel_tournament`."""
        self._cancelled.add(tournament_id)
        running = self._jobs.get(tournament_job(tournament_id))
        if running is not None and running.task is not None:
            running.cancelled = True
            running.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await running.task
        self.notes.pop(tournament_id, None)
        # in a worker thread: voiding 1,000 matches took 0.1 s of CPU, off the match clocks
        return await asyncio.to_thread(self.store.cancel_tournament, tournament_id)

    async def stop(self) -> None:
        """Stop every job: their stop events first (matches in play finish), then, after
        ``stop_grace_s``, cancel what is left. Stopped tournaments are queued again."""
        self._stopping = True
        jobs = list(self._jobs.values())
        for running in jobs:
            running.stop.set()
        tasks = [running.task for running in jobs if running.task is not None]
        if not tasks:
            return
        _done, pending = await asyncio.wait(tasks, timeout=self.stop_grace_s)
        for task in pending:
            task.cancel()
        for task in pending:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    def _once(self, text: str) -> None:
        if text not in self._said:  # the same sandbox and limits, tournament after tournament
            self._said.add(text)
            self._say(text)


__all__ = ["Job", "Scheduler", "tournament_job"]
