"""Summaries of the rated matches, kept as matches are rated: head-to-head and tournament standings.

``head_to_head``: a bot against each opponent in each rating pool, over the rated
matches both took a seat in (a bot in two seats counts its better one, a faulted seat
last, as :mod:`arena.rating.figures` reads a match): how often it
placed above, below and level with the opponent, and the sum of its ranks there.
A bot's page reads its rows instead of counting over every seat of its matches.

``tournament_standing``: each bot's standing in each tournament, the tournament's
rated matches rated alone (TrueSkill, in schedule order, from the default rating):
mu, sigma, matches, wins, the sum of its ranks, faults by name (a match once per bot:
:mod:`arena.rating.figures`).
``tournament_pair``: the tournament's crosstable, a row per ordered pair of bots that
shared a rated match of it: wins, losses, ties. ``arena tournament show``, ``arena
leaderboard --tournament`` and the tournament's page read them instead of rating the
tournament again.

The arena updates all three in the transaction that rates a match, and
``rebuild_ratings`` rebuilds them. Here they are filled from the rows already there,
as a rebuild would: the head-to-head and crosstable counts in SQL (the head-to-head
from the rating history, which holds a row per bot and rated match with another bot
in it), the standings by rating each tournament's rated matches in the order they
were rated (the arena rates a tournament's matches in schedule order) with the
arena's own TrueSkill update (:mod:`arena.rating.standings` as it was at this revision):
these tables hold derived numbers, which must be what the arena computes, not values of their
own.

A revision imports nothing from ``arena`` (``tests/storage/test_migrations.py`` checks): what it
needs of the arena is frozen here as it was, so a database upgraded later is upgraded the
same way whatever the arena has become. Frozen below: how a match counts for each bot
(:func:`arena.rating.figures.read_match`), the TrueSkill update
(:func:`arena.rating.ratings.rate`, through the library itself, which
:mod:`arena.rating.ffa` reproduces bit for bit) and a tournament's book of standings
(:class:`arena.rating.standings.StandingsBook`).

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-25
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from statistics import fmean
from typing import Any, NamedTuple

import sqlalchemy as sa
import trueskill
from alembic import op

revision: str = "0009"
down_revision: str | None = "0008"
branch_labels: str | None = None
depends_on: str | None = None

RATED_IN_TOURNAMENT = ("m.tournament_id IS NOT NULL AND m.status = 'finished' "
                       "AND m.finish_seq IS NOT NULL")


def _place(seat: str) -> str:
    """A seat's rank as :mod:`arena.rating.figures` reads it: a faulted seat is last (the
    match's number of seats)."""
    return (f"CASE WHEN COALESCE({seat}.fault, '') <> '' THEN (SELECT COUNT(*) FROM seat x "
            f"WHERE x.match_id = {seat}.match_id) ELSE {seat}.rank END")


HEAD_TO_HEAD = f"""
INSERT INTO head_to_head (bot_id, pool, opponent_id, wins, losses, ties, rank_sum)
SELECT bot_id, pool, opponent_id,
       SUM(CASE WHEN mine < theirs THEN 1 ELSE 0 END),
       SUM(CASE WHEN mine > theirs THEN 1 ELSE 0 END),
       SUM(CASE WHEN mine = theirs THEN 1 ELSE 0 END),
       SUM(mine)
FROM (SELECT h.bot_id AS bot_id, h.game AS pool, o.bot_id AS opponent_id,
             MIN({_place("me")}) AS mine, MIN({_place("o")}) AS theirs
      FROM rating_history h
      JOIN seat me ON me.match_id = h.match_id AND me.bot_id = h.bot_id
      JOIN seat o ON o.match_id = h.match_id AND o.bot_id != h.bot_id
      GROUP BY h.bot_id, h.game, h.match_id, o.bot_id) per_match
GROUP BY bot_id, pool, opponent_id
"""

TOURNAMENT_PAIRS = f"""
INSERT INTO tournament_pair (tournament_id, bot_id, opponent_id, wins, losses, ties)
SELECT a.tournament_id, a.bot_id, b.bot_id,
       SUM(CASE WHEN a.best < b.best THEN 1 ELSE 0 END),
       SUM(CASE WHEN a.best > b.best THEN 1 ELSE 0 END),
       SUM(CASE WHEN a.best = b.best THEN 1 ELSE 0 END)
FROM (SELECT m.tournament_id AS tournament_id, s.match_id AS match_id, s.bot_id AS bot_id,
             MIN({_place("s")}) AS best
      FROM "match" m JOIN seat s ON s.match_id = m.id
      WHERE {RATED_IN_TOURNAMENT}
      GROUP BY m.tournament_id, s.match_id, s.bot_id) a
JOIN (SELECT s.match_id AS match_id, s.bot_id AS bot_id, MIN({_place("s")}) AS best
      FROM "match" m JOIN seat s ON s.match_id = m.id
      WHERE {RATED_IN_TOURNAMENT}
      GROUP BY s.match_id, s.bot_id) b ON b.match_id = a.match_id AND b.bot_id != a.bot_id
GROUP BY a.tournament_id, a.bot_id, b.bot_id
"""

