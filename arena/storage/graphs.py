"""Win-probability graphs of finished matches (:mod:`arena.app.graphs` computes them): one
row per match, kept once computed, and the finished matches in the order they were rated,
for the background worker to walk.

The worker walks the rated matches by ``finish_seq`` (the unique index answers both walks:
the matches rated since it last looked, and the older ones, newest first), never the whole
match table: every query here reads a few rows.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlmodel import Session, col

from arena.storage.engine import Database
from arena.storage.errors import NotFoundError
from arena.storage.records import MatchInfo
from arena.storage.rows import lean_matches
from arena.storage.tables import Match, MatchStatus, WinGraph, now, utc


@dataclass(frozen=True)
class RatedMatch:
    """A finished, rated match: its id, its place in the rating order and whether it has a
    graph (or a recorded failure to make one) already."""

    match_id: int
    finish_seq: int
    graphed: bool


@dataclass(frozen=True)
class StoredGraph:
    """A match's win-probability graph as stored: ``steps`` (its decisions and its start);
    ``evaluated``, the steps computed, ascending, and ``chances``, each seat's chance to finish
    first at each of them; ``rollouts`` per step computed; ``cpu_s`` it took; ``error``, why
    there is none (then ``evaluated`` is empty)."""

    match_id: int
    steps: int
    rollouts: int
    evaluated: tuple[int, ...]
    chances: tuple[tuple[float, ...], ...]
    cpu_s: float
    error: str | None = None
    created_at: datetime | None = None


def _stored(row: WinGraph) -> StoredGraph:
    series: dict[str, Any] = row.series or {}
    return StoredGraph(
        match_id=row.match_id, steps=row.steps, rollouts=row.rollouts,
        evaluated=tuple(int(step) for step in series.get("evaluated", ())),
        chances=tuple(tuple(float(c) for c in point) for point in series.get("chances", ())),
        cpu_s=row.cpu_s, error=row.error, created_at=utc(row.created_at))


def _exists(s: Session, match_id: int) -> bool:
    """Whether there is a match ``match_id`` (its row read without its log)."""
    return s.execute(sa.select(col(Match.id)).where(col(Match.id) == match_id)).first() is not None


def _rated(rows: Sequence[Any]) -> list[RatedMatch]:
    return [RatedMatch(int(match_id), int(seq), graphed is not None)
            for match_id, seq, graphed in rows]


class Graphs(Database):
    """The store's win-probability graphs."""

    def _rated_query(self) -> sa.Select[int | None, int | None, int]:
        return (sa.select(col(Match.id), col(Match.finish_seq), col(WinGraph.match_id))
                .select_from(Match)
                .outerjoin(WinGraph, col(WinGraph.match_id) == col(Match.id))
                .where(col(Match.status) == MatchStatus.FINISHED))

    def rated_after(self, finish_seq: int, limit: int) -> list[RatedMatch]:
        """Up to ``limit`` finished matches rated after ``finish_seq``, in rating order."""
        with self._reading("read the matches rated lately") as s:
            return _rated(s.execute(self._rated_query()
                                    .where(col(Match.finish_seq) > finish_seq)
                                    .order_by(col(Match.finish_seq)).limit(limit)).all())

    def rated_before(self, finish_seq: int, limit: int) -> list[RatedMatch]:
        """Up to ``limit`` finished matches rated before ``finish_seq``, the latest first."""
        with self._reading("read the matches rated before") as s:
            return _rated(s.execute(self._rated_query()
                                    .where(col(Match.finish_seq) < finish_seq,
                                           col(Match.finish_seq).is_not(None))
                                    .order_by(col(Match.finish_seq).desc()).limit(limit)).all())

    def last_rated(self) -> int:
        """The ``finish_seq`` of the match rated last (0: none was)."""
        with self._reading("read the rating order") as s:
            return int(s.execute(sa.select(sa.func.max(col(Match.finish_seq)))).scalar() or 0)

    def win_graph(self, match_id: int) -> StoredGraph | None:
        """Match ``match_id``'s graph, if it has one."""
        with self._reading("read a win-probability graph") as s:
            row = s.get(WinGraph, match_id)
            return None if row is None else _stored(row)

    def graphed_match(self, match_id: int) -> tuple[MatchInfo, StoredGraph | None]:
        """Match ``match_id`` (its seats, not its log) and its graph, if it has one."""
        with self._reading("read a match and its graph") as s:
            if not _exists(s, match_id):
                raise NotFoundError(f"no match with id {match_id}")
            row = s.get(WinGraph, match_id)
            return lean_matches(s, [match_id])[0], None if row is None else _stored(row)

    def save_graph(self, graph: StoredGraph, *, replace: bool = False) -> bool:
        """Keep ``graph`` for its match; False (nothing written) when the match has one
        already, unless ``replace``."""
        with self._writing("save a win-probability graph") as s:
            if not _exists(s, graph.match_id):
                raise NotFoundError(f"no match with id {graph.match_id}")
            row = s.get(WinGraph, graph.match_id)
            if row is not None and not replace:
                return False
            if row is None:
                row = WinGraph(match_id=graph.match_id, steps=0, rollouts=0, cpu_s=0.0)
            row.steps, row.rollouts, row.cpu_s = graph.steps, graph.rollouts, graph.cpu_s
            row.series = {"evaluated": list(graph.evaluated),
                          "chances": [list(point) for point in graph.chances]}
            row.error = graph.error
            row.created_at = now()
            s.add(row)
            return True


__all__ = ["Graphs", "RatedMatch", "StoredGraph"]
