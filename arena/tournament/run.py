"""The run loop: plays a tournament's unfinished matches through an executor, resumably.

Every match of the schedule is written as pending before any is played;
each is finished atomically with its seats, log and rating update. A run that
is interrupted at any moment resumes with the matches not finished (a match
that was running is replayed from its seed), so none is lost or counted twice.
How a match is played (bot processes, the network) is the executor's business
(:mod:`arena.tournament.executor`); this loop only decides which match is
played when, and writes what comes back. While a match plays, its log so far goes to
the store at most every :data:`LIVE_LOG_EVERY_S` (for its live view on the web): a match
shorter than that never writes it. A match starts *sealed* when every seat is a bot run in the
sandbox (the web may then show its hands live); a run without the sandbox refuses a tournament
with a deal that started sealed and is not over (:func:`refuse_unsealed`).
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from arena.games import get_game
from arena.games.base import OptionValue
from arena.match.referee import MatchReport
from arena.players import builds, submissions
from arena.players.limits import ResourceLimits
from arena.players.submissions import SUBMITTED_DIR
from arena.rating.standings import best_ranks
from arena.rating.stats import SprtState
from arena.storage.store import (
    BotInfo,
    DatabaseGone,
    MatchResult,
    MatchStatus,
    MatchToRun,
    Store,
    StoreError,
    TournamentInfo,
)
from arena.tournament.errors import (
    BotsDidNotStart,
    RemoteBotsAbsent,
    SealedDeal,
    StorageStopped,
    TournamentError,
)
from arena.tournament.executor import Entrant, Executor, MatchJob
from arena.tournament.formats import VERSUS, Format, decision_record, watch
from arena.tournament.local import LocalExecutor
from arena.tournament.settings import RunSettings
from arena.wire.codec import GameCodec, codec_for
from arena.wire.messages import LogEntry, match_log

LIVE_LOG_EVERY_S = 0.5
"""How often a running match's log so far is written to the store, at most (if it grew)."""


@dataclass
class RunSummary:
    played: int
    wall_s: float
    bot_start_s: float
    faults: int
    left: int = 0  # matches not played because a stop was asked for
    decided: str | None = None  # why the format ended the tournament early (an SPRT decision)


class StoppingRule:
    """Whether a tournament's format has ended it early: a match between two bots whose SPRT
    has decided. Fed the finished matches in the store once, then each match as it finishes
    (no query per match), so that it holds on a resume."""

    def __init__(self, store: Store, tournament: TournamentInfo) -> None:
        chosen = Format.from_settings(tournament.settings)
        self._sets = watch(store.tournament_matches(tournament.id), chosen, tournament.players) \
            if chosen.kind == VERSUS and chosen.sprt is not None else None
        self.said: str | None = None  # the decision, once there is one
        self._decided(self._sets.decided if self._sets is not None else None)

    @property
    def state(self) -> SprtState | None:
        """The SPRT so far (as of its decision once decided); None without one."""
        return self._sets.state if self._sets is not None else None

    @property
    def record(self) -> dict[str, Any] | None:
        """The decision as the tournament keeps it (:func:`decision_record`); None before."""
        state = self._sets.decided if self._sets is not None else None
        return None if state is None else decision_record(state)

    def finished(self, match: MatchToRun, ranks: Sequence[int]) -> bool:
        """Take a match just finished; whether the tournament is decided."""
        if self._sets is not None and self.said is None:
            self._decided(self._sets.add(match.index,
                                         best_ranks(zip(match.seat_bot_ids, ranks, strict=True))))
        return self.said is not None

    def _decided(self, state: SprtState | None) -> None:
        if state is not None:
            self.said = f"SPRT: {state.describe()}"


Progress = Callable[[int, int], None]
"""Told the matches finished so far and the schedule's total, as each match finishes."""
SetsProgress = Callable[[SprtState], None]
"""A versus with an SPRT: told its test so far as each match finishes. Its schedule's total
is a cap, not a forecast: the test decides long before it, and the rest is void."""
Notice = Callable[[str], None]


Slots = contextlib.AbstractAsyncContextManager[object]
"""What each match holds while it is played, when a server shares its limit of matches (an
``asyncio.Semaphore``, or the scheduler's pair of them for a scrimmage)."""


