"""Round-robin tournaments: a deterministic schedule, run in parallel, resumable.

Every match of the schedule is written as pending before any is played;
each is finished atomically with its seats, log and rating update. A run that
is interrupted at any moment resumes with the matches not finished (a match
that was running is replayed from its seed), so none is lost or counted twice.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import itertools
import signal
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, fields, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import grpc

from arena.games import get_game
from arena.games.base import OptionValue
from arena.match.referee import MatchReport, MatchSettings
from arena.net.bot_service import MatchHost, MatchSpec, create_server, digest
from arena.net.tls import server_credentials
from arena.players.limits import ResourceLimits
from arena.players.process import BotProcess
from arena.storage.store import MatchResult, MatchToRun, ScheduledMatch, Store, StoreError

MANAGED_START_GRACE_S = 30.0
"""How long managed bots may take to start and attend before the first match (at least)."""


class TournamentError(ValueError):
    """A tournament cannot be created or run as asked."""


class StorageStopped(StoreError):
    """The database refused a write mid-tournament (read-only or full disk, ...): the run
    stopped taking matches; what was written is intact and ``resume`` finishes the rest."""


def match_seed(tournament_seed: int, repetition: int, group: int) -> int:
    """The deal of one group in one repetition: shared by all its seat rotations."""
    data = f"{tournament_seed}:{repetition}:{group}".encode()
    return int.from_bytes(hashlib.sha256(data).digest()[:8], "big") >> 1


def groups(bot_ids: Sequence[int], players: int) -> list[tuple[int, ...]]:
    """Every group of ``players`` seats drawn from the bots.

    With at least as many bots as seats: every combination of distinct bots.
    With fewer: every bot plays, and the extra seats are filled by every
    multiset of the bots, so that no bot is favoured.
    """
    ids = sorted(set(bot_ids))
    if len(ids) < 1:
        raise TournamentError("a tournament needs at least one bot")
    if len(ids) >= players:
        return list(itertools.combinations(ids, players))
    return [tuple(sorted((*ids, *extra)))
            for extra in itertools.combinations_with_replacement(ids, players - len(ids))]


def rotations(group: tuple[int, ...]) -> list[tuple[int, ...]]:
    """The distinct cyclic seatings of a group (each bot takes each seat in turn)."""
    seen: list[tuple[int, ...]] = []
    for shift in range(len(group)):
        seating = group[shift:] + group[:shift]
        if seating not in seen:
            seen.append(seating)
    return seen


def round_robin(bot_ids: Sequence[int], players: int, repetitions: int,
                seed: int) -> list[ScheduledMatch]:
    """The full schedule: every group, every seat rotation (same deal), every repetition."""
    if len(set(bot_ids)) < 2:
        raise TournamentError("a round-robin needs at least two different bots")
    if repetitions < 1:
        raise TournamentError("repetitions must be at least 1")
    schedule: list[ScheduledMatch] = []
    for repetition in range(repetitions):
        for number, group in enumerate(groups(bot_ids, players)):
            deal = match_seed(seed, repetition, number)
            for seating in rotations(group):
                schedule.append(ScheduledMatch(index=len(schedule), seed=deal,
                                               seat_bot_ids=seating))
    return schedule


@dataclass(frozen=True)
class RunSettings:
    """How a tournament is played; saved with it, so that a resume plays the same way."""

    parallel: int = 2
    move_timeout_s: float = 10.0
    start_timeout_s: float = 30.0
    time_bank_s: float = 0.0
    event_delay_s: float = 0.2  # see MatchSettings.event_delay_s
    limits: ResourceLimits = field(default_factory=ResourceLimits)  # for every bot process
    listen: str | None = None  # HOST:PORT where remote bots connect; None: managed bots only
    tls_cert: str | None = None  # PEM files securing ``listen`` (both or neither)
    tls_key: str | None = None
    wait_for_remote_s: float = 60.0  # before the first match, for every remote bot to attend

    def saved(self) -> dict[str, Any]:
        """The settings as stored with the tournament (``resume`` reads them back)."""
        plain = {f.name: getattr(self, f.name) for f in fields(self) if f.name != "limits"}
        return {**plain, **self.limits.as_settings()}

    @classmethod
    def from_saved(cls, saved: Mapping[str, Any], parallel: int | None = None) -> RunSettings:
        """Settings stored by :meth:`saved`; defaults for keys saved before they existed."""
        known = {f.name for f in fields(cls)} - {"limits"}
        settings = cls(**{key: value for key, value in saved.items() if key in known},
                       limits=ResourceLimits.from_settings(saved))
        return replace(settings, parallel=parallel) if parallel else settings


class RemoteBotsAbsent(TournamentError):
    """Remote bots did not attend in time: nothing was played, the tournament can be resumed."""


@dataclass
class RunSummary:
    played: int
    wall_s: float
    bot_start_s: float
    faults: int
    left: int = 0  # matches not played because a stop was asked for


Progress = Callable[[int, int], None]
Notice = Callable[[str], None]


@dataclass
class _Entrant:
    """A bot of the tournament: managed (a process the arena starts) or remote (it connects
    by itself with the token its author was given; the host knows it by the token's hash)."""

    name: str
    token_hash: str
    process: BotProcess | None

    async def ensure_running(self) -> None:
        if self.process is not None:
            await self.process.ensure_running()  # restarts a bot that crashed earlier

    def settled(self, host: MatchHost) -> bool:
        """Attending, or a managed bot whose process has ended (nothing to wait for)."""
        return host.attending(self.token_hash) or (self.process is not None and not self.process.alive)


async def run_tournament(store: Store, tournament_id: int, data_dir: Path,
                         settings: RunSettings, progress: Progress | None = None,
                         stop: asyncio.Event | None = None,
                         notice: Notice | None = None) -> RunSummary:
    """Play every unfinished match of the tournament; return when all are finished.

    Once ``stop`` is set no new match starts; the running ones finish, and the
    rest stay pending for ``arena tournament resume``. When the database refuses
    a write (read-only or full disk), the run stops the same way and then raises
    :class:`StorageStopped`; a match whose result could not be written stays
    pending or running in the database and is replayed on resume.

    Managed bots connect to a private plain-text port on 127.0.0.1. Remote bots
    connect to ``settings.listen`` (TLS when a certificate is given); before
    the first match every remote bot has ``wait_for_remote_s`` to attend, else
    :class:`RemoteBotsAbsent` is raised with nothing played. A remote bot that is
    not attending when one of its matches starts has the start timeout to come
    back, and is otherwise a no-show in that match.

    The store's writes during play run on one thread of their own, in order, so
    that a match's database time never holds up the matches still in play.
    """
    stop = stop or asyncio.Event()
    refused: list[StoreError] = []
    began = time.perf_counter()
    say = notice or (lambda _: None)
    tournament = store.get_tournament(tournament_id)
    game = get_game(tournament.game)
    options: dict[str, OptionValue] = game.parse_options(tournament.players, tournament.options)
    todo = store.claim_unfinished(tournament_id)
    total, done = tournament.total, tournament.total - len(todo)
    infos = [store.get_bot_by_id(b) for b in sorted({b for m in todo for b in m.seat_bot_ids})]
    remote = {info.id: store.bot_token_hash(info.id) for info in infos if info.remote}
    if remote and settings.listen is None:
        names = ", ".join(info.label for info in infos if info.remote)
        raise TournamentError(f"remote bots ({names}) need an address to connect to: give --listen HOST:PORT")
    credentials = None
    if settings.listen is not None and (settings.tls_cert or settings.tls_key):
        if not (settings.tls_cert and settings.tls_key):
            raise TournamentError("TLS needs both a certificate and a key")
        credentials = server_credentials(settings.tls_cert, settings.tls_key)
    if progress:
        progress(done, total)
    host = MatchHost()
    servers: list[grpc.aio.Server] = []
    entrants: dict[int, _Entrant] = {}
    writer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="arena-store")
    loop = asyncio.get_running_loop()
    try:
        server, port = await create_server(host)
        servers.append(server)
        if settings.listen is not None:
            outside, outside_port = await create_server(host, settings.listen, credentials=credentials)
            servers.append(outside)
            shown = settings.listen.rsplit(":", 1)[0]
            say(f"listening for remote bots on {shown}:{outside_port}"
                + (" (TLS)" if credentials is not None else " (plain text, no TLS)"))
        for info in infos:
            if info.id in remote:
                entrants[info.id] = _Entrant(info.label, remote[info.id], None)
            else:
                process = BotProcess(info.label, info.command, f"127.0.0.1:{port}", data_dir / "logs",
                                     limits=settings.limits)
                entrants[info.id] = _Entrant(info.label, digest(process.token), process)
            host.admit_hash(entrants[info.id].token_hash)
        await asyncio.gather(*(e.ensure_running() for e in entrants.values()))
        # Before the first match every bot gets time to attend: a managed bot slower to
        # start than the start timeout (a busy machine) or a remote bot still connecting
        # would otherwise be a no-show in its first matches.
        await _wait_for(host, [e for e in entrants.values() if e.process is not None],
                        max(settings.start_timeout_s, MANAGED_START_GRACE_S), stop)
        remote_bots = [e for e in entrants.values() if e.process is None]
        if settings.wait_for_remote_s > 0 and not all(e.settled(host) for e in remote_bots):
            say(f"waiting up to {settings.wait_for_remote_s:g} s for remote bots: "
                + ", ".join(e.name for e in remote_bots if not e.settled(host)))
            absent = await _wait_for(host, remote_bots, settings.wait_for_remote_s, stop,
                                     lambda e: say(f"remote bot {e.name} connected"))
            if absent and not stop.is_set():
                store.set_tournament_status(tournament_id, "interrupted")
                raise RemoteBotsAbsent(f"remote bots did not connect within "
                                       f"{settings.wait_for_remote_s:g} s: "
                                       f"{', '.join(e.name for e in absent)}")
        match_settings = MatchSettings(move_timeout_s=settings.move_timeout_s,
                                       start_timeout_s=settings.start_timeout_s,
                                       time_bank_s=settings.time_bank_s,
                                       event_delay_s=settings.event_delay_s)
        gate = asyncio.Semaphore(max(1, settings.parallel))
        faults = played = 0

        async def play(match: MatchToRun) -> None:
            nonlocal done, faults, played
            async with gate:
                if stop.is_set():
                    return
                seat_bots = [entrants[b] for b in match.seat_bot_ids]
                for bot in seat_bots:
                    await bot.ensure_running()
                try:
                    await loop.run_in_executor(writer, store.mark_running, match.id)
                except StoreError as err:
                    refused.append(err)
                    stop.set()
                    return
                spec = MatchSpec(match_id=str(match.id), game=game.name,
                                 players=tournament.players, seed=match.seed, options=options,
                                 seat_token_hashes=tuple(b.token_hash for b in seat_bots),
                                 seat_names=tuple(b.name for b in seat_bots),
                                 settings=match_settings)

                async def is_alive(seat: int) -> bool:
                    process = seat_bots[seat].process
                    if process is None:  # a remote bot: alive while it attends
                        return host.attending(seat_bots[seat].token_hash)
                    return await process.is_alive()

                report = await host.play(spec, is_alive)
                try:
                    await loop.run_in_executor(writer, store.finish_match, match.id,
                                               _result(report))
                except StoreError as err:
                    refused.append(err)
                    stop.set()
                    return
                faults += sum(1 for f in report.faults if f)
                done += 1
                played += 1
                if progress:
                    progress(done, total)

        await asyncio.gather(*(play(m) for m in todo))
        if refused:
            raise StorageStopped(
                f"{refused[0]} — the tournament stopped after {played} matches; nothing written "
                f"was lost: `arena tournament resume {tournament_id}` finishes it once the "
                "database can be written")
        left = total - store.get_tournament(tournament_id).finished
        store.set_tournament_status(tournament_id, "finished" if left == 0 else "interrupted")
        return RunSummary(played=played, wall_s=time.perf_counter() - began,
                          bot_start_s=sum(e.process.start_seconds for e in entrants.values()
                                          if e.process is not None),
                          faults=faults, left=left)
    finally:
        for entrant in entrants.values():
            host.dismiss_hash(entrant.token_hash)
        await asyncio.gather(*(e.process.stop() for e in entrants.values() if e.process is not None),
                             return_exceptions=True)
        for server in servers:
            await server.stop(grace=1.0)
        writer.shutdown(wait=True)  # a write under way (even when cancelled) completes


