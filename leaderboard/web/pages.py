"""The pages of the web app and their JSON: home, leaderboards, bots, tournaments.

Every page at ``/...`` has its data at ``/api/...`` (docs/web.md), built by the same
function, so the two always agree; the documents use the CLI's field names
(:mod:`arena.app.documents`, docs/json.md). Every list comes a page at a time, with a
link to the next page (``next``). Match pages (``/matches/{id}``) are
:mod:`leaderboard.web.replay`'s.

The routes are adapters: each decodes its request, asks one read use case of the application
layer (:mod:`arena.app.boards`, :mod:`arena.app.reports`, :mod:`arena.app.matches`; what of a
match is shown, fault reasons included, is decided there) and lays its records out as JSON
or a page.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from typing import Annotated, Any
from urllib.parse import urlencode

from fastapi import APIRouter, Query, Request
from fastapi.responses import JSONResponse, RedirectResponse, Response

from arena.app import boards, matches, reports, travellers
from arena.app.boards import BotPage, HeadToHeadRow
from arena.app.documents import (
    bot_json,
    counts_json,
    document,
    iso,
    leaderboard_json,
    leaderboard_row_json,
    match_json,
    presence_json,
    progress_json,
    report_json,
    standings_leaderboard_json,
)
from arena.app.matches import FaultPage, MatchPage
from arena.app.records import BotInfo, FaultInfo, HistoryPoint, HistorySample, Store
from arena.app.reports import Progress
from arena.games import all_games
from arena.match.faults import Fault
from leaderboard.web.charts import HistoryChart, history_chart, sparkline
from leaderboard.web.common import TEMPLATES, store_of

router = APIRouter()

TREND_POINTS = 30
"""Points in a leaderboard row's sparkline: the bot's last rated matches in the pool."""
HISTORY_POINTS = 120
"""Points at most in a bot's rating history chart (spread evenly over all its matches)."""
RECENT_MATCHES = 20

FAULTS_COUNTED = ("faults: the matches in which the bot timed out, crashed, disconnected, "
                  "answered an illegal or malformed action, reported an error of its own or "
                  "did not show up (its seat then ranks last)")
FAULT_MEANING = {
    Fault.TIMEOUT: "no valid answer before the move deadline",
    Fault.DISCONNECTED: "its stream closed mid-match",
    Fault.CRASHED: "its process died",
    Fault.ILLEGAL_ACTION: "answered an action that was not legal",
    Fault.MALFORMED: "answered something that is no action of the game",
    Fault.NO_SHOW: "never connected before the start deadline",
    Fault.ERROR: "reported an exception of its own (message in the match log)",
}

Page = Annotated[int, Query(ge=1, le=1_000_000, description="Page number, from 1.")]
Before = Annotated[int | None, Query(ge=1, description="Only items with an id below this "
                                     "(the `next` link gives it).")]


def _limit(most: int) -> Any:
    return Query(ge=1, le=most, description=f"Items per page (at most {most}).")


def _next(request: Request, **params: object) -> str:
    """This page's path with these query parameters changed (the link to another page)."""
    query = {**request.query_params, **{k: str(v) for k, v in params.items()}}
    return f"{request.url.path}?{urlencode(query)}"


def _api_path(request: Request) -> str:
    """The JSON of the page asked for (its /api/ twin), with the same query."""
    query = f"?{request.url.query}" if request.url.query else ""
    return f"/api{request.url.path if request.url.path != '/' else '/home'}{query}"


def _page(request: Request, template: str, data: dict[str, Any], **extra: Any) -> Response:
    return TEMPLATES.TemplateResponse(request, template, {
        **data, **extra, "api": _api_path(request), "fault_meaning": FAULT_MEANING,
        "all_games": list(all_games().values()), "faults_counted": FAULTS_COUNTED})


# ---------------------------------------------------------------- home


def home_data(store: Store) -> dict[str, Any]:
    leaders = boards.game_leaders(store)
    return document("home", {
        "games": [{"name": g.name, "title": g.title, "min_players": g.min_players,
                   "max_players": g.max_players, "default_players": g.default_players,
                   "leader": leaderboard_json([leaders[g.name]])[0] if g.name in leaders else None}
                  for g in all_games().values()],
        "running": [progress_json(p) for p in reports.running_tournaments(store)],
        "recent_matches": [match_json(m) for m in matches.recent_matches(store, RECENT_MATCHES)],
    })


@router.get("/api/home", tags=["pages"], summary="The games and their leaders, running "
            "tournaments, recent matches")
