"""Match pages: the replay viewer (``/matches/{id}``), its data and a running match's live feed.

* ``GET /matches/{id}``: the match (game, options, tournament, seats with their bots,
  ranks, scores, faults) and the viewer, which draws the table at every step from the
  frames below (``static/replay.js``); a running match is followed live.
* ``GET /api/matches/{id}/replay?view=public|seat:N|full``: the frames of the match from
  that view (:mod:`leaderboard.web.frames`). A running match has its public view, from the
  log it has so far, and its seat and full views too while its deal is sealed (every bot that
  plays it in the sandbox); else they open once the match has finished.
* ``GET /api/matches/{id}/live?view=...``: server-sent events while the match runs: each new
  frame of that view (``event: frame``, its ``id`` the count of frames sent), then, once the
  match is over, its last frames and ``event: end``. ``?after=N`` (or ``Last-Event-ID``)
  skips the frames a client has.

Who may see what, and when, is :mod:`arena.app.visibility`'s one rule, applied by
:mod:`arena.app.matches` (the web is public: it asks as anyone but the operator). In
short: nothing at all of a *finished* match (page, replay in any view, live feed, its seats'
fault reasons) while another seat rotation of its deal (a match dealing the same cards) is
unfinished, since even its public events show that deal's cards; the public view only of a
pending match, and of a running match unless its deal is sealed (every seat of it and of its
deal's rotations still to play a bot the arena runs in its sandbox, which cannot read the web):
then every view, live. The match page says which, and why not.

The live feeds share one reader per match (:mod:`arena.app.live`: it polls the match's
status and the size of its running log, and builds the new frames of each view asked for
once for every spectator) and have caps: :data:`MAX_FEEDS` in all, :data:`MAX_FEEDS_PER_MATCH` on one match,
:data:`MAX_FEEDS_PER_CLIENT` from one address; over a cap is a 429 with one line. A feed on a
match that has not started ends after :data:`arena.app.live.PENDING_LIMIT_S` (or what
``arena serve --live-wait`` says), its ``end`` saying why.

The frames are built by stepping the engine through the stored log (from the match's
stored deal seed, which never leaves the server) and kept, serialized, in a cache by
match and view (a finished match never changes; a running match's by the length of its
log so far, so that every spectator shares one build per write).
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from collections.abc import AsyncIterator, Container
from dataclasses import dataclass
from typing import Any

from fastapi import APIRouter, HTTPException, Query, Request
from fastapi.responses import Response, StreamingResponse
from starlette.concurrency import run_in_threadpool

from arena.app import matches
from arena.app.documents import JSON_VERSION, match_json
from arena.app.live import PENDING_LIMIT_S, Feed, FeedRefused, LiveFeeds, Snapshot, not_started
from arena.app.matches import ShownMatch
from arena.app.records import MatchInfo, MatchStatus, Store, StoreError
from arena.app.visibility import Refusal, Sight
from arena.games import get_game
from arena.match.replay import ReplayError, read_log
from leaderboard.web.authors import author_of
from leaderboard.web.common import TEMPLATES, error_response, store_of
from leaderboard.web.frames import VIEW_HELP, View, ViewError, frames, private_fields

router = APIRouter()

MAX_FEEDS = 256
"""Live feeds open at once on the server, in all."""
MAX_FEEDS_PER_MATCH = 64
"""Live feeds open at once on one match."""
MAX_FEEDS_PER_CLIENT = 8
"""Live feeds open at once from one client address."""
KEEPALIVE_S = 15.0
"""A comment line on a quiet live feed this often, so that proxies keep it open."""
CACHE_BYTES = 64 * 1024 * 1024
"""The serialized frames kept in memory, at most (least recently used go first)."""

ViewQuery = Query("public", description=f"Who looks: {VIEW_HELP}. Seat and full views only "
                  "once the match (and every other rotation of its deal) has finished, or "
                  "while it runs if every bot that plays its deal is in the arena's sandbox.")


@dataclass(frozen=True)
class Built:
    """A match's frames from one view, each serialized, and what they were built from."""

    frames: tuple[str, ...]
    final: bool  # from the finished match's log (else: a running match's log so far)
    error: str | None = None  # why the log did not replay, if it did not
    size: int = 0


