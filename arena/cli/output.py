"""Machine-readable output: ``--json`` on the list and show commands (see docs/json.md).

A command given ``--json`` prints exactly one JSON document on stdout and nothing
else: an object with ``"version": 1`` and its data under a named key, e.g.
``{"version": 1, "bots": [...]}``. It is written straight to stdout, never through
rich: no markup, no colour, no wrapping, nothing cut. Dates are ISO 8601 strings in
UTC; numbers stay numbers. A match's seed (and a tournament's) is never part of any
document: deals are secret.

The helpers here are shared by every command module: :func:`emit_json` and
:data:`JsonOption` for any command, and the converters of the store's values
(:func:`bot_json`, :func:`tournament_json`, :func:`match_json`, ...) so that the same
thing has the same fields wherever it appears.
"""

from __future__ import annotations

import csv
import dataclasses
import io
import json
import sys
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from enum import Enum
from typing import Annotated, Any

import typer

from arena.games.base import Game
from arena.match.replay import LogLine, describe
from arena.storage.store import (
    BotInfo,
    LeaderboardRow,
    MatchInfo,
    MatchStatus,
    SeatInfo,
    TournamentInfo,
)
from arena.tournament.formats import Format

JSON_VERSION = 1
"""The ``"version"`` of every document; it changes only when a field changes meaning or goes."""

JsonOption = Annotated[bool, typer.Option(
    "--json", help="Print one JSON document instead of tables (fields: docs/json.md).")]


def emit_json(value: Any) -> None:
    """Print ``value`` as one JSON document (indented, keys in the order given) on stdout."""
    sys.stdout.write(json_text(value))
    sys.stdout.flush()


def json_text(value: Any) -> str:
    """``value`` as :func:`emit_json` prints it, final newline included.

    Datetimes become ISO 8601 UTC strings, enums their values, sets sorted lists and
    dataclasses objects; anything else JSON does not know is an error (a bug)."""
    return json.dumps(value, indent=2, sort_keys=False, default=_plain) + "\n"


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


def _plain(value: Any) -> Any:
    if isinstance(value, datetime):
        return iso(value)
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, (set, frozenset)):
        return sorted(value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return dataclasses.asdict(value)
    raise TypeError(f"{type(value).__name__} is not JSON: {value!r}")


# ---------------------------------------------------------------- the store's values


def game_json(game: Game[Any, Any, Any]) -> dict[str, Any]:
    return {
        "name": game.name, "title": game.title, "min_players": game.min_players,
        "max_players": game.max_players, "default_players": game.default_players,
        "options": [{"name": o.name, "default": o.default, "allowed": o.describe(),
                     "choices": list(o.choices), "minimum": o.minimum, "maximum": o.maximum,
                     "doc": o.doc} for o in game.options],
    }


def bot_json(bot: BotInfo) -> dict[str, Any]:
    """A bot; a remote bot's command is null (it connects with its token)."""
    return {"id": bot.id, "bot": bot.label, "name": bot.name, "version": bot.version,
            "kind": "remote" if bot.remote else "managed",
            "command": None if bot.remote else bot.command, "folder": bot.folder,
            "removed": bot.removed, "created_at": iso(bot.created_at)}


def tournament_json(tournament: TournamentInfo,
                    counts: Mapping[MatchStatus, int] | None = None) -> dict[str, Any]:
    """A tournament and how far it has got (no seed: deals are secret); with its matches
    counted by status (:meth:`Store.tournament_match_counts`), how many are void."""
    row: dict[str, Any] = {
        "id": tournament.id, "game": tournament.game, "players": tournament.players,
        "bots": list(tournament.bots), "format": Format.from_settings(tournament.settings).kind,
        "finished": tournament.finished, "total": tournament.total,
    }
    if counts is not None:
        row["void"] = counts.get(MatchStatus.VOID, 0)
    row.update(status=str(tournament.status), created_at=iso(tournament.created_at),
               finished_at=iso(tournament.finished_at))
    return row


def seat_json(seat: SeatInfo) -> dict[str, Any]:
    return {"seat": seat.seat, "bot": seat.bot, "rank": seat.rank, "score": seat.score,
            "fault": str(seat.fault) or None, "peer": seat.peer}


def match_json(match: MatchInfo) -> dict[str, Any]:
    """A match and its seats (no seed, no log)."""
    return {"id": match.id, "tournament_id": match.tournament_id, "index": match.index,
            "game": match.game, "status": str(match.status),
            "started_at": iso(match.started_at), "finished_at": iso(match.finished_at),
            "duration_s": match.duration_s, "seats": [seat_json(s) for s in match.seats]}


def log_json(lines: Sequence[LogLine]) -> list[dict[str, Any]]:
    """A match log's lines: decisions and events, each value in its compact human form."""
    return [{"kind": line.kind, "seat": line.seat, "type": type(line.value).__name__,
             "value": describe(line.value),
             "audience": None if line.audience is None else sorted(line.audience),
             "fallback": line.fallback} for line in lines]


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


def leaderboard_json(rows: Sequence[LeaderboardRow]) -> list[dict[str, Any]]:
    """The rows in the order given (the store's: best mu - 3 sigma first), ranked per pool."""
    places: dict[str, int] = {}
    out = []
    for row in rows:
        places[row.pool] = places.get(row.pool, 0) + 1
        out.append({"rank": places[row.pool], "bot": row.label, "name": row.name,
                    "version": row.version, "game": row.game, "pool": row.pool,
                    "rating": row.conservative,
                    "mu": row.mu, "sigma": row.sigma, "matches": row.matches, "wins": row.wins,
                    "win_share": row.win_share, "faults": row.faults})
    return out


__all__ = ["CSV_FIELDS", "JSON_VERSION", "JsonOption", "bot_json", "document", "emit_json",
           "export_csv", "game_json", "iso",
           "json_text", "leaderboard_json", "log_json", "match_json", "seat_json", "tournament_json"]
