"""Every figure the arena shows, against an oracle written here, on real tournaments.

Real bot processes (in the sandbox) play, through the real CLI and the real executor:

1. a Knives round-robin of 4 bots for 5 seats (a bot seated twice in every match);
2. a Knives versus whose field (one bot) is smaller than the 3 free seats;
3. a Kill ladder (4 seats, 3 bots), stopped after a number of matches;
4. a 3-seat Kill round-robin of ``random`` with three bots that always fault (one crashes,
   one answers illegally, one never shows up): their matches without ``random`` are
   all-fault matches;
5. a tournament stopped after 2 matches and cancelled (its other matches void).

Then every table (``arena leaderboard --all-pools --json``, ``tournament show --json``,
``leaderboard --tournament --json``, ``compare --json``, ``tournament list``, and the web
app's JSON API: leaderboards, tournaments, bots' head-to-head) is recomputed from the raw
seats in the database by independent code below (TrueSkill from the ``trueskill`` library
itself) and compared figure by figure. The tests named after a user's report check what
was wrong: a ladder's pages, a bot seated twice counted twice, and all-fault matches
counted as wins for everyone.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import os
import shutil
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from statistics import fmean
from typing import Any

import httpx
import pytest
import trueskill

from arena.storage.store import Store
from arena.tournament.run import run_tournament
from arena.tournament.settings import RunSettings
from arena.tournament.setup import create_tournament
from tests.helpers import cli
from tests.inprocess import InProcessExecutor
from tests.web.replay_fixtures import Server

ROOT = Path(__file__).resolve().parents[2]
BOTS = {
    "A": "python -m bots.random_bot",
    "B": "python -m bots.random_bot",
    "random": "python -m bots.random_bot",
    "knives-bot": "python -m bots.knives",
    "kill-bot": "python -m bots.kill",
    "faulty-crash": "python -m tests.bots.misbehaving crash",
    "faulty-illegal": "python -m tests.bots.misbehaving illegal",
    "faulty-exit": "python -m tests.bots.misbehaving exit",
}
FAULTY = ("faulty-crash@1", "faulty-exit@1", "faulty-illegal@1")
KNIVES_RR, KNIVES_VERSUS, LADDER, ALL_FAULT, CANCELLED = 1, 2, 3, 4, 5
LADDER_MATCHES = 6
EXACT = 1e-9  # the arena's TrueSkill is the library's, float for float


# ---------------------------------------------------------------- the arena, played for real


@dataclass
class Played:
    db: Path
    url: str
    cli: dict[str, Any] = field(default_factory=dict)

    def doc(self, name: str) -> Any:
        """A CLI document gathered by the fixture; a command that failed fails the test that
        reads it (and only that one)."""
        found = self.cli[name]
        assert "failed" not in found, f"{name}: {found.get('failed')}"
        return found

    def web(self, path: str) -> Any:
        reply = httpx.get(self.url.rstrip("/") + path, timeout=60)
        assert reply.status_code == 200, (path, reply.status_code, reply.text[:500])
        return reply.json()


def _cancelled_tournament(db: Path, data_dir: Path) -> None:
    """Kill among kill-bot and random (played in this process: the figures are the subject,
    not the bots), stopped (as SIGTERM does) once 2 matches are done, then cancelled through
    the CLI: its other matches are void, its 2 finished count."""
    settings = RunSettings(parallel=1, move_timeout_s=10, start_timeout_s=30)
    with Store(str(db)) as store:
        tid = create_tournament(store, "kill", ["kill-bot", "random"], 4, 2, 9, {}, settings)
        assert tid == CANCELLED
        stop = asyncio.Event()

        def progress(done: int, _total: int) -> None:
            if done >= 2:
                stop.set()

        summary = asyncio.run(run_tournament(store, tid, data_dir, settings, progress, stop,
                                             executor=InProcessExecutor()))
        assert summary.played == 2 and summary.left > 0
    cancelled = cli("tournament", "cancel", str(CANCELLED), db=db)
    assert "unfinished matches void" in cancelled.stdout


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Played]:
    folder = tmp_path_factory.mktemp("figures")
    db = folder / "arena.db"
    with Store(str(db)) as store:
        for name, command in BOTS.items():
            store.add_bot(name, command, folder=str(ROOT))
    cli("tournament", "run", "--game", "knives", "--bot", "A", "--bot", "B", "--bot",
        "knives-bot", "--bot", "random", "--repetitions", "1", "--seed", "1", db=db)
    cli("tournament", "run", "--game", "knives", "--format", "versus", "--bot", "A", "--bot",
        "B", "--field", "random", "--sets", "2", "--seed", "2", db=db)
    ladder = cli("ladder", "start", "kill", "--bot", "kill-bot", "--bot", "random", "--bot",
                 "A", "--matches", str(LADDER_MATCHES), db=db)
    assert f"ladder {LADDER}" in ladder.stdout
    # Kill is played in tricks: every seat decides in the first one, so a faulty bot faults
    # in every match (its process started anew after each crash); --keep-going seats the
    # bot that exits at once as a no-show
    cli("tournament", "run", "--game", "kill", "--players", "3", "--bot", "random", "--bot",
        "faulty-crash", "--bot", "faulty-illegal", "--bot", "faulty-exit", "--repetitions",
        "1", "--move-timeout", "5", "--start-timeout", "5", "--keep-going", "--seed", "4",
        db=db)
    _cancelled_tournament(db, folder / "data")
    found = Played(db, "")
    for name, args in {
        "leaderboard": ("leaderboard", "--all-pools", "--json"),
        "list": ("tournament", "list", "--json"),
        **{f"show {t}": ("tournament", "show", str(t), "--json") for t in range(1, 6)},
        **{f"own {t}": ("leaderboard", "--tournament", str(t), "--json") for t in range(1, 6)},
        "compare": ("compare", "A", "B", "--game", "knives", "--json"),
    }.items():
        done = cli(*args, db=db, check=False)  # in this process: a listing needs none
        found.cli[name] = json.loads(done.stdout) if done.returncode == 0 else {
            "failed": (done.stderr.strip().splitlines() or ["(nothing said)"])[-1]}
    with Store(str(db)) as store, Server(store, timeout_s=30) as server:
        found.url = server.url + "/"
        yield found


# ---------------------------------------------------------------- the oracle


@dataclass
class SeatRow:
    bot: str
    rank: int
    fault: str


@dataclass
class MatchRow:
    id: int
    tournament: int | None
    index: int
    game: str
    finish_seq: int
    seats: list[SeatRow]


def read_matches(db: Path) -> list[MatchRow]:
    """Every finished match with its seats, straight from the database's tables."""
    with sqlite3.connect(db) as conn:
        labels = {i: f"{n}@{v}" for i, n, v in conn.execute("select id, name, version from bot")}
        rows = conn.execute(
            'select m.id, m.tournament_id, m."index", m.game, m.options, m.finish_seq, s.bot_id, '
            "s.rank, s.fault from match m join seat s on s.match_id = m.id "
            "where m.status = 'finished' order by m.id, s.seat").fetchall()
    matches: dict[int, MatchRow] = {}
    for mid, tid, index, game, options, seq, bot, rank, fault in rows:
        assert json.loads(options) is not None and seq is not None
        match = matches.setdefault(mid, MatchRow(mid, tid, index, game, seq, []))
        match.seats.append(SeatRow(labels[bot], rank, fault or ""))
    return list(matches.values())


