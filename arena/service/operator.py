"""The operator-facing gRPC service: bots and their submission, tournaments (queued for the
server's scheduler), matches and their live public view, logs and leaderboards.

Thin servicers: check the request (every field is hostile: one clear message, the
proper status code), call the layers below, encode. Who may call what is
:mod:`arena.service.auth`'s; domain errors become status codes in :func:`_status`.
``arena serve`` serves it (:mod:`arena.service.serve`).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import math
from collections.abc import AsyncIterator, Callable
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn, TypeVar

import grpc

from arena.app import bots, tournaments, visibility
from arena.app.live import PENDING_LIMIT_S, FeedRefused, LiveFeeds, Snapshot
from arena.app.tournaments import TournamentRequest
from arena.app.visibility import Refusal, Sight
from arena.app.watch import public_events
from arena.errors import ArenaError, ErrorKind
from arena.games import all_games, get_game
from arena.match.replay import read_log, view
from arena.players import builds, submissions
from arena.players.limits import DEFAULT_LIMIT_TEXTS, LimitTexts
from arena.service.auth import Caller, OperatorAuth, caller, may_read_log
from arena.storage.store import (
    BotInfo,
    MatchInfo,
    MatchStatus,
    NotFoundError,
    Store,
    StoreError,
    TournamentInfo,
    check_bot_name,
)
from arena.tournament import Plan
from arena.tournament.formats import (
    GAUNTLET,
    ROUND_ROBIN,
    VERSUS,
    Format,
    sprt_summary,
)
from arena.tournament.scheduler import Scheduler
from arena.tournament.setup import name_version
from arena.v1 import arena_pb2 as pb
from arena.v1 import arena_pb2_grpc as pb_grpc
from arena.wire.codec import codec_for
from arena.wire.messages import FAULT_NUMBERS
from leaderboard.documents import iso
from leaderboard.reports import tournament_leaderboard, tournament_report

if TYPE_CHECKING:
    Context = grpc.aio.ServicerContext[Any, Any]

T = TypeVar("T")

CHUNK_BYTES = 64 * 1024
"""The largest chunk of an archive a client sends in one SubmitBot message."""
MAX_UPLOADS = 4
"""Uploads received (and their archives checked) at once; more are RESOURCE_EXHAUSTED (each
may hold 20 MiB). A build does not hold its upload's place: another author can upload while
one's build runs."""
MAX_BUILDS = 2
"""Builds of requirements at once (each may hold a CPU and 1 GiB: see
:mod:`arena.players.buildbox`); more wait their turn, holding no upload place. An author has
one submission under way at a time: a second one meanwhile is RESOURCE_EXHAUSTED."""
MAX_WATCHERS = 64
"""WatchMatch streams of authors open at once (the operator's are not counted)."""
MAX_WATCHES_PER_AUTHOR = 8
"""WatchMatch streams one author may have open at once: one cannot hold every place."""
LOG_BYTES, MAX_LOG_BYTES = bots.LOG_BYTES, 1024 * 1024
"""ReadBotLog: the end of each log sent by default, and at most."""
MAX_MATCHES = 100_000
"""The largest tournament CreateTournament queues."""
MAX_NAMES, MAX_TEXT = 64, 200
"""At most this many bots (and field bots, and options) in a request; this many characters a name."""
MAX_CLOCK_S = 3600.0
BUILD_LOG_KEY = "arena-build-log-bin"
"""Trailing metadata of a SubmitBot refused because its requirements did not install: the
end of pip's log."""


def _refused(kind: ErrorKind, message: str) -> ArenaError:
    """A request refused: one line, and its kind (its status code: :mod:`arena.errors`)."""
    return ArenaError(message, kind=kind)


def _status(err: Exception) -> grpc.StatusCode:
    """The status code of an error: a domain error's kind's (:mod:`arena.errors`), else
    INTERNAL."""
    if isinstance(err, ArenaError):
        return grpc.StatusCode[err.kind.grpc_status]
    return grpc.StatusCode.INTERNAL


