"""Match pages: the replay viewer (``/matches/{id}``), its data and a running match's live feed.

* ``GET /matches/{id}``: the match (game, options, tournament, seats with their bots,
  ranks, scores, faults) and the viewer, which draws the table at every step from the
  frames below (``static/replay.js``); a running match is followed live.
* ``GET /api/matches/{id}/replay?view=public|seat:N|full``: the frames of the match from
  that view (:mod:`leaderboard.web.frames`). A running match has its public view only,
  from the log it has so far; seat and full views open once the match has finished *and*
  every match dealing the same cards (another seat rotation of a duplicate deal) has
  finished too, since those views show the hidden cards of the deal.
* ``GET /api/matches/{id}/live``: server-sent events while the match runs: each new public
  frame (``event: frame``, its ``id`` the count of frames sent), then, once the match is
  over, its last frames and ``event: end``. ``?after=N`` (or ``Last-Event-ID``) skips the
  frames a client has.

The frames are built by stepping the engine through the stored log (from the match's
stored deal seed, which never leaves the server) and kept, serialized, in a cache by
match and view (a finished match never changes; a running match's by the length of its
log so far, so that every spectator shares one build per write).
"""

from __future__ import annotations

import asyncio
import json
import threading
from collections import OrderedDict
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

from fastapi import APIRouter, HTTPException, Query, Request
from fastapi.responses import Response, StreamingResponse
from starlette.concurrency import run_in_threadpool

from arena.games import get_game
from arena.match.replay import ReplayError, read_log
from arena.storage.store import MatchInfo, MatchStatus, Store
from leaderboard.documents import JSON_VERSION, match_json
from leaderboard.web.app import TEMPLATES, store_of
from leaderboard.web.frames import VIEW_HELP, View, ViewError, frames, private_fields

router = APIRouter()

LIVE_POLL_S = 0.5
"""How often the live feed looks for a running match's new steps."""
KEEPALIVE_S = 15.0
"""A comment line on a quiet live feed this often, so that proxies keep it open."""
CACHE_BYTES = 64 * 1024 * 1024
"""The serialized frames kept in memory, at most (least recently used go first)."""

ViewQuery = Query("public", description=f"Who looks: {VIEW_HELP}. Seat and full views only "
                  "once the match (and every other rotation of its deal) has finished.")


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


def build(match: MatchInfo, data: bytes, view: View, final: bool) -> Built:
    """The frames of a match from its log's bytes (never raises for a log that does not
    replay: the error is kept, and the frames up to it)."""
    lines = read_log(match.game, data)
    try:
        made = frames(match.game, len(match.seats), match.seed, dict(match.options), lines, view)
        error = None
    except ReplayError as failed:
        made, error = [], str(failed)
    serialized = tuple(_dumps(frame) for frame in made)
    return Built(serialized, final, error, sum(len(s) for s in serialized) + 200)


# ---------------------------------------------------------------- who may see what


def private_refusal(store: Store, match: MatchInfo) -> str | None:
    """Why the seat and full views of a match are not shown (None: they are)."""
    if match.log is None or match.status in (MatchStatus.PENDING, MatchStatus.RUNNING):
        state = "not started" if match.status is MatchStatus.PENDING else str(match.status)
        return (f"match {match.id} is {state}: its seat and full views open once it has "
                "finished; until then only view=public is shown")
    other = store.deal_in_play(match.id)
    if other is not None:
        return (f"match {match.id} deals the same cards as match {other}, which is not "
                "finished yet: its seat and full views open once that match has finished; "
                "until then only view=public is shown")
    return None


def _view(match: MatchInfo, text: str) -> View:
    try:
        return View.parse(text, len(match.seats))
    except ViewError as error:
        raise HTTPException(400, str(error)) from None