@dataclass
class Line:
    mu: float = 25.0
    sigma: float = 25.0 / 3
    matches: int = 0
    wins: int = 0
    rank_sum: int = 0
    faults: dict[str, int] = field(default_factory=dict)
    rated: int = 0


ENV = trueskill.TrueSkill(mu=25.0, sigma=25.0 / 3, beta=25.0 / 6, tau=25.0 / 300,
                          draw_probability=0.1, backend=None)


def tie_order(match_id: int, bot_id: int) -> bytes:
    """The arena's documented order of tied seats for TrueSkill (a hash of match and bot)."""
    return hashlib.blake2b(f"{match_id}:{bot_id}".encode(), digest_size=8).digest()


class Oracle:
    """The figures of a list of matches, counted as docs/operators.md's "How the figures count a match"
    says: a match once per bot, its best seat, a faulted seat last and never a win, an
    all-fault match rated for no one."""

    def __init__(self, matches: list[MatchRow], ids: dict[str, int]) -> None:
        self.lines: dict[str, Line] = {}
        self.pairs: dict[tuple[str, str], list[int]] = {}  # wins, losses, ties, rank sum
        for match in matches:
            self._add(match, ids)

    def _add(self, match: MatchRow, ids: dict[str, int]) -> None:
        bots = sorted({s.bot for s in match.seats})
        if len(bots) < 2:
            return
        last = len(match.seats)
        rank = {b: min(last if s.fault else s.rank for s in match.seats if s.bot == b)
                for b in bots}
        won = {b for b in bots if any(s.bot == b and s.rank == 1 and not s.fault
                                      for s in match.seats)}
        first_fault: dict[str, str] = {}
        for s in match.seats:
            if s.fault:
                first_fault.setdefault(s.bot, s.fault)
        rated = any(not s.fault for s in match.seats)
        per_bot: dict[str, list[trueskill.Rating]] = {}
        if rated:
            per_bot = self._rated(match.id, match.seats, ids)
            # two faulted seats are no tie: a bot that only faulted meets the clean seats alone
            clean = [s for s in match.seats if not s.fault]
            for b in bots:
                if all(s.fault for s in match.seats if s.bot == b):
                    alone = [s for s in match.seats if s.bot == b]
                    per_bot[b] = self._rated(match.id, clean + alone, ids)[b]
        for b in bots:
            line = self.line(b)
            if rated:
                line.mu = fmean(float(r.mu) for r in per_bot[b])
                line.sigma = fmean(float(r.sigma) for r in per_bot[b])
                line.rated += 1
            line.matches += 1
            line.wins += b in won
            line.rank_sum += rank[b]
            if b in first_fault:
                line.faults[first_fault[b]] = line.faults.get(first_fault[b], 0) + 1
            for other in bots:
                if other != b:
                    cell = self.pairs.setdefault((b, other), [0, 0, 0, 0])
                    cell[0 if rank[b] < rank[other] else 1 if rank[b] > rank[other] else 2] += 1
                    cell[3] += rank[b]

    def _rated(self, match_id: int, seats: list[SeatRow], ids: dict[str, int]
               ) -> dict[str, list[trueskill.Rating]]:
        """The library's update of these seats as ranked, each seat a team, per bot."""
        ordered = sorted(seats, key=lambda s: (s.rank, tie_order(match_id, ids[s.bot])))
        groups = [(ENV.create_rating(self.line(s.bot).mu, self.line(s.bot).sigma),)
                  for s in ordered]
        per_bot: dict[str, list[trueskill.Rating]] = {}
        for s, (r,) in zip(ordered, ENV.rate(groups, ranks=[s.rank for s in ordered]),
                           strict=True):
            per_bot.setdefault(s.bot, []).append(r)
        return per_bot

    def line(self, bot: str) -> Line:
        return self.lines.setdefault(bot, Line())


