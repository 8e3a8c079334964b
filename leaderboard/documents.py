"""The JSON documents of the arena, one shape wherever they appear: the CLI's ``--json``
(:mod:`arena.cli.output`, docs/json.md) and the web app's API (:mod:`leaderboard.web`,
docs/web.md) build them here, from the application layer's records (:mod:`arena.app`).

A document is ``{"version": 1, key: data}``; dates are ISO 8601 strings in UTC; no seed
ever appears (deals are secret).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

from arena.app.records import BotInfo, LeaderboardRow, MatchInfo, MatchStatus, SeatInfo, TournamentInfo
from arena.app.reports import Progress, TournamentExport, progress_of
from arena.games.base import Game

JSON_VERSION = 1
"""The ``"version"`` of every document; it changes only when a field changes meaning or goes."""


def document(key: str, data: Any) -> dict[str, Any]:
    """``{"version": 1, key: data}``: the shape of every document."""
    return {"version": JSON_VERSION, key: data}


def iso(when: datetime | None) -> str | None:
    """ISO 8601 in UTC (``2026-01-31T12:00:00.123456+00:00``); a naive time is taken as UTC."""
    if when is None:
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return when.astimezone(UTC).isoformat()


def game_json(game: Game[Any, Any, Any]) -> dict[str, Any]:
    return {
        "name": game.name, "title": game.title, "min_players": game.min_players,
        "max_players": game.max_players, "default_players": game.default_players,
        "options": [{"name": o.name, "default": o.default, "allowed": o.describe(),
                     "choices": list(o.choices), "minimum": o.minimum, "maximum": o.maximum,
                     "doc": o.doc} for o in game.options],
    }


def bot_json(bot: BotInfo) -> dict[str, Any]:
    """A bot; a remote bot's command is null (it connects with its token). A submitted
    version (kind ``submitted``) has its code's hash and its games."""
    return {"id": bot.id, "bot": bot.label, "name": bot.name, "version": bot.version,
            "kind": bot.kind, "command": None if bot.remote else bot.command, "folder": bot.folder,
            "content_hash": bot.content_hash,
            "games": None if bot.games is None else list(bot.games),
            "removed": bot.removed, "created_at": iso(bot.created_at)}


def tournament_json(tournament: TournamentInfo,
                    counts: Mapping[MatchStatus, int] | None = None) -> dict[str, Any]:
    """A tournament and how far it has got (no seed: deals are secret); with its matches
    counted by status (:meth:`Store.tournament_match_counts`), how many are void. ``sprt``:
    a versus with an SPRT's sets played and decision (:class:`arena.app.reports.Progress`),
    else None."""
    return progress_json(progress_of(tournament, counts or {}), void=counts is not None)


def progress_json(progress: Progress, *, void: bool = True) -> dict[str, Any]:
    """:func:`tournament_json` of a tournament's :class:`~arena.app.reports.Progress`
    (``void``: with its count of void matches)."""
    tournament = progress.tournament
    row: dict[str, Any] = {
        "id": tournament.id, "game": tournament.game, "players": tournament.players,
        "bots": list(tournament.bots), "format": progress.kind,
        "finished": tournament.finished, "total": tournament.total,
    }
    if void:
        row["void"] = progress.counts.get(MatchStatus.VOID, 0)
    row.update(status=str(tournament.status), created_at=iso(tournament.created_at),
               finished_at=iso(tournament.finished_at))
    # a versus with an SPRT: its sets played and its decision, which say how far it has got
    # (its total is a cap the test stops far below, the rest void: not a figure to show)
    row["sprt"] = None if progress.sprt is None else dict(progress.sprt)
    return row


def counts_json(progress: Progress) -> dict[str, int]:
    """A tournament's matches: its total and how many are in each status."""
    return {"total": progress.tournament.total, **{str(k): progress.counts.get(k, 0) for k in (
        MatchStatus.FINISHED, MatchStatus.RUNNING, MatchStatus.PENDING, MatchStatus.VOID)}}


def seat_json(seat: SeatInfo) -> dict[str, Any]:
    return {"seat": seat.seat, "bot": seat.bot, "rank": seat.rank, "score": seat.score,
            "fault": str(seat.fault) or None, "peer": seat.peer}


def match_json(match: MatchInfo) -> dict[str, Any]:
    """A match and its seats (no seed, no log)."""
    return {"id": match.id, "tournament_id": match.tournament_id, "index": match.index,
            "game": match.game, "status": str(match.status),
            "started_at": iso(match.started_at), "finished_at": iso(match.finished_at),
            "duration_s": match.duration_s, "seats": [seat_json(s) for s in match.seats]}


def leaderboard_row_json(row: LeaderboardRow, rank: int) -> dict[str, Any]:
    """A leaderboard row at place ``rank`` of its pool."""
    return {"rank": rank, "bot": row.label, "name": row.name, "version": row.version,
            "game": row.game, "pool": row.pool, "rating": row.conservative,
            "mu": row.mu, "sigma": row.sigma, "matches": row.matches, "wins": row.wins,
            "win_share": row.win_share, "faults": row.faults}


def leaderboard_json(rows: Sequence[LeaderboardRow]) -> list[dict[str, Any]]:
    """The rows in the order given (the store's: best mu - 3 sigma first), ranked per pool."""
    places: dict[str, int] = {}
    out = []
    for row in rows:
        places[row.pool] = places.get(row.pool, 0) + 1
        out.append(leaderboard_row_json(row, places[row.pool]))
    return out


def export_json(export: TournamentExport) -> dict[str, Any]:
    """``arena tournament export``'s JSON: the tournament and every match (no seed, no log)."""
    return {"version": JSON_VERSION, "tournament": progress_json(export.progress),
            "matches": [match_json(m) for m in export.matches]}


__all__ = ["JSON_VERSION", "bot_json", "counts_json", "document", "export_json", "game_json", "iso",
           "leaderboard_json", "leaderboard_row_json", "match_json", "progress_json", "seat_json",
           "tournament_json"]
