"""The reference search bot, any game: rollouts of the game's heuristic bot on sampled deals.

    python -m bots.search [--budget SECONDS]

Search: perfect-information Monte Carlo (:mod:`sdk.pimc`). For each decision it draws deals
consistent with everything this seat has been shown (:mod:`sdk.search`), tries every legal
action on each, and lets a rollout policy play every seat on: the game's heuristic bot (the
one bundled beside this file), or random moves where :data:`PLANS` says they search better.
An action's score is this seat's value where the rollout stops, summed over the deals, and
the best is played: a rollout of the heuristic, which plays at least as well as the
heuristic where the sampled deals are right. In Kill each copy of the heuristic in a rollout
first takes what its seat knows there from the game's record (:attr:`Plan.learns`), and the
bot keeps its own heuristic's choice unless the rollouts find better beyond their noise
(:attr:`Plan.keep`, in Serial Killer too).

In a game scored over many deals a rollout stops at the end of the current deal and values
each seat by its margin then (its running total less the others' mean; lower totals are
better where the game says so); elsewhere it plays to the end of the match, valued by rank.

Budget: a share of the move clock it is given (a third, leaving room for the wire and a
loaded machine), at most ``--budget`` seconds (default 0.1); with no clock, ``--budget``.
"""

from __future__ import annotations

import argparse
import dataclasses
import importlib
import os
import random
import sys
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, cast

from sdk.bot import Bot, MatchInfo
from sdk.mcts import rank_values
from sdk.pimc import Evaluate, Horizon, Policy, choose, random_policy
from sdk.search import ForwardModel, SearchBot

SHARE_OF_CLOCK = 1 / 3
DEFAULT_BUDGET_S = 0.1


@dataclass(frozen=True)
class Deals:
    """How a game scored over deals is searched: the deal a state is in, the seats' running
    totals, and whether a higher total is better."""

    deal: Callable[[Any], Hashable]
    totals: Callable[[Any], Sequence[float]]
    higher_is_better: bool = True


@dataclass(frozen=True)
class Plan:
    """How a game is searched: its deals (None: to the end of the match, by rank) and its
    rollout policy, the bundled heuristic bot ``module:Class`` or, with None, random moves.
    ``keep``: the bot plays what its own copy of the heuristic bot, told every event, would
    play, unless the rollouts find another action better beyond their noise
    (:func:`sdk.pimc.choose`'s ``keep``): for a heuristic that wins by what it tracks over
    the events, which its copies in the rollouts, played from observations, cannot."""

    deals: Deals | None
    heuristic: str | None
    keep: bool = False
    learns: bool = False
    """The heuristic bot's copies in the rollouts take what their seat knows from the
    rollout's state before each decision (the bot's ``learn(state)``), where its game keeps
    that record, instead of playing from the observation alone."""


PLANS: dict[str, Plan] = {
    "king": Plan(Deals(lambda s: s.hand_no, lambda s: s.totals), "bots.king:KingBot"),
    "knives": Plan(Deals(lambda s: s.hand_no, lambda s: s.totals), "bots.knives:KnivesBot"),
    "kill": Plan(Deals(lambda s: s.round_index, lambda s: s.totals), "bots.kill:KillBot",
                 keep=True, learns=True),
    "kings-corner": Plan(Deals(lambda s: s.deal, lambda s: s.totals, higher_is_better=False),
                         "bots.kings_corner:KingsCornerBot"),
    "face-card-kill-card": Plan(None, "bots.face_card_kill_card:FaceCardBot"),
    "serial-killer": Plan(None, "bots.serial_killer:SerialKillerBot", keep=True),
}


def margin(deals: Deals) -> Evaluate:
    """Each seat's running total less the mean of the others' (negated where lower is better)."""
    def evaluate(state: Any) -> Sequence[float]:
        totals = [t if deals.higher_is_better else -t for t in deals.totals(state)]
        whole, others = sum(totals), len(totals) - 1
        return [t - (whole - t) / others for t in totals]
    return evaluate


