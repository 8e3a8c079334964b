"""A deal's matches, for its traveller (:mod:`arena.app.travellers`) and the tournament page's
links to it.

A duplicate deal is played once per seat rotation, each rotation a match of its own with the
same cards: the same tournament, the same seed (``ix_match_tournament_seed``). No seed leaves
the store: a deal is named by the id of its first match in schedule order (as in
:mod:`arena.storage.datasets`). Both queries are answered from indexes; neither loads a log.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import sqlalchemy as sa
from sqlmodel import col

from arena.storage.engine import Database
from arena.storage.errors import NotFoundError
from arena.storage.records import MatchInfo
from arena.storage.rows import chunks, lean_matches
from arena.storage.tables import Match, MatchStatus


@dataclass(frozen=True)
class DealPlay:
    """One match of a deal, as a list of matches reads it: its id, its place in the
    tournament's schedule and its status."""

    id: int
    index: int
    status: MatchStatus


class Travellers(Database):
    """The store's deals (the seat rotations of a duplicate deal)."""

    def deal_matches(self, tournament_id: int, match_id: int) -> list[MatchInfo]:
        """The matches of tournament ``tournament_id`` that deal the same cards as its match
        ``match_id`` (that match among them), in schedule order, with their seats (logs not
        loaded); a :class:`NotFoundError` when the tournament has no match ``match_id``."""
        with self._reading("read a deal's matches") as s:
            seed = s.execute(sa.select(col(Match.seed)).where(
                col(Match.id) == match_id, col(Match.tournament_id) == tournament_id)).scalar()
            if seed is None:
                raise NotFoundError(f"tournament {tournament_id} has no match {match_id}")
            ids = [int(i) for i in s.execute(
                sa.select(col(Match.id)).where(col(Match.tournament_id) == tournament_id,
                                               col(Match.seed) == seed)
                .order_by(col(Match.index))).scalars()]
            return lean_matches(s, ids)

    def deal_plays(self, tournament_id: int,
                   match_ids: Sequence[int]) -> dict[int, tuple[DealPlay, ...]]:
        """For each of ``match_ids`` that is a match of tournament ``tournament_id`` (others are
        left out), every match of its deal (itself among them) in schedule order: one indexed
        query per :data:`~arena.storage.rows.CHUNK` ids."""
        found: dict[int, tuple[DealPlay, ...]] = {}
        with self._reading("read deals") as s:
            for chunk in chunks(sorted(set(match_ids))):
                seeds = (sa.select(col(Match.seed))
                         .where(col(Match.id).in_(chunk),
                                col(Match.tournament_id) == tournament_id)
                         .scalar_subquery())
                deals: dict[str, list[DealPlay]] = {}
                for match, index, seed, status in s.execute(
                        sa.select(col(Match.id), col(Match.index), col(Match.seed),
                                  col(Match.status))
                        .where(col(Match.tournament_id) == tournament_id,
                               col(Match.seed).in_(seeds))
                        .order_by(col(Match.index))):
                    deals.setdefault(str(seed), []).append(
                        DealPlay(int(match), int(index), MatchStatus(status)))
                wanted = set(chunk)
                for plays in deals.values():
                    for play in plays:
                        if play.id in wanted:
                            found[play.id] = tuple(plays)
        return found


__all__ = ["DealPlay", "Travellers"]
