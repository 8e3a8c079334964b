"""The reference search bot: information-set MCTS over the SDK's forward model, any game.

    python -m bots.search [--budget SECONDS]

Search: single-observer IS-MCTS (:mod:`sdk.mcts`). Each iteration samples a full state
consistent with everything this seat has been shown (:mod:`sdk.search`), walks the shared
tree down it, plays on at random and scores every seat. In a game scored over many deals
it searches to the end of the current deal and values each seat by its standing then (its
running total against the others', scaled to [0, 1]; lower is better where the game says
so); elsewhere to the end of the match, by rank.

Budget: a share of the move clock it is given (a third, leaving room for the wire and a
loaded machine), at most ``--budget`` seconds (default 0.1); with no clock, ``--budget``.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Any

from sdk.bot import MatchInfo
from sdk.mcts import Evaluate, Horizon, search
from sdk.search import SearchBot

SHARE_OF_CLOCK = 1 / 3
DEFAULT_BUDGET_S = 0.1


@dataclass(frozen=True)
class Deals:
    """How a game scored over deals is searched: the deal a state is in, the seats' running
    totals, and whether a higher total is better."""

    deal: Callable[[Any], Hashable]
    totals: Callable[[Any], Sequence[float]]
    higher_is_better: bool = True


# Games scored over several deals; the others are searched to the match's end.
DEALS: dict[str, Deals] = {
    "king": Deals(lambda s: s.hand_no, lambda s: s.totals),
    "knives": Deals(lambda s: s.hand_no, lambda s: s.totals),
    "kill": Deals(lambda s: s.round_index, lambda s: s.totals),
    "kings-corner": Deals(lambda s: s.deal, lambda s: s.totals, higher_is_better=False),
}


def standing(deals: Deals) -> Evaluate:
    """Each seat's total against the others', scaled to [0, 1] (0.5 all round when level)."""
    def evaluate(state: Any) -> Sequence[float]:
        totals = [t if deals.higher_is_better else -t for t in deals.totals(state)]
        low, high = min(totals), max(totals)
        if high == low:
            return [0.5] * len(totals)
        return [(t - low) / (high - low) for t in totals]
    return evaluate


class SearchingBot(SearchBot):
    """IS-MCTS within a budget taken from the move clock."""

    evaluate: Evaluate | None = None  # a match's, set at its start: the end of the match by rank
    horizon: Horizon | None = None

    def __init__(self, budget_s: float = DEFAULT_BUDGET_S, seed: int | None = None) -> None:
        super().__init__(seed)
        self.cap_s = budget_s
        self.budget_s = budget_s

    def on_start(self, match: MatchInfo) -> None:
        super().on_start(match)
        clock = match.move_timeout_s
        self.budget_s = min(self.cap_s, clock * SHARE_OF_CLOCK) if clock > 0 else self.cap_s
        deals = DEALS.get(match.game)
        self.evaluate = standing(deals) if deals is not None else None
        self.horizon = deals.deal if deals is not None else None

    def act(self, observation: Any, legal_actions: Sequence[Any]) -> Any:
        if len(legal_actions) == 1:
            return legal_actions[0]
        return search(self.model, observation, self.rng, self.budget_s,
                      evaluate=self.evaluate, horizon=self.horizon)


def budget_from(argv: Sequence[str]) -> float:
    """``--budget SECONDS`` from the command line (the SDK's own options are left alone)."""
    parser = argparse.ArgumentParser(add_help=False)
    parser.add_argument("--budget", type=float, default=DEFAULT_BUDGET_S)
    args, _ = parser.parse_known_args(argv)
    if not 0 < args.budget < 60:
        parser.error(f"--budget must be above 0 and below 60 seconds, not {args.budget}")
    return float(args.budget)


if __name__ == "__main__":
    from sdk.run import run

    budget = budget_from(sys.argv[1:])
    run(lambda: SearchingBot(budget, seed=int.from_bytes(os.urandom(8), "big")))