def bot_ids(db: Path) -> dict[str, int]:
    with sqlite3.connect(db) as conn:
        return {f"{n}@{v}": i for i, n, v in conn.execute("select id, name, version from bot")}


def global_oracle(played: Played) -> dict[str, Oracle]:
    """Per rating pool (every match here plays its game's standard rules: the game's name),
    the matches in the order they were rated."""
    matches = sorted(read_matches(played.db), key=lambda m: m.finish_seq)
    ids = bot_ids(played.db)
    return {game: Oracle([m for m in matches if m.game == game], ids)
            for game in sorted({m.game for m in matches})}


def tournament_oracle(played: Played, tournament: int) -> Oracle:
    """One tournament's matches alone, in schedule order."""
    matches = sorted((m for m in read_matches(played.db) if m.tournament == tournament),
                     key=lambda m: m.index)
    return Oracle(matches, bot_ids(played.db))


def assert_row(row: dict[str, Any], line: Line, *, mean_rank: bool = False) -> None:
    where = row["bot"]
    assert (row["matches"], row["wins"], row["faults"]) == (
        line.matches, line.wins, sum(line.faults.values())), where
    assert row["win_share"] == pytest.approx(line.wins / line.matches, abs=EXACT), where
    assert row["mu"] == pytest.approx(line.mu, abs=EXACT), where
    assert row["sigma"] == pytest.approx(line.sigma, abs=EXACT), where
    assert row["rating"] == pytest.approx(line.mu - 3 * line.sigma, abs=EXACT), where
    if mean_rank:
        assert row["mean_rank"] == pytest.approx(line.rank_sum / line.matches, abs=EXACT), where
        assert row["faults_by_kind"] == dict(sorted(line.faults.items())), where


# ---------------------------------------------------------------- the tables


