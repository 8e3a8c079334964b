"""The operator service's messages: a request's fields checked and decoded (every field is
hostile: one line saying what is wrong, as an :class:`~arena.errors.ArenaError` of kind
``BAD_REQUEST``), and the store's records encoded as answers. :mod:`arena.service.operator`'s
servicers call these, then one use case."""

from __future__ import annotations

import math
from datetime import datetime
from typing import Any

from arena.app.documents import EXPORT_FORMATS, iso
from arena.app.ladders import LadderView
from arena.app.live import FeedRefused, Snapshot
from arena.app.matches import MatchRecord
from arena.app.reports import Progress
from arena.app.tournaments import TournamentRequest
from arena.app.visibility import Refusal
from arena.app.watch import logged_events
from arena.errors import ArenaError, ErrorKind
from arena.players.limits import DEFAULT_LIMIT_TEXTS, LimitTexts
from arena.service.auth import Caller
from arena.storage.store import BotInfo, LeaderboardRow, MatchInfo, MatchStatus, check_bot_name
from arena.tournament import Plan
from arena.tournament.formats import GAUNTLET, ROUND_ROBIN, VERSUS
from arena.v1 import arena_pb2 as pb
from arena.wire.codec import codec_for
from arena.wire.messages import FAULT_NUMBERS

MAX_NAMES, MAX_TEXT = 64, 200
"""At most this many bots (and field bots, and options) in a request; this many characters a name."""
MAX_CLOCK_S = 3600.0
"""The longest clock a request may set, in seconds."""


def refused(kind: ErrorKind, message: str) -> ArenaError:
    """A request refused: one line, and its kind (its status code: :mod:`arena.errors`)."""
    return ArenaError(message, kind=kind)


def checked_text(value: str, what: str, limit: int = MAX_TEXT) -> str:
    if len(value) > limit:
        raise refused(ErrorKind.BAD_REQUEST,
                       f"{what} is {len(value)} characters long; at most {limit}")
    if any(ord(c) < 32 or ord(c) == 127 for c in value):
        raise refused(ErrorKind.BAD_REQUEST, f"{what} holds a control character")
    return value


def checked_name(text: str, what: str) -> str:
    """A bot's name, version or label, as the store allows them; INVALID_ARGUMENT if not."""
    check_bot_name(text, what)
    return text


def checked_names(values: Any, what: str) -> list[str]:
    names = list(values)
    if len(names) > MAX_NAMES:
        raise refused(ErrorKind.BAD_REQUEST,
                       f"{len(names)} {what}; at most {MAX_NAMES}")
    return [checked_text(name, what) for name in names]


def checked_id(value: int, what: str) -> int:
    if value <= 0:
        raise refused(ErrorKind.BAD_REQUEST, f"{what} must be a positive id, not {value}")
    return value


def checked_clock(value: float, flag: str) -> float:
    if not value <= MAX_CLOCK_S:  # a NaN too
        raise refused(ErrorKind.BAD_REQUEST,
                       f"{flag} must be a number of seconds from 0 to {MAX_CLOCK_S:g}, not {value:g}")
    return value


def schedule_bound(plan: Plan, bots: int, field: int, players: int, repetitions: int,
                    sets: int | None) -> int:
    """More matches than a tournament of these sizes can have (never fewer)."""
    if plan.kind == VERSUS:
        return (sets or 2000) * players
    if plan.kind == GAUNTLET:
        return bots * math.comb(field + players - 2, max(players - 1, 0)) * players * repetitions
    return math.comb(bots + players - 1, players) * players * repetitions


def tournament_request(request: pb.CreateTournamentRequest) -> TournamentRequest:
    """The request decoded, within the server's caps (every field is hostile); a field not
    sent keeps :class:`TournamentRequest`'s default. Everything else is checked once, where
    ``arena tournament create`` has it checked: :mod:`arena.tournament.setup`."""
    bots = checked_names(request.bots, "bots")
    if not bots:
        raise refused(ErrorKind.BAD_REQUEST, "name the bots: at least one")
    if len(request.options) > MAX_NAMES:
        raise refused(ErrorKind.BAD_REQUEST,
                       f"{len(request.options)} options; at most {MAX_NAMES}")
    sent: dict[str, Any] = {name: getattr(request, name) for name in (
        "players", "repetitions", "sets", "seed", "parallel", "move_timeout_s",
        "start_timeout_s", "time_bank_s", "event_delay_s") if request.HasField(name)}
    if not 1 <= sent.get("parallel", 1) <= 256:
        raise refused(ErrorKind.BAD_REQUEST,
                       f"parallel must be from 1 to 256, not {request.parallel}")
    if not 1 <= sent.get("repetitions", 1) <= 10_000:
        raise refused(ErrorKind.BAD_REQUEST,
                       f"repetitions must be from 1 to 10,000, not {request.repetitions}")
    if not 1 <= sent.get("sets", 1) <= 100_000:
        raise refused(ErrorKind.BAD_REQUEST, f"sets must be from 1 to 100,000, not {request.sets}")
    if sent.get("seed", 0) >= 2**63:
        raise refused(ErrorKind.BAD_REQUEST, "the seed must be below 2**63")
    for name in ("move_timeout_s", "start_timeout_s", "time_bank_s", "event_delay_s"):
        if name in sent:
            sent[name] = checked_clock(float(sent[name]), name)
    defaults = DEFAULT_LIMIT_TEXTS
    limits = LimitTexts(*(checked_text(getattr(request, f"bot_{name}"), "a bot limit", 32)
                          or getattr(defaults, name)
                          for name in ("memory", "cpu_seconds", "processes", "cpus",
                                       "open_files")))
    sprt = checked_text(request.sprt, "sprt", 100)
    return TournamentRequest(
        game=checked_text(request.game, "the game", 64), bots=bots,
        field=checked_names(request.field, "field bots"),
        options={checked_text(k, "an option's name", 64): checked_text(v, "an option's value", 64)
                 for k, v in request.options.items()},
        format=checked_text(request.format, "the format", 32) or ROUND_ROBIN, sprt=sprt or None,
        deals=checked_text(request.deals, "deals", 32) or None, deals_from_seed=request.deals_from_seed,
        limits=limits, public_notes=request.public_notes, **sent)


