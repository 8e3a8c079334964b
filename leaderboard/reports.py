"""A tournament's report and standings as documents: ``arena tournament show --json``, the
web app's tournament page and the operator service give them in this one shape (docs/json.md).

What a report says is :mod:`arena.app.reports`' (its records: the standings and crosstable
the store keeps, an SPRT's state); this module only lays them out. :func:`tournament_report`
(a store and a tournament in, the document out) is kept for the adapters that call it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict
from typing import Any

from arena.app import reports
from arena.app.boards import tournament_leaderboard as tournament_leaderboard
from arena.app.records import MatchStatus, Store, TournamentInfo
from arena.app.reports import StandingRow, TournamentReport
from arena.app.reports import played as played
from leaderboard.documents import counts_json, progress_json


def _standing_json(row: StandingRow) -> dict[str, Any]:
    s = row.standing
    return {"rank": row.place, "bot": row.bot, "rating": s.rating, "mu": s.mu, "sigma": s.sigma,
            "matches": s.matches, "wins": s.wins, "win_share": s.win_share,
            "mean_rank": s.mean_rank, "faults": sum(s.faults.values()),
            "faults_by_kind": dict(sorted(s.faults.items()))}


def report_json(report: TournamentReport) -> dict[str, Any]:
    """Everything ``tournament show`` says, as plain data (its ``--json``): the tournament as
    ``tournament list --json`` gives it, and more."""
    tournament, sprt = report.tournament, report.sprt
    settings = tournament.settings
    return {
        **progress_json(report.progress),
        "pool": report.pool,
        "challengers": list(report.challengers), "field": list(report.field),
        "sets": report.sets, "options": tournament.options,
        "deals": settings.get("deals", "duplicate"),
        "clocks": {"move_timeout_s": settings.get("move_timeout_s"),
                   "start_timeout_s": settings.get("start_timeout_s"),
                   "time_bank_s": settings.get("time_bank_s")},
        "matches": counts_json(report.progress),
        "sprt": None if sprt is None else {
            **asdict(sprt.settings), "llr": sprt.state.llr, "lower": sprt.state.lower,
            "upper": sprt.state.upper, "sets": sprt.state.n, "wins": sprt.state.wins,
            "draws": sprt.state.draws, "losses": sprt.state.losses,
            "decision": sprt.state.decision},
        "standings": [_standing_json(row) for row in report.standings],
        "crosstable": [{"bot": c.bot, "opponent": c.opponent, **c.cell.as_dict()}
                       for c in report.crosstable],
    }


def tournament_report(store: Store, tournament: TournamentInfo,
                      counts: Mapping[MatchStatus, int] | None = None) -> dict[str, Any]:
    """:func:`report_json` of :func:`arena.app.reports.tournament_report`."""
    return report_json(reports.tournament_report(store, tournament, counts))


def standings_leaderboard_json(report: Mapping[str, Any]) -> list[dict[str, Any]]:
    """A tournament's standings as ``arena leaderboard --tournament ID --json`` gives them
    (:func:`arena.app.boards.tournament_leaderboard`), from its report's document."""
    rows = []
    for row in report["standings"]:
        name, _, version = row["bot"].partition("@")
        rows.append({"rank": row["rank"], "bot": row["bot"], "name": name, "version": version,
                     "game": report["game"], "pool": report["pool"], "rating": row["rating"],
                     "mu": row["mu"], "sigma": row["sigma"], "matches": row["matches"],
                     "wins": row["wins"], "win_share": row["win_share"], "faults": row["faults"]})
    return rows


__all__ = ["played", "report_json", "standings_leaderboard_json", "tournament_leaderboard",
           "tournament_report"]