class FrameCache:
    """Serialized frames by (match, view[, length of a running match's log]), up to
    :data:`CACHE_BYTES`; safe across the thread pool's threads."""

    def __init__(self, limit: int = CACHE_BYTES) -> None:
        self.limit = limit
        self._entries: OrderedDict[tuple[Any, ...], Built] = OrderedDict()
        self._size = 0
        self._lock = threading.Lock()

    def get(self, key: tuple[Any, ...]) -> Built | None:
        with self._lock:
            found = self._entries.get(key)
            if found is not None:
                self._entries.move_to_end(key)
            return found

    def put(self, key: tuple[Any, ...], built: Built) -> None:
        with self._lock:
            old = self._entries.pop(key, None)
            self._size -= old.size if old is not None else 0
            self._entries[key] = built
            self._size += built.size
            while self._size > self.limit and len(self._entries) > 1:
                _, dropped = self._entries.popitem(last=False)
                self._size -= dropped.size


_CACHE_LOCK = threading.Lock()


def cache_of(request: Request) -> FrameCache:
    """The app's frame cache (made on first use)."""
    state = request.app.state
    with _CACHE_LOCK:
        cache = getattr(state, "replay_frames", None)
        if not isinstance(cache, FrameCache):
            cache = state.replay_frames = FrameCache()
        return cache


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def build(match: MatchInfo, data: bytes, view: View, final: bool,
          notes: Container[int] = ()) -> Built:
    """The frames of a match from its log's bytes (never raises for a log that does not
    replay: the error is kept, and the frames up to it); ``notes``: the seats whose bots'
    notes are shown."""
    lines = read_log(match.game, data)
    try:
        made = frames(match.game, len(match.seats), match.seed, dict(match.options), lines, view,
                      notes)
        error = None
    except ReplayError as failed:
        made, error = [], str(failed)
    serialized = tuple(_dumps(frame) for frame in made)
    return Built(serialized, final, error, sum(len(s) for s in serialized) + 200)


# ---------------------------------------------------------------- who may see what


def _sight(view: View) -> Sight:
    return Sight.FULL if view.full else Sight.SEAT if view.seat is not None else Sight.PUBLIC


def _said(refused: Refusal) -> str:
    """A refusal in the web's words."""
    if refused.public_meanwhile:
        return f"{refused.text}; until then only view=public is shown"
    return refused.text


def refusal(store: Store, match: MatchInfo, view: View) -> str | None:
    """Why ``view`` of ``match`` is not shown on the web (None: it is):
    :func:`arena.app.matches.shown`, for anyone."""
    refused = matches.shown(store, match, _sight(view)).refusal
    return None if refused is None else _said(refused)


def _view(match: MatchInfo, text: str) -> View:
    try:
        return View.parse(text, len(match.seats))
    except ViewError as error:
        raise HTTPException(400, str(error)) from None


def _shown(store: Store, match_id: int, view: str) -> tuple[ShownMatch, View]:
    """The match, the view asked for (a 400 if it is none of the match's) and what of the
    match is shown (a 403 if that view is not)."""
    match = store.get_match(match_id)
    chosen = _view(match, view)
    found = matches.shown(store, match, _sight(chosen))
    if found.refusal is not None:
        raise HTTPException(403, _said(found.refusal))
    return found, chosen


def replay_frames(request: Request, match: MatchInfo, view: View) -> Built:
    """The frames of ``match`` from ``view`` (access already checked), from the cache."""
    store, cache = store_of(request), cache_of(request)
    if match.log is not None:
        # a finished match shown: the bots' notes where its tournament made them public, and
        # a signed-in author's own bots' (arena.app.visibility)
        author = author_of(request)
        noted = matches.noted_seats(store, match, None if author is None else author.id)
        key: tuple[Any, ...] = (match.id, view.name, tuple(sorted(noted)))
        built = cache.get(key)
        if built is None or not built.final:
            built = build(match, match.log, view, final=True, notes=noted)
            cache.put(key, built)
        return built
    log = matches.match_log(store, match)  # a running match's, in a view the rule allows
    if log.data is None:
        return Built((), final=log.final)
    key = (match.id, view.name, len(log.data))
    built = cache.get(key)
    if built is None:
        built = build(match, log.data, view, final=False)
        cache.put(key, built)
    return built


