"""Fill a SQLite database with many matches of realistic shape, fast: for the web benchmark.

    python -m benchmarks.fill --db PATH [--matches 1000000] [--seed 1] [--log-share 1.0] [--force]

What it writes, all through the store's own schema (the store creates the file and
migrates it; the rows then go in with bulk SQL, a transaction per few tournaments):

* 40 bots: ``random`` and ``mcts`` (two versions each) play every game; each of the six
  games has six bots of its own (``kill-bot@1..3``, ``kill-ace@1``, ``kill-lab@1..2``, ...);
* tournaments of 2,000 to 5,000 matches each, one game each in turn: round-robins over 5 to 7
  of the game's ten bots (every group of P of them, every seat rotation, repeated) and a
  gauntlet in seven (one challenger against the rest); one in ten plays a variant of the
  rules that forms a rating pool of its own; the next-to-last is left interrupted halfway
  and the last is just started, each with two matches running (the rest pending);
* duplicate deals: the rotations of a group of bots (P consecutive matches) share a seed;
* every finished match with its seats, scores and ranks (the bots' latent strengths plus
  noise, ties where the scores tie), about 0.4% of seats faulted (timeout, crashed,
  illegal-action, disconnected, error, no-show: a faulted seat ranks last), start and finish
  times, durations, and a real log: one match per game played by the referee (random
  players), its bytes copied into every finished match of the game (``--log-share`` below 1
  keeps a log in that share of them only, for a smaller file);
* ``finish_seq`` in play order, and the ratings and rating history exactly as
  ``Store.finish_match`` would have written them (the same ``RatingBook``, match by match);
  so too the summaries kept with them: the head-to-head counts, each tournament's standings
  (the same ``StandingsBook``) and its crosstable counts.

It prints the time taken and the file's size. SQLite only (the rows are written with
sqlite3's executemany).
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import random
import secrets
import sqlite3
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from arena.games import all_games
from arena.match.links import LocalLink, Player
from arena.match.referee import MatchSettings, run_match
from arena.rating import Placed, RatingBook
from arena.rating.standings import Seat
from arena.rating.tallies import Tallies, TournamentTally
from arena.storage.store import Store
from arena.storage.tables import json_dumps

FAULTS = (("timeout", 45), ("crashed", 20), ("illegal-action", 12), ("disconnected", 10),
          ("error", 8), ("no-show", 5))
FAULT_RATE = 0.004  # of seats
TOURNAMENT_MATCHES = (2000, 5000)
SPECIFIC = (("bot", "1"), ("bot", "2"), ("bot", "3"), ("ace", "1"), ("lab", "1"), ("lab", "2"))
GENERAL = (("random", "1"), ("random", "2"), ("mcts", "1"), ("mcts", "2"))
VARIANTS = {"kill": {"target_score": 11}}  # an option that forms a pool of its own


class _RandomPlayer(Player):
    def __init__(self, seed: int) -> None:
        self.draw = random.Random(seed)

    def act(self, observation: Any, legal_actions: Sequence[Any]) -> Any:
        return self.draw.choice(list(legal_actions))


def real_logs(seed: int) -> dict[str, bytes]:
    """One real log per game: a match of random players through the referee."""
    logs = {}
    for game in all_games().values():
        players = game.default_players
        links = [LocalLink(_RandomPlayer(seed + i), threaded=False) for i in range(players)]

        async def ready(link: LocalLink) -> LocalLink:
            return link

        async def play(game_name: str = game.name, count: int = players,
                       seats: list[LocalLink] = links) -> bytes:
            report = await run_match(
                game_name=game_name, players=count, seed=seed,
                options=dict(all_games()[game_name].parse_options(count)),
                links=[ready(link) for link in seats],
                settings=MatchSettings(move_timeout_s=0.0, start_timeout_s=0.0,
                                       event_delay_s=3600.0))
            return report.log

        logs[game.name] = asyncio.run(play())
    return logs


def _when(value: datetime) -> str:
    """A datetime as SQLAlchemy writes it into SQLite (naive, UTC)."""
    return value.astimezone(UTC).strftime("%Y-%m-%d %H:%M:%S.%f")


@dataclass
class Bot:
    id: int
    name: str
    version: str
    skill: dict[str, float]


@dataclass
class Plan:
    game: str
    players: int
    options: dict[str, Any]
    pool: str
    bots: list[int]
    kind: str
    challengers: list[int]
    field: list[int]
    seatings: list[tuple[int, ...]]


def _bots(store: Store, draw: random.Random) -> list[Bot]:
    games = list(all_games())
    bots: list[Bot] = []
    for name, version in GENERAL:
        info = store.add_bot(name, f"python -m bots.{name}_bot", version=version,
                             folder=f"/srv/arena/bots/{name}")
        base = -2.0 if name == "random" else 1.0 + 0.3 * int(version)
        bots.append(Bot(info.id, name, version, {g: base + draw.gauss(0, 0.3) for g in games}))
    for game in games:
        for suffix, version in SPECIFIC:
            name = f"{game}-{suffix}"
            info = store.add_bot(name, f"python -m bots.{game.replace('-', '_')} --{suffix}",
                                 version=version, folder=f"/srv/arena/bots/{name}")
            skill = {g: -1.0 for g in games}
            skill[game] = {"bot": 1.5, "ace": 2.5, "lab": 0.5}[suffix] + 0.4 * int(version) \
                + draw.gauss(0, 0.4)
            bots.append(Bot(info.id, name, version, skill))
    return bots


def _plans(bots: list[Bot], matches: int, draw: random.Random) -> Iterator[Plan]:
    games = all_games()
    names = list(games)
    made = 0
    for number in itertools.count():
        if made >= matches:
            return
        game = games[names[number % len(names)]]
        players = game.default_players
        mine = [b for b in bots if b.name.startswith(f"{game.name}-") or
                b.name in ("random", "mcts")]
        options = dict(game.parse_options(players))
        if game.name in VARIANTS and draw.random() < 0.1:
            options.update(VARIANTS[game.name])
        want = min(draw.randint(*TOURNAMENT_MATCHES), matches - made)
        if draw.random() < 0.15:  # a gauntlet: one challenger against six others
            chosen = draw.sample(mine, 7)
            challenger, field = chosen[0].id, [b.id for b in chosen[1:]]
            groups = [(challenger, *g) for g in itertools.combinations(field, players - 1)]
            kind, challengers = "gauntlet", [challenger]
        else:
            chosen = draw.sample(mine, draw.randint(max(players, 5), 7))
            field, challengers, kind = [], [], "round-robin"
            groups = list(itertools.combinations([b.id for b in chosen], players))
        rotations = [tuple(g[r:] + g[:r]) for g in groups for r in range(players)]
        seatings = [rotations[i % len(rotations)] for i in range(want)]
        made += len(seatings)
        yield Plan(game.name, players, options, game.pool(options),
                   [b.id for b in chosen], kind, challengers, field, seatings)


REASONS = {"timeout": "no answer to decision 12 in time", "crashed": "its process died",
           "illegal-action": "chose index 7 of 3 legal actions",
           "disconnected": "its stream closed", "error": "KeyError: 'QS'",
           "no-show": "did not connect within 30 s"}
"""A faulted seat's reason, as the referee words it (the real ones name the decision)."""


