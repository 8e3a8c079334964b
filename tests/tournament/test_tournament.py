"""Tournaments: round-robin schedules (every group, every seat rotation, deterministic from the
seed), the executor seam the run loop plays matches through, and the setup and resume rules."""

from __future__ import annotations

import asyncio
import pickle
import secrets
from collections import Counter
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

import pytest

from arena.match.referee import MatchReport
from arena.net.tls import TlsError
from arena.storage.store import MatchToRun, Store, TournamentInfo
from arena.tournament import (
    Entrant,
    Executor,
    LocalExecutor,
    MatchJob,
    RemoteAccess,
    RemoteBotsAbsent,
    Repeated,
    RunSettings,
    RunSummary,
    TournamentError,
    create_tournament,
    groups,
    remote_access,
    resume_settings,
    rotations,
    round_robin,
    run_tournament,
    run_until_done,
)
from arena.tournament.schedule import Deals
from arena.tournament.setup import DUPLICATE, INDEPENDENT
from arena.wire.tokens import digest
from tests.helpers import eventually_async, migrated_store, wait_until_gone
from tests.inprocess import InProcessExecutor


def test_more_bots_than_seats_plays_every_combination_in_every_rotation() -> None:
    schedule = round_robin([1, 2, 3, 4, 5], players=4, repetitions=1, seed=9)
    assert len(schedule) == 5 * 4
    assert {frozenset(m.seat_bot_ids) for m in schedule} == {
        frozenset(g) for g in groups([1, 2, 3, 4, 5], 4)}
    seats = Counter((bot, seat) for m in schedule for seat, bot in enumerate(m.seat_bot_ids))
    assert set(seats.values()) == {4}  # every bot sits in every seat equally often


def test_fewer_bots_than_seats_fills_the_extra_seats_evenly() -> None:
    assert groups([1, 2], 4) == [(1, 1, 1, 2), (1, 1, 2, 2), (1, 2, 2, 2)]
    schedule = round_robin([1, 2], players=4, repetitions=2, seed=1)
    assert len(schedule) == 2 * (4 + 4 + 4)
    per_bot = Counter(bot for m in schedule for bot in m.seat_bot_ids)
    assert per_bot[1] == per_bot[2]


def test_rotations_of_a_group_share_one_deal_and_the_schedule_is_reproducible() -> None:
    deals = Deals()
    schedule = round_robin([1, 2, 3], players=3, repetitions=2, seed=42, deals=deals)
    # the same key gives the same schedule, whatever the order the bots are named in
    assert schedule == round_robin([3, 1, 2], players=3, repetitions=2, seed=42,
                                   deals=Deals(key=deals.key))
    assert schedule != round_robin([1, 2, 3], players=3, repetitions=2, seed=42, deals=Deals())
    # secret deals come from the key alone: another public seed does not change them
    assert round_robin([1, 2, 3], players=3, repetitions=2, seed=43,
                       deals=Deals(key=deals.key)) == schedule
    # deals from the public seed (research runs): the same seed, the same schedule
    public = round_robin([1, 2, 3], players=3, repetitions=2, seed=42, deals=Deals(from_seed=True))
    assert public == round_robin([3, 1, 2], players=3, repetitions=2, seed=42,
                                 deals=Deals(from_seed=True))
    assert public != round_robin([1, 2, 3], players=3, repetitions=2, seed=43,
                                 deals=Deals(from_seed=True))
    assert not {m.seed for m in public} & {m.seed for m in schedule}
    for made in (schedule, public):
        first = made[:3]
        assert {m.seed for m in first} == {made[0].seed}
        assert [m.seat_bot_ids for m in first] == rotations((1, 2, 3))
        assert [m.lane for m in first] == [0, 1, 2]  # each rotation on its own lane
        assert made[3].seed != made[0].seed  # the next repetition deals anew
        assert [m.index for m in made] == list(range(len(made)))


