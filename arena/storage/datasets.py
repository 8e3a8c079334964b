"""Finished matches for a dataset, a batch at a time: only those whose deal is over.

A duplicate deal is played once per seat rotation, each rotation a match of its own with the
same cards (the same tournament and seed). A match whose deal another rotation has still to
play is *held back*: exporting its cards could help a bot that is yet to play them. The rule
is :mod:`arena.app.visibility`'s for the public (a deal is shown once every rotation of it is
over); here it is one condition of the query, so that a batch never holds such a match.

No seed leaves the store: a deal is named by the id of its first match.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import sqlalchemy as sa
from sqlmodel import col, select

from arena.storage.engine import Database
from arena.storage.records import MatchInfo
from arena.storage.rows import chunks, deal_in_play, match_info, seat_infos
from arena.storage.tables import Match, MatchStatus, Seat


@dataclass(frozen=True)
class DealtMatch:
    """A finished match (with its log) and its deal: ``deal``, the id of the deal's first
    match in schedule order (the match's own for a deal played once); ``rotation``, its place
    among the deal's matches in schedule order (0 for the first)."""

    match: MatchInfo
    deal: int
    rotation: int


@dataclass(frozen=True)
class MatchFilter:
    """Which matches: of one tournament, of one game, or with a seat of one of ``bot_ids``
    (None: any)."""

    tournament_id: int | None = None
    game: str | None = None
    bot_ids: tuple[int, ...] | None = None

    def where(self) -> list[sa.ColumnElement[bool]]:
        found: list[sa.ColumnElement[bool]] = [col(Match.status) == MatchStatus.FINISHED]
        if self.tournament_id is not None:
            found.append(col(Match.tournament_id) == self.tournament_id)
        if self.game is not None:
            found.append(col(Match.game) == self.game)
        if self.bot_ids is not None:
            found.append(col(Match.id).in_(
                sa.select(col(Seat.match_id)).where(col(Seat.bot_id).in_(self.bot_ids))))
        return found


class Datasets(Database):
    """The store's finished matches, read for export."""

    def dealt_matches(self, which: MatchFilter, after: int, limit: int) -> list[DealtMatch]:
        """Up to ``limit`` finished matches of ``which`` with an id above ``after``, by id, each
        with its log and deal, leaving out those whose deal is still in play."""
        with self._reading("read finished matches") as s:
            matches = s.exec(select(Match).where(*which.where(), col(Match.id) > after,
                                                 sa.not_(deal_in_play()))
                             .order_by(col(Match.id)).limit(limit)).all()
            ids = [m.id for m in matches if m.id is not None]
            seats = seat_infos(s, ids)
            deals = _deals(s, matches)
            found = []
            for m in matches:
                assert m.id is not None
                deal, rotation = deals.get(m.id, (m.id, 0))
                found.append(DealtMatch(match_info(m, seats.get(m.id, ()), with_log=True),
                                        deal, rotation))
            return found

    def held_back(self, which: MatchFilter) -> int:
        """How many finished matches of ``which`` another rotation of their deal has still to
        play (left out of :meth:`dealt_matches`)."""
        with self._reading("count the matches held back") as s:
            return int(s.execute(sa.select(sa.func.count()).select_from(Match)
                                 .where(*which.where(), deal_in_play())).scalar_one())


def _deals(s: sa.orm.Session, matches: Sequence[Match]) -> dict[int, tuple[int, int]]:
    """Each tournament match's deal and rotation: its deal's matches, in schedule order."""
    keys = {(m.tournament_id, m.seed) for m in matches if m.tournament_id is not None}
    siblings: dict[tuple[int, str], list[tuple[int, int]]] = {}
    for tournament_id in {t for t, _ in keys}:
        seeds = sorted(seed for t, seed in keys if t == tournament_id)
        for chunk in chunks(seeds):
            for row in s.execute(
                    sa.select(col(Match.id), col(Match.index), col(Match.seed)).where(
                        col(Match.tournament_id) == tournament_id, col(Match.seed).in_(chunk))):
                match_id, index, seed = row
                assert match_id is not None
                siblings.setdefault((tournament_id, seed), []).append((index, match_id))
    found: dict[int, tuple[int, int]] = {}
    for played in siblings.values():
        played.sort()
        first = played[0][1]
        for rotation, (_, match_id) in enumerate(played):
            found[match_id] = (first, rotation)
    return found


__all__ = ["Datasets", "DealtMatch", "MatchFilter"]