def api_home(request: Request) -> JSONResponse:
    return JSONResponse(home_data(store_of(request)))


@router.get("/", include_in_schema=False)
def page_home(request: Request) -> Response:
    return _page(request, "home.html", home_data(store_of(request))["home"])


# ---------------------------------------------------------------- leaderboards


def leaderboard_data(store: Store, request: Request, game: str, pool: str | None, page: int,
                     limit: int) -> dict[str, Any]:
    board = boards.pool_board(store, game, pool)
    shown = board.rows[(page - 1) * limit:page * limit]
    trends = boards.trends(store, [r.bot_id for r in shown], board.pool, TREND_POINTS)
    rows = []
    for place, row in enumerate(shown, (page - 1) * limit + 1):
        item = leaderboard_row_json(row, place)
        item["trend"] = [p.conservative for p in trends.get(row.bot_id, [])]
        rows.append(item)
    total = len(board.rows)
    return {"version": 1, "leaderboard": rows, "game": board.game, "pool": board.pool,
            "pools": list(board.pools), "page": page, "limit": limit,
            "total": total, "next": _next(request, page=page + 1)
            if page * limit < total else None}


LeaderboardLimit = Annotated[int, _limit(200)]


@router.get("/api/leaderboard/{game}", tags=["leaderboards"],
            summary="A game's leaderboard in one rating pool (default: its standard rules)")
def api_leaderboard(request: Request, game: str, pool: str | None = None, page: Page = 1,
                    limit: LeaderboardLimit = 50) -> JSONResponse:
    return JSONResponse(leaderboard_data(store_of(request), request, game, pool, page, limit))


@router.get("/leaderboard", include_in_schema=False)
def page_leaderboards() -> Response:
    return RedirectResponse(f"/leaderboard/{next(iter(all_games()))}", status_code=307)


@router.get("/leaderboard/{game}", include_in_schema=False)
def page_leaderboard(request: Request, game: str, pool: str | None = None, page: Page = 1,
                     limit: LeaderboardLimit = 50) -> Response:
    data = leaderboard_data(store_of(request), request, game, pool, page, limit)
    return _page(request, "leaderboard.html", data, title=f"Leaderboard: {data['pool']}",
                 tournament=None, prev=_next(request, page=page - 1) if page > 1 else None,
                 sparks=[sparkline(_points(r["trend"])) for r in data["leaderboard"]])


class _Point:
    """A bare conservative rating, for a sparkline drawn from the JSON's trend."""

    def __init__(self, value: float) -> None:
        self.conservative = value


def _points(values: Sequence[float]) -> list[Any]:
    return [_Point(v) for v in values]


# ---------------------------------------------------------------- tournaments


TournamentLimit = Annotated[int, _limit(100)]
MatchLimit = Annotated[int, _limit(200)]


def tournaments_data(store: Store, request: Request, before: int | None,
                     limit: int) -> dict[str, Any]:
    found = reports.tournament_page(store, before, limit)
    return {"version": 1, "tournaments": [progress_json(p) for p in found.tournaments],
            "limit": limit,
            "next": _next(request, before=found.last_id) if found.more else None}


@router.get("/api/tournaments", tags=["tournaments"], summary="Tournaments, newest first")
def api_tournaments(request: Request, before: Before = None,
                    limit: TournamentLimit = 25) -> JSONResponse:
    return JSONResponse(tournaments_data(store_of(request), request, before, limit))


@router.get("/tournaments", include_in_schema=False)
def page_tournaments(request: Request, before: Before = None,
                     limit: TournamentLimit = 25) -> Response:
    return _page(request, "tournaments.html",
                 tournaments_data(store_of(request), request, before, limit))