async def _wait_for(host: MatchHost, entrants: Sequence[_Entrant], wait_s: float,
                    stop: asyncio.Event, arrived: Callable[[_Entrant], None] | None = None
                    ) -> list[_Entrant]:
    """Wait up to ``wait_s`` (or a stop) until every entrant is settled; those still absent."""
    absent = [e for e in entrants if not e.settled(host)]
    deadline = time.monotonic() + wait_s
    while absent and time.monotonic() < deadline and not stop.is_set():
        await asyncio.sleep(0.02)
        for entrant in [e for e in absent if e.settled(host)]:
            absent.remove(entrant)
            if arrived is not None:
                arrived(entrant)
    return absent


def _result(report: MatchReport) -> MatchResult:
    return MatchResult(scores=report.scores, ranks=report.ranks, faults=report.faults,
                       log=report.log, started_at=datetime.fromtimestamp(report.started_at, UTC),
                       duration_s=report.duration_s)


def run_until_done(store: Store, tournament_id: int, data_dir: Path, settings: RunSettings,
                   progress: Progress | None = None, notice: Notice | None = None) -> RunSummary:
    """Run the tournament in a fresh event loop.

    The first SIGTERM stops it gracefully: no new match starts and the running
    ones finish (``RunSummary.left`` counts the rest). A second one cancels at once,
    like Ctrl-C; an interrupted match is replayed from its seed on resume.
    """

    async def main() -> RunSummary:
        stop = asyncio.Event()
        task = asyncio.ensure_future(run_tournament(store, tournament_id, data_dir, settings,
                                                    progress, stop, notice))

        def on_sigterm() -> None:
            if stop.is_set():
                task.cancel()
            stop.set()

        loop = asyncio.get_running_loop()
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(signal.SIGTERM, on_sigterm)
        return await task

    return asyncio.run(main())
