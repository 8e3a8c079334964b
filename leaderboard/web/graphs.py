"""A finished match's win-probability graph, under its replay: each seat's chance to finish
first after each decision, from the full deal (:mod:`arena.app.graphs`, where the estimate and
its CPU cap are described), computed in the background once the match's deal is over.

* ``GET /api/matches/{id}/graph``: the graph's document: per step each seat's chance (the
  steps computed, and those between on the straight line), the steps computed, the
  rollouts, the CPU seconds, and the biggest swings, each with its step's URL; ``graph`` null
  (with ``reason``) while there is none.
* ``GET /matches/{id}/graph``: the same, drawn: an HTML fragment (an inline SVG line chart,
  one line per seat, a legend with each seat's bot, the swings marked, each mark a link to
  its step of the replay, ``#step=N``), or one line saying there is none yet. The match page
  loads it under the replay (``templates/graph.html``, ``static/graph.js``).

Both follow the secrecy rule (:mod:`arena.app.visibility`): the graph shows what the full view
shows, so while another rotation of the match's duplicate deal is unfinished both answer
``403`` with the rule's reason, as the match's page does.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response

from arena.app import graphs
from arena.app.documents import document
from arena.app.graphs import ShownGraph, Swing
from arena.app.records import MatchInfo
from leaderboard.web.common import TEMPLATES, store_of

router = APIRouter()

COLORS = 8
"""Seat colours in the stylesheet (``static/graph.css``: ``seat-c0`` to ``seat-c7``)."""
WIDTH, HEIGHT = 720, 200
"""The plot's size in SVG units (the axes' labels are around it)."""
ESTIMATE = "from the full deal"


def step_link(match_id: int, step: int) -> str:
    """The replay of the match at ``step`` (in the view the page shows)."""
    return f"/matches/{match_id}#step={step}"


def _bots(match: MatchInfo) -> list[str]:
    by_seat = {s.seat: s.bot for s in match.seats}
    return [by_seat.get(seat, f"seat {seat}") for seat in range(len(match.seats))]


def _swing_json(match: MatchInfo, swing: Swing, bots: list[str]) -> dict[str, Any]:
    return {"step": swing.step, "from": swing.before, "seat": swing.seat,
            "bot": bots[swing.seat] if swing.seat < len(bots) else None,
            "change": round(swing.change, 4), "replay": step_link(match.id, swing.step)}


def graph_json(found: ShownGraph) -> dict[str, Any]:
    """The graph's document (``graph`` null, with ``reason``, while there is none)."""
    match, graph = found.match, found.graph
    if graph is None:
        return document("graph", None) | {"match_id": match.id, "reason": found.reason}
    bots = _bots(match)
    return document("graph", {
        "match_id": match.id, "estimate": ESTIMATE, "steps": graph.steps,
        "seats": [{"seat": seat, "bot": bot} for seat, bot in enumerate(bots)],
        "rollouts": graph.rollouts, "cpu_s": round(graph.cpu_s, 3),
        "evaluated": list(graph.evaluated),
        "series": [[round(c, 4) for c in point] for point in graphs.series(graph)],
        "swings": [_swing_json(match, s, bots) for s in graphs.swings(graph)]})


# ---------------------------------------------------------------- the chart


@dataclass(frozen=True)
class SeatLine:
    seat: int
    bot: str
    color: int  # the stylesheet's seat colour
    points: str  # "x,y x,y ...": the steps computed (a straight line between them)
    last: float  # its chance at the last step


@dataclass(frozen=True)
class Mark:
    """A swing marked on the chart: a link to its step."""

    number: int  # from 1, in step order
    step: int
    before: int
    seat: int
    bot: str
    change: float
    x: float
    y: float
    color: int
    href: str


@dataclass(frozen=True)
class WinChart:
    width: int
    height: int
    steps: int
    rollouts: int
    computed: int  # steps computed
    cpu_s: float
    lines: tuple[SeatLine, ...]
    marks: tuple[Mark, ...]
    y_ticks: tuple[tuple[float, float], ...]  # (chance, y)
    x_ticks: tuple[tuple[int, float], ...]  # (step, x)


def chart(match: MatchInfo, found: ShownGraph, width: int = WIDTH,
          height: int = HEIGHT) -> WinChart | None:
    """The graph's chart (None while there is no graph)."""
    graph = found.graph
    if graph is None:
        return None
    last = max(graph.steps - 1, 1)

    def x(step: int) -> float:
        return round(step / last * width, 1)

    def y(chance: float) -> float:
        return round((1.0 - chance) * height, 1)

    bots = _bots(match)
    points = list(zip(graph.evaluated, graph.chances, strict=True))
    lines = tuple(SeatLine(seat, bot, seat % COLORS,
                           " ".join(f"{x(step)},{y(chances[seat])}" for step, chances in points),
                           points[-1][1][seat] if points else 0.0)
                  for seat, bot in enumerate(bots))
    at = dict(points)
    marks = tuple(Mark(number, s.step, s.before, s.seat, bots[s.seat], s.change, x(s.step),
                       y(at[s.step][s.seat]), s.seat % COLORS, f"#step={s.step}")
                  for number, s in enumerate(graphs.swings(graph), start=1))
    ticks = sorted({0, last // 4, last // 2, 3 * last // 4, last})
    return WinChart(width, height, graph.steps, graph.rollouts, len(graph.evaluated),
                    graph.cpu_s, lines, marks,
                    tuple((v, y(v)) for v in (0.0, 0.25, 0.5, 0.75, 1.0)),
                    tuple((step, x(step)) for step in ticks))


# ---------------------------------------------------------------- routes


@router.get("/api/matches/{match_id}/graph", tags=["matches"],
            summary="A finished match's win-probability graph: each seat's chance to finish "
            "first after each decision, from the full deal (once its deal is over)")
def api_graph(request: Request, match_id: int) -> JSONResponse:
    found = graphs.shown_graph(store_of(request), match_id)
    return JSONResponse(graph_json(found),
                        headers={"Cache-Control": "no-store" if found.graph is None
                                 else "private, max-age=60"})


@router.get("/matches/{match_id}/graph", include_in_schema=False)
def fragment_graph(request: Request, match_id: int) -> Response:
    found = graphs.shown_graph(store_of(request), match_id)
    return TEMPLATES.TemplateResponse(request, "graph_chart.html", {
        "m": found.match, "reason": found.reason, "c": chart(found.match, found),
        "estimate": ESTIMATE, "api": f"/api/matches/{match_id}/graph"},
        headers={"Cache-Control": "no-store"})


__all__ = ["ESTIMATE", "Mark", "SeatLine", "WinChart", "api_graph", "chart", "fragment_graph",
           "graph_json", "router", "step_link"]
