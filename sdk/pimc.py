"""Perfect-information Monte Carlo over a :class:`~sdk.search.ForwardModel`: every action of
this decision tried on the same sampled deals, each played on by a rollout policy.

Each round draws one determinization (a full state consistent with what the seat knows),
then, for every legal action, copies it, plays the action and lets ``policy`` play every seat
to the horizon; the action's score is the seat's value there, summed over the rounds. Every
action meets the same deals and, with a random policy, the same random moves after it (common
random numbers): what differs between two actions' scores is the actions, not the luck of
the draw, so a few dozen deals tell them apart. The answer is the best total.

With a good ``policy`` (a game's heuristic bot, say) this is a rollout of that policy, which
plays at least as well as the policy itself where the samples are right (Bertsekas' rollout
algorithm; Ginsberg's GIB played Bridge this way): ``bots/search.py`` does so.

    from sdk.pimc import choose
    action = choose(self.model, observation, legal_actions, self.rng, budget_s=0.1,
                    policy=my_policy, evaluate=my_values)

Where the rollouts see less than the bot does (a policy that tracks the events, played in the
rollouts from observations alone), ``keep`` names the bot's own choice: the search plays
another action only where the rollouts find it better beyond their noise (the paired
differences' mean above :data:`KEEP_T` standard errors), and the kept choice when not one
round fits in the budget.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Hashable, Sequence
from typing import Any

from sdk.search import ForwardModel

Evaluate = Callable[[Any], Sequence[float]]  # a state -> a value per seat, higher is better
Horizon = Callable[[Any], Hashable]  # a rollout ends once this changes (or the match ends)
Policy = Callable[[Any, Sequence[Any], random.Random], Any]  # (state, legal, rng) -> an action

CLOCK_EVERY = 16  # moves of a rollout between two readings of the clock
KEEP_T = (12.71, 4.30, 3.18, 2.78, 2.57, 2.45, 2.36, 2.31, 2.26, 2.23, 2.20, 2.18, 2.16, 2.14,
          2.13, 2.12, 2.11, 2.10, 2.09, 2.09)
"""How far (in standard errors of the paired differences) an action must score above the kept
one to be played instead, by rounds less one: Student's t at 97.5 % (few rounds estimate their
own spread poorly: at 3 rounds, 2 standard errors would let one alternative in 9 through on
noise alone); :data:`KEEP_Z` from 21 rounds on."""
KEEP_Z = 2.0


def random_policy(_state: Any, legal: Sequence[Any], rng: random.Random) -> Any:
    """Any legal action, uniformly."""
    return legal[rng.randrange(len(legal))]


def choose(model: ForwardModel, observation: Any, legal: Sequence[Any], rng: random.Random,
           budget_s: float, *, evaluate: Evaluate, horizon: Horizon | None = None,
           policy: Policy = random_policy, rounds: int | None = None, keep: Any = None) -> Any:
    """The action whose rollouts score best for this seat, from as many rounds (a sampled
    deal, every action played on it) as ``budget_s`` seconds of wall clock allow, at least
    one (or exactly ``rounds``, for tests). A round the budget cuts short counts for nothing;
    when not even one round fits in twice the budget, the answer is ``keep`` if given, else
    the policy's own choice, on one sampled deal. ``keep`` (one of ``legal``): the action
    played unless another scores above it by more than :data:`KEEP_T` standard errors of
    their paired differences (over two rounds at least)."""
    actions = list(legal)
    if len(actions) == 1:
        return actions[0]
    kept = actions.index(keep) if keep is not None else None
    timed = rounds is None
    deadline = time.monotonic() + budget_s
    cutoff = deadline + budget_s if timed else None  # past it, even a first round is given up
    totals = [0.0] * len(actions)
    squares = [0.0] * len(actions)  # of each action's difference from the kept one
    done = 0
    while (done < rounds) if rounds is not None else (done == 0 or time.monotonic() < deadline):
        deal = model.sample(observation, rng)
        luck = rng.getrandbits(64)  # the same random moves after every action
        scores: list[float] = []
        for action in actions:
            if timed and done and time.monotonic() > deadline:
                break  # out of time: a round not every action met would favour some
            score = _rollout(model, deal, action, random.Random(luck), policy, evaluate,
                             horizon, cutoff)
            if score is None:
                break  # a rollout longer than the budget: no round fits in it
            scores.append(score)
        if len(scores) < len(actions):
            if done == 0:  # not one round: the kept action, or the policy's own choice
                return keep if kept is not None else policy(deal, actions, random.Random(luck))
            break
        totals = [t + s for t, s in zip(totals, scores, strict=True)]
        if kept is not None:
            squares = [q + (s - scores[kept]) ** 2 for q, s in zip(squares, scores, strict=True)]
        done += 1
    best = max(range(len(actions)), key=totals.__getitem__)
    if kept is None or best == kept:
        return actions[best]
    return actions[best] if _beyond_noise(totals[best] - totals[kept], squares[best], done) \
        else keep


def _beyond_noise(total: float, squares: float, rounds: int) -> bool:
    """Whether paired differences summing to ``total`` (their squares to ``squares``) over
    ``rounds`` rounds have a mean above :data:`KEEP_T` standard errors."""
    if rounds < 2:
        return False
    mean = total / rounds
    variance = max(0.0, (squares - rounds * mean * mean) / (rounds - 1))
    t = KEEP_T[rounds - 2] if rounds - 2 < len(KEEP_T) else KEEP_Z
    return bool(mean > t * math.sqrt(variance / rounds))


def _rollout(model: ForwardModel, deal: Any, action: Any, moves: random.Random, policy: Policy,
             evaluate: Evaluate, horizon: Horizon | None, cutoff: float | None) -> float | None:
    """This seat's value once ``action`` is played on a copy of ``deal`` and ``policy`` plays
    every seat on to the horizon; None if the clock passes ``cutoff`` first."""
    state = model.copy(deal)
    end = horizon(state) if horizon is not None else None
    model.apply(state, action)
    # the random policy's moves are legal by construction; any other policy's are checked
    play = model.play if policy is random_policy else model.apply
    played = 0
    while model.to_act(state) is not None and (horizon is None or horizon(state) == end):
        play(state, policy(state, model.legal_actions(state), moves))
        played += 1
        if cutoff is not None and played % CLOCK_EVERY == 0 and time.monotonic() > cutoff:
            return None
    return evaluate(state)[model.seat]


__all__ = ["KEEP_T", "KEEP_Z", "Evaluate", "Horizon", "Policy", "choose", "random_policy"]
