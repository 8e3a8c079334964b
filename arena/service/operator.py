"""The operator-facing gRPC service: bots and their submission, tournaments (queued for the
server's scheduler), matches and their live public view, logs and leaderboards.

Thin servicers: check and decode the request (every field is hostile: one clear message, the
proper status code; :mod:`arena.service.messages`), call one use case of :mod:`arena.app`
(store reads in a worker thread, through :func:`_read`), encode the answer. Who may call what is
:mod:`arena.service.auth`'s; domain errors become status codes in :func:`_status`.
``arena serve`` serves it (:mod:`arena.service.serve`).
"""

from __future__ import annotations

import asyncio
import functools
import json
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn, TypeVar

import grpc

from arena.app import boards, bots, documents, ladders, matches, reports, submitting, tournaments
from arena.app.live import PENDING_LIMIT_S, FeedRefused, LiveFeeds, not_started
from arena.app.matches import Hidden
from arena.app.reports import Progress
from arena.app.scrimmages import SCRIMMAGES, ScrimmageDesk, ScrimmageRequest, ScrimmageRules
from arena.app.validation import NOT_VALIDATED, ValidationRules
from arena.app.visibility import Sight
from arena.errors import ArenaError, ErrorKind
from arena.games import get_game
from arena.players import submissions
from arena.service import reads
from arena.service.auth import Caller, OperatorAuth, caller, may_read_log
from arena.service.messages import (
    bot_info,
    checked_id,
    checked_name,
    checked_names,
    checked_text,
    export_format,
    ladder,
    leaderboard_row,
    match_info,
    match_record,
    refusal_text,
    refused,
    schedule_bound,
    tournament_info,
    tournament_request,
    watch_events,
    watch_refusal,
)
from arena.storage.store import Store, StoreError
from arena.tournament.scheduler import Scheduler
from arena.tournament.setup import name_version
from arena.v1 import arena_pb2 as pb
from arena.v1 import arena_pb2_grpc as pb_grpc

if TYPE_CHECKING:
    Context = grpc.aio.ServicerContext[Any, Any]

T = TypeVar("T")

CHUNK_BYTES = 64 * 1024
"""The largest chunk of an archive a client sends in one SubmitBot message, and of an export
the server sends in one ExportTournament message."""
MAX_WATCHERS = 64
"""WatchMatch streams of authors open at once (the operator's are not counted)."""
MAX_WATCHES_PER_AUTHOR = 8
"""WatchMatch streams one author may have open at once: one cannot hold every place."""
LOG_BYTES, MAX_LOG_BYTES = bots.LOG_BYTES, 1024 * 1024
"""ReadBotLog: the end of each log sent by default, and at most."""
MAX_MATCHES = 100_000
"""The largest tournament CreateTournament queues."""
BUILD_LOG_KEY = "arena-build-log-bin"
"""Trailing metadata of a SubmitBot refused because its requirements did not install: the
end of pip's log."""


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
    """Run a store read off the event loop (which serves every other call meanwhile, and the
    scheduler's matches in ``arena serve``): in a reader process of ``arena serve`` when it
    pickles (a store method, a ``functools.partial`` of a module-level function over the store:
    :mod:`arena.service.reads`), else in a worker thread; its errors become NOT_FOUND (unknown
    ids) or UNAVAILABLE (the database)."""
    try:
        return await reads.run(read)
    except StoreError as err:
        await _abort(context, err)


def _listed(store: Store, tournament_id: int | None, limit: int) -> pb.ListMatchesResponse:
    """ListMatches' read, encoded where it runs (10,000 matches held the loop 0.1 s)."""
    return pb.ListMatchesResponse(matches=[match_info(m) for m in
                                           matches.list_matches(store, tournament_id, limit)])


async def _who(context: Context) -> Caller:
    who = caller()
    if who is None:  # served without the interceptor: nobody is let in
        await context.abort(grpc.StatusCode.UNAUTHENTICATED, "this call was not authenticated")
        raise AssertionError("abort returned")  # pragma: no cover
    return who