async def run_tournament(store: Store, tournament_id: int, data_dir: Path,
                         settings: RunSettings, progress: Progress | None = None,
                         stop: asyncio.Event | None = None,
                         notice: Notice | None = None,
                         executor: Executor | None = None,
                         slots: Slots | None = None,
                         sets: SetsProgress | None = None) -> RunSummary:
    """Play every unfinished match of the tournament; return when all are finished.

    Up to ``settings.parallel`` matches are played at once (and each takes one of
    ``slots`` too, when given: the server's limit shared by the tournaments it plays
    at once, taken in turn), each by ``executor``
    (by default a :class:`~arena.tournament.local.LocalExecutor` with ``data_dir``,
    ``settings`` and ``notice``), which is started with the bots of the matches
    left and closed at the end, whatever happens.

    Once ``stop`` is set no new match starts; the running ones finish, and the
    rest stay pending for ``arena tournament resume``. When the database refuses
    a write (read-only or full disk), the run stops the same way and then raises
    :class:`StorageStopped`; a match whose result could not be written stays
    pending or running in the database and is replayed on resume. When the
    executor's start raises :class:`RemoteBotsAbsent` or :class:`BotsDidNotStart`,
    nothing is played and the tournament is left interrupted. While it runs the tournament's run lock is held
    (:meth:`Store.running`): a second run of it at once is a :class:`StoreError`, and
    once this process is gone, however it ended, the tournament reads as interrupted.

    The store's writes during play run on one thread of their own, in order, so
    that a match's database time never holds up the matches still in play.
    """
    with store.running(tournament_id):
        try:
            return await _run(store, tournament_id, data_dir, settings, progress,
                              stop or asyncio.Event(), notice, executor, slots, sets)
        except asyncio.CancelledError:  # Ctrl-C, a second SIGTERM
            with contextlib.suppress(StoreError):
                store.set_tournament_status(tournament_id, "interrupted")
            raise


async def _run(store: Store, tournament_id: int, data_dir: Path, settings: RunSettings,
               progress: Progress | None, stop: asyncio.Event, notice: Notice | None,
               executor: Executor | None, slots: Slots | None = None,
               sets: SetsProgress | None = None) -> RunSummary:
    refused: list[StoreError] = []
    began = time.perf_counter()
    tournament = store.get_tournament(tournament_id)
    if tournament.status.closed:  # cancelled or voided: nothing is left to play, ever
        return RunSummary(played=0, wall_s=0.0, bot_start_s=0.0, faults=0)
    game = get_game(tournament.game)
    options: dict[str, OptionValue] = game.parse_options(tournament.players, tournament.options)
    rule = StoppingRule(store, tournament)
    if rule.said is not None:  # decided before an interruption: nothing more to play
        store.void_unfinished(tournament_id, decided=rule.record)
        return RunSummary(played=0, wall_s=time.perf_counter() - began, bot_start_s=0.0,
                          faults=0, decided=rule.said)
    todo = store.claim_unfinished(tournament_id)
    total, done = tournament.total, tournament.total - len(todo)
    if executor is None:
        executor = executor_for(store, data_dir, settings, notice)
    if progress:
        progress(done, total)
    if sets and rule.state is not None:
        sets(rule.state)
    clocks = settings.clocks
    writer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="arena-store")
    try:
        try:
            refuse_unsealed(store, tournament_id, executor)  # before any bot is prepared
            entrants = _entrants(store, todo, settings, data_dir / SUBMITTED_DIR)
            await _start(executor, list(entrants.values()), stop)
        except (RemoteBotsAbsent, BotsDidNotStart, SealedDeal):
            store.set_tournament_status(tournament_id, "interrupted")
            raise
        faults = played = 0

        async def play(match: MatchToRun) -> None:
            nonlocal done, faults, played
            async with slots if slots is not None else contextlib.nullcontext():
                if stop.is_set():
                    return
                try:
                    report = await play_stored(store, executor, writer, MatchJob(
                        match_id=match.id, index=match.index, game=game.name,
                        players=tournament.players, seed=match.seed, options=options,
                        seats=tuple(entrants[b] for b in match.seat_bot_ids), clocks=clocks,
                        lane=match.lane))
                except StoreError as err:
                    refused.append(err)
                    stop.set()
                    return
                if report is None:  # void meanwhile (a cancel): not played
                    return
                faults += sum(1 for f in report.faults if f)
                done += 1
                played += 1
                if progress:
                    progress(done, total)
                decided = rule.finished(match, report.ranks)
                if sets and rule.state is not None:
                    sets(rule.state)
                if decided:
                    stop.set()  # decided: the running matches finish, no new one starts

        # ``parallel`` players, each taking the next match to play once its last is over: a
        # task per match made up front (a thousand and more, waiting) gave the garbage
        # collector tens of thousands of objects to walk, on the loop that runs the clocks
        queue = iter(todo)

        async def player() -> None:
            for match in queue:  # shared: each match is taken once, in the schedule's order
                if stop.is_set():
                    return
                await play(match)

        await asyncio.gather(*(player() for _ in range(max(1, min(settings.parallel, len(todo))))))
        if refused and isinstance(refused[0], DatabaseGone):
            raise DatabaseGone(f"{refused[0]}: the tournament stopped after {played} matches")
        if refused:
            raise StorageStopped(
                f"{refused[0]} — the tournament stopped after {played} matches; nothing written "
                f"was lost: `arena tournament resume {tournament_id}` finishes it once the "
                "database can be written")
        if rule.said is not None:  # decided: the rest is void, and the tournament finished
            store.void_unfinished(tournament_id, decided=rule.record)
            left = 0
        else:
            counts = store.match_counts([tournament_id]).get(tournament_id, {})
            left = counts.get(MatchStatus.PENDING, 0) + counts.get(MatchStatus.RUNNING, 0)
            store.set_tournament_status(tournament_id, "finished" if left == 0 else "interrupted")
        return RunSummary(played=played, wall_s=time.perf_counter() - began,
                          bot_start_s=executor.bot_start_s, faults=faults, left=left,
                          decided=rule.said)
    finally:
        await executor.close()
        writer.shutdown(wait=True)  # a write under way (even when cancelled) completes