def test_rotations_skip_repeated_seatings() -> None:
    assert rotations((1, 1, 2, 2)) == [(1, 1, 2, 2), (1, 2, 2, 1), (2, 2, 1, 1), (2, 1, 1, 2)]
    assert rotations((1, 1)) == [(1, 1)]


def test_bad_schedules_are_refused() -> None:
    with pytest.raises(TournamentError, match="two different bots"):
        round_robin([1], players=2, repetitions=1, seed=0)
    with pytest.raises(TournamentError, match="repetitions"):
        round_robin([1, 2], players=2, repetitions=0, seed=0)


# ---------------------------------------------------------------- the executor seam

GAME = "face-card-kill-card"


def three_bots(store: Store) -> None:
    """Two managed bots (never started by an in-process executor) and a remote one."""
    store.add_bot("alpha", "python -m bots.random_bot")
    store.add_bot("beta", "python -m bots.face_card_kill_card")
    store.add_bot("faraway", token_hash=digest("faraway's token"))


REMOTE = RunSettings(parallel=3, move_timeout_s=5, start_timeout_s=5, listen="127.0.0.1:0")


def played_in_process(db: Path, settings: RunSettings, executor: InProcessExecutor
                      ) -> tuple[Store, int, RunSummary, dict[int, MatchToRun]]:
    """The three bots' tournament, with duplicate deals (so that the rotations of a deal
    have lanes) from the public seed (so that two runs of it play the same deals); with
    the matches as the store scheduled them."""
    store = Store(str(db))
    three_bots(store)
    tid = create_tournament(store, GAME, ["alpha", "beta", "faraway"], 2, 2, 11, {}, settings,
                            DUPLICATE, deals_from_seed=True)
    scheduled = {m.id: m for m in store.claim_unfinished(tid)}
    summary = run_until_done(store, tid, db.parent / "arena-data", settings, executor=executor)
    return store, tid, summary, scheduled


def test_a_custom_executor_plays_every_scheduled_match_once_through_the_seam(tmp_path: Path) -> None:
    executor = InProcessExecutor(slow_first=True)
    store, tid, summary, scheduled = played_in_process(tmp_path / "arena.db", REMOTE, executor)
    tournament = store.get_tournament(tid)
    matches = {m.id: store.get_match(m.id) for m in store.list_matches(tid, 1000)}
    assert tournament.total == len(matches) == len(scheduled) == 12
    assert {m.lane for m in scheduled.values()} == {0, 1}  # two seat rotations per deal

    # started once with every bot, as plain data, a managed bot with a process per lane;
    # closed once
    (entrants,) = executor.started
    assert [(e.name, e.command, e.remote, e.lanes) for e in entrants] == [
        ("alpha@1", "python -m bots.random_bot", False, 2),
        ("beta@1", "python -m bots.face_card_kill_card", False, 2),
        ("faraway@1", None, True, 1)]
    assert entrants[2].token_hash == digest("faraway's token")
    assert {e.limits for e in entrants} == {REMOTE.limits}
    assert executor.closed == 1

    # every scheduled match went through play() exactly once, as the store schedules it
    assert Counter(job.match_id for job in executor.jobs) == Counter(dict.fromkeys(matches, 1))
    for job in executor.jobs:
        match = matches[job.match_id]
        assert (job.game, job.players, job.seed) == (GAME, 2, match.seed)
        assert (job.index, job.lane) == (scheduled[job.match_id].index, scheduled[job.match_id].lane)
        assert [seat.name for seat in job.seats] == [seat.bot for seat in match.seats]
        assert job.clocks == REMOTE.clocks and dict(job.options) == match.options
        assert pickle.loads(pickle.dumps(job)) == job  # plain data: it could travel to another machine
    assert sorted(job.index for job in executor.jobs) == list(range(12))

    # what play() returned is what the store keeps
    for match_id, report in executor.reports.items():
        seats = matches[match_id].seats
        assert matches[match_id].status == "finished"
        assert tuple(s.score for s in seats) == report.scores
        assert tuple(s.rank for s in seats) == report.ranks
        assert tuple(s.fault for s in seats) == report.faults
        assert matches[match_id].log == report.log
    assert (summary.played, summary.left, summary.bot_start_s) == (12, 0, 0.0)
    assert summary.faults == sum(1 for r in executor.reports.values() for f in r.faults if f)
    assert tournament.status == "finished"

    # matches ended out of schedule order, yet ratings moved in schedule order: the same as a
    # rebuild, and the same as one match at a time in schedule order
    assert executor.finished != sorted(executor.finished)
    board = [(r.label, r.mu, r.sigma, r.matches, r.wins) for r in store.leaderboard(GAME)]
    store.rebuild_ratings()
    assert [(r.label, r.mu, r.sigma, r.matches, r.wins) for r in store.leaderboard(GAME)] == board
    one_by_one = InProcessExecutor()
    (tmp_path / "serial").mkdir()
    serial, _, _, again = played_in_process(tmp_path / "serial" / "arena.db",
                                            replace(REMOTE, parallel=1), one_by_one)
    assert one_by_one.finished == list(range(12))
    same = [(m.index, m.seed, m.seat_bot_ids, m.lane) for m in scheduled.values()]
    assert [(m.index, m.seed, m.seat_bot_ids, m.lane) for m in again.values()] == same
    assert [(r.label, r.mu, r.sigma, r.matches, r.wins) for r in serial.leaderboard(GAME)] == board