class ReportCache:
    """The latest tournament reports' documents (and presence tables), each kept while its
    tournament has the same status and match counts (the store keeps a tournament's standings
    and crosstable as it rates its matches, so a report costs a few indexed reads; this saves
    even those while a page is polled; a presence table reads up to 2,000 matches). A finished
    tournament never changes (voiding it changes its counts)."""

    def __init__(self, size: int = 64) -> None:
        self.size = size
        self._lock = threading.Lock()
        self._reports: OrderedDict[tuple[int, str], tuple[object, dict[str, Any]]] = OrderedDict()

    def report(self, store: Store, progress: Progress) -> dict[str, Any]:
        return self._kept(progress, "report", lambda: report_json(
            reports.tournament_report(store, progress.tournament, progress.counts)))

    def presence(self, store: Store, progress: Progress) -> dict[str, Any]:
        return self._kept(progress, "presence", lambda: presence_json(
            reports.tournament_presence(store, progress.tournament.id)))

    def _kept(self, progress: Progress, what: str,
              make: Callable[[], dict[str, Any]]) -> dict[str, Any]:
        tournament = progress.tournament
        key = (str(tournament.status),
               tuple(sorted((str(k), v) for k, v in progress.counts.items())))
        with self._lock:
            found = self._reports.get((tournament.id, what))
            if found is not None and found[0] == key:
                self._reports.move_to_end((tournament.id, what))
                return found[1]
        made = make()
        with self._lock:
            self._reports[tournament.id, what] = (key, made)
            self._reports.move_to_end((tournament.id, what))
            while len(self._reports) > self.size:
                self._reports.popitem(last=False)
        return made


