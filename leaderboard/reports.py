"""A tournament's report and standings, as ``arena tournament show`` and the web app give them.

The standings rate the tournament's matches alone (TrueSkill, in schedule order:
:func:`arena.rating.standings.standings`); the crosstable compares every two of its
bots over the matches they shared. The store keeps both as it rates the tournament's
matches (:meth:`Store.tournament_standings`): a report reads them, it does not rate the
tournament again. Both the CLI (:mod:`arena.cli.standings`) and the web app
(:mod:`leaderboard.web`) build their documents here, so they share one shape
(docs/json.md, ``arena tournament show --json``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict
from typing import Any

from arena.games import pool_of
from arena.rating.standings import Played, Seat, Standing
from arena.storage.store import LeaderboardRow, MatchInfo, MatchStatus, Store, TournamentInfo
from arena.tournament.formats import VERSUS, Format, sprt_state
from leaderboard.documents import tournament_json


def played(matches: Sequence[MatchInfo]) -> list[Played]:
    """The finished matches, as the standings read them."""
    return [Played(m.id, m.index, tuple(Seat(s.bot_id, s.rank or 0, str(s.fault)) for s in m.seats))
            for m in matches if m.status == "finished"]


def tournament_leaderboard(store: Store, tournament: TournamentInfo) -> list[LeaderboardRow]:
    """The tournament's standings as leaderboard rows (its matches rated alone): every bot
    that played in it, a ladder's too (its field grows as it plays)."""
    rows = store.tournament_standings(tournament.id)[0]
    bots = {bot.id: bot for bot in store.bots_by_id(row.bot_id for row in rows)}
    pool = pool_of(tournament.game, tournament.options)
    return [LeaderboardRow(game=tournament.game, bot_id=row.bot_id, name=bots[row.bot_id].name,
                           version=bots[row.bot_id].version, mu=row.mu, sigma=row.sigma,
                           conservative=row.rating, matches=row.matches, wins=row.wins,
                           faults=sum(row.faults.values()), pool=pool)
            for row in rows if row.bot_id in bots]


def _labels(store: Store, tournament: TournamentInfo, bot_ids: Iterable[int]) -> dict[int, str]:
    """name@version of the tournament's bots and of any other of ``bot_ids`` (a ladder seats
    new versions as it plays: its standings may name one the tournament read before did not)."""
    labels = dict(zip(tournament.bot_ids, tournament.bots, strict=True))
    missing = {b for b in bot_ids if b not in labels}
    if missing:
        labels.update({bot.id: bot.label for bot in store.bots_by_id(missing)})
    return labels


def _standing_row(place: int, label: str, row: Standing) -> dict[str, Any]:
    return {"rank": place, "bot": label, "rating": row.rating, "mu": row.mu, "sigma": row.sigma,
            "matches": row.matches, "wins": row.wins, "win_share": row.win_share,
            "mean_rank": row.mean_rank, "faults": sum(row.faults.values()),
            "faults_by_kind": dict(sorted(row.faults.items()))}


def tournament_report(store: Store, tournament: TournamentInfo,
                      counts: Mapping[MatchStatus, int] | None = None) -> dict[str, Any]:
    """Everything ``tournament show`` says, as plain data (its ``--json``): the tournament as
    ``tournament list --json`` gives it, and more. ``counts``: its matches by status, when the
    caller has them already (:meth:`Store.match_counts`).

    The standings and crosstable are the store's (:meth:`Store.tournament_standings`); only a
    versus match with an SPRT reads its matches whole, which its test needs."""
    if counts is None:
        counts = store.match_counts([tournament.id]).get(tournament.id, {})
    statuses = dict(counts)
    fmt = Format.from_settings(tournament.settings)
    rows, table = store.tournament_standings(tournament.id)  # table: in standings order
    labels = _labels(store, tournament, [r.bot_id for r in rows])
    state = None
    if fmt.kind == VERSUS and fmt.sprt is not None:
        state = sprt_state(store.tournament_matches(tournament.id), fmt, tournament.players)
    settings = tournament.settings
    return {
        **tournament_json(tournament, statuses),
        "pool": pool_of(tournament.game, tournament.options),
        "challengers": [labels.get(b, f"#{b}") for b in fmt.challengers],
        "field": [labels.get(b, f"#{b}") for b in fmt.field],
        "sets": fmt.sets or None, "options": tournament.options,
        "deals": settings.get("deals", "duplicate"),
        "clocks": {"move_timeout_s": settings.get("move_timeout_s"),
                   "start_timeout_s": settings.get("start_timeout_s"),
                   "time_bank_s": settings.get("time_bank_s")},
        "matches": {"total": tournament.total, **{str(k): statuses.get(k, 0) for k in (
            MatchStatus.FINISHED, MatchStatus.RUNNING, MatchStatus.PENDING, MatchStatus.VOID)}},
        "sprt": None if state is None or fmt.sprt is None else {
            **asdict(fmt.sprt), "llr": state.llr, "lower": state.lower, "upper": state.upper,
            "sets": state.n, "wins": state.wins, "draws": state.draws, "losses": state.losses,
            "decision": state.decision},
        "standings": [_standing_row(place, labels.get(r.bot_id, f"#{r.bot_id}"), r)
                      for place, r in enumerate(rows, 1)],
        "crosstable": [{"bot": labels.get(a, f"#{a}"), "opponent": labels.get(b, f"#{b}"),
                        **cell.as_dict()}
                       for (a, b), cell in table.items()],
    }


__all__ = ["played", "tournament_leaderboard", "tournament_report"]