async def _abort(context: Context, err: Exception) -> NoReturn:
    await context.abort(_status(err), str(err))
    raise AssertionError("abort returned")  # pragma: no cover


async def _read(context: Context, read: Callable[[], T]) -> T:
    """Run a store read in a worker thread (the event loop serves every other call meanwhile,
    and the scheduler's matches in ``arena serve``); its errors become NOT_FOUND (unknown ids)
    or UNAVAILABLE (the database)."""
    try:
        return await asyncio.to_thread(read)
    except StoreError as err:
        await _abort(context, err)


async def _who(context: Context) -> Caller:
    who = caller()
    if who is None:  # served without the interceptor: nobody is let in
        await context.abort(grpc.StatusCode.UNAUTHENTICATED, "this call was not authenticated")
        raise AssertionError("abort returned")  # pragma: no cover
    return who


# ---------------------------------------------------------------- checking requests


def _text(value: str, what: str, limit: int = MAX_TEXT) -> str:
    if len(value) > limit:
        raise _refused(ErrorKind.BAD_REQUEST,
                       f"{what} is {len(value)} characters long; at most {limit}")
    if any(ord(c) < 32 or ord(c) == 127 for c in value):
        raise _refused(ErrorKind.BAD_REQUEST, f"{what} holds a control character")
    return value


def _name(text: str, what: str) -> str:
    """A bot's name, version or label, as the store allows them; INVALID_ARGUMENT if not."""
    check_bot_name(text, what)
    return text


def _names(values: Any, what: str) -> list[str]:
    names = list(values)
    if len(names) > MAX_NAMES:
        raise _refused(ErrorKind.BAD_REQUEST,
                       f"{len(names)} {what}; at most {MAX_NAMES}")
    return [_text(name, what) for name in names]


def _id(value: int, what: str) -> int:
    if value <= 0:
        raise _refused(ErrorKind.BAD_REQUEST, f"{what} must be a positive id, not {value}")
    return value


def _clock(value: float, flag: str) -> float:
    if not value <= MAX_CLOCK_S:  # a NaN too
        raise _refused(ErrorKind.BAD_REQUEST,
                       f"{flag} must be a number of seconds from 0 to {MAX_CLOCK_S:g}, not {value:g}")
    return value


def _schedule_bound(plan: Plan, bots: int, field: int, players: int, repetitions: int,
                    sets: int | None) -> int:
    """More matches than a tournament of these sizes can have (never fewer)."""
    if plan.kind == VERSUS:
        return (sets or 2000) * players
    if plan.kind == GAUNTLET:
        return bots * math.comb(field + players - 2, max(players - 1, 0)) * players * repetitions
    return math.comb(bots + players - 1, players) * players * repetitions


def _tournament_request(request: pb.CreateTournamentRequest) -> TournamentRequest:
    """The request decoded, within the server's caps (every field is hostile); a field not
    sent keeps :class:`TournamentRequest`'s default. Everything else is checked once, where
    ``arena tournament create`` has it checked: :mod:`arena.tournament.setup`."""
    bots = _names(request.bots, "bots")
    if not bots:
        raise _refused(ErrorKind.BAD_REQUEST, "name the bots: at least one")
    if len(request.options) > MAX_NAMES:
        raise _refused(ErrorKind.BAD_REQUEST,
                       f"{len(request.options)} options; at most {MAX_NAMES}")
    sent: dict[str, Any] = {name: getattr(request, name) for name in (
        "players", "repetitions", "sets", "seed", "parallel", "move_timeout_s",
        "start_timeout_s", "time_bank_s", "event_delay_s") if request.HasField(name)}
    if not 1 <= sent.get("parallel", 1) <= 256:
        raise _refused(ErrorKind.BAD_REQUEST,
                       f"parallel must be from 1 to 256, not {request.parallel}")
    if not 1 <= sent.get("repetitions", 1) <= 10_000:
        raise _refused(ErrorKind.BAD_REQUEST,
                       f"repetitions must be from 1 to 10,000, not {request.repetitions}")
    if not 1 <= sent.get("sets", 1) <= 100_000:
        raise _refused(ErrorKind.BAD_REQUEST, f"sets must be from 1 to 100,000, not {request.sets}")
    if sent.get("seed", 0) >= 2**63:
        raise _refused(ErrorKind.BAD_REQUEST, "the seed must be below 2**63")
    for name in ("move_timeout_s", "start_timeout_s", "time_bank_s", "event_delay_s"):
        if name in sent:
            sent[name] = _clock(float(sent[name]), name)
    defaults = DEFAULT_LIMIT_TEXTS
    limits = LimitTexts(*(_text(getattr(request, f"bot_{name}"), "a bot limit", 32)
                          or getattr(defaults, name)
                          for name in ("memory", "cpu_seconds", "processes", "cpus",
                                       "open_files")))
    sprt = _text(request.sprt, "sprt", 100)
    return TournamentRequest(
        game=_text(request.game, "the game", 64), bots=bots,
        field=_names(request.field, "field bots"),
        options={_text(k, "an option's name", 64): _text(v, "an option's value", 64)
                 for k, v in request.options.items()},
        format=_text(request.format, "the format", 32) or ROUND_ROBIN, sprt=sprt or None,
        deals=_text(request.deals, "deals", 32) or None, deals_from_seed=request.deals_from_seed,
        limits=limits, **sent)


