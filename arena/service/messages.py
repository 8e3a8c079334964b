"""The operator service's messages: a request's fields checked and decoded (every field is
hostile: one line saying what is wrong, as an :class:`~arena.errors.ArenaError` of kind
``BAD_REQUEST``), and the store's records encoded as answers. :mod:`arena.service.operator`'s
servicers call these, then one use case."""

from __future__ import annotations

import math
from datetime import datetime
from typing import Any

from arena.app.live import FeedRefused, Snapshot
from arena.app.tournaments import TournamentRequest
from arena.app.visibility import Refusal
from arena.app.watch import public_events
from arena.errors import ArenaError, ErrorKind
from arena.players.limits import DEFAULT_LIMIT_TEXTS, LimitTexts
from arena.service.auth import Caller
from arena.storage.store import BotInfo, MatchInfo, check_bot_name
from arena.tournament import Plan
from arena.tournament.formats import GAUNTLET, ROUND_ROBIN, VERSUS
from arena.v1 import arena_pb2 as pb
from arena.wire.codec import codec_for
from arena.wire.messages import FAULT_NUMBERS
from leaderboard.documents import iso

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
        limits=limits, **sent)


# ---------------------------------------------------------------- encoding


def when(value: datetime | None) -> str:
    return iso(value) or ""


def match_info(match: MatchInfo) -> pb.MatchInfo:
    return pb.MatchInfo(
        id=match.id, tournament_id=match.tournament_id or 0, game=match.game, status=match.status,
        seats=[pb.SeatRecord(seat=s.seat, bot=s.bot, score=s.score or 0.0, rank=s.rank or 0,
                             fault=FAULT_NUMBERS.get(s.fault, pb.FAULT_NONE))
               for s in match.seats])


def bot_info(bot: BotInfo, authors: dict[int, str]) -> pb.BotInfo:
    return pb.BotInfo(id=bot.id, name=bot.name, version=bot.version, command=bot.command,
                      remote=bot.remote, content_hash=bot.content_hash or "",
                      games=list(bot.games or ()), created_at=when(bot.created_at),
                      author="" if bot.author_id is None else authors.get(bot.author_id, ""))


def watch_events(snapshot: Snapshot) -> tuple[MatchInfo, list[pb.GameEvent]]:
    """The public events of a watched match's snapshot, encoded once for every watch of it."""
    codec = codec_for(snapshot.match.game)
    return snapshot.match, [codec.event(event)
                            for event in public_events(snapshot.match.game, snapshot.log)]


def refusal_text(refused: Refusal) -> str:
    """A refusal of :mod:`arena.app.visibility` in the operator service's words."""
    if refused.public_meanwhile:
        return f"{refused.text} (WatchMatch shows its public view meanwhile)"
    return refused.text


def watch_refusal(err: FeedRefused, who: Caller) -> str:
    if err.cap == "client":
        return f"{who} has {err.limit} WatchMatch streams open already; close one first"
    return f"{err.limit} WatchMatch streams are open; try again later"
