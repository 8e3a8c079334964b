"""The JSON documents of the arena, one shape wherever they appear: the CLI's ``--json``
(:mod:`arena.cli.output`, docs/json.md), the web app's API (:mod:`leaderboard.web`,
docs/web.md) and the operator service (:mod:`arena.service`) build them here, from the
application layer's records (:mod:`arena.app`): a tournament's report
(:func:`report_json`) and its export (:func:`export_text`, JSON or CSV) among them.

A document is ``{"version": 1, key: data}``; dates are ISO 8601 strings in UTC; no seed
ever appears (deals are secret).
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from typing import Any

from arena.app import reports
from arena.app.records import (
    BotInfo,
    LeaderboardRow,
    MatchInfo,
    MatchStatus,
    SeatInfo,
    Store,
    TournamentInfo,
)
from arena.app.reports import (
    Progress,
    StandingRow,
    TournamentExport,
    TournamentPresence,
    TournamentReport,
    progress_of,
)
from arena.errors import ArenaError, ErrorKind
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
    # an author's scrimmage: unrated, its matches in its own standings only
    row["scrimmage"] = tournament.settings.get("scrimmage_of") is not None
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


# ---------------------------------------------------------------- a tournament's report


def _standing_json(row: StandingRow) -> dict[str, Any]:
    s = row.standing
    return {"rank": row.place, "bot": row.bot, "rating": s.rating, "mu": s.mu, "sigma": s.sigma,
            "matches": s.matches, "wins": s.wins, "win_share": s.win_share,
            "mean_rank": s.mean_rank, "faults": sum(s.faults.values()),
            "faults_by_kind": dict(sorted(s.faults.items()))}


def report_json(report: TournamentReport) -> dict[str, Any]:
    """Everything ``tournament show`` says, as plain data (its ``--json``): the tournament as
    ``tournament list --json`` gives it, and more."""
    tournament, sprt = report.tournament, report.sprt
    settings = tournament.settings
    return {
        **progress_json(report.progress),
        "pool": report.pool,
        "challengers": list(report.challengers), "field": list(report.field),
        "sets": report.sets, "options": tournament.options,
        "deals": settings.get("deals", "duplicate"),
        "clocks": {"move_timeout_s": settings.get("move_timeout_s"),
                   "start_timeout_s": settings.get("start_timeout_s"),
                   "time_bank_s": settings.get("time_bank_s")},
        "matches": counts_json(report.progress),
        "set_tally": None if report.tally is None else {
            "sets": report.tally.sets, "wins": report.tally.wins, "draws": report.tally.draws,
            "losses": report.tally.losses},
        "sprt": None if sprt is None else {
            **asdict(sprt.settings), "llr": sprt.state.llr, "lower": sprt.state.lower,
            "upper": sprt.state.upper, "sets": sprt.state.n, "wins": sprt.state.wins,
            "draws": sprt.state.draws, "losses": sprt.state.losses,
            "decision": sprt.state.decision},
        "standings": [_standing_json(row) for row in report.standings],
        "crosstable": [{"bot": c.bot, "opponent": c.opponent, **c.cell.as_dict()}
                       for c in report.crosstable],
        "presence": None if report.presence is None else presence_json(report.presence),
    }


def presence_json(found: TournamentPresence) -> dict[str, Any]:
    """A tournament's presence table as plain data (docs/json.md)."""
    return {"matches": found.matches, "pairs": [
        {"bot": row.bot, "other": row.other, "shared": row.figure.shared,
         "apart": row.figure.apart, "effect": row.figure.effect, "z": row.figure.z,
         "flagged": row.figure.flagged} for row in found.pairs]}


def tournament_report(store: Store, tournament: TournamentInfo,
                      counts: Mapping[MatchStatus, int] | None = None) -> dict[str, Any]:
    """:func:`report_json` of :func:`arena.app.reports.tournament_report`."""
    return report_json(reports.tournament_report(store, tournament, counts))


def standings_leaderboard_json(report: Mapping[str, Any]) -> list[dict[str, Any]]:
    """A tournament's standings as ``arena leaderboard --tournament ID --json`` gives them
    (:func:`arena.app.boards.tournament_leaderboard`), from its report's document."""
    rows = []
    for row in report["standings"]:
        name, _, version = row["bot"].partition("@")
        rows.append({"rank": row["rank"], "bot": row["bot"], "name": name, "version": version,
                     "game": report["game"], "pool": report["pool"], "rating": row["rating"],
                     "mu": row["mu"], "sigma": row["sigma"], "matches": row["matches"],
                     "wins": row["wins"], "win_share": row["win_share"], "faults": row["faults"]})
    return rows


# ---------------------------------------------------------------- a tournament's export


EXPORT_FORMATS = ("json", "csv")
CSV_FIELDS = ("match_id", "index", "status", "started_at", "finished_at", "duration_s", "seat",
              "bot", "rank", "score", "fault")
"""The columns of ``arena tournament export --format csv``: one row per seat of every match."""


def export_csv(matches: Sequence[MatchInfo]) -> str:
    """The matches as CSV, a header and one row per seat (an absent value: an empty cell)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_FIELDS)
    for match in matches:
        for seat in match.seats:
            row = (match.id, match.index, str(match.status), iso(match.started_at),
                   iso(match.finished_at), match.duration_s, seat.seat, seat.bot, seat.rank,
                   seat.score, str(seat.fault))
            writer.writerow("" if cell is None else cell for cell in row)
    return out.getvalue()


class ExportFormatError(ArenaError, ValueError):
    """An export format the arena does not write."""

    kind = ErrorKind.BAD_REQUEST


@dataclass(frozen=True)
class ExportText:
    """A tournament's export as written: its ``text`` and how many ``matches`` it holds."""

    text: str
    matches: int


def export_text(store: Store, tournament_id: int, export_format: str = "json") -> ExportText:
    """``arena tournament export``: every match of a tournament with its seats, ranks,
    scores, faults and timing (no seed, no log), as one JSON document (:func:`export_json`,
    indented, a final newline) or CSV (:func:`export_csv`); the command line writes it here
    and the operator service sends it, the same text either way. An unknown tournament:
    :class:`~arena.storage.store.NotFoundError`."""
    if export_format not in EXPORT_FORMATS:
        raise ExportFormatError(f"--format must be json or csv, not {export_format!r}")
    export = reports.tournament_export(store, tournament_id)
    if export_format == "csv":
        return ExportText(export_csv(export.matches), len(export.matches))
    return ExportText(json.dumps(export_json(export), indent=2) + "\n", len(export.matches))


__all__ = ["CSV_FIELDS", "EXPORT_FORMATS", "JSON_VERSION", "ExportFormatError", "ExportText",
           "bot_json", "counts_json", "document", "export_csv", "export_json", "export_text",
           "game_json", "iso", "leaderboard_json", "leaderboard_row_json", "match_json",
           "presence_json", "progress_json", "report_json", "seat_json",
           "standings_leaderboard_json",
           "tournament_json", "tournament_report"]
