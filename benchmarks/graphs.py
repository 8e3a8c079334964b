"""What a match's win-probability graph costs (:mod:`arena.app.graphs`): per game, matches of
the game's bundled heuristic bot in every seat (the rules' defaults, the default number of
players) played through the referee, then each match's graph computed from its log as the
background worker computes it, at the default cap (:data:`arena.app.graphs.DEFAULT_CAP_S`).

Per game: the CPU seconds per match (mean and max; :func:`time.process_time`, the log's
replay included), the steps per match (its decisions and its start) and the share of them
computed (the others lie on the straight line), and the rollouts per step computed.
"""

from __future__ import annotations

import asyncio
import statistics
import time

from arena.app.graphs import DEFAULT_CAP_S, estimate
from arena.games import all_games
from arena.match.conformance import UNTIMED
from arena.match.links import LocalLink
from arena.match.referee import MatchReport, run_match
from benchmarks.common import Row
from bots.search import PLANS, bot_class
from sdk.local import BotPlayer

FULL_MATCHES = 5
QUICK_MATCHES = 2


def played(game: str, players: int, seed: int) -> MatchReport:
    """A match of the game's heuristic bot in every seat, through the referee, untimed."""
    plan = PLANS[game]
    assert plan.heuristic is not None
    kind = bot_class(plan.heuristic)
    links = [LocalLink(BotPlayer(kind()), threaded=False) for _ in range(players)]

    async def ready(link: LocalLink) -> LocalLink:
        return link

    return asyncio.run(run_match(game_name=game, players=players, seed=seed, options={},
                                 links=[ready(link) for link in links], settings=UNTIMED))


def run(quick: bool) -> list[Row]:
    matches = QUICK_MATCHES if quick else FULL_MATCHES
    rows: list[Row] = []
    for game in all_games().values():
        players = game.default_players
        options = dict(game.parse_options(players))
        cpu: list[float] = []
        steps: list[int] = []
        computed: list[int] = []
        rollouts: list[int] = []
        for seed in range(1, matches + 1):
            report = played(game.name, players, seed)
            began = time.process_time()
            graph = estimate(game.name, players, seed, options, report.log, key=f"bench {seed}")
            cpu.append(time.process_time() - began)
            steps.append(graph.steps)
            computed.append(len(graph.evaluated))
            rollouts.append(graph.rollouts)
        share = sum(computed) / sum(steps)
        note = (f"{players} players, {matches} matches of its heuristic bot; steps per match "
                f"{statistics.mean(steps):.0f} (max {max(steps)}), {share:.0%} of them "
                f"computed, {min(rollouts)}-{max(rollouts)} rollouts a step")
        rows.append(Row("graphs", f"{game.name}: CPU s per match, mean", statistics.mean(cpu),
                        "CPU s", target=f"<= {DEFAULT_CAP_S:g} (the cap)",
                        met=max(cpu) <= DEFAULT_CAP_S + 0.1, note=note))
        rows.append(Row("graphs", f"{game.name}: CPU s per match, max", max(cpu), "CPU s"))
        rows.append(Row("graphs", f"{game.name}: steps per match, mean",
                        statistics.mean(steps), "steps",
                        note=f"computed {statistics.mean(computed):.0f} a match"))
    return rows


__all__ = ["run"]