def tournament_matches_data(store: Store, request: Request, tournament_id: int,
                            page: int, limit: int) -> dict[str, Any]:
    found = matches.tournament_match_page(store, tournament_id, page, limit)
    return {"version": 1, "matches": [match_json(m) for m in found.matches], "page": page,
            "limit": limit, "pages": max(1, -(-(found.total or 0) // limit)),
            "next": _next(request, page=page + 1) if found.more else None}


def tournament_data(request: Request, progress: Progress) -> dict[str, Any]:
    reports_cache: ReportCache = request.app.state.reports
    return document("tournament", reports_cache.report(store_of(request), progress))


def _report(request: Request, tournament_id: int) -> tuple[Progress, dict[str, Any]]:
    progress = reports.tournament_progress(store_of(request), tournament_id)
    return progress, tournament_data(request, progress)["tournament"]


@router.get("/api/tournaments/{tournament_id}", tags=["tournaments"],
            summary="A tournament: settings, progress, standings, crosstable (as `arena "
            "tournament show --json`)")
def api_tournament(request: Request, tournament_id: int) -> JSONResponse:
    return JSONResponse(document("tournament", _report(request, tournament_id)[1]))


@router.get("/api/tournaments/{tournament_id}/progress", tags=["tournaments"],
            summary="How far a tournament has got: its status and matches by status (cheap: "
            "for polling while it runs)")
def api_tournament_progress(request: Request, tournament_id: int) -> JSONResponse:
    progress = reports.tournament_progress(store_of(request), tournament_id)
    tournament = progress.tournament
    return JSONResponse(document("progress", {
        "id": tournament.id, "status": str(tournament.status),
        "finished_at": iso(tournament.finished_at), "matches": counts_json(progress)}))


@router.get("/api/tournaments/{tournament_id}/matches", tags=["tournaments"],
            summary="A tournament's matches in schedule order, a page at a time")
def api_tournament_matches(request: Request, tournament_id: int, page: Page = 1,
                           limit: MatchLimit = 50) -> JSONResponse:
    return JSONResponse(tournament_matches_data(store_of(request), request, tournament_id, page,
                                                limit))


@router.get("/api/tournaments/{tournament_id}/leaderboard", tags=["tournaments"],
            summary="A tournament's leaderboard: its matches rated alone (as `arena "
            "leaderboard --tournament ID --json`)")
def api_tournament_leaderboard(request: Request, tournament_id: int) -> JSONResponse:
    report = _report(request, tournament_id)[1]
    return JSONResponse(document("leaderboard", standings_leaderboard_json(report)))


@router.get("/tournaments/{tournament_id}", include_in_schema=False)
def page_tournament(request: Request, tournament_id: int, page: Page = 1,
                    limit: MatchLimit = 50) -> Response:
    progress, report = _report(request, tournament_id)
    found = tournament_matches_data(store_of(request), request, tournament_id, page, limit)
    bots = [row["bot"] for row in report["standings"]]
    cells = {(c["bot"], c["opponent"]): c for c in report["crosstable"]}
    links = travellers.deal_links(store_of(request), tournament_id,
                                  [m["id"] for m in found["matches"]])
    return _page(request, "tournament.html", {"t": report, "matches": found,
                                              "repetitions": progress.tournament.repetitions,
                                              "cross_bots": bots, "cells": cells,
                                              "deals": links.deals if links.duplicate else None})


@router.get("/api/tournaments/{tournament_id}/presence", tags=["tournaments"],
            summary="A tournament's presence table: how much each bot at the table changes "
            "another's place beyond what the ratings predict (tables of three seats or more)")
def api_tournament_presence(request: Request, tournament_id: int) -> JSONResponse:
    return JSONResponse(document("presence", _presence(request, tournament_id)[1]))


def _presence(request: Request, tournament_id: int) -> tuple[Progress, dict[str, Any]]:
    progress = reports.tournament_progress(store_of(request), tournament_id)
    reports_cache: ReportCache = request.app.state.reports
    return progress, reports_cache.presence(store_of(request), progress)


@router.get("/tournaments/{tournament_id}/presence", include_in_schema=False)
def page_tournament_presence(request: Request, tournament_id: int) -> Response:
    progress, found = _presence(request, tournament_id)
    return _page(request, "presence.html", {"presence": found,
                                            "tournament": progress.tournament},
                 title=f"Tournament {tournament_id}: presence")


@router.get("/tournaments/{tournament_id}/leaderboard", include_in_schema=False)
def page_tournament_leaderboard(request: Request, tournament_id: int) -> Response:
    report = _report(request, tournament_id)[1]
    rows = standings_leaderboard_json(report)
    return _page(request, "leaderboard.html", {
        "leaderboard": rows, "game": report["game"], "pool": report["pool"], "pools": [],
        "page": 1, "limit": len(rows), "total": len(rows), "next": None},
        title=f"Tournament {tournament_id}: its matches rated alone", tournament=tournament_id,
        sparks=[None for _ in rows], prev=None)


# ---------------------------------------------------------------- bots


BotLimit = Annotated[int, _limit(200)]
BotMatchLimit = Annotated[int, _limit(100)]


def _public_bots(bots: Sequence[BotInfo], authors: Mapping[int, str]) -> list[dict[str, Any]]:
    """Bots as the public pages show them: ``arena bot list --json``'s rows without the
    operator's ``folder`` (a path of the operator's machine, nobody else's business), with
    the ``author`` whose bot it is (None: the operator's; ``authors``: names by id)."""
    out = []
    for bot in bots:
        row = bot_json(bot)
        del row["folder"]
        row["author"] = None if bot.author_id is None else authors.get(bot.author_id)
        out.append(row)
    return out


def bots_data(store: Store, request: Request, page: int, limit: int) -> dict[str, Any]:
    found = boards.bot_list(store, page, limit)
    return {"version": 1, "bots": _public_bots(found.bots, found.authors), "page": page,
            "limit": limit, "total_names": found.total_names,
            "next": _next(request, page=page + 1) if page * limit < found.total_names else None}


@router.get("/api/bots", tags=["bots"], summary="Bots by name, every version (removed ones "
            "too), a page of names at a time")
def api_bots(request: Request, page: Page = 1, limit: BotLimit = 50) -> JSONResponse:
    return JSONResponse(bots_data(store_of(request), request, page, limit))


@router.get("/bots", include_in_schema=False)
def page_bots(request: Request, page: Page = 1, limit: BotLimit = 50) -> Response:
    data = bots_data(store_of(request), request, page, limit)
    by_name: dict[str, list[dict[str, Any]]] = {}
    for bot in data["bots"]:
        by_name.setdefault(bot["name"], []).append(bot)
    return _page(request, "bots.html", data, by_name=by_name,
                 prev=_next(request, page=page - 1) if page > 1 else None)


def _head_to_head_json(row: HeadToHeadRow) -> dict[str, Any]:
    return {"game": row.game, "bot": row.bot, "opponent": row.opponent, **row.tally.as_dict(),
            "mean_rank": row.mean_rank}


def _fault_json(fault: FaultInfo) -> dict[str, Any]:
    return {"match_id": fault.match_id, "seat": fault.seat, "fault": str(fault.fault),
            "reason": fault.reason, "game": fault.game, "tournament_id": fault.tournament_id,
            "finished_at": iso(fault.finished_at)}


def _matches_json(request: Request, found: MatchPage, cursor: str = "before") -> dict[str, Any]:
    return {"matches": [match_json(m) for m in found.matches],
            "next": _next(request, **{cursor: found.last_id}) if found.more else None}


def _faults_json(request: Request, found: FaultPage, cursor: str = "before") -> dict[str, Any]:
    """The faults with their reasons: ``null`` for a match played before reasons were kept,
    and where the secrecy rule hides it (:func:`arena.app.matches.public_faults`)."""
    return {"faults": [_fault_json(f) for f in found.faults],
            "next": _next(request, **{cursor: found.last_id}) if found.more else None}


def bot_data(store: Store, request: Request, label: str, before: int | None,
             faults_before: int | None, limit: int) -> dict[str, Any]:
    bot: BotPage = boards.bot_page(store, label, before=before, faults_before=faults_before,
                                   limit=limit, history_points=HISTORY_POINTS)
    found_matches = _matches_json(request, bot.matches)
    found_faults = _faults_json(request, bot.faults, cursor="faults_before")
    return document("bot", {
        **_public_bots([bot.bot], bot.authors)[0],
        "versions": _public_bots(bot.versions, bot.authors),
        "ratings": [leaderboard_row_json(p.row, p.place) for p in bot.places],
        "history": [{"pool": h.pool, "matches": h.total,
                     "points": [{"match_id": p.match_id, "finish_seq": p.finish_seq, "mu": p.mu,
                                 "sigma": p.sigma, "rating": p.conservative} for p in h.points]}
                    for h in bot.history],
        "head_to_head": [_head_to_head_json(row) for row in bot.head_to_head],
        "fault_counts": {str(k): v for k, v in bot.fault_counts.items()},
        "matches": found_matches["matches"], "matches_next": found_matches["next"],
        "faults": found_faults["faults"], "faults_next": found_faults["next"],
        "conditions": _conditions_json(bot.conditions),
    })


def _interval(bounds: tuple[float, float] | None) -> list[float] | None:
    return None if bounds is None else [bounds[0], bounds[1]]


def _conditions_json(found: boards.Conditions) -> dict[str, Any]:
    """The bot's figures by condition: per seat and first to act (wins and mean rank), and
    per condition of its game (mean points a hand), each with its count and 95% interval."""
    return {
        "seats_read": found.seats, "seats_limit": boards.CONDITION_SEATS,
        "places": [{"game": f.game, "players": f.players, "condition": f.condition,
                    "value": f.value, "seats": f.seats, "wins": f.wins,
                    "win_share": f.win_share, "win_interval": _interval(f.win_interval),
                    "mean_rank": f.mean_rank, "rank_interval": _interval(f.rank_interval)}
                   for f in found.places],
        "points": [{"game": f.game, "condition": f.condition, "value": f.value,
                    "hands": f.hands, "mean": f.mean, "interval": _interval(f.interval)}
                   for f in found.points],
    }


@router.get("/api/bots/{label}", tags=["bots"],
            summary="A bot version (NAME: its newest; NAME@VERSION): versions, ratings, "
            "rating history, head-to-head, recent matches and faults")
def api_bot(request: Request, label: str, before: Before = None, faults_before: Before = None,
            limit: BotMatchLimit = 20) -> JSONResponse:
    return JSONResponse(bot_data(store_of(request), request, label, before, faults_before, limit))


@router.get("/api/bots/{label}/matches", tags=["bots"],
            summary="A bot version's matches, newest first, a page at a time")
def api_bot_matches(request: Request, label: str, before: Before = None,
                    limit: BotMatchLimit = 20) -> JSONResponse:
    store = store_of(request)
    bot, _ = boards.resolve_bot(store, label)
    found = matches.bot_matches(store, bot.id, before, limit)
    return JSONResponse({"version": 1, **_matches_json(request, found)})


@router.get("/api/bots/{label}/faults", tags=["bots"],
            summary="The seats in which a bot version faulted, newest first, a page at a time")
def api_bot_faults(request: Request, label: str, before: Before = None,
                   limit: BotMatchLimit = 20) -> JSONResponse:
    store = store_of(request)
    bot, _ = boards.resolve_bot(store, label)
    found = matches.bot_faults(store, bot.id, before, limit)
    return JSONResponse({"version": 1, **_faults_json(request, found)})


@router.get("/bots/{label}", include_in_schema=False)
def page_bot(request: Request, label: str, before: Before = None, faults_before: Before = None,
             limit: BotMatchLimit = 20) -> Response:
    data = bot_data(store_of(request), request, label, before, faults_before, limit)["bot"]
    return _page(request, "bot.html", {"b": data, "charts": [_chart(h) for h in data["history"]]})


def _chart(history: dict[str, Any]) -> HistoryChart | None:
    """The chart of one pool's history as the bot's document gives it."""
    return history_chart(HistorySample(history["pool"], history["matches"], tuple(
        HistoryPoint(p["match_id"], p["finish_seq"], p["mu"], p["sigma"])
        for p in history["points"])))


__all__ = ["ReportCache", "router"]
