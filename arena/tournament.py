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
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from arena.games import get_game
from arena.games.base import OptionValue
from arena.limits import ResourceLimits
from arena.referee import MatchReport, MatchSettings
from arena.runner import BotProcess
from arena.server import MatchHost, MatchSpec, create_server
from arena.store import MatchResult, MatchToRun, ScheduledMatch, Store, StoreError


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
    parallel: int = 2
    move_timeout_s: float = 10.0
    start_timeout_s: float = 30.0
    time_bank_s: float = 0.0
    limits: ResourceLimits = field(default_factory=ResourceLimits)  # for every bot process

    def as_saved(self) -> dict[str, float | int | None]:
        """The settings as stored with the tournament (``resume`` reads them back)."""
        return {"parallel": self.parallel, "move_timeout_s": self.move_timeout_s,
                "start_timeout_s": self.start_timeout_s, "time_bank_s": self.time_bank_s,
                **self.limits.as_settings()}

    @classmethod
    def from_saved(cls, saved: Mapping[str, Any], parallel: int | None = None) -> RunSettings:
        """Settings stored by :meth:`as_saved` (defaults for keys saved before they existed)."""
        return cls(parallel or int(saved.get("parallel", 2)),
                   float(saved.get("move_timeout_s", 10.0)),
                   float(saved.get("start_timeout_s", 30.0)),
                   float(saved.get("time_bank_s", 0.0)),
                   ResourceLimits.from_settings(saved))


@dataclass
class RunSummary:
    played: int
    wall_s: float
    bot_start_s: float
    faults: int
    left: int = 0  # matches not played because a stop was asked for


Progress = Callable[[int, int], None]


async def run_tournament(store: Store, tournament_id: int, data_dir: Path,
                         settings: RunSettings, progress: Progress | None = None,
                         stop: asyncio.Event | None = None) -> RunSummary:
    """Play every unfinished match of the tournament; return when all are finished.

    Once ``stop`` is set no new match starts; the running ones finish, and the
    rest stay pending for ``arena tournament resume``. When the database refuses
    a write (read-only or full disk), the run stops the same way and then raises
    :class:`StorageStopped`; a match whose result could not be written stays
    pending or running in the database and is replayed on resume.
    """
    stop = stop or asyncio.Event()
    refused: list[StoreError] = []
    began = time.perf_counter()
    tournament = store.get_tournament(tournament_id)
    game = get_game(tournament.game)
    options: dict[str, OptionValue] = game.parse_options(tournament.players, tournament.options)
    todo = store.claim_unfinished(tournament_id)
    total, done = tournament.total, tournament.total - len(todo)
    if progress:
        progress(done, total)
    host = MatchHost()
    server, port = await create_server(host)
    bots: dict[int, BotProcess] = {}
    try:
        for bot_id in sorted({b for m in todo for b in m.seat_bot_ids}):
            info = store.get_bot_by_id(bot_id)
            bots[bot_id] = BotProcess(info.label, info.command, f"127.0.0.1:{port}",
                                      data_dir / "logs", limits=settings.limits)
            host.admit(bots[bot_id].token)
        await asyncio.gather(*(b.ensure_running() for b in bots.values()))
        match_settings = MatchSettings(move_timeout_s=settings.move_timeout_s,
                                       start_timeout_s=settings.start_timeout_s,
                                       time_bank_s=settings.time_bank_s)
        gate = asyncio.Semaphore(max(1, settings.parallel))
        faults = played = 0

        async def play(match: MatchToRun) -> None:
            nonlocal done, faults, played
            async with gate:
                if stop.is_set():
                    return
                seat_bots = [bots[b] for b in match.seat_bot_ids]
                for bot in seat_bots:
                    await bot.ensure_running()  # restarts a bot that crashed earlier
                try:
                    store.mark_running(match.id)
                except StoreError as err:
                    refused.append(err)
                    stop.set()
                    return
                spec = MatchSpec(match_id=str(match.id), game=game.name,
                                 players=tournament.players, seed=match.seed, options=options,
                                 seat_tokens=tuple(b.token for b in seat_bots),
                                 seat_names=tuple(b.name for b in seat_bots),
                                 settings=match_settings)

                async def is_alive(seat: int) -> bool:
                    return await seat_bots[seat].is_alive()

                report = await host.play(spec, is_alive)
                try:
                    store.finish_match(match.id, _result(report))
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
                          bot_start_s=sum(b.start_seconds for b in bots.values()), faults=faults,
                          left=left)
    finally:
        for bot in bots.values():
            host.dismiss(bot.token)
        await asyncio.gather(*(b.stop() for b in bots.values()), return_exceptions=True)
        await server.stop(grace=1.0)


def _result(report: MatchReport) -> MatchResult:
    return MatchResult(scores=report.scores, ranks=report.ranks, faults=report.faults,
                       log=report.log, started_at=datetime.fromtimestamp(report.started_at, UTC),
                       duration_s=report.duration_s)


def run_until_done(store: Store, tournament_id: int, data_dir: Path, settings: RunSettings,
                   progress: Progress | None = None) -> RunSummary:
    """Run the tournament in a fresh event loop.

    The first SIGTERM stops it gracefully: no new match starts and the running
    ones finish (``RunSummary.left`` counts the rest). A second one cancels at once,
    like Ctrl-C; an interrupted match is replayed from its seed on resume.
    """

    async def main() -> RunSummary:
        stop = asyncio.Event()
        task = asyncio.ensure_future(run_tournament(store, tournament_id, data_dir, settings,
                                                    progress, stop))

        def on_sigterm() -> None:
            if stop.is_set():
                task.cancel()
            stop.set()

        loop = asyncio.get_running_loop()
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(signal.SIGTERM, on_sigterm)
        return await task

    return asyncio.run(main())
