"""The pages of the web app and their JSON: home, leaderboards, bots, tournaments.

Every page at ``/...`` has its data at ``/api/...`` (docs/web.md), built by the same
function, so the two always agree; the documents use the CLI's field names
(:mod:`leaderboard.documents`, docs/json.md). Every list comes a page at a time, with a
link to the next page (``next``). Match pages (``/matches/{id}``) are
:mod:`leaderboard.web.replay`'s.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from typing import Annotated, Any
from urllib.parse import urlencode

from fastapi import APIRouter, Query, Request
from fastapi.responses import JSONResponse, RedirectResponse, Response

from arena.app.visibility import hidden_reasons
from arena.games import all_games, base_game, get_game
from arena.match.faults import Fault
from arena.rating.stats import tally
from arena.storage.store import (
    BOT_NAME,
    BotInfo,
    FaultInfo,
    HeadToHead,
    HistoryPoint,
    HistorySample,
    LeaderboardRow,
    MatchInfo,
    MatchStatus,
    NotFoundError,
    Store,
    TournamentInfo,
)
from leaderboard.documents import (
    bot_json,
    document,
    iso,
    leaderboard_json,
    match_json,
    tournament_json,
)
from leaderboard.reports import tournament_report
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


def home_data(store: Store, request: Request) -> dict[str, Any]:
    leaders: dict[str, LeaderboardRow] = {}  # the standard pool's, else the game's first rated
    for row in store.leaderboard():
        game = base_game(row.pool)
        if game not in leaders or (row.pool == game != leaders[game].pool):
            leaders[game] = row
    running = store.running_tournaments()
    counts = store.match_counts([t.id for t in running])
    return document("home", {
        "games": [{"name": g.name, "title": g.title, "min_players": g.min_players,
                   "max_players": g.max_players, "default_players": g.default_players,
                   "leader": leaderboard_json([leaders[g.name]])[0] if g.name in leaders else None}
                  for g in all_games().values()],
        "running": [tournament_json(t, counts.get(t.id, {})) for t in running],
        "recent_matches": [match_json(m) for m in store.recent_matches(RECENT_MATCHES)],
    })


@router.get("/api/home", tags=["pages"], summary="The games and their leaders, running "
            "tournaments, recent matches")
def api_home(request: Request) -> JSONResponse:
    return JSONResponse(home_data(store_of(request), request))


@router.get("/", include_in_schema=False)
def page_home(request: Request) -> Response:
    return _page(request, "home.html", home_data(store_of(request), request)["home"])


# ---------------------------------------------------------------- leaderboards


def leaderboard_data(store: Store, request: Request, game: str, pool: str | None, page: int,
                     limit: int) -> dict[str, Any]:
    name = get_game(game).name  # an unknown game: OptionError, a 404
    pools = store.pools(name)
    # by default its standard rules, or, when nothing is rated there, its first rated pool
    chosen = pool or (name if name in pools or not pools else pools[0])
    if chosen != name and not chosen.startswith(f"{name}["):
        raise NotFoundError(f"{chosen!r} is no rating pool of {name} (its pools: "
                            f"{', '.join(pools) or name})")
    if chosen not in pools and chosen != name:
        raise NotFoundError(f"no rating pool {chosen!r} (pools of {name}: {', '.join(pools)})")
    rows = store.leaderboard(pool=chosen)
    shown = rows[(page - 1) * limit:page * limit]
    trends = store.rating_trends([r.bot_id for r in shown], chosen, TREND_POINTS)
    board = leaderboard_json(rows)[(page - 1) * limit:page * limit]
    for item, row in zip(board, shown, strict=True):
        item["trend"] = [p.conservative for p in trends.get(row.bot_id, [])]
    return {"version": 1, "leaderboard": board, "game": name, "pool": chosen,
            "pools": sorted(set(pools) | {name}), "page": page, "limit": limit,
            "total": len(rows), "next": _next(request, page=page + 1)
            if page * limit < len(rows) else None}


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
    found = store.tournament_page(before, limit + 1)
    shown = found[:limit]
    counts = store.match_counts([t.id for t in shown])
    return {"version": 1, "tournaments": [tournament_json(t, counts.get(t.id, {})) for t in shown],
            "limit": limit,
            "next": _next(request, before=shown[-1].id) if len(found) > limit else None}


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
    """The latest tournament reports, each kept while its tournament has the same status and
    match counts (the store keeps a tournament's standings and crosstable as it rates its
    matches, so a report costs a few indexed reads; this saves even those while a page is
    polled). A finished tournament never changes (voiding it changes its counts)."""

    def __init__(self, size: int = 64) -> None:
        self.size = size
        self._lock = threading.Lock()
        self._reports: OrderedDict[int, tuple[object, dict[str, Any]]] = OrderedDict()

    def report(self, store: Store, tournament: TournamentInfo,
               counts: Mapping[MatchStatus, int]) -> dict[str, Any]:
        key = (str(tournament.status), tuple(sorted((str(k), v) for k, v in counts.items())))
        with self._lock:
            found = self._reports.get(tournament.id)
            if found is not None and found[0] == key:
                self._reports.move_to_end(tournament.id)
                return found[1]
        report = tournament_report(store, tournament, counts)
        with self._lock:
            self._reports[tournament.id] = (key, report)
            self._reports.move_to_end(tournament.id)
            while len(self._reports) > self.size:
                self._reports.popitem(last=False)
        return report


def _tournament(store: Store, tournament_id: int) -> tuple[TournamentInfo, dict[MatchStatus, int]]:
    tournament = store.get_tournament(tournament_id)
    return tournament, store.match_counts([tournament_id]).get(tournament_id, {})


def tournament_matches_data(store: Store, request: Request, tournament: TournamentInfo,
                            page: int, limit: int) -> dict[str, Any]:
    found = store.tournament_match_page(tournament.id, (page - 1) * limit, limit + 1)
    return {"version": 1, "matches": [match_json(m) for m in found[:limit]], "page": page,
            "limit": limit, "pages": max(1, -(-tournament.total // limit)),
            "next": _next(request, page=page + 1) if len(found) > limit else None}


def tournament_data(request: Request, tournament_id: int) -> dict[str, Any]:
    store = store_of(request)
    tournament, counts = _tournament(store, tournament_id)
    reports: ReportCache = request.app.state.reports
    return document("tournament", reports.report(store, tournament, counts))


@router.get("/api/tournaments/{tournament_id}", tags=["tournaments"],
            summary="A tournament: settings, progress, standings, crosstable (as `arena "
            "tournament show --json`)")
def api_tournament(request: Request, tournament_id: int) -> JSONResponse:
    return JSONResponse(tournament_data(request, tournament_id))


@router.get("/api/tournaments/{tournament_id}/progress", tags=["tournaments"],
            summary="How far a tournament has got: its status and matches by status (cheap: "
            "for polling while it runs)")
def api_tournament_progress(request: Request, tournament_id: int) -> JSONResponse:
    tournament, counts = _tournament(store_of(request), tournament_id)
    return JSONResponse(document("progress", {
        "id": tournament.id, "status": str(tournament.status),
        "finished_at": iso(tournament.finished_at),
        "matches": {"total": tournament.total, **{str(k): counts.get(k, 0) for k in (
            MatchStatus.FINISHED, MatchStatus.RUNNING, MatchStatus.PENDING, MatchStatus.VOID)}}}))


@router.get("/api/tournaments/{tournament_id}/matches", tags=["tournaments"],
            summary="A tournament's matches in schedule order, a page at a time")
def api_tournament_matches(request: Request, tournament_id: int, page: Page = 1,
                           limit: MatchLimit = 50) -> JSONResponse:
    store = store_of(request)
    return JSONResponse(tournament_matches_data(store, request, store.get_tournament(tournament_id),
                                                page, limit))


def tournament_leaderboard_json(report: Mapping[str, Any]) -> list[dict[str, Any]]:
    """A tournament's standings as ``arena leaderboard --tournament ID --json`` gives them
    (:func:`leaderboard.reports.tournament_leaderboard`), from its (cached) report."""
    rows = []
    for row in report["standings"]:
        name, _, version = row["bot"].partition("@")
        rows.append({"rank": row["rank"], "bot": row["bot"], "name": name, "version": version,
                     "game": report["game"], "pool": report["pool"], "rating": row["rating"],
                     "mu": row["mu"], "sigma": row["sigma"], "matches": row["matches"],
                     "wins": row["wins"], "win_share": row["win_share"], "faults": row["faults"]})
    return rows


@router.get("/api/tournaments/{tournament_id}/leaderboard", tags=["tournaments"],
            summary="A tournament's leaderboard: its matches rated alone (as `arena "
            "leaderboard --tournament ID --json`)")
def api_tournament_leaderboard(request: Request, tournament_id: int) -> JSONResponse:
    report = tournament_data(request, tournament_id)["tournament"]
    return JSONResponse(document("leaderboard", tournament_leaderboard_json(report)))


@router.get("/tournaments/{tournament_id}", include_in_schema=False)
def page_tournament(request: Request, tournament_id: int, page: Page = 1,
                    limit: MatchLimit = 50) -> Response:
    store = store_of(request)
    report = tournament_data(request, tournament_id)["tournament"]
    tournament = store.get_tournament(tournament_id)
    matches = tournament_matches_data(store, request, tournament, page, limit)
    bots = [row["bot"] for row in report["standings"]]
    cells = {(c["bot"], c["opponent"]): c for c in report["crosstable"]}
    return _page(request, "tournament.html", {"t": report, "matches": matches,
                                              "repetitions": tournament.repetitions,
                                              "cross_bots": bots, "cells": cells})


@router.get("/tournaments/{tournament_id}/leaderboard", include_in_schema=False)
def page_tournament_leaderboard(request: Request, tournament_id: int) -> Response:
    report = tournament_data(request, tournament_id)["tournament"]
    rows = tournament_leaderboard_json(report)
    return _page(request, "leaderboard.html", {
        "leaderboard": rows, "game": report["game"], "pool": report["pool"], "pools": [],
        "page": 1, "limit": len(rows), "total": len(rows), "next": None},
        title=f"Tournament {tournament_id}: its matches rated alone", tournament=tournament_id,
        sparks=[None for _ in rows], prev=None)


# ---------------------------------------------------------------- bots


BotLimit = Annotated[int, _limit(200)]
BotMatchLimit = Annotated[int, _limit(100)]


def _public_bots(store: Store, bots: list[BotInfo]) -> list[dict[str, Any]]:
    """Bots as the public pages show them: ``arena bot list --json``'s rows without the
    operator's ``folder`` (a path of the operator's machine, nobody else's business), with
    the ``author`` whose bot it is (None: the operator's)."""
    authors = {a.id: a.name for a in store.list_authors()} \
        if any(b.author_id is not None for b in bots) else {}
    out = []
    for bot in bots:
        row = bot_json(bot)
        del row["folder"]
        row["author"] = None if bot.author_id is None else authors.get(bot.author_id)
        out.append(row)
    return out


def bots_data(store: Store, request: Request, page: int, limit: int) -> dict[str, Any]:
    names, total = store.bot_names((page - 1) * limit, limit)
    return {"version": 1, "bots": _public_bots(store, store.bots_named(names)), "page": page,
            "limit": limit, "total_names": total,
            "next": _next(request, page=page + 1) if page * limit < total else None}


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


def _bot(store: Store, label: str) -> tuple[BotInfo, list[BotInfo]]:
    """The bot version a URL names (``name``: its newest version not removed, else its newest;
    ``name@version``), and every version of it."""
    name, _, version = label.partition("@")
    if BOT_NAME.fullmatch(name) is None or (version and BOT_NAME.fullmatch(version) is None):
        raise NotFoundError(f"no bot {label}")
    versions = store.bot_versions(name)
    if version:
        chosen = next((b for b in versions if b.version == version), None)
        if chosen is None:
            raise NotFoundError(f"no bot {label} (versions of {name}: "
                                f"{', '.join(b.version for b in versions)})")
        return chosen, versions
    active = [b for b in versions if not b.removed]
    return (active or versions)[-1], versions


def _head_to_head_json(bot: BotInfo, row: HeadToHead,
                       labels: Mapping[int, str]) -> dict[str, Any]:
    return {"game": row.pool, "bot": bot.label,
            "opponent": labels.get(row.opponent_id, f"#{row.opponent_id}"),
            **tally(row.wins, row.losses, row.ties).as_dict(),
            "mean_rank": row.rank_sum / row.n if row.n else None}


def head_to_head_by_game(rows: Sequence[HeadToHead]) -> list[HeadToHead]:
    """A bot's head-to-head rows (:meth:`Store.head_to_head`, per pool) added up per game: the
    pools of a game (its variants) add up. By game, then opponent id."""
    totals: dict[tuple[str, int], HeadToHead] = {}
    for row in rows:
        key = (base_game(row.pool), row.opponent_id)
        old = totals.get(key)
        totals[key] = HeadToHead(key[0], row.opponent_id, row.wins, row.losses, row.ties,
                                 row.rank_sum) if old is None else HeadToHead(
            key[0], row.opponent_id, old.wins + row.wins, old.losses + row.losses,
            old.ties + row.ties, old.rank_sum + row.rank_sum)
    return [totals[key] for key in sorted(totals)]


def _fault_json(fault: FaultInfo, reason: str | None = None) -> dict[str, Any]:
    return {"match_id": fault.match_id, "seat": fault.seat, "fault": str(fault.fault),
            "reason": reason, "game": fault.game, "tournament_id": fault.tournament_id,
            "finished_at": iso(fault.finished_at)}


def _faults_json(store: Store, faults: list[FaultInfo]) -> list[dict[str, Any]]:
    """The faults with their reasons: ``null`` for a match played before reasons were kept,
    and for one whose deal another rotation has still to play (a bot's own error message
    may name its cards: :func:`arena.app.visibility.hidden_reasons` decides)."""
    hidden = hidden_reasons(store, [f.match_id for f in faults if f.reason])
    return [_fault_json(f, None if f.match_id in hidden else f.reason) for f in faults]


def bot_matches_data(store: Store, request: Request, bot: BotInfo, before: int | None,
                     limit: int, cursor: str = "before") -> tuple[list[MatchInfo], str | None]:
    found = store.bot_matches(bot.id, before, limit + 1)
    shown = found[:limit]
    more = _next(request, **{cursor: shown[-1].id}) if len(found) > limit else None
    return shown, more


def bot_faults_data(store: Store, request: Request, bot: BotInfo, before: int | None,
                    limit: int, cursor: str = "before") -> tuple[list[FaultInfo], str | None]:
    found = store.bot_faults(bot.id, before, limit + 1)
    shown = found[:limit]
    more = _next(request, **{cursor: shown[-1].match_id}) if len(found) > limit else None
    return shown, more


def bot_data(store: Store, request: Request, label: str, before: int | None,
             faults_before: int | None, limit: int) -> dict[str, Any]:
    bot, versions = _bot(store, label)
    ratings = store.bot_ratings(bot.id)
    places = {}
    for pool in {r.pool for r in ratings}:
        board = leaderboard_json(store.leaderboard(pool=pool, include_removed=True))
        places.update({(pool, row["bot"]): row for row in board})
    matches, matches_next = bot_matches_data(store, request, bot, before, limit)
    faults, faults_next = bot_faults_data(store, request, bot, faults_before, limit,
                                          cursor="faults_before")
    history = [store.rating_history_sample(bot.id, r.pool, HISTORY_POINTS) for r in ratings]
    tallies = head_to_head_by_game(store.head_to_head(bot.id))
    labels = {b.id: b.label for b in store.bots_by_id({t.opponent_id for t in tallies})}
    return document("bot", {
        **_public_bots(store, [bot])[0],
        "versions": _public_bots(store, list(versions)),
        "ratings": [places[r.pool, bot.label] for r in ratings],
        "history": [{"pool": h.pool, "matches": h.total,
                     "points": [{"match_id": p.match_id, "finish_seq": p.finish_seq, "mu": p.mu,
                                 "sigma": p.sigma, "rating": p.conservative} for p in h.points]}
                    for h in history],
        "head_to_head": [_head_to_head_json(bot, row, labels) for row in sorted(
            tallies, key=lambda h: (h.pool, labels.get(h.opponent_id, ""), h.opponent_id))],
        "fault_counts": {str(k): v for k, v in sorted(store.bot_fault_counts(bot.id).items())},
        "matches": [match_json(m) for m in matches], "matches_next": matches_next,
        "faults": _faults_json(store, faults), "faults_next": faults_next,
    })


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
    bot, _ = _bot(store, label)
    shown, more = bot_matches_data(store, request, bot, before, limit)
    return JSONResponse({"version": 1, "matches": [match_json(m) for m in shown], "next": more})


@router.get("/api/bots/{label}/faults", tags=["bots"],
            summary="The seats in which a bot version faulted, newest first, a page at a time")
def api_bot_faults(request: Request, label: str, before: Before = None,
                   limit: BotMatchLimit = 20) -> JSONResponse:
    store = store_of(request)
    bot, _ = _bot(store, label)
    shown, more = bot_faults_data(store, request, bot, before, limit)
    return JSONResponse({"version": 1, "faults": _faults_json(store, shown), "next": more})


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


__all__ = ["ReportCache", "head_to_head_by_game", "router"]