def executor_for(store: Store, data_dir: Path, settings: RunSettings,
                 notice: Notice | None = None) -> Executor:
    """The executor ``settings.executor`` names: this machine's, or a Ray cluster's (whose
    nodes get submitted versions from the store's archives)."""
    database = (store.path,) if store.path is not None else ()
    if settings.executor == "ray":
        from arena.tournament.cluster import RayExecutor

        return RayExecutor(settings.ray_address, settings, notice,
                           archives=lambda sha256: store.bot_code(sha256).archive,
                           shared_store=store.path is None, hidden=(data_dir, *database))
    return LocalExecutor(data_dir, settings, notice, hidden=database)  # data_dir hidden too


def check_executor(store: Store, settings: RunSettings) -> None:
    """Whether the executor ``settings`` names can play on this store, said before anything
    is written (a :class:`TournamentError`, one line): the ray executor joins its cluster
    (the run then reuses the connection) and refuses several nodes on a SQLite file."""
    if settings.executor == "ray":
        from arena.tournament.cluster import check_cluster

        check_cluster(settings.ray_address, shared_store=store.path is None)


def refuse_unsealed(store: Store, tournament_id: int, executor: Executor) -> None:
    """A run whose executor does not seal its matches (``--no-sandbox``) refuses to play a
    tournament one of whose deals started sealed and still has a match to play
    (:class:`SealedDeal`, one line, before anything starts): that deal's hands may have been
    shown live on the web, and a bot outside the sandbox could read them there. The store
    refuses such a start too (:meth:`~arena.storage.store.Store.mark_running`)."""
    if executor.sealed:
        return
    found = store.sealed_deal_to_play(tournament_id)
    if found is not None:
        raise SealedDeal(f"tournament {tournament_id} was played in the sandbox, where the web "
                         f"may show every hand of a deal live, and match {found} has such a deal "
                         "still to play: resume it in the sandbox (without --no-sandbox)")


def _entrants(store: Store, todo: Sequence[MatchToRun], settings: RunSettings,
              submitted: Path) -> dict[int, Entrant]:
    """The bots of the matches still to play, by id, in id order."""
    entrants: dict[int, Entrant] = {}
    for bot_id in sorted({b for m in todo for b in m.seat_bot_ids}):
        lanes = 1 + max(m.lane for m in todo if bot_id in m.seat_bot_ids)
        entrants[bot_id] = entrant_of(store, store.get_bot_by_id(bot_id), settings.limits,
                                      submitted, lanes, settings.sandbox)
    return entrants


def entrant_of(store: Store, info: BotInfo, limits: ResourceLimits, submitted: Path,
               lanes: int = 1, sandbox: bool = True) -> Entrant:
    """A bot as an executor needs it. A submitted version runs from its code unpacked under
    ``submitted`` (done here from its stored archive, with its dependencies built, in the
    ``sandbox`` unless the tournament runs without it, where this machine has not done it
    yet)."""
    if info.remote:
        return Entrant(info.id, info.label, token_hash=store.bot_token_hash(info.id),
                       limits=limits)
    folder, deps = info.folder, None
    if info.content_hash is not None:
        try:
            installed, _ = builds.materialize(
                store.bot_code(info.content_hash).archive, info.content_hash, submitted, sandbox)
        except submissions.SubmissionError as err:
            raise TournamentError(f"cannot prepare bot {info.label}: {err}") from None
        folder = str(installed.code)
        deps = None if installed.deps is None else str(installed.deps)
    return Entrant(info.id, info.label, command=info.command, limits=limits, folder=folder,
                   deps=deps, content_hash=info.content_hash, lanes=lanes)


