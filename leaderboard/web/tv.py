"""The TV page (``/tv``) and its JSON (``/api/tv``): the featured live match, drawn by the
match's own live viewer, and the other live matches under it (:mod:`arena.app.tv`). The page
asks the JSON again every few seconds and follows the pick when it changes."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response

from arena.app.documents import document, match_json
from arena.app.tv import Candidate, Tv
from leaderboard.web.common import TEMPLATES, state_of, store_of

router = APIRouter()


def tv_of(request: Request) -> Tv:
    found = state_of(request, "tv", Tv)
    assert found is not None, "create_app keeps the app's Tv"
    return found


def _candidate(found: Candidate) -> dict[str, Any]:
    return {**match_json(found.match), "rating": round(found.rating, 2)}


def tv_data(request: Request) -> dict[str, Any]:
    view = tv_of(request).view(store_of(request))
    return document("tv", {
        "featured": None if view.featured is None else _candidate(view.featured),
        "others": [_candidate(c) for c in view.others], "margin": view.margin})


@router.get("/api/tv", tags=["matches"],
            summary="The featured live match (the strongest table running; it stays until it "
            "ends or one better by the margin starts) and the other live matches")
def api_tv(request: Request) -> JSONResponse:
    return JSONResponse(tv_data(request))


@router.get("/tv", include_in_schema=False)
def page_tv(request: Request) -> Response:
    data = tv_data(request)["tv"]
    return TEMPLATES.TemplateResponse(request, "tv.html", {"tv": data, "api": "/api/tv"})


__all__ = ["router", "tv_of"]