def test_the_global_leaderboard_of_every_pool_equals_the_oracle(played: Played) -> None:
    oracles = global_oracle(played)
    cli = played.doc("leaderboard")["leaderboard"]
    assert {(r["pool"], r["bot"]) for r in cli} == {
        (pool, bot) for pool, oracle in oracles.items() for bot in oracle.lines}
    for row in cli:
        assert_row(row, oracles[row["pool"]].lines[row["bot"]])
    for pool, oracle in oracles.items():  # the web's leaderboard of each game, the same rows
        web = played.web(f"/api/leaderboard/{pool}?limit=200")["leaderboard"]
        assert len(web) == len(oracle.lines)
        for row in web:
            assert_row(row, oracle.lines[row["bot"]])
    with sqlite3.connect(played.db) as conn:  # a history point for every rated match, no other
        points = dict(conn.execute(
            "select b.name || '@' || b.version || ' ' || h.game, count(*) from rating_history h "
            "join bot b on b.id = h.bot_id group by h.bot_id, h.game").fetchall())
    assert points == {f"{bot} {pool}": line.rated for pool, oracle in oracles.items()
                      for bot, line in oracle.lines.items() if line.rated}


def test_every_tournament_s_standings_and_crosstable_equal_the_oracle(played: Played) -> None:
    for tournament in range(1, 6):
        oracle = tournament_oracle(played, tournament)
        show = played.doc(f"show {tournament}")["tournament"]
        web = played.web(f"/api/tournaments/{tournament}")["tournament"]
        for report in (show, web):
            assert {r["bot"] for r in report["standings"]} == set(oracle.lines), tournament
            for row in report["standings"]:
                assert_row(row, oracle.lines[row["bot"]], mean_rank=True)
            assert {(c["bot"], c["opponent"]) for c in report["crosstable"]} == set(oracle.pairs)
            for cell in report["crosstable"]:
                wins, losses, ties, _ = oracle.pairs[cell["bot"], cell["opponent"]]
                assert (cell["n"], cell["wins"], cell["losses"], cell["ties"]) == (
                    wins + losses + ties, wins, losses, ties), (tournament, cell)
        for own in (played.doc(f"own {tournament}")["leaderboard"],
                    played.web(f"/api/tournaments/{tournament}/leaderboard")["leaderboard"]):
            assert [r["bot"] for r in own] == [r["bot"] for r in show["standings"]]
            for row in own:
                assert_row(row, oracle.lines[row["bot"]])


def test_head_to_head_and_compare_equal_the_oracle(played: Played) -> None:
    oracles = global_oracle(played)
    for bot in ("A@1", "random@1", "faulty-crash@1"):
        document = played.web(f"/api/bots/{bot}")
        rows = {(r["game"], r["opponent"]): r for r in document["bot"]["head_to_head"]}
        expected = {(pool, b): cell for pool, oracle in oracles.items()
                    for (a, b), cell in oracle.pairs.items() if a == bot}
        assert set(rows) == set(expected), bot
        for key, (wins, losses, ties, rank_sum) in expected.items():
            row = rows[key]
            n = wins + losses + ties
            assert (row["n"], row["wins"], row["losses"], row["ties"]) == (n, wins, losses, ties)
            assert row["mean_rank"] == pytest.approx(rank_sum / n, abs=EXACT), key
    compared = played.doc("compare")["comparison"]
    wins, losses, ties, _ = oracles["knives"].pairs["A@1", "B@1"]
    assert (compared["n"], compared["wins"], compared["losses"], compared["ties"]) == (
        wins + losses + ties, wins, losses, ties)


# ---------------------------------------------------------------- what the user found


def test_problem_1_a_ladder_s_pages_and_commands_open(played: Played) -> None:
    oracle = tournament_oracle(played, LADDER)
    seated = sorted(oracle.lines)
    assert seated == ["A@1", "kill-bot@1", "random@1"]
    listed = {row["id"]: row for row in played.doc("list")["tournaments"]}[LADDER]
    assert (listed["format"], sorted(listed["bots"]), listed["status"]) == (
        "ladder", seated, "finished")
    assert listed["finished"] == listed["total"] >= LADDER_MATCHES
    table = cli("tournament", "list", db=played.db).stdout
    assert "kill-bot@1" in table and "interrupted" not in table
    shown = cli("tournament", "show", str(LADDER), db=played.db)
    assert "Traceback" not in shown.stdout + shown.stderr
    assert "ladder" in shown.stdout and all(bot in shown.stdout for bot in seated)
    board = cli("leaderboard", "--tournament", str(LADDER), db=played.db).stdout
    assert "no rated matches yet" not in board and all(bot in board for bot in seated)
    assert sum(r["matches"] for r in played.doc(f"own {LADDER}")["leaderboard"]) >= \
        listed["finished"] * 2  # every match seats at least two of them
    for page in (f"/tournaments/{LADDER}", f"/tournaments/{LADDER}/leaderboard"):
        reply = httpx.get(played.url.rstrip("/") + page, timeout=60)
        assert reply.status_code == 200, page
        assert all(bot in reply.text for bot in seated), page
    in_a_browser(played.url.rstrip("/") + f"/tournaments/{LADDER}", seated)