# ---------------------------------------------------------------- checking requests


class OperatorServicer(pb_grpc.OperatorServiceServicer):  # type: ignore[misc]
    """The operator service over the store; ``data_dir`` is the arena's data folder (bot logs,
    submitted code), ``scheduler`` the server's (None: tournaments are queued for whoever
    plays them)."""

    def __init__(self, store: Store, data_dir: Path | None = None,
                 scheduler: Scheduler | None = None, *,
                 live_wait_s: float = PENDING_LIMIT_S,
                 validation: ValidationRules = NOT_VALIDATED,
                 scrimmages: ScrimmageRules = SCRIMMAGES) -> None:
        self.store = store
        self.data_dir = data_dir if data_dir is not None else Path("arena-data").resolve()
        self.scheduler = scheduler
        # new versions: validated first where ``validation`` says (arena serve's: on)
        self.desk = submitting.SubmissionDesk(store, self.data_dir, validation)
        self.scrimmages = ScrimmageDesk(store, scrimmages)  # authors' limits
        self._watches = LiveFeeds(store, watch_events, total=MAX_WATCHERS, per_match=None,
                                  per_client=MAX_WATCHES_PER_AUTHOR, pending_limit_s=live_wait_s)

    def _authors(self) -> dict[int, str]:
        return bots.authors_by_id(self.store)

    # ---------------------------------------------------------------- bots

    async def ListBots(self, request: pb.ListBotsRequest, context: Context) -> pb.ListBotsResponse:
        listed = await _read(context, lambda: bots.listing(self.store))
        return pb.ListBotsResponse(bots=[bot_info(b, author) for b, author in listed])

    async def SubmitBot(self, requests: AsyncIterator[pb.SubmitBotRequest],
                        context: Context) -> pb.SubmitBotResponse:
        """Receive an archive (refused as soon as it goes over the cap) and hand it to the
        server's submission desk (:mod:`arena.app.submitting`): checked as ``arena bot
        submit`` does, kept, built, validated, recorded. A build or validation that failed
        sends the end of its log in the trailing metadata."""
        who = await _who(context)
        try:
            done = await self.desk.submit(who.author_id, lambda: self._receive(requests))
        except submitting.Refused as err:
            context.set_trailing_metadata(((BUILD_LOG_KEY, err.log.encode()[-16_384:]),))
            await _abort(context, err)
        except ArenaError as err:
            await _abort(context, err)
        return pb.SubmitBotResponse(bot=bot_info(done.bot, done.author), new=done.new,
                                    files=done.files, size=done.size, build_s=done.build_s or 0.0)

    async def _receive(self, requests: AsyncIterator[pb.SubmitBotRequest]) -> tuple[str | None, bytes]:
        label: str | None = None
        chunks: list[bytes] = []
        size, first = 0, True
        async for request in requests:
            if first:
                label = checked_text(request.label, "the label", 64) or None
                if label is not None:
                    checked_name(label, "label")
                first = False
            elif request.label:
                raise refused(ErrorKind.BAD_REQUEST,
                               "the label goes in the first message only")
            size += len(request.data)
            if size > submissions.MAX_ARCHIVE_BYTES:  # refused now: the rest is never read
                raise refused(ErrorKind.BUSY,
                               f"the archive is over {submissions.MAX_ARCHIVE_BYTES:,} bytes; an "
                               f"archive may hold at most {submissions.MAX_ARCHIVE_BYTES:,}")
            chunks.append(request.data)
        if size == 0:
            raise refused(ErrorKind.BAD_REQUEST,
                           "no archive came: send a .zip or .tar.gz of the bot's folder")
        return label, b"".join(chunks)

    async def ReadBotLog(self, request: pb.ReadBotLogRequest,
                         context: Context) -> pb.ReadBotLogResponse:
        """The end of a bot version's captured output: the operator's any bot, an author's own."""
        who = await _who(context)
        try:
            name, version = name_version(checked_text(request.bot, "the bot"))
            checked_name(name, "bot name")
            if version is not None:
                checked_name(version, "bot version")
            limit = request.max_bytes or LOG_BYTES
            if limit > MAX_LOG_BYTES:
                raise refused(ErrorKind.BAD_REQUEST,
                               f"max_bytes may be at most {MAX_LOG_BYTES:,}, not {limit:,}")
            bot = await _read(context, lambda: self.store.get_bot(name, version))
            if not may_read_log(who, bot.author_id):
                raise refused(ErrorKind.NOT_ALLOWED,
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
        listed = await _read(context, lambda: reports.all_tournaments(self.store))
        return pb.ListTournamentsResponse(tournaments=[self._tournament_info(p) for p in listed])

    def _tournament_info(self, progress: Progress) -> pb.TournamentInfo:
        """A tournament's progress, encoded with the scheduler's note on it."""
        notes = {} if self.scheduler is None else self.scheduler.notes
        return tournament_info(progress, notes.get(progress.tournament.id, ""))

    async def GetTournament(self, request: pb.GetTournamentRequest,
                            context: Context) -> pb.TournamentReport:
        try:
            tournament_id = checked_id(request.tournament_id, "tournament_id")
        except ArenaError as err:
            await _abort(context, err)
        report = await _read(context, functools.partial(
            reports.show_tournament, self.store, tournament_id))
        document = documents.report_json(report)
        if self.scheduler is not None and tournament_id in self.scheduler.notes:
            document["note"] = self.scheduler.notes[tournament_id]
        return pb.TournamentReport(tournament=self._tournament_info(report.progress),
                                   report_json=json.dumps(document, default=str))

    async def CreateTournament(self, request: pb.CreateTournamentRequest,
                               context: Context) -> pb.TournamentInfo:
        """Queue a tournament, checked as ``arena tournament run`` checks one; the scheduler
        is woken to play it."""
        said: list[str] = []
        try:
            asked = tournament_request(request)
            game = get_game(asked.game)
            plan = asked.plan()
            players = asked.players if asked.players is not None else game.default_players
            game.check_players(players)
            bound = schedule_bound(plan, len(asked.bots), len(asked.field), players,
                                    asked.repetitions, asked.sets)
            if bound > MAX_MATCHES:
                raise refused(ErrorKind.BAD_REQUEST,
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
        return self._tournament_info(reports.progress_of(info, {}))

    async def CancelTournament(self, request: pb.CancelTournamentRequest,
                               context: Context) -> pb.CancelTournamentResponse:
        """Stop a tournament: the scheduler's matches in play are abandoned, every unfinished
        match is void, the finished ones still count."""
        try:
            tournament_id = checked_id(request.tournament_id, "tournament_id")
            if self.scheduler is not None:
                voided = await self.scheduler.cancel_tournament(tournament_id)
            else:
                voided = await asyncio.to_thread(tournaments.cancel, self.store, tournament_id)
        except ArenaError as err:
            await _abort(context, err)
        return pb.CancelTournamentResponse(voided=voided)

    async def VoidTournament(self, request: pb.VoidTournamentRequest,
                             context: Context) -> pb.VoidTournamentResponse:
        """Take a tournament out of the ratings, as ``arena tournament void`` does."""
        try:
            tournament_id = checked_id(request.tournament_id, "tournament_id")
        except ArenaError as err:
            await _abort(context, err)
        counted = await _read(context, lambda: tournaments.void(self.store, tournament_id))
        return pb.VoidTournamentResponse(counted=counted)

    async def ResumeTournament(self, request: pb.ResumeTournamentRequest,
                               context: Context) -> pb.TournamentInfo:
        """Queue an interrupted tournament again (:func:`arena.app.tournaments.requeue`); the
        scheduler forgets why it stopped playing it, and plays what is left."""
        try:
            tournament_id = checked_id(request.tournament_id, "tournament_id")
            if self.scheduler is not None and self.scheduler.playing(tournament_id):
                progress = await _read(context, lambda: reports.tournament_progress(
                    self.store, tournament_id))
                return self._tournament_info(progress)
            progress = await _read(context, lambda: reports.progress_of(
                tournaments.requeue(self.store, tournament_id), {}))
        except ArenaError as err:
            await _abort(context, err)
        if self.scheduler is not None:
            self.scheduler.notes.pop(tournament_id, None)
            self.scheduler.wake()
        return self._tournament_info(progress)

    async def ExportTournament(self, request: pb.ExportTournamentRequest,
                               context: Context) -> AsyncIterator[pb.ExportChunk]:
        """``arena tournament export``'s text (:func:`arena.app.documents.export_text`), sent in
        chunks of :data:`CHUNK_BYTES`: no message holds a whole large tournament."""
        try:
            tournament_id = checked_id(request.tournament_id, "tournament_id")
            chosen = export_format(request.format)
            export = await _read(context, lambda: documents.export_text(
                self.store, tournament_id, chosen))
        except ArenaError as err:
            await _abort(context, err)
        data = export.text.encode("utf-8")
        for start in range(0, max(len(data), 1), CHUNK_BYTES):
            yield pb.ExportChunk(data=data[start:start + CHUNK_BYTES],
                                 matches=export.matches if start == 0 else 0)

    # ---------------------------------------------------------------- matches

    async def ListMatches(self, request: pb.ListMatchesRequest,
                          context: Context) -> pb.ListMatchesResponse:
        limit = request.limit or 100
        if limit > 10_000:
            await context.abort(grpc.StatusCode.INVALID_ARGUMENT,
                                f"limit may be at most 10,000, not {limit:,}")

        return await _read(context, functools.partial(
            _listed, self.store, request.tournament_id or None, limit))

    async def GetMatch(self, request: pb.GetMatchRequest, context: Context) -> pb.MatchRecord:
        """A match and its events: one seat's view, or the public view (everything once over),
        as :func:`arena.app.matches.match_record` allows (for an author: a seat's view or a
        finished match only once every rotation of its deal is over too)."""
        who = await _who(context)
        seat = request.seat if request.HasField("seat") else None
        try:
            # a whole log decoded and encoded: in a worker thread
            return await _read(context, lambda: match_record(matches.match_record(
                self.store, request.match_id, seat, operator=who.operator,
                author_id=who.author_id)))
        except Hidden as err:
            await context.abort(grpc.StatusCode.PERMISSION_DENIED, refusal_text(err.refusal))
            raise AssertionError("abort returned") from None  # pragma: no cover
        except ArenaError as err:  # a seat the match does not have
            await _abort(context, err)

    async def WatchMatch(self, request: pb.WatchMatchRequest,
                         context: Context) -> AsyncIterator[pb.MatchUpdate]:
        """The public events of a match as it is played (with ``all_hands``, every event: for
        a running match whose deal is sealed), then its end, as :mod:`arena.app.visibility`
        allows (nothing of a finished match while another rotation of its deal is unfinished,
        and no private event where the deal is not sealed: such a watch ends
        PERMISSION_DENIED, saying why). Fed by one reader per
        match (:mod:`arena.app.live`); an author may hold :data:`MAX_WATCHES_PER_AUTHOR` watches
        at once, and authors :data:`MAX_WATCHERS` in all (the operator's are not counted); a
        watch of a match that has not started ends DEADLINE_EXCEEDED after ``live_wait_s``
        (:data:`arena.app.live.PENDING_LIMIT_S` unless ``arena serve --live-wait`` says)."""
        who = await _who(context)
        match_id = request.match_id
        if match_id <= 0:
            await context.abort(grpc.StatusCode.INVALID_ARGUMENT,
                                f"match_id must be a positive id, not {match_id}")
        try:
            feed = self._watches.open(match_id, None if who.operator else f"author {who.author_id}")
        except FeedRefused as err:
            await context.abort(grpc.StatusCode.RESOURCE_EXHAUSTED, watch_refusal(err, who))
            raise AssertionError("abort returned") from None  # pragma: no cover
        sight = Sight.FULL if request.all_hands else Sight.PUBLIC
        with feed:
            sent, first = 0, True
            try:
                async for update in feed.updates():
                    assert update is not None  # no keep-alives asked for
                    match, public, every = update.value
                    events = every if request.all_hands else public
                    refused = matches.feed_refusal(update.snapshot, sight,
                                                   operator=who.operator)
                    if refused is not None:
                        await context.abort(grpc.StatusCode.PERMISSION_DENIED,
                                            refusal_text(refused))
                    over = update.snapshot.over
                    if first and not over:  # the match as it stands, before any event
                        yield pb.MatchUpdate(match=match_info(match))
                    first = False
                    if over or len(events) > sent:
                        yield pb.MatchUpdate(match=match_info(match), ended=over,
                                             events=events[sent:])
                        sent = len(events)
            except StoreError as err:
                await _abort(context, err)
            if feed.expired:
                await context.abort(grpc.StatusCode.DEADLINE_EXCEEDED,
                                    f"{not_started(match_id, feed.pending_limit_s)}: watch it "
                                    "again once it runs")

    # ---------------------------------------------------------------- ratings

    async def Leaderboard(self, request: pb.LeaderboardRequest,
                          context: Context) -> pb.LeaderboardResponse:
        """Every pool's ratings (the client keeps the pools it wants), or one pool's, or one
        tournament's matches rated alone."""
        try:
            game = get_game(checked_text(request.game, "the game", 64)).name if request.game else None
            pool = checked_text(request.pool, "the pool", 200) or None
        except ArenaError as err:
            await _abort(context, err)
        tournament_id = request.tournament_id
        if tournament_id:
            rows = await _read(context, lambda: boards.tournament_board(
                self.store, tournament_id, game))
        else:
            rows = await _read(context, lambda: boards.leaderboard(
                self.store, game, pool=pool, all_pools=True))
        return pb.LeaderboardResponse(rows=[leaderboard_row(r) for r in rows])

    async def GetLadder(self, request: pb.GetLadderRequest, context: Context) -> pb.Ladder:
        """A game's ladder, as ``arena ladder show`` shows it."""
        try:
            game = checked_text(request.game, "the game", 64)
            view = await _read(context, lambda: ladders.show_ladder(self.store, game))
        except ArenaError as err:
            await _abort(context, err)
        return ladder(view)


    async def RequestScrimmage(self, request: pb.ScrimmageRequest,
                               context: Context) -> pb.TournamentInfo:
        """Queue a scrimmage for the calling author (:mod:`arena.app.scrimmages`), within the
        arena's limits per author; the scheduler is woken to play it."""
        who = await _who(context)
        try:
            if who.author_id is None:
                raise refused(ErrorKind.BAD_REQUEST, "scrimmages are authors': the operator "
                               "queues a tournament (CreateTournament)")
            asked = ScrimmageRequest(
                game=checked_text(request.game, "the game", 64),
                mine=checked_names(request.bots, "bots"),
                against=checked_names(request.against, "opponents"),
                sets=request.sets, sprt=checked_text(request.sprt, "the SPRT") or None)
            info = await asyncio.to_thread(self.scrimmages.request, who.author_id, asked)
        except ArenaError as err:
            await _abort(context, err)
        if self.scheduler is not None:
            self.scheduler.wake()
        return self._tournament_info(reports.progress_of(info, {}))


__all__ = ["BUILD_LOG_KEY", "CHUNK_BYTES", "OperatorAuth", "OperatorServicer"]