def bot_class(spec: str) -> type[Bot]:
    """The bot class ``module:Class`` names."""
    module, name = spec.split(":")
    kind: type[Bot] = getattr(importlib.import_module(module), name)
    return kind


class Learner(Protocol):
    """A heuristic bot that can take what its seat knows from a game state (:attr:`Plan.learns`)."""

    def learn(self, state: Any) -> None: ...

    def act(self, observation: Any, legal_actions: Sequence[Any]) -> Any: ...


def heuristic_policy(model: ForwardModel, match: MatchInfo, heuristic: str,
                     learns: bool = False) -> Policy:
    """Every seat played by its own copy of the heuristic bot ``module:Class``, from what that
    seat would observe; ``learns``: each copy also takes what its seat knows from the state
    (:attr:`Plan.learns`). Otherwise a copy is told nothing else: a bot that keeps memory of
    the events plays on what it knew at the match's start."""
    kind = bot_class(heuristic)
    seats = []
    for seat in range(match.players):
        bot = kind()
        bot.on_start(dataclasses.replace(match, seat=seat))
        seats.append(bot)
    learners = [cast(Learner, bot) for bot in seats] if learns else None

    def policy(state: Any, legal: Sequence[Any], _rng: random.Random) -> Any:
        seat = model.to_act(state)
        assert seat is not None
        if learners is not None:
            learners[seat].learn(state)
        return seats[seat].act(model.observe(state, seat), legal)
    return policy


@dataclass(frozen=True)
class Search:
    """How one seat searches one match: its forward model, and the game's plan made concrete
    (the value at a rollout's end, where a rollout ends, who plays the rollouts)."""

    model: ForwardModel
    plan: Plan
    evaluate: Evaluate
    horizon: Horizon | None
    policy: Policy

    @classmethod
    def of(cls, model: ForwardModel, match: MatchInfo) -> Search:
        plan = PLANS.get(match.game, Plan(None, None))
        return cls(model, plan,
                   margin(plan.deals) if plan.deals is not None else rank_values(model),
                   plan.deals.deal if plan.deals is not None else None,
                   heuristic_policy(model, match, plan.heuristic, plan.learns)
                   if plan.heuristic is not None else random_policy)

    def choose(self, observation: Any, legal: Sequence[Any], rng: random.Random,
               budget_s: float, rounds: int | None = None, keep: Any = None) -> Any:
        """The action the rollouts find best (:func:`sdk.pimc.choose`), ``keep`` unless
        another is better beyond their noise."""
        return choose(self.model, observation, legal, rng, budget_s, evaluate=self.evaluate,
                      horizon=self.horizon, policy=self.policy, rounds=rounds, keep=keep)


class SearchingBot(SearchBot):
    """Rollouts of the game's plan within a budget taken from the move clock."""

    search: Search
    own: Bot | None
    """The game's heuristic bot, told every event, whose choice is kept (:attr:`Plan.keep`)."""

    def __init__(self, budget_s: float = DEFAULT_BUDGET_S, seed: int | None = None,
                 rounds: int | None = None) -> None:
        """``rounds``: exactly that many sampled deals a decision, whatever the time (tests)."""
        super().__init__(seed)
        self.cap_s = budget_s
        self.budget_s = budget_s
        self.rounds = rounds

    def on_start(self, match: MatchInfo) -> None:
        super().on_start(match)
        clock = match.move_timeout_s
        self.budget_s = min(self.cap_s, clock * SHARE_OF_CLOCK) if clock > 0 else self.cap_s
        self.search = Search.of(self.model, match)
        plan = self.search.plan
        self.own = bot_class(plan.heuristic)() if plan.keep and plan.heuristic else None
        if self.own is not None:
            self.own.on_start(match)

    def on_events(self, events: Sequence[Any]) -> None:
        super().on_events(events)
        if self.own is not None:
            self.own.on_events(events)

    def act(self, observation: Any, legal_actions: Sequence[Any]) -> Any:
        keep = self.own.act(observation, legal_actions) if self.own is not None else None
        return self.search.choose(observation, legal_actions, self.rng, self.budget_s,
                                  self.rounds, keep)


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
