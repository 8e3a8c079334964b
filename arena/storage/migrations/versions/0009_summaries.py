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
arena's own TrueSkill update (:mod:`arena.rating.standings`): these tables hold
derived numbers, which must be what the arena computes, not values of their own.

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-25
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from alembic import op

from arena.rating.standings import Seat, StandingsBook

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