def test_a_resumed_run_hands_the_executor_only_the_matches_left(tmp_path: Path) -> None:
    store = migrated_store(tmp_path / "arena.db")
    three_bots(store)
    settings = replace(REMOTE, parallel=1)
    tid = create_tournament(store, GAME, ["alpha", "beta"], 2, 3, 4, {}, settings)
    todo = store.claim_unfinished(tid)
    assert len(todo) == 6
    first = InProcessExecutor()
    stop = asyncio.Event()

    def progress(done: int, total: int) -> None:
        if done == 2:
            stop.set()  # as SIGTERM does: the match in play ends, no other starts

    summary = asyncio.run(run_tournament(store, tid, tmp_path, settings, progress, stop,
                                         executor=first))
    assert (summary.played, summary.left) == (2, 4)
    assert store.get_tournament(tid).status == "interrupted"
    store.mark_running(todo[3].id)  # as a kill -9 mid-match leaves it: replayed from its seed

    second = InProcessExecutor()
    summary = run_until_done(store, tid, tmp_path, settings, executor=second)
    assert (summary.played, summary.left) == (4, 0)
    assert [job.match_id for job in second.jobs] == [m.id for m in todo[2:]]
    assert [e.name for e in second.started[0]] == ["alpha@1", "beta@1"]  # no remote bot left
    assert store.get_tournament(tid).finished == 6


class NeverReady(InProcessExecutor):
    """An executor whose start waits for ever (remote bots that never come)."""

    def __init__(self) -> None:
        super().__init__()
        self.starting = asyncio.Event()
        self.cancelled = False

    async def start(self, entrants: Sequence[Entrant]) -> None:
        self.starting.set()
        try:
            await asyncio.Event().wait()
        except asyncio.CancelledError:
            self.cancelled = True
            raise


def test_a_stop_while_the_executor_starts_cancels_the_start_and_plays_nothing(tmp_path: Path) -> None:
    store = migrated_store(tmp_path / "arena.db")
    three_bots(store)
    tid = create_tournament(store, GAME, ["alpha", "beta"], 2, 1, 4, {}, REMOTE)
    executor = NeverReady()

    async def main() -> RunSummary:
        stop = asyncio.Event()
        run = asyncio.create_task(run_tournament(store, tid, tmp_path, REMOTE, stop=stop,
                                                 executor=executor))
        await eventually_async("the executor's start", executor.starting.is_set)
        stop.set()  # while the executor starts
        return await run

    summary = asyncio.run(main())
    assert executor.cancelled and executor.closed == 1 and executor.jobs == []
    assert (summary.played, summary.left) == (0, 2)
    assert store.get_tournament(tid).status == "interrupted"