def _outcome(bots: Sequence[Bot], game: str, draw: random.Random) -> tuple[list[float], list[int],
                                                                            list[str]]:
    faults = ["" if draw.random() >= FAULT_RATE else
              draw.choices([f for f, _ in FAULTS], [w for _, w in FAULTS])[0] for _ in bots]
    scores = [float(round(2 * (b.skill[game] + draw.gauss(0, 1.6)))) if not f else -99.0
              for b, f in zip(bots, faults, strict=True)]
    ranks = [1 + sum(1 for o in scores if o > s) for s in scores]
    return scores, ranks, faults


RUNNING = 2
"""Matches running in each of the two tournaments left running (their ``parallel``)."""

VERSION = 2
"""What this module writes, for a cache of its databases: 2, duplicate deals and running
matches."""


def status_of(last: bool, before_last: bool) -> str:
    """A tournament's status: the last two are running, the others finished."""
    return "running" if last or before_last else "finished"


def fill(path: Path, matches: int, seed: int = 1, log_share: float = 1.0,
         say: Any = print, *, all_finished: bool = False) -> dict[str, float]:
    """Fill ``path`` (see the module's docstring); with ``all_finished``, every tournament and
    match is finished (none left interrupted or just created for a scheduler to resume)."""
    draw = random.Random(seed)
    began = time.perf_counter()
    with Store(str(path)) as store:  # the schema at its newest revision
        bots = _bots(store, draw)
    by_id = {b.id: b for b in bots}
    logs = real_logs(seed)
    say(f"logs per game (bytes): {', '.join(f'{g} {len(b):,}' for g, b in logs.items())}")
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("PRAGMA synchronous = OFF")
    db.execute("PRAGMA cache_size = -400000")
    book = RatingBook()
    tallies = Tallies()  # head-to-head, and each tournament's standings and crosstable
    clock = datetime.now(UTC) - timedelta(days=365)
    match_id = finish_seq = 0
    plans = list(_plans(bots, matches, draw))
    tournament_rows = []
    written = 0
    db.execute("BEGIN")
    for number, plan in enumerate(plans, 1):
        last = number == len(plans) and not all_finished
        before_last = number == len(plans) - 1 and not all_finished
        created = clock
        played_upto = 0 if last else len(plan.seatings) // 2 if before_last else len(plan.seatings)
        match_rows: list[tuple[Any, ...]] = []
        seat_rows: list[tuple[Any, ...]] = []
        options_text = json_dumps(plan.options)
        for index, seating in enumerate(plan.seatings):
            match_id += 1
            if index % plan.players == 0:  # a deal, played in each seat rotation in turn
                seed_text = str(draw.getrandbits(63))
            if index >= played_upto:
                running = index < played_upto + RUNNING and status_of(last, before_last) == "running"
                match_rows.append((match_id, number, index, plan.game, options_text, seed_text,
                                   index % plan.players, "running" if running else "pending",
                                   _when(created), _when(clock) if running else None, None, None,
                                   None, None))
                seat_rows += [(match_id, s, b, None, None, "", None, None) for s, b in enumerate(seating)]
                continue
            seated = [by_id[b] for b in seating]
            scores, ranks, faults = _outcome(seated, plan.game, draw)
            duration = draw.lognormvariate(0.3, 0.6)
            started, clock = clock, clock + timedelta(seconds=duration + 0.05)
            finish_seq += 1
            book.apply(plan.pool, match_id, finish_seq,
                       [Placed(b, r, f != "") for b, r, f in zip(seating, ranks, faults, strict=True)])
            seats = [Seat(b, r, f) for b, r, f in zip(seating, ranks, faults, strict=True)]
            tallies.add(plan.pool, number, match_id, seats)
            log = logs[plan.game] if draw.random() < log_share else None
            match_rows.append((match_id, number, index, plan.game, options_text, seed_text,
                               index % plan.players, "finished", _when(created),
                               _when(started), _when(clock), duration, finish_seq, log))
            seat_rows += [(match_id, s, b, sc, r, f, None, REASONS.get(f)) for s, (b, sc, r, f) in
                          enumerate(zip(seating, scores, ranks, faults, strict=True))]
        status = status_of(last, before_last)
        settings = {"parallel": 2, "move_timeout_s": 10.0, "start_timeout_s": 30.0,
                    "time_bank_s": 0.0, "event_delay_s": 0.2, "wait_for_remote_s": 60.0,
                    "listen": None, "tls_cert": None, "tls_key": None,
                    "bot_memory_mb": 2048, "bot_cpu_seconds": None, "bot_processes": 64,
                    "bot_open_files": 256, "bot_cpus": 1.0, "deals": "duplicate",
                    "deals_from_seed": False,
                    "format": {"kind": plan.kind, "challengers": plan.challengers,
                               "field": plan.field, "sets": 0, "sprt": None}}
        tournament_rows.append((number, plan.game, plan.players, options_text,
                                str(draw.getrandbits(63)), 1, json_dumps(settings),
                                json.dumps(plan.bots), secrets.token_hex(32), status,
                                _when(created), None if status == "running" else _when(clock)))
        db.executemany(
            'INSERT INTO "match" (id, tournament_id, "index", game, options, seed, lane, status, '
            "created_at, started_at, finished_at, duration_s, finish_seq, log) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", match_rows)
        db.executemany("INSERT INTO seat (match_id, seat, bot_id, score, rank, fault, peer, "
                       "reason) VALUES (?, ?, ?, ?, ?, ?, ?, ?)", seat_rows)
        db.executemany("INSERT INTO rating_history (bot_id, game, match_id, mu, sigma, finish_seq) "
                       "VALUES (?, ?, ?, ?, ?, ?)",
                       [(h["bot_id"], h["game"], h["match_id"], h["mu"], h["sigma"],
                         h["finish_seq"]) for h in book.take_history()])
        tally = tallies.tournaments.pop(number, None) or TournamentTally()  # none: nothing played
        db.executemany(
            "INSERT INTO tournament_standing (tournament_id, bot_id, mu, sigma, matches, wins, "
            "rank_sum, faults) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            [(number, bot_id, line.mu, line.sigma, line.matches, line.wins, line.rank_sum,
              json_dumps(line.faults)) for bot_id, line in sorted(tally.book.lines.items())])
        db.executemany(
            "INSERT INTO tournament_pair (tournament_id, bot_id, opponent_id, wins, losses, ties) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            [(number, a, b, *counted) for (a, b), counted in sorted(tally.pairs.items())])
        written += len(match_rows)
        if number % 20 == 0 or number == len(plans):
            db.execute("COMMIT")
            say(f"  {written:,} matches, {time.perf_counter() - began:.0f} s")
            db.execute("BEGIN")
    db.executemany(
        "INSERT INTO tournament (id, game, players, options, seed, repetitions, settings, bot_ids, "
        "deal_key, status, created_at, finished_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        tournament_rows)
    db.executemany(
        "INSERT INTO rating (bot_id, game, mu, sigma, matches, wins, faults) "
        "VALUES (?, ?, ?, ?, ?, ?, ?)",
        [(bot_id, pool, line.mu, line.sigma, line.matches, line.wins, line.faults)
         for (bot_id, pool), line in book.take_changed()])
    db.executemany(
        "INSERT INTO head_to_head (bot_id, pool, opponent_id, wins, losses, ties, rank_sum) "
        "VALUES (?, ?, ?, ?, ?, ?, ?)",
        [(a, pool, b, *counted) for (a, pool, b), counted in sorted(tallies.head_to_head.items())])
    db.execute("COMMIT")
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()
    return {"seconds": time.perf_counter() - began, "matches": match_id,
            "bytes": path.stat().st_size, "tournaments": len(plans)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.fill", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--db", type=Path, required=True, help="the SQLite file to make")
    parser.add_argument("--matches", type=int, default=1_000_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--log-share", type=float, default=1.0,
                        help="share of finished matches given a log (default 1: all)")
    parser.add_argument("--force", action="store_true", help="replace the file if it exists")
    args = parser.parse_args(argv)
    if args.db.exists():
        if not args.force:
            print(f"error: {args.db} exists (--force replaces it)", file=sys.stderr)
            return 1
        for suffix in ("", "-wal", "-shm"):
            Path(f"{args.db}{suffix}").unlink(missing_ok=True)
    done = fill(args.db, args.matches, args.seed, args.log_share)
    print(f"filled {args.db}: {done['matches']:,} matches in {done['tournaments']:,} tournaments, "
          f"{done['seconds']:.0f} s, {done['bytes'] / 2**30:.2f} GiB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