def replay_document(match: MatchInfo, view: View, built: Built, players: int) -> str:
    """The replay's JSON, with its serialized frames put in as they are."""
    game = get_game(match.game)
    head = {
        "version": JSON_VERSION, "match": match_json(match), "options": dict(match.options),
        "title": game.title, "players": players, "view": view.name, "final": built.final,
        "own_fields": list(private_fields(game)), "error": built.error,
        "steps": len(built.frames),
    }
    text = _dumps(head)
    return text[:-1] + ',"frames":[' + ",".join(built.frames) + "]}"


# ---------------------------------------------------------------- routes


@router.get("/api/matches/{match_id}/replay", tags=["matches"],
            summary="A match step by step from one view: the table, the events, the decisions")
def api_replay(request: Request, match_id: int, view: str = ViewQuery) -> Response:
    found, chosen = _shown(store_of(request), match_id, view)
    match = found.match
    built = replay_frames(request, match, chosen)
    return Response(replay_document(match, chosen, built, len(match.seats)),
                    media_type="application/json",
                    headers={"Cache-Control": "no-store" if not built.final else "private, max-age=60"})


@router.get("/matches/{match_id}", include_in_schema=False)
def page_match(request: Request, match_id: int, view: str = ViewQuery) -> Response:
    found, chosen = _shown(store_of(request), match_id, view)
    match = found.match
    private_refused = None if found.private_refusal is None else _said(found.private_refusal)
    game = get_game(match.game)
    views = [("public", "public view")] + [
        (f"seat:{s.seat}", f"seat {s.seat}: {s.bot}") for s in match.seats] + [("full", "full deal")]
    live = match.status is MatchStatus.RUNNING and match.log is None
    return TEMPLATES.TemplateResponse(request, "match.html", {
        "m": match_json(match), "options": dict(match.options), "title": game.title,
        "game": game.name, "view": chosen.name, "views": views, "private_refused": private_refused,
        "live": live, "all_hands": live and found.private_refusal is None,
        "api": f"/api/matches/{match.id}/replay?view={chosen.name}",
    })


@router.get("/api/matches/{match_id}/live", tags=["matches"],
            summary="A running match, from one view, as server-sent events (frame ..., end)",
            responses={429: {"description": "Too many live feeds open (from this address, on "
                             "this match, or on the server)"}})
async def api_live(request: Request, match_id: int,
                   after: int = Query(0, ge=0, description="Frames the client has already."),
                   view: str = ViewQuery) -> Response:
    feeds = feeds_of(request)
    try:  # over a cap: refused at once, before anything is read
        feed = feeds.open(match_id, request.client.host if request.client else "unknown")
    except FeedRefused as err:
        return error_response(request, 429, f"{err.limit} live feeds are open from your "
                              "address already; close one first" if err.cap == "client"
                              else str(err))
    try:
        store = store_of(request)
        match = await run_in_threadpool(store.get_match, match_id)  # an unknown match: 404
        chosen = _view(match, view)
        refused = await run_in_threadpool(refusal, store, match, chosen)
        if refused is not None:
            raise HTTPException(403, refused)
    except BaseException:
        feed.close()
        raise
    last = request.headers.get("last-event-id", "")
    start = max(after, int(last) if last.isdigit() else 0)
    return _FeedResponse(feed, _live(feed, start, chosen), media_type="text/event-stream",
                         headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})


class _FeedResponse(StreamingResponse):
    """A live feed's response: its place is given back however the response ends, even when
    the client has gone before its first line (then the stream never starts)."""

    def __init__(self, feed: Feed[LiveFrames], content: AsyncIterator[str], **kwargs: Any) -> None:
        super().__init__(content, **kwargs)
        self.feed = feed

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:
            self.feed.close()