def test_remote_bots_absent_from_the_local_executor_leave_the_tournament_resumable(
        tmp_path: Path) -> None:
    """The real LocalExecutor, with two remote bots that never connect (no process is started)."""
    store = migrated_store(tmp_path / "arena.db")
    store.add_bot("far", token_hash=digest("far's token"))
    store.add_bot("away", token_hash=digest("away's token"))
    settings = replace(REMOTE, wait_for_remote_s=0.3)
    tid = create_tournament(store, GAME, ["far", "away"], 2, 1, 4, {}, settings)
    notices: list[str] = []
    with pytest.raises(RemoteBotsAbsent, match=r"did not connect within 0.3 s: far@1, away@1"):
        run_until_done(store, tid, tmp_path, settings, notice=notices.append)
    assert notices[0].startswith("listening for remote bots on 127.0.0.1:")
    assert notices[0].endswith("(plain text, no TLS)")
    assert notices[1] == "waiting up to 0.3 s for remote bots: far@1, away@1"
    tournament = store.get_tournament(tid)
    assert tournament.status == "interrupted" and tournament.finished == 0
    with pytest.raises(TournamentError, match=r"remote bots \(far@1, away@1\) need an address"):
        run_until_done(store, tid, tmp_path, replace(settings, listen=None))


class Recording(Executor):
    """The LocalExecutor, with every call through the seam written down."""

    def __init__(self, inner: LocalExecutor) -> None:
        self.inner = inner
        self.calls: list[str] = []

    async def start(self, entrants: Sequence[Entrant]) -> None:
        self.calls.append("start")
        await self.inner.start(entrants)

    async def play(self, job: MatchJob) -> MatchReport:
        self.calls.append(f"play {job.index} lane {job.lane}")
        return await self.inner.play(job)

    async def close(self) -> None:
        self.calls.append("close")
        await self.inner.close()

    @property
    def bot_start_s(self) -> float:
        return self.inner.bot_start_s


def test_the_local_executor_behind_the_seam_plays_real_bots_and_stops_them(tmp_path: Path) -> None:
    store = migrated_store(tmp_path / "arena.db")
    three_bots(store)
    settings = RunSettings(parallel=2, move_timeout_s=5, start_timeout_s=10)
    tid = create_tournament(store, GAME, ["alpha", "beta"], 2, 1, 8, {}, settings)
    local = LocalExecutor(tmp_path, settings)
    recording = Recording(local)
    summary = run_until_done(store, tid, tmp_path, settings, executor=recording)
    assert recording.calls[0] == "start" and recording.calls[-1] == "close"
    # the two seat rotations of the one deal, each played by another process of each bot
    assert sorted(recording.calls[1:-1]) == ["play 0 lane 0", "play 1 lane 1"]
    assert (summary.played, summary.faults, summary.left) == (2, 0, 0)
    assert summary.bot_start_s > 0
    assert sorted((tmp_path / "logs").iterdir()) == [
        tmp_path / "logs" / name
        for name in ("alpha@1.lane1.log", "alpha@1.log", "beta@1.lane1.log", "beta@1.log")]
    assert all(m.status == "finished" for m in store.list_matches(tid, 10))


def test_later_lanes_start_one_at_a_time_after_the_first_and_stop_with_the_executor(
        tmp_path: Path) -> None:
    marker = f"lanes-{secrets.token_hex(6)}"
    entrants = [Entrant(number, f"{name}@1", command=f"python -m bots.random_bot {marker}", lanes=3)
                for number, name in ((1, "alpha"), (2, "beta"))]
    local = LocalExecutor(tmp_path, RunSettings(start_timeout_s=20))
    logs = tmp_path / "logs"

    async def scenario() -> tuple[set[str], set[str]]:
        await local.start(entrants)
        try:
            at_start = {p.name for p in logs.iterdir()}  # lane 0 of each, and the first later one
            await eventually_async("the six lanes' logs", lambda: len(list(logs.iterdir())) >= 6)
            started = {p.name for p in logs.iterdir()}
        finally:
            await local.close()
        return at_start, started

    at_start, started = asyncio.run(scenario())
    assert {"alpha@1.log", "beta@1.log"} <= at_start and len(at_start) <= 3, at_start
    assert started == {f"{bot}@1{lane}.log" for bot in ("alpha", "beta")
                       for lane in ("", ".lane1", ".lane2")}  # with no match played
    wait_until_gone(marker, outlived="the executor")