def export_format(value: str) -> str:
    """An export's format: json (empty) or csv."""
    chosen = checked_text(value, "the format", 16) or "json"
    if chosen not in EXPORT_FORMATS:
        raise refused(ErrorKind.BAD_REQUEST, f"the format must be json or csv, not {chosen!r}")
    return chosen


# ---------------------------------------------------------------- encoding


def when(value: datetime | None) -> str:
    return iso(value) or ""


def match_info(match: MatchInfo) -> pb.MatchInfo:
    return pb.MatchInfo(
        id=match.id, tournament_id=match.tournament_id or 0, game=match.game, status=match.status,
        seats=[pb.SeatRecord(seat=s.seat, bot=s.bot, score=s.score or 0.0, rank=s.rank or 0,
                             fault=FAULT_NUMBERS.get(s.fault, pb.FAULT_NONE))
               for s in match.seats])


def match_record(record: MatchRecord) -> pb.MatchRecord:
    """A match with the events of its log as shown (none: it has no final log yet)."""
    answer = pb.MatchRecord(match=match_info(record.match))
    if record.lines is not None:
        codec = codec_for(record.match.game)
        answer.events.extend(codec.event(line.value) for line in record.lines
                             if line.kind == "event")
    answer.notes.extend(pb.DecisionNote(decision=number, seat=line.seat or 0, note=line.note,
                                        note_cut=line.note_cut) for number, line in record.notes)
    return answer


def bot_info(bot: BotInfo, author: str) -> pb.BotInfo:
    """A bot version, with its author's name (empty: the operator's)."""
    return pb.BotInfo(id=bot.id, name=bot.name, version=bot.version, command=bot.command,
                      remote=bot.remote, content_hash=bot.content_hash or "",
                      games=list(bot.games or ()), created_at=when(bot.created_at),
                      author=author)


def tournament_info(progress: Progress, note: str) -> pb.TournamentInfo:
    """A tournament and how far it has got, with ``note``: why the server's scheduler
    stopped playing it, if it did."""
    t, sprt = progress.tournament, progress.sprt
    return pb.TournamentInfo(id=t.id, game=t.game, status=str(t.status), players=t.players,
                             matches=t.total, finished=t.finished, bots=list(t.bots),
                             format=progress.kind, void=progress.counts.get(MatchStatus.VOID, 0),
                             created_at=when(t.created_at), note=note,
                             finished_at=when(t.finished_at),
                             scrimmage=t.settings.get("scrimmage_of") is not None,
                             sprt=None if sprt is None else pb.SprtProgress(
                                 sets=sprt["sets"], decision=sprt["decision"] or "",
                                 llr=sprt["llr"], lower=sprt["lower"], upper=sprt["upper"]))


def leaderboard_row(row: LeaderboardRow) -> pb.LeaderboardRow:
    return pb.LeaderboardRow(game=row.game, bot=row.label, mu=row.mu, sigma=row.sigma,
                             conservative=row.conservative, matches=row.matches, wins=row.wins,
                             faults=row.faults, pool=row.pool, name=row.name,
                             version=row.version, bot_id=row.bot_id)


def ladder(view: LadderView) -> pb.Ladder:
    return pb.Ladder(id=view.id, game=view.game, status=view.status, matches=view.matches,
                     versions=[pb.LadderVersion(bot=v.bot, mu=v.mu, sigma=v.sigma,
                                                matches=v.matches, suspended=v.suspended or "")
                               for v in view.versions])


WatchEvents = tuple[MatchInfo, list[pb.GameEvent], list[pb.GameEvent]]
"""A watched match's snapshot encoded: the match, its public events and all its events."""


def watch_events(snapshot: Snapshot) -> WatchEvents:
    """The events of a watched match's snapshot, public ones and all of them (a watch with
    ``all_hands``, where the secrecy rule allows it), encoded once for every watch of it."""
    codec = codec_for(snapshot.match.game)
    logged = [(codec.event(event), public)
              for event, public in logged_events(snapshot.match.game, snapshot.log)]
    return snapshot.match, [event for event, public in logged if public], \
        [event for event, _ in logged]


def refusal_text(refused: Refusal) -> str:
    """A refusal of :mod:`arena.app.visibility` in the operator service's words."""
    if refused.public_meanwhile:
        return f"{refused.text} (WatchMatch shows its public view meanwhile)"
    return refused.text


def watch_refusal(err: FeedRefused, who: Caller) -> str:
    if err.cap == "client":
        return f"{who} has {err.limit} WatchMatch streams open already; close one first"
    return f"{err.limit} WatchMatch streams are open; try again later"