# ---------------------------------------------------------------- encoding


def _when(value: datetime | None) -> str:
    return iso(value) or ""


def _match_info(match: MatchInfo) -> pb.MatchInfo:
    return pb.MatchInfo(
        id=match.id, tournament_id=match.tournament_id or 0, game=match.game, status=match.status,
        seats=[pb.SeatRecord(seat=s.seat, bot=s.bot, score=s.score or 0.0, rank=s.rank or 0,
                             fault=FAULT_NUMBERS.get(s.fault, pb.FAULT_NONE))
               for s in match.seats])


def _bot_info(bot: BotInfo, authors: dict[int, str]) -> pb.BotInfo:
    return pb.BotInfo(id=bot.id, name=bot.name, version=bot.version, command=bot.command,
                      remote=bot.remote, content_hash=bot.content_hash or "",
                      games=list(bot.games or ()), created_at=_when(bot.created_at),
                      author="" if bot.author_id is None else authors.get(bot.author_id, ""))


def _watch_events(snapshot: Snapshot) -> tuple[MatchInfo, list[pb.GameEvent]]:
    """The public events of a watched match's snapshot, encoded once for every watch of it."""
    codec = codec_for(snapshot.match.game)
    return snapshot.match, [codec.event(event)
                            for event in public_events(snapshot.match.game, snapshot.log)]


def _refusal_text(refused: Refusal) -> str:
    """A refusal of :mod:`arena.app.visibility` in the operator service's words."""
    if refused.public_meanwhile:
        return f"{refused.text} (WatchMatch shows its public view meanwhile)"
    return refused.text


def _watch_refusal(err: FeedRefused, who: Caller) -> str:
    if err.cap == "client":
        return f"{who} has {err.limit} WatchMatch streams open already; close one first"
    return f"{err.limit} WatchMatch streams are open; try again later"