class LiveFrames:
    """A reader's snapshot and its frames from each view a feed asks for, each built once for
    every feed on the match (the public view at once, the others when first asked): from the
    log so far while it runs, from its final log once over. Which view a feed may have is the
    secrecy rule's, asked of the snapshot first (:func:`arena.app.matches.feed_refusal`)."""

    def __init__(self, snapshot: Snapshot) -> None:
        self.snapshot = snapshot
        self._views: dict[str, Built] = {}
        self._lock = threading.Lock()
        self.frames(View())

    @property
    def match(self) -> MatchInfo:
        return self.snapshot.match

    def made(self, view: View) -> Built | None:
        """The frames of ``view`` if they are built already."""
        return self._views.get(view.name)

    def frames(self, view: View) -> Built:
        """The frames of ``view``, built now if no feed asked for them before (a worker
        thread's work)."""
        with self._lock:
            built = self._views.get(view.name)
            if built is None:
                match, over = self.snapshot.match, self.snapshot.over
                built = Built((), final=over) if self.snapshot.log is None else \
                    build(match, self.snapshot.log, view, final=over)
                self._views[view.name] = built
            return built


def live_feeds(store: Store, wait_s: float = PENDING_LIMIT_S) -> LiveFeeds[LiveFrames]:
    """The web app's live feeds over ``store``, with the web's caps; a feed on a match not
    started ends after ``wait_s``."""
    return LiveFeeds(store, LiveFrames, total=MAX_FEEDS, per_match=MAX_FEEDS_PER_MATCH,
                     per_client=MAX_FEEDS_PER_CLIENT, pending_limit_s=wait_s)


def feeds_of(request: Request) -> LiveFeeds[LiveFrames]:
    feeds: LiveFeeds[LiveFrames] = request.app.state.feeds
    return feeds


def _end(status: str, steps: int, *, error: str | None = None, reason: str | None = None,
         match: MatchInfo | None = None) -> str:
    end = {"status": status, "steps": steps, "error": error, "reason": reason,
           "match": None if match is None else match_json(match)}
    return f"event: end\ndata: {_dumps(end)}\n\n"


async def _live(feed: Feed[LiveFrames], sent: int, view: View) -> AsyncIterator[str]:
    """The live feed: new frames of ``view`` as the match goes, then ``end`` (with the reason
    when what the match has now is not shown: its last frames, while another rotation of its
    deal is in play, or a private view the rule no longer allows; or when it did not start in
    time)."""
    sight = _sight(view)
    with feed:
        yield "retry: 2000\n\n"
        try:
            async for update in feed.updates(KEEPALIVE_S):
                if update is None:
                    yield ": keep-alive\n\n"
                    continue
                snapshot, match = update.snapshot, update.value.match
                refused = matches.feed_refusal(snapshot, sight)
                if refused is not None:  # a deal in play's cards, or a view no longer allowed
                    yield _end(str(match.status), sent, reason=refused.text)
                    return
                made = update.value.made(view)
                built = made if made is not None else \
                    await run_in_threadpool(update.value.frames, view)
                for number, frame in enumerate(built.frames[sent:], start=sent + 1):
                    yield f"id: {number}\nevent: frame\ndata: {frame}\n\n"
                sent = max(sent, len(built.frames))
                if snapshot.over:
                    yield _end(str(match.status), len(built.frames), error=built.error,
                               match=match)
                    return
        except StoreError as err:
            yield _end("unknown", sent, reason=str(err))
            return
        if feed.expired:
            yield _end(str(MatchStatus.PENDING), sent,
                       reason=f"{not_started(feed.match_id, feed.pending_limit_s)}: this feed "
                              "ends; open it again once the match runs")


__all__ = ["MAX_FEEDS", "MAX_FEEDS_PER_CLIENT", "MAX_FEEDS_PER_MATCH", "FrameCache",
           "LiveFrames", "api_live", "api_replay", "build", "cache_of", "feeds_of", "live_feeds",
           "page_match", "refusal", "router"]
