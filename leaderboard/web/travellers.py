"""A duplicate deal's traveller (``/tournaments/{id}/deals/{deal}``) and its JSON
(``/api/tournaments/{id}/deals/{deal}``): the deal's seat rotations side by side, who held
each hand, their scores, ranks and matchpoints, and the moments where their choices differed,
each a link to that step of that rotation's replay (:mod:`arena.app.travellers`, where the
definitions are).

A deal is named by the id of its first match in schedule order; any rotation's match id
finds it (the page moves to the deal's own address). The traveller shows every rotation's
full view, so it opens only once every rotation of the deal is over (else a 403 in one line,
the secrecy rule's reason: :mod:`arena.app.visibility`).
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, RedirectResponse, Response

from arena.app import travellers
from arena.app.documents import document, match_json, seat_json
from arena.app.travellers import BotTotal, Holding, Parting, Rotation, Traveller
from arena.games import get_game
from leaderboard.web.common import TEMPLATES, store_of
from leaderboard.web.pages import FAULT_MEANING

router = APIRouter()


def path(tournament_id: int, deal: int) -> str:
    """A deal's traveller page."""
    return f"/tournaments/{tournament_id}/deals/{deal}"


def step_link(match_id: int, step: int | None = None) -> str:
    """A rotation's replay in the full view (the deal is over), at ``step`` if given."""
    return f"/matches/{match_id}?view=full" + ("" if step is None else f"#step={step}")


def _holding_json(row: Holding) -> dict[str, Any]:
    return {**seat_json(row.seat), "place": row.place, "matchpoints": row.matchpoints,
            "top": row.top,
            "against": [{"match_id": c.match_id, "bot": c.bot, "points": c.points}
                        for c in row.against]}


def _rotation_json(rotation: Rotation) -> dict[str, Any]:
    match = match_json(rotation.match)
    if rotation.holdings:
        match["seats"] = [_holding_json(row) for row in rotation.holdings]
    return {**match, "void": rotation.void, "decisions": rotation.decisions,
            "replay": None if rotation.void else step_link(rotation.match.id)}


def _total_json(total: BotTotal) -> dict[str, Any]:
    return {"bot": total.bot, "seats": total.seats, "matchpoints": total.matchpoints,
            "top": total.top, "share": total.share}


def _parting_json(parting: Parting) -> dict[str, Any]:
    return {"decision": parting.decision, "seat": parting.seat, "choices": [
        {"choice": choice.action, "by": [
            {"match_id": c.match_id, "bot": c.bot, "fallback": c.fallback,
             "replay": step_link(c.match_id, parting.decision)} for c in choice.by]}
        for choice in parting.choices]}


def traveller_json(found: Traveller) -> dict[str, Any]:
    """The traveller's document (no seed, no log: the choices as the replay writes them)."""
    tournament = found.tournament
    return document("traveller", {
        "tournament_id": tournament.id, "deal": found.deal, "game": tournament.game,
        "players": tournament.players, "rotations": [_rotation_json(r) for r in found.rotations],
        "finished": found.finished, "totals": [_total_json(t) for t in found.totals],
        "partings": [_parting_json(p) for p in found.partings]})


@router.get("/api/tournaments/{tournament_id}/deals/{deal}", tags=["tournaments"],
            summary="A duplicate deal's traveller: its rotations side by side, scores, ranks, "
            "matchpoints and the decisions where they parted (once every rotation is over)")
def api_traveller(request: Request, tournament_id: int, deal: int) -> JSONResponse:
    found = travellers.traveller(store_of(request), tournament_id, deal)
    return JSONResponse(traveller_json(found))


@router.get("/tournaments/{tournament_id}/deals/{deal}", include_in_schema=False)
def page_traveller(request: Request, tournament_id: int, deal: int) -> Response:
    found = travellers.traveller(store_of(request), tournament_id, deal)
    if found.deal != deal:
        return RedirectResponse(path(tournament_id, found.deal), status_code=307)
    data = traveller_json(found)["traveller"]
    return TEMPLATES.TemplateResponse(request, "traveller.html", {
        "t": data, "title": get_game(found.tournament.game).title,
        "hands": list(range(len(found.rotations[0].match.seats))),
        "fault_meaning": FAULT_MEANING,
        "api": f"/api{path(tournament_id, deal)}"})


__all__ = ["api_traveller", "page_traveller", "path", "router", "step_link", "traveller_json"]