class OperatorServicer(pb_grpc.OperatorServiceServicer):  # type: ignore[misc]
    """The operator service over the store; ``data_dir`` is the arena's data folder (bot logs,
    submitted code), ``scheduler`` the server's (None: tournaments are queued for whoever
    plays them)."""

    def __init__(self, store: Store, data_dir: Path | None = None,
                 scheduler: Scheduler | None = None) -> None:
        self.store = store
        self.data_dir = data_dir if data_dir is not None else Path("arena-data").resolve()
        self.scheduler = scheduler
        self._uploads = asyncio.Semaphore(MAX_UPLOADS)
        self._builds = asyncio.Semaphore(MAX_BUILDS)
        self._submitting: set[int] = set()  # authors with a submission under way
        self._building: set[int] = set()  # of those, the ones whose build runs
        self._watches = LiveFeeds(store, _watch_events, total=MAX_WATCHERS, per_match=None,
                                  per_client=MAX_WATCHES_PER_AUTHOR)

    def _authors(self) -> dict[int, str]:
        return bots.authors_by_id(self.store)

    # ---------------------------------------------------------------- bots

    async def ListBots(self, request: pb.ListBotsRequest, context: Context) -> pb.ListBotsResponse:
        bots = await _read(context, self.store.list_bots)
        authors = await _read(context, self._authors)
        return pb.ListBotsResponse(bots=[_bot_info(b, authors) for b in bots])

    async def SubmitBot(self, requests: AsyncIterator[pb.SubmitBotRequest],
                        context: Context) -> pb.SubmitBotResponse:
        """Receive an archive (refused as soon as it goes over the cap), check it as ``arena
        bot submit`` does, keep it, build its requirements. The upload's place is given back
        before the build; an author's second submission while one is under way is refused."""
        who = await _who(context)
        author = who.author_id
        if author is not None and author in self._submitting:
            await context.abort(grpc.StatusCode.RESOURCE_EXHAUSTED,
                                "a submission of yours is under way; submit again once it is "
                                "done")
        if self._uploads.locked():
            await context.abort(grpc.StatusCode.RESOURCE_EXHAUSTED,
                                f"{MAX_UPLOADS} uploads are under way; try again in a moment")
        if author is not None:
            self._submitting.add(author)
        try:
            try:
                async with self._uploads:
                    label, data = await self._receive(requests)
                    submission = await asyncio.to_thread(submissions.read_archive, data,
                                                         list(all_games()))
                return await self._submit(who, label, submission, context)
            except ArenaError as err:
                await _abort(context, err)
        finally:
            if author is not None and author not in self._building:  # else: when it ends
                self._submitting.discard(author)

    async def _receive(self, requests: AsyncIterator[pb.SubmitBotRequest]) -> tuple[str | None, bytes]:
        label: str | None = None
        chunks: list[bytes] = []
        size, first = 0, True
        async for request in requests:
            if first:
                label = _text(request.label, "the label", 64) or None
                if label is not None:
                    _name(label, "label")
                first = False
            elif request.label:
                raise _refused(ErrorKind.BAD_REQUEST,
                               "the label goes in the first message only")
            size += len(request.data)
            if size > submissions.MAX_ARCHIVE_BYTES:  # refused now: the rest is never read
                raise _refused(ErrorKind.BUSY,
                               f"the archive is over {submissions.MAX_ARCHIVE_BYTES:,} bytes; an "
                               f"archive may hold at most {submissions.MAX_ARCHIVE_BYTES:,}")
            chunks.append(request.data)
        if size == 0:
            raise _refused(ErrorKind.BAD_REQUEST,
                           "no archive came: send a .zip or .tar.gz of the bot's folder")
        return label, b"".join(chunks)

    async def _submit(self, who: Caller, label: str | None, submission: submissions.Submission,
                      context: Context) -> pb.SubmitBotResponse:
        manifest = submission.manifest
        _name(manifest.name, "bot name")

        # a store read, in a worker thread; another author's name is refused before any build
        same = await asyncio.to_thread(bots.same_code, self.store, submission, who.author_id)
        if same is not None:
            authors = await asyncio.to_thread(self._authors)
            return pb.SubmitBotResponse(bot=_bot_info(same, authors), new=False,
                                        files=submission.files, size=submission.size)
        try:
            _installed, built_s = await self._install(who.author_id, submission)
        except submissions.BuildError as err:
            context.set_trailing_metadata(((BUILD_LOG_KEY, err.log.encode()[-16_384:]),))
            raise submissions.SubmissionError(f"submission of {manifest.name} refused: {err}") \
                from None
        bot, new = await asyncio.to_thread(bots.record, self.store, submission, label,
                                           who.author_id)
        authors = await asyncio.to_thread(self._authors)
        return pb.SubmitBotResponse(bot=_bot_info(bot, authors), new=new,
                                    files=submission.files, size=submission.size,
                                    build_s=built_s or 0.0)

    async def _install(self, author: int | None, submission: submissions.Submission) -> \
            tuple[builds.Installed, float | None]:
        """Install a submission (its build waits for one of :data:`MAX_BUILDS` turns). The build
        goes on to its end even if the caller goes away (a thread cannot be stopped): it keeps
        its turn, and its author's one submission under way, until then, so a caller that
        hangs up cannot start builds without bound."""
        async def run() -> tuple[builds.Installed, float | None]:
            async with self._builds if submission.manifest.requirements is not None \
                    else contextlib.nullcontext():
                return await asyncio.to_thread(
                    builds.install, submission, self.data_dir / submissions.SUBMITTED_DIR)

        job = asyncio.ensure_future(run())
        if author is not None:
            self._building.add(author)

        def done(finished: asyncio.Future[tuple[builds.Installed, float | None]]) -> None:
            if author is not None:
                self._building.discard(author)
                self._submitting.discard(author)
            if not finished.cancelled():
                finished.exception()  # seen here, if nobody waits for it any more

        job.add_done_callback(done)
        return await asyncio.shield(job)

    async def ReadBotLog(self, request: pb.ReadBotLogRequest,
                         context: Context) -> pb.ReadBotLogResponse:
        """The end of a bot version's captured output: the operator's any bot, an author's own."""
        who = await _who(context)
        try:
            name, version = name_version(_text(request.bot, "the bot"))
            _name(name, "bot name")
            if version is not None:
                _name(version, "bot version")
            limit = request.max_bytes or LOG_BYTES
            if limit > MAX_LOG_BYTES:
                raise _refused(ErrorKind.BAD_REQUEST,
                               f"max_bytes may be at most {MAX_LOG_BYTES:,}, not {limit:,}")
            bot = self.store.get_bot(name, version)
            if not may_read_log(who, bot.author_id):
                raise _refused(ErrorKind.NOT_ALLOWED,
                               f"the log of {bot.label} is for its author and the operator only: "
                               f"{who} may read the logs of their own bots")
        except ArenaError as err:
            await _abort(context, err)
        files = await asyncio.to_thread(bots.log_files, self.data_dir, bot.label, limit)
        return pb.ReadBotLogResponse(bot=bot.label, files=[
            pb.BotLogFile(name=f.name, text=f.text, truncated=f.truncated) for f in files])

    # ---------------------------------------------------------------- tournaments

    async def ListTournaments(self, request: pb.ListTournamentsRequest,
                              context: Context) -> pb.ListTournamentsResponse:
        tournaments = await _read(context, self.store.list_tournaments)
        counts = await _read(context, self.store.tournament_match_counts)
        return pb.ListTournamentsResponse(tournaments=[
            self._tournament_info(t, counts.get(t.id, {}).get(MatchStatus.VOID, 0))
            for t in tournaments])

    def _tournament_info(self, t: TournamentInfo, void: int) -> pb.TournamentInfo:
        note = "" if self.scheduler is None else self.scheduler.notes.get(t.id, "")
        sprt = sprt_summary(t.settings, t.finished, t.players)
        return pb.TournamentInfo(id=t.id, game=t.game, status=str(t.status), players=t.players,
                                 matches=t.total, finished=t.finished, bots=list(t.bots),
                                 format=Format.from_settings(t.settings).kind, void=void,
                                 created_at=_when(t.created_at), note=note,
                                 finished_at=_when(t.finished_at),
                                 sprt=None if sprt is None else pb.SprtProgress(
                                     sets=sprt["sets"], decision=sprt["decision"] or "",
                                     llr=sprt["llr"], lower=sprt["lower"], upper=sprt["upper"]))

    async def GetTournament(self, request: pb.GetTournamentRequest,
                            context: Context) -> pb.TournamentReport:
        try:
            tournament_id = _id(request.tournament_id, "tournament_id")
        except ArenaError as err:
            await _abort(context, err)

        def report() -> tuple[TournamentInfo, dict[str, Any], int]:
            info = self.store.get_tournament(tournament_id)
            counts = self.store.match_counts([info.id]).get(info.id, {})
            return info, tournament_report(self.store, info, counts), counts.get(MatchStatus.VOID, 0)

        info, document, void = await _read(context, report)
        if self.scheduler is not None and info.id in self.scheduler.notes:
            document["note"] = self.scheduler.notes[info.id]
        return pb.TournamentReport(tournament=self._tournament_info(info, void),
                                   report_json=json.dumps(document, default=str))

    async def CreateTournament(self, request: pb.CreateTournamentRequest,
                               context: Context) -> pb.TournamentInfo:
        """Queue a tournament, checked as ``arena tournament run`` checks one; the scheduler
        is woken to play it."""
        said: list[str] = []
        try:
            asked = _tournament_request(request)
            game = get_game(asked.game)
            plan = asked.plan()
            players = asked.players if asked.players is not None else game.default_players
            game.check_players(players)
            bound = _schedule_bound(plan, len(asked.bots), len(asked.field), players,
                                    asked.repetitions, asked.sets)
            if bound > MAX_MATCHES:
                raise _refused(ErrorKind.BAD_REQUEST,
                               f"that tournament could have up to {bound:,} matches; the server "
                               f"queues at most {MAX_MATCHES:,}: fewer bots or repetitions")
            info = await asyncio.to_thread(tournaments.create, self.store, asked,
                                           notice=said.append, queued=True)
        except ArenaError as err:
            await _abort(context, err)
        if said:
            context.set_trailing_metadata(tuple(("arena-warning", text.encode("ascii", "replace")
                                                 .decode()) for text in said))
        if self.scheduler is not None:
            self.scheduler.wake()
        return self._tournament_info(info, 0)

    async def CancelTournament(self, request: pb.CancelTournamentRequest,
                               context: Context) -> pb.CancelTournamentResponse:
        """Stop a tournament: the scheduler's matches in play are abandoned, every unfinished
        match is void, the finished ones still count."""
        try:
            tournament_id = _id(request.tournament_id, "tournament_id")
            if self.scheduler is not None:
                voided = await self.scheduler.cancel_tournament(tournament_id)
            else:
                voided = await asyncio.to_thread(self.store.cancel_tournament, tournament_id)
        except ArenaError as err:
            await _abort(context, err)
        return pb.CancelTournamentResponse(voided=voided)

    # ---------------------------------------------------------------- matches

    async def ListMatches(self, request: pb.ListMatchesRequest,
                          context: Context) -> pb.ListMatchesResponse:
        limit = request.limit or 100
        if limit > 10_000:
            await context.abort(grpc.StatusCode.INVALID_ARGUMENT,
                                f"limit may be at most 10,000, not {limit:,}")

        def listed() -> pb.ListMatchesResponse:
            # read, encoded and freed in the worker thread: 10,000 matches held the loop 0.1 s
            matches = self.store.list_matches(request.tournament_id or None, limit)
            return pb.ListMatchesResponse(matches=[_match_info(m) for m in matches])

        return await _read(context, listed)

    async def GetMatch(self, request: pb.GetMatchRequest, context: Context) -> pb.MatchRecord:
        """A match and its events: one seat's view, or the public view (everything once over),
        as :mod:`arena.app.visibility` allows (for an author: a seat's view or a finished
        match only once every rotation of its deal is over too)."""
        who = await _who(context)
        match = await _read(context, lambda: self.store.get_match(request.match_id))
        seat = request.seat if request.HasField("seat") else None
        if seat is not None and not 0 <= seat < len(match.seats):
            await context.abort(grpc.StatusCode.INVALID_ARGUMENT, f"no seat {seat} in this match")
        sight = Sight.SEAT if seat is not None else \
            Sight.FULL if match.status == MatchStatus.FINISHED else Sight.PUBLIC
        refused = await _read(context, lambda: visibility.refusal(
            self.store, match, sight, operator=who.operator))
        if refused is not None:
            await context.abort(grpc.StatusCode.PERMISSION_DENIED, _refusal_text(refused))
        record = pb.MatchRecord(match=_match_info(match))
        if match.log is not None:
            log = match.log

            def events() -> list[pb.GameEvent]:  # a whole log decoded: in a worker thread
                lines = read_log(match.game, log)
                if seat is None and match.status != MatchStatus.FINISHED:
                    lines = [line for line in lines if line.audience is None]
                codec = codec_for(match.game)
                return [codec.event(line.value) for line in view(lines, seat)
                        if line.kind == "event"]

            record.events.extend(await asyncio.to_thread(events))
        return record

    async def WatchMatch(self, request: pb.WatchMatchRequest,
                         context: Context) -> AsyncIterator[pb.MatchUpdate]:
        """The public events of a match as it is played, then its end, as
        :mod:`arena.app.visibility` allows (nothing of a finished match while another rotation
        of its deal is unfinished: such a watch ends PERMISSION_DENIED). Fed by one reader per
        match (:mod:`arena.app.live`); an author may hold :data:`MAX_WATCHES_PER_AUTHOR` watches
        at once, and authors :data:`MAX_WATCHERS` in all (the operator's are not counted); a
        watch of a match that has not started ends DEADLINE_EXCEEDED after
        :data:`arena.app.live.PENDING_LIMIT_S`."""
        who = await _who(context)
        match_id = request.match_id
        if match_id <= 0:
            await context.abort(grpc.StatusCode.INVALID_ARGUMENT,
                                f"match_id must be a positive id, not {match_id}")
        try:
            feed = self._watches.open(match_id, None if who.operator else f"author {who.author_id}")
        except FeedRefused as err:
            await context.abort(grpc.StatusCode.RESOURCE_EXHAUSTED, _watch_refusal(err, who))
            raise AssertionError("abort returned") from None  # pragma: no cover
        with feed:
            sent, first = 0, True
            try:
                async for update in feed.updates():
                    assert update is not None  # no keep-alives asked for
                    match, events = update.value
                    refused = visibility.may_show(match.id, match.status, Sight.PUBLIC,
                                                  operator=who.operator,
                                                  in_play=update.snapshot.in_play)
                    if refused is not None:
                        await context.abort(grpc.StatusCode.PERMISSION_DENIED, refused.text)
                    over = update.snapshot.over
                    if first and not over:  # the match as it stands, before any event
                        yield pb.MatchUpdate(match=_match_info(match))
                    first = False
                    if over or len(events) > sent:
                        yield pb.MatchUpdate(match=_match_info(match), ended=over,
                                             events=events[sent:])
                        sent = len(events)
            except StoreError as err:
                await _abort(context, err)
            if feed.expired:
                await context.abort(grpc.StatusCode.DEADLINE_EXCEEDED,
                                    f"match {match_id} has not started after "
                                    f"{PENDING_LIMIT_S:g} s: watch it again once it runs")

    # ---------------------------------------------------------------- ratings

    async def Leaderboard(self, request: pb.LeaderboardRequest,
                          context: Context) -> pb.LeaderboardResponse:
        try:
            game = get_game(_text(request.game, "the game", 64)).name if request.game else None
            pool = _text(request.pool, "the pool", 200) or None
        except ArenaError as err:
            await _abort(context, err)
        if request.tournament_id:
            def of_tournament() -> list[Any]:
                info = self.store.get_tournament(request.tournament_id)
                if game is not None and game != info.game:
                    raise NotFoundError(f"tournament {info.id} is a {info.game} tournament, "
                                        f"not {game}")
                return tournament_leaderboard(self.store, info)
            rows = await _read(context, of_tournament)
        else:
            rows = await _read(context, lambda: self.store.leaderboard(game, pool=pool))
        return pb.LeaderboardResponse(rows=[
            pb.LeaderboardRow(game=r.game, bot=r.label, mu=r.mu, sigma=r.sigma,
                              conservative=r.conservative, matches=r.matches, wins=r.wins,
                              faults=r.faults, pool=r.pool, name=r.name, version=r.version,
                              bot_id=r.bot_id) for r in rows])


__all__ = ["BUILD_LOG_KEY", "CHUNK_BYTES", "OperatorAuth", "OperatorServicer"]