TOURNAMENT_SEATS = f"""
SELECT m.tournament_id, m.id, s.bot_id, s.rank, s.fault
FROM "match" m JOIN seat s ON s.match_id = m.id
WHERE {RATED_IN_TOURNAMENT}
ORDER BY m.tournament_id, m.finish_seq, s.seat
"""

STANDING = sa.table(
    "tournament_standing", sa.column("tournament_id", sa.Integer), sa.column("bot_id", sa.Integer),
    sa.column("mu", sa.Float), sa.column("sigma", sa.Float), sa.column("matches", sa.Integer),
    sa.column("wins", sa.Integer), sa.column("rank_sum", sa.Integer),
    sa.column("faults", sa.JSON),
)

CHUNK = 5_000

# The arena's TrueSkill environment at this revision (arena.rating.ratings.ENV).
MU = 25.0
SIGMA = MU / 3
ENV = trueskill.TrueSkill(mu=MU, sigma=SIGMA, beta=MU / 6, tau=MU / 300, draw_probability=0.1,
                          backend=None)


# No dataclasses here: Alembic loads a revision as a module it does not register, and
# dataclasses look their module up.
class Seat(NamedTuple):
    """One seat of a finished match: who, the rank (1 is best) and the fault ("" for none)."""

    bot_id: int
    rank: int
    fault: str = ""


class _BotInMatch(NamedTuple):
    bot_id: int
    rank: int  # its best seat's, a faulted seat counting as the last place
    won: bool  # a seat of it ranked first without a fault
    fault: str  # the kind of its first seat that faulted, "" when none did


def _read_match(seats: Sequence[Seat]) -> tuple[tuple[_BotInMatch, ...], bool, bool]:
    """The match's bots in ascending id order, whether it counts (two distinct bots at
    least) and whether it moves ratings (counted, and a seat did not fault)."""
    last = len(seats)
    ranks: dict[int, int] = {}
    won: set[int] = set()
    faults: dict[int, str] = {}
    for seat in seats:
        if seat.rank < 1:
            raise ValueError(f"rank of bot {seat.bot_id} must be 1 or more, not {seat.rank}")
        place = last if seat.fault else seat.rank
        ranks[seat.bot_id] = min(place, ranks.get(seat.bot_id, place))
        if seat.fault:
            faults.setdefault(seat.bot_id, str(seat.fault))
        elif seat.rank == 1:
            won.add(seat.bot_id)
    bots = tuple(_BotInMatch(bot_id, ranks[bot_id], bot_id in won, faults.get(bot_id, ""))
                 for bot_id in sorted(ranks))
    counted = len(bots) >= 2
    return bots, counted, counted and any(not seat.fault for seat in seats)


def _tie_order(tie_key: int, bot: int) -> bytes:
    return hashlib.blake2b(f"{tie_key}:{bot}".encode(), digest_size=8).digest()


def _rate(ratings: dict[int, tuple[float, float]], seats: Sequence[tuple[int, int]],
          tie_key: int) -> dict[int, tuple[float, float]]:
    """New (mu, sigma) for every distinct bot of one finished match: each seat a one-player
    team from its bot's prior, ordered by rank (ties by a hash of the match and the bot), a
    bot in several seats taking the mean of its seats' new mu and sigma."""
    bots = {bot for bot, _ in seats}
    if len(bots) < 2:
        return {}
    ordered = sorted(seats, key=lambda seat: (seat[1], _tie_order(tie_key, seat[0])))
    bot, rank = ordered[0]
    if rank < 1:
        raise ValueError(f"rank of bot {bot} must be 1 or more, not {rank}")
    teams = [(ENV.create_rating(*ratings.get(bot, (ENV.mu, ENV.sigma))),) for bot, _ in ordered]
    rated = [(float(r.mu), float(r.sigma))
             for (r,) in ENV.rate(teams, ranks=[rank for _, rank in ordered])]
    per_bot: dict[int, list[tuple[float, float]]] = {bot: [] for bot in sorted(bots)}
    for (bot, _), pair in zip(ordered, rated, strict=True):
        per_bot[bot].append(pair)
    return {bot: news[0] if len(news) == 1 else (fmean(mu for mu, _ in news),
                                                 fmean(s for _, s in news))
            for bot, news in per_bot.items()}


class _Line:
    """A bot's standing in one tournament so far."""

    def __init__(self) -> None:
        self.mu, self.sigma = MU, SIGMA
        self.matches = self.wins = self.rank_sum = 0
        self.faults: dict[str, int] = {}