def test_an_entrant_is_managed_or_remote() -> None:
    with pytest.raises(ValueError, match="either a command"):
        Entrant(1, "both@1", command="python -m bots.random_bot", token_hash="ab")
    with pytest.raises(ValueError, match="either a command"):
        Entrant(1, "neither@1")


# ---------------------------------------------------------------- setup and resume rules


def test_create_tournament_writes_the_schedule_and_the_settings(tmp_path: Path) -> None:
    store = migrated_store(tmp_path / "arena.db")
    three_bots(store)
    settings = RunSettings(parallel=4, move_timeout_s=3, time_bank_s=1.5)
    said: list[str] = []
    public = create_tournament(store, GAME, ["beta", "alpha@1"], 3, 2, 99, {"dealer": "1"},
                               settings, deals_from_seed=True, notice=said.append)
    secret = create_tournament(store, GAME, ["beta", "alpha@1"], 3, 2, 99, {"dealer": "1"},
                               settings, notice=said.append)
    assert len(said) == 1 and "99" in said[0]  # the operator is told the deals are public
    ids = {info.label: info.id for info in store.list_bots()}
    expected = round_robin([ids["beta@1"], ids["alpha@1"]], 3, 2, 99, Deals(from_seed=True))
    for tid, from_seed in ((public, True), (secret, False)):
        tournament = store.get_tournament(tid)
        assert (tournament.game, tournament.players, tournament.repetitions, tournament.seed) == (
            GAME, 3, 2, 99)
        assert tournament.bots == ("beta@1", "alpha@1") and tournament.options["dealer"] == 1
        assert RunSettings.from_saved(tournament.settings) == settings
        assert (tournament.settings["deals"], tournament.settings["deals_from_seed"]) == (
            DUPLICATE, from_seed)  # every bot managed: duplicate deals
        todo = store.claim_unfinished(tid)
        assert [(m.index, m.seat_bot_ids, m.lane) for m in todo] == [
            (m.index, m.seat_bot_ids, m.lane) for m in expected]
        assert {m.lane for m in todo} == {0, 1, 2}
        if from_seed:  # anyone with the seed can reproduce the deals
            assert [m.seed for m in todo] == [m.seed for m in expected]
        else:  # the same matches share a deal, but none is the seed's
            assert [[m.seed == n.seed for n in todo] for m in todo] == [
                [m.seed == n.seed for n in expected] for m in expected]
            assert not {m.seed for m in todo} & {m.seed for m in expected}
    assert store.get_tournament(secret).settings == {
        **store.get_tournament(public).settings, "deals_from_seed": False}
    independent = create_tournament(store, GAME, ["beta", "alpha@1"], 3, 2, 99, {}, settings,
                                    INDEPENDENT, deals_from_seed=True)
    assert store.get_tournament(independent).settings["deals"] == INDEPENDENT
    todo = store.claim_unfinished(independent)
    assert {m.lane for m in todo} == {0} and len({m.seed for m in todo}) == len(todo)


@pytest.mark.parametrize(("bots", "settings", "message"), [
    (["alpha", "faraway"], RunSettings(), "faraway@1 is a remote bot: give --listen HOST:PORT"),
    (["alpha", "alpha@1"], RunSettings(), "each bot may be named only once"),
    (["alpha"], RunSettings(), "at least two different bots"),
])
def test_create_tournament_refuses_before_writing(tmp_path: Path, bots: list[str],
                                                   settings: RunSettings, message: str) -> None:
    store = migrated_store(tmp_path / "arena.db")
    three_bots(store)
    with pytest.raises(TournamentError, match=message):
        create_tournament(store, GAME, bots, 2, 1, 1, {}, settings)
    assert store.list_tournaments() == []


