"""Information-set Monte Carlo tree search over a :class:`~sdk.search.ForwardModel`.

Single-observer IS-MCTS (Cowling, Powley and Whitehouse, 2012): each iteration draws one
determinization (a full state consistent with what the seat knows), walks one shared tree
of actions down it, choosing by UCB among the actions legal in that determinization (each
child counts how often it was available, so rarely legal actions are not starved), grows
the tree by one node, plays the rest at random to a horizon, and scores every seat there.
Every node keeps the value of the seat that acted at it, so opponents are modelled as
playing for themselves. The answer is the root's most visited action.

    from sdk.mcts import search
    action = search(self.model, observation, self.rng, budget_s=0.1)

``evaluate`` scores a state at the horizon: a value in [0, 1] per seat, higher is better.
By default the horizon is the end of the match and the value comes from its ranks (first
is 1, last is 0). A game scored over many deals is better searched to the end of the
current deal with ``horizon`` and ``evaluate`` of its own (see ``bots/search.py``).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Hashable, Sequence
from typing import Any

from sdk.search import ForwardModel

Evaluate = Callable[[Any], Sequence[float]]
Horizon = Callable[[Any], Hashable]
Policy = Callable[[Any, Sequence[Any]], Any]  # (state, its legal actions) -> one of them

EXPLORATION = 0.7  # UCB's constant for values in [0, 1]


class Node:
    """An action in the tree: who took it, how often it was tried, was available and won."""

    __slots__ = ("available", "children", "seat", "value", "visits")

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.visits = 0
        self.available = 1
        self.value = 0.0
        self.children: dict[Any, Node] = {}

    def ucb(self) -> float:
        return (self.value / self.visits
                + EXPLORATION * math.sqrt(math.log(self.available) / self.visits))


def rank_values(model: ForwardModel) -> Evaluate:
    """Values from a finished match's ranks: 1 for first, 0 for last, ties shared."""
    players = model.players

    def evaluate(state: Any) -> Sequence[float]:
        outcome = model.outcome(state)
        if outcome is None or players < 2:
            return [0.5] * players
        return [(players - rank) / (players - 1) for rank in outcome.ranks]
    return evaluate


def search(model: ForwardModel, observation: Any, rng: random.Random, budget_s: float, *,
           evaluate: Evaluate | None = None, horizon: Horizon | None = None,
           playout: Policy | None = None, depth: int | None = None,
           iterations: int | None = None) -> Any:
    """The action IS-MCTS picks for the seat to act, thinking for ``budget_s`` seconds of
    wall clock (or exactly ``iterations`` iterations, for tests).

    ``playout`` plays every seat after the tree (random by default); ``depth`` caps the
    tree's depth (1: only this decision is searched, every later action is the playout's,
    as a rollout of a good policy improves on it)."""
    root = Node(model.seat)
    first = model.sample(observation, rng)
    legal = list(model.legal_actions(first))
    if len(legal) == 1:
        return legal[0]
    score = evaluate or rank_values(model)
    deadline = time.monotonic() + budget_s
    done = 0
    while (done < iterations) if iterations is not None else (
            done == 0 or time.monotonic() < deadline):
        state = first if done == 0 else model.sample(observation, rng)
        iterate(model, root, state, rng, score, horizon, playout, depth)
        done += 1
    best = max(root.children.items(), key=lambda item: item[1].visits)
    return best[0]


def iterate(model: ForwardModel, root: Node, state: Any, rng: random.Random,
            evaluate: Evaluate, horizon: Horizon | None, playout: Policy | None = None,
            depth: int | None = None) -> None:
    """One iteration down ``state`` (a determinization, played on in place)."""
    end = horizon(state) if horizon is not None else None

    def live() -> bool:
        return model.to_act(state) is not None and (horizon is None or horizon(state) == end)

    node = root
    path: list[Node] = []
    while live() and (depth is None or len(path) < depth):
        seat = model.to_act(state)
        assert seat is not None
        legal = model.legal_actions(state)
        untried = [action for action in legal if action not in node.children]
        for action in legal:
            child = node.children.get(action)
            if child is not None:
                child.available += 1
        if untried:
            action = untried[rng.randrange(len(untried))]
            child = node.children[action] = Node(seat)
            model.play(state, action)
            path.append(child)
            break
        action = max(legal, key=lambda a: node.children[a].ucb())
        node = node.children[action]
        model.play(state, action)
        path.append(node)
    while live():
        legal = model.legal_actions(state)
        if playout is None:
            model.play(state, legal[rng.randrange(len(legal))])
        else:  # a policy of the bot's own: its answer checked
            model.apply(state, playout(state, legal))
    values = evaluate(state)
    for step in path:
        step.visits += 1
        step.value += values[step.seat]