async def _start(executor: Executor, entrants: Sequence[Entrant], stop: asyncio.Event) -> None:
    """Start the executor; given up (cancelled) when a stop is asked for first."""
    starting = asyncio.ensure_future(executor.start(entrants))
    stopping = asyncio.ensure_future(stop.wait())
    try:
        await asyncio.wait({starting, stopping}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        stopping.cancel()
        if not starting.done():
            starting.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await starting
    if not starting.cancelled():
        starting.result()  # its error, if any


async def play_stored(store: Store, executor: Executor, writer: ThreadPoolExecutor,
                      job: MatchJob) -> MatchReport | None:
    """Play one stored match: marked running (*sealed* when the executor seals its managed
    bots and no seat is remote: :meth:`Executor.sealed`), its log so far kept for spectators
    while it plays, its result stored (every store write on ``writer``, in order, off the matches
    in play; the log is encoded there too). None, and nothing played, when the match is
    finished or void already. A refused write is a :class:`StoreError`."""
    loop = asyncio.get_running_loop()
    sealed = executor.sealed and not any(seat.remote for seat in job.seats)
    if not await loop.run_in_executor(writer, store.mark_running, job.match_id, sealed):
        return None
    live = asyncio.ensure_future(_write_live_log(store, executor, job.match_id, job.game, writer))
    try:
        report = await executor.play(job)
    finally:  # a write under way still runs on the store thread, before the finish
        live.cancel()
    await loop.run_in_executor(writer, _finish, store, job.match_id, report)
    return report


async def _write_live_log(store: Store, executor: Executor, match_id: int, game: str,
                          writer: ThreadPoolExecutor) -> None:
    """While the match plays (until cancelled): every :data:`LIVE_LOG_EVERY_S`, its log so
    far to the store if it grew, encoded on the store thread. Only the entries new since the
    last write are encoded: a ``MatchLog``'s bytes are its entries' bytes one after another.
    A refused write is left to the match's finish to report."""
    loop = asyncio.get_running_loop()
    codec = codec_for(game)
    written, data = 0, b""
    while True:
        await asyncio.sleep(LIVE_LOG_EVERY_S)
        entries = executor.live_log(match_id)
        if entries is None or len(entries) == written:
            continue
        new = list(entries[written:])  # whole steps: read between two awaits of the referee
        written = len(entries)
        data = await loop.run_in_executor(writer, _live_log, store, match_id, codec, data, new)


def _live_log(store: Store, match_id: int, codec: GameCodec, data: bytes,
              new: list[LogEntry]) -> bytes:
    data += match_log(codec, new)
    with contextlib.suppress(StoreError):
        store.write_live_log(match_id, data)
    return data


def _finish(store: Store, match_id: int, report: MatchReport) -> bool:
    return store.finish_match(match_id, _result(report))


def _result(report: MatchReport) -> MatchResult:
    return MatchResult(scores=report.scores, ranks=report.ranks, faults=report.faults,
                       log=report.log, started_at=datetime.fromtimestamp(report.started_at, UTC),
                       duration_s=report.duration_s, peers=report.peers,
                       reasons=report.reasons, node=report.node,
                       first_to_act=report.first_to_act(),
                       situations=tuple(report.situations()))


def run_until_done(store: Store, tournament_id: int, data_dir: Path, settings: RunSettings,
                   progress: Progress | None = None, notice: Notice | None = None,
                   executor: Executor | None = None,
                   sets: SetsProgress | None = None) -> RunSummary:
    """Run the tournament in a fresh event loop.

    The first SIGTERM stops it gracefully: no new match starts and the running
    ones finish (``RunSummary.left`` counts the rest). A second one cancels at once,
    like Ctrl-C; an interrupted match is replayed from its seed on resume.
    """

    async def main() -> RunSummary:
        stop = asyncio.Event()
        task = asyncio.ensure_future(run_tournament(store, tournament_id, data_dir, settings,
                                                    progress, stop, notice, executor,
                                                    sets=sets))

        def on_sigterm() -> None:
            if stop.is_set():
                task.cancel()
            stop.set()

        loop = asyncio.get_running_loop()
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(signal.SIGTERM, on_sigterm)
        return await task

    return asyncio.run(main())