class StandingsBook:
    """The lines of one tournament's bots (by bot id), moved a match at a time, in schedule
    order."""

    def __init__(self) -> None:
        self.lines: dict[int, _Line] = {}

    def apply(self, match_id: int, seats: Sequence[Seat]) -> None:
        bots, counted, rated = _read_match(seats)
        if not counted:
            return
        new: dict[int, tuple[float, float]] = {}
        if rated:
            priors = {s.bot_id: (line.mu, line.sigma) for s in seats
                      if (line := self.lines.get(s.bot_id)) is not None}
            new = _rate(priors, [(s.bot_id, s.rank) for s in seats], tie_key=match_id)
        for bot in bots:
            line = self.lines.setdefault(bot.bot_id, _Line())
            if rated:
                line.mu, line.sigma = new[bot.bot_id]
            line.matches += 1
            line.wins += bot.won
            line.rank_sum += bot.rank
            if bot.fault:
                line.faults[bot.fault] = line.faults.get(bot.fault, 0) + 1


def _create_tables() -> None:
    op.create_table(
        "head_to_head",
        sa.Column("bot_id", sa.Integer(), nullable=False),
        sa.Column("pool", sa.String(), nullable=False),
        sa.Column("opponent_id", sa.Integer(), nullable=False),
        sa.Column("wins", sa.Integer(), nullable=False),
        sa.Column("losses", sa.Integer(), nullable=False),
        sa.Column("ties", sa.Integer(), nullable=False),
        sa.Column("rank_sum", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["bot_id"], ["bot.id"]),
        sa.ForeignKeyConstraint(["opponent_id"], ["bot.id"]),
        sa.PrimaryKeyConstraint("bot_id", "pool", "opponent_id"),
    )
    op.create_table(
        "tournament_standing",
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("bot_id", sa.Integer(), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("matches", sa.Integer(), nullable=False),
        sa.Column("wins", sa.Integer(), nullable=False),
        sa.Column("rank_sum", sa.Integer(), nullable=False),
        sa.Column("faults", sa.JSON(), nullable=False),
        sa.ForeignKeyConstraint(["tournament_id"], ["tournament.id"]),
        sa.ForeignKeyConstraint(["bot_id"], ["bot.id"]),
        sa.PrimaryKeyConstraint("tournament_id", "bot_id"),
    )
    op.create_table(
        "tournament_pair",
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("bot_id", sa.Integer(), nullable=False),
        sa.Column("opponent_id", sa.Integer(), nullable=False),
        sa.Column("wins", sa.Integer(), nullable=False),
        sa.Column("losses", sa.Integer(), nullable=False),
        sa.Column("ties", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["tournament_id"], ["tournament.id"]),
        sa.ForeignKeyConstraint(["bot_id"], ["bot.id"]),
        sa.ForeignKeyConstraint(["opponent_id"], ["bot.id"]),
        sa.PrimaryKeyConstraint("tournament_id", "bot_id", "opponent_id"),
    )


def _fill_standings(conn: sa.Connection) -> None:
    rows: list[dict[str, Any]] = []

    def keep(tournament_id: int, book: StandingsBook) -> None:
        rows.extend({"tournament_id": tournament_id, "bot_id": bot_id, "mu": line.mu,
                     "sigma": line.sigma, "matches": line.matches, "wins": line.wins,
                     "rank_sum": line.rank_sum, "faults": dict(sorted(line.faults.items()))}
                    for bot_id, line in sorted(book.lines.items()))
        if len(rows) >= CHUNK:
            conn.execute(sa.insert(STANDING), rows)
            rows.clear()

    tournament: int | None = None
    match: int | None = None
    book = StandingsBook()
    seats: list[Seat] = []
    for tournament_id, match_id, bot_id, rank, fault in conn.execute(sa.text(TOURNAMENT_SEATS)):
        if match_id != match:
            if match is not None:
                book.apply(match, seats)
            if tournament_id != tournament:
                if tournament is not None:
                    keep(tournament, book)
                tournament, book = int(tournament_id), StandingsBook()
            match, seats = int(match_id), []
        seats.append(Seat(int(bot_id), int(rank or 0), str(fault or "")))
    if match is not None and tournament is not None:
        book.apply(match, seats)
        keep(tournament, book)
    if rows:
        conn.execute(sa.insert(STANDING), rows)


def upgrade() -> None:
    _create_tables()
    conn = op.get_bind()
    conn.execute(sa.text(HEAD_TO_HEAD))
    conn.execute(sa.text(TOURNAMENT_PAIRS))
    _fill_standings(conn)


def downgrade() -> None:
    op.drop_table("tournament_pair")
    op.drop_table("tournament_standing")
    op.drop_table("head_to_head")