def replay_frames(request: Request, match: MatchInfo, view: View) -> Built:
    """The frames of ``match`` from ``view`` (access already checked), from the cache."""
    store, cache = store_of(request), cache_of(request)
    if match.log is not None:
        key: tuple[Any, ...] = (match.id, view.name)
        built = cache.get(key)
        if built is None or not built.final:
            built = build(match, match.log, view, final=True)
            cache.put(key, built)
        return built
    if match.status is not MatchStatus.RUNNING:
        return Built((), final=match.status is not MatchStatus.PENDING)
    assert not view.private
    data = store.live_log(match.id)
    if data is None:
        return Built((), final=False)
    key = (match.id, view.name, len(data))
    built = cache.get(key)
    if built is None:
        built = build(match, data, view, final=False)
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
    store = store_of(request)
    match = store.get_match(match_id)
    chosen = _view(match, view)
    if chosen.private:
        refused = private_refusal(store, match)
        if refused is not None:
            raise HTTPException(403, refused)
    built = replay_frames(request, match, chosen)
    return Response(replay_document(match, chosen, built, len(match.seats)),
                    media_type="application/json",
                    headers={"Cache-Control": "no-store" if not built.final else "private, max-age=60"})


@router.get("/matches/{match_id}", include_in_schema=False)
def page_match(request: Request, match_id: int, view: str = ViewQuery) -> Response:
    store = store_of(request)
    match = store.get_match(match_id)
    chosen = _view(match, view)
    refused = private_refusal(store, match)
    if chosen.private and refused is not None:
        raise HTTPException(403, refused)
    game = get_game(match.game)
    views = [("public", "public view")] + [
        (f"seat:{s.seat}", f"seat {s.seat}: {s.bot}") for s in match.seats] + [("full", "full deal")]
    return TEMPLATES.TemplateResponse(request, "match.html", {
        "m": match_json(match), "options": dict(match.options), "title": game.title,
        "game": game.name, "view": chosen.name, "views": views, "private_refused": refused,
        "live": match.status is MatchStatus.RUNNING and match.log is None,
        "api": f"/api/matches/{match.id}/replay?view={chosen.name}",
    })


@router.get("/api/matches/{match_id}/live", tags=["matches"],
            summary="A running match's public view as server-sent events (frame ..., end)")
async def api_live(request: Request, match_id: int,
                   after: int = Query(0, ge=0, description="Frames the client has already.")
                   ) -> StreamingResponse:
    store = store_of(request)
    await run_in_threadpool(store.get_match, match_id)  # an unknown match: 404 now
    last = request.headers.get("last-event-id", "")
    start = max(after, int(last) if last.isdigit() else 0)
    return StreamingResponse(_live(request, match_id, start), media_type="text/event-stream",
                             headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})


async def _live(request: Request, match_id: int, sent: int) -> AsyncIterator[str]:
    """The live feed: new public frames as the match goes, then ``end``."""
    store = store_of(request)
    yield "retry: 2000\n\n"
    quiet = 0.0
    while True:
        match, built = await run_in_threadpool(_live_frames, request, store, match_id)
        fresh = built.frames[sent:]
        for number, frame in enumerate(fresh, start=sent + 1):
            yield f"id: {number}\nevent: frame\ndata: {frame}\n\n"
        sent = max(sent, len(built.frames))
        if built.final:
            end = {"status": str(match.status), "steps": len(built.frames), "error": built.error,
                   "match": match_json(match)}
            yield f"event: end\ndata: {_dumps(end)}\n\n"
            return
        if fresh:
            quiet = 0.0
        elif quiet >= KEEPALIVE_S:
            yield ": still running\n\n"
            quiet = 0.0
        if await request.is_disconnected():
            return
        await asyncio.sleep(LIVE_POLL_S)
        quiet += LIVE_POLL_S


def _live_frames(request: Request, store: Store, match_id: int) -> tuple[MatchInfo, Built]:
    """The match now and its public frames (its final ones once it has finished)."""
    match = store.get_match(match_id)
    return match, replay_frames(request, match, View())


__all__ = ["FrameCache", "api_live", "api_replay", "build", "cache_of", "page_match",
           "private_refusal", "router"]