def test_problem_2_a_bot_seated_twice_counts_each_match_once(played: Played) -> None:
    show = played.doc(f"show {KNIVES_RR}")["tournament"]
    total = show["matches"]["finished"]
    assert total == show["matches"]["total"] == 20
    with sqlite3.connect(played.db) as conn:  # the proof the case is there: 5 seats, 4 bots
        doubled = conn.execute(
            "select count(*) from match m where m.tournament_id = ? and "
            "(select count(distinct bot_id) from seat where match_id = m.id) < "
            "(select count(*) from seat where match_id = m.id)", (KNIVES_RR,)).fetchone()[0]
    assert doubled == total
    rows = {r["bot"]: r for r in show["standings"]}
    assert sorted(rows) == ["A@1", "B@1", "knives-bot@1", "random@1"]
    assert all(r["matches"] == total for r in rows.values())  # each bot played every match
    assert sum(r["wins"] for r in rows.values()) >= total  # a winner a match (ties: more)
    versus = {r["bot"]: r for r in played.doc(f"show {KNIVES_VERSUS}")["tournament"]["standings"]}
    played_versus = played.doc(f"show {KNIVES_VERSUS}")["tournament"]["matches"]["finished"]
    assert versus["random@1"]["matches"] == played_versus  # 3 seats a match, counted once
    board = {r["bot"]: r for r in played.doc("leaderboard")["leaderboard"] if r["pool"] == "knives"}
    assert board["knives-bot@1"]["matches"] == total  # the round-robin only
    assert board["A@1"]["matches"] == total + played_versus


def test_problem_3_all_fault_matches_are_nobody_s_win_and_move_no_rating(played: Played) -> None:
    matches = [m for m in read_matches(played.db) if m.tournament == ALL_FAULT]
    all_fault = [m for m in matches if all(s.fault for s in m.seats)]
    assert len(matches) == 12 and len(all_fault) == 3  # the 3 faulty bots alone: the case is there
    show = {r["bot"]: r for r in played.doc(f"show {ALL_FAULT}")["tournament"]["standings"]}
    for bot in FAULTY:
        assert show[bot]["matches"] == show[bot]["faults"] == 9
        assert show[bot]["wins"] == 0 and show[bot]["win_share"] == 0.0
        assert show[bot]["mean_rank"] == 3.0  # last in every match
    assert show["random@1"]["wins"] == show["random@1"]["matches"] == 9
    first = played.doc(f"show {ALL_FAULT}")["tournament"]["standings"][0]
    assert first["bot"] == "random@1"  # above every bot that always faulted
    board = {r["bot"]: r for r in played.doc("leaderboard")["leaderboard"] if r["pool"] == "kill"}
    assert all(board[bot]["wins"] == 0 and board[bot]["faults"] == 9 for bot in FAULTY)
    # two faulted seats are no tie that would make the board sure of their skill: every bot
    # that always faulted rates below random, which never did
    assert all(board[bot]["rating"] < board["random@1"]["rating"] for bot in FAULTY), board
    ids = [m.id for m in all_fault]
    with sqlite3.connect(played.db) as conn:  # no rating point for an all-fault match
        moved = conn.execute("select count(*) from rating_history where match_id in (?, ?, ?)",
                             ids).fetchone()[0]
    assert moved == 0


# ---------------------------------------------------------------- a real browser


def in_a_browser(url: str, bots: list[str]) -> None:
    """The ladder's page in Chromium: its standings name every bot that played."""
    sync_api = pytest.importorskip("playwright.sync_api")
    chromium = next((p for p in (os.environ.get("ARENA_CHROMIUM", ""), "/usr/bin/chromium",
                                 shutil.which("chromium") or "") if p and Path(p).exists()), None)
    if chromium is None:
        pytest.skip("no Chromium at /usr/bin/chromium")
    with sync_api.sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=chromium, headless=True,
                                         args=["--no-sandbox"])
        try:
            page = browser.new_page()
            reply = page.goto(url)
            assert reply is not None and reply.status == 200
            for bot in bots:
                sync_api.expect(page.get_by_role("link", name=bot).first).to_be_visible()
        finally:
            browser.close()