def test_remote_access_checks_the_address_and_the_tls_pair(tmp_path: Path) -> None:
    assert remote_access(None, None, None) == (None, None, None)
    assert remote_access(" 0.0.0.0:07000 ", None, None) == ("0.0.0.0:7000", None, None)
    for bad in ("7000", ":7000", "host:", "host:99999", "host:port"):
        with pytest.raises(TournamentError, match="--listen must be HOST:PORT"):
            remote_access(bad, None, None)
    with pytest.raises(TournamentError, match="give both --tls-cert and --tls-key, or neither"):
        remote_access("localhost:0", "cert.pem", None)
    with pytest.raises(TournamentError, match="secure the --listen address"):
        remote_access(None, "cert.pem", "key.pem")
    with pytest.raises(TlsError, match="cannot read the TLS certificate"):
        remote_access("localhost:0", str(tmp_path / "no-cert.pem"), str(tmp_path / "no-key.pem"))


@pytest.fixture
def saved_tournament(tmp_path: Path) -> tuple[Store, TournamentInfo]:
    store = migrated_store(tmp_path / "arena.db")
    three_bots(store)
    settings = RunSettings(parallel=2, move_timeout_s=10, time_bank_s=0.5, listen="localhost:7000",
                           wait_for_remote_s=30)
    tid = create_tournament(store, GAME, ["alpha", "faraway"], 2, 1, 7, {"dealer": "0"}, settings)
    return store, store.get_tournament(tid)


@pytest.mark.parametrize(("repeated", "message"), [
    (Repeated(game="king"), "--game face-card-kill-card"),
    (Repeated(bots=["alpha"]), "--bot alpha@1, faraway@1"),
    (Repeated(players=3), "--players 2"),
    (Repeated(repetitions=2), "--repetitions 1"),
    (Repeated(seed=8), "--seed 7"),
    (Repeated(options={"dealer": "1"}), "--option ace_value=11, dealer=0, decks=auto, hole_cards=1"),
    (Repeated(move_timeout_s=5), "--move-timeout 10"),
    (Repeated(start_timeout_s=5), "--start-timeout 30.0"),
    (Repeated(time_bank_s=2), "--time-bank 0.5"),
])
def test_a_resume_that_changes_what_a_tournament_keeps_is_refused(
        saved_tournament: tuple[Store, TournamentInfo], repeated: Repeated, message: str) -> None:
    store, tournament = saved_tournament
    with pytest.raises(TournamentError) as refused:
        resume_settings(store, tournament, repeated=repeated)
    assert str(refused.value).startswith(f"tournament {tournament.id} was created with {message}")
    assert str(refused.value).endswith(
        "; a tournament keeps its settings to the end (only --parallel may change): resume without "
        "it, or start a new tournament")


def test_a_resume_may_repeat_the_saved_values_and_change_parallel_and_remote_access(
        saved_tournament: tuple[Store, TournamentInfo]) -> None:
    store, tournament = saved_tournament
    saved = RunSettings.from_saved(tournament.settings)
    same = Repeated(game=GAME, bots=["faraway@1", "alpha"], players=2, repetitions=1, seed=7,
                    options={"dealer": "0"}, move_timeout_s=10, start_timeout_s=30, time_bank_s=0.5)
    assert resume_settings(store, tournament, repeated=same) == saved
    assert resume_settings(store, tournament, parallel=5) == replace(saved, parallel=5)
    moved = resume_settings(store, tournament, access=RemoteAccess(listen="0.0.0.0:7001",
                                                                   wait_for_remote_s=0))
    assert moved == replace(saved, listen="0.0.0.0:7001", wait_for_remote_s=0)
    with pytest.raises(TournamentError, match="--listen must be HOST:PORT"):
        resume_settings(store, tournament, access=RemoteAccess(listen="7001"))
    with pytest.raises(TournamentError, match="give both --tls-cert and --tls-key"):
        resume_settings(store, tournament, access=RemoteAccess(tls_key="key.pem"))
