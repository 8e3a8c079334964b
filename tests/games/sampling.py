"""The sampler contract's checks, shared by every game's sampler tests.

:func:`positions` plays random matches and keeps, for every seat, a
:class:`~arena.games.sampling.Knowledge` fed exactly the events that seat is sent (what a
bot's forward model sees); at chosen decisions it hands out the true state beside it.
:func:`check_sample` checks one sample against the contract, :func:`chi_square_p` judges a
histogram of samples against a uniform one, and :func:`same_samples` shows that a
knowledge's samples depend on what the seat learned only.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Hashable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from arena.games.base import Game, Tagged
from arena.games.sampling import Knowledge, knowledge

PLAYOUT_LIMIT = 100_000  # actions; a playout longer than this is a rules bug


@dataclass
class Position:
    """A decision of a random match: the true state (for the checks only), the seat asked,
    its observation, its knowledge, and the events it was sent so far."""

    state: Any
    seat: int
    observation: Any
    knowledge: Knowledge[Any, Any]
    events: list[Any]
    step: int


def positions(game: Game[Any, Any, Any], players: int, seed: int,
              options: Mapping[str, Any] | None = None, *, every: int = 1,
              seats: Sequence[int] | None = None) -> Iterator[Position]:
    """The decisions of one random match (seeded), every ``every``-th one, of ``seats``
    (default: all). The state yielded is a copy: a check may play it on."""
    parsed = game.parse_options(players, options)
    state = game.new(players, seed, parsed)
    policy = random.Random(f"policy-{seed}")
    known = [knowledge(game.name, players, seat, parsed) for seat in range(players)]
    seen: list[list[Any]] = [[] for _ in range(players)]

    def send(tagged: Sequence[Tagged]) -> None:
        for seat in range(players):
            events = [t.event for t in tagged if t.visible(seat)]
            known[seat].learn(events)
            seen[seat] += events

    send(game.opening_events(state))
    step = 0
    while (seat := game.to_act(state)) is not None:
        if step % every == 0 and (seats is None or seat in seats):
            yield Position(game.clone(state), seat, game.observe(state, seat), known[seat],
                           list(seen[seat]), step)
        legal = game.legal_actions(state)
        send(game.apply(state, legal[policy.randrange(len(legal))]))
        step += 1


def check_sample(game: Game[Any, Any, Any], position: Position, rng: random.Random) -> Any:
    """One sample of ``position``'s knowledge, checked against the contract; returns it.

    The seat's observation of the sample is the one it was given; the same seat is to act
    with the same legal actions; the sample holds the very cards the true state holds
    (none missing, none invented); and it plays to the end with random actions.
    """
    where = f"{game.name} step {position.step} seat {position.seat}"
    sample = position.knowledge.sample(position.observation, rng)
    assert game.observe(sample, position.seat) == position.observation, \
        f"{where}: the sample's observation differs from the seat's"
    assert game.to_act(sample) == game.to_act(position.state), f"{where}: another seat acts"
    assert list(game.legal_actions(sample)) == list(game.legal_actions(position.state)), \
        f"{where}: other legal actions"
    assert Counter(map(repr, game.cards_in_play(sample))) == \
        Counter(map(repr, game.cards_in_play(position.state))), f"{where}: other cards in play"
    playout(game, game.clone(sample), rng)
    return sample


def playout(game: Game[Any, Any, Any], state: Any, rng: random.Random) -> Any:
    """Play ``state`` to its end with random legal actions; returns its outcome."""
    for _ in range(PLAYOUT_LIMIT):
        if game.to_act(state) is None:
            outcome = game.outcome(state)
            assert outcome is not None
            return outcome
        legal = game.legal_actions(state)
        game.apply(state, legal[rng.randrange(len(legal))])
    raise AssertionError(f"{game.name}: a playout did not end in {PLAYOUT_LIMIT} actions")


def same_samples(game: Game[Any, Any, Any], position: Position, seed: int, count: int = 20) -> None:
    """A knowledge rebuilt from the events the seat was sent gives, from the same generator,
    the very samples the live one gives: samples depend on what the seat learned only."""
    rebuilt = knowledge(game.name, position.knowledge.players, position.seat,
                        position.knowledge.options)
    rebuilt.learn(position.events)
    live_rng, rebuilt_rng = random.Random(seed), random.Random(seed)
    for _ in range(count):
        live = position.knowledge.sample(position.observation, live_rng)
        again = rebuilt.sample(position.observation, rebuilt_rng)
        assert repr(live) == repr(again), f"{game.name}: samples differ for the same knowledge"


def chi_square_p(counts: Mapping[Any, int], support: Sequence[Hashable]) -> float:
    """The p-value of a chi-square test that ``counts`` (samples per outcome) come from the
    uniform distribution over ``support``; an outcome outside the support gives 0."""
    if any(key not in set(support) for key in counts):
        return 0.0
    total = sum(counts.values())
    expected = total / len(support)
    statistic = sum((counts.get(key, 0) - expected) ** 2 / expected for key in support)
    return _upper_gamma_regularized((len(support) - 1) / 2, statistic / 2)


def homogeneity_p(first: Mapping[Any, int], second: Mapping[Any, int]) -> float:
    """The p-value of a chi-square test that two histograms come from one distribution (the
    samples of two states a seat cannot tell apart: a sampler that peeks fails it)."""
    keys = sorted(set(first) | set(second), key=repr)
    if len(keys) < 2:
        return 1.0
    n1, n2 = sum(first.values()), sum(second.values())
    statistic = 0.0
    for key in keys:
        row = first.get(key, 0) + second.get(key, 0)
        for observed, size in ((first.get(key, 0), n1), (second.get(key, 0), n2)):
            expected = row * size / (n1 + n2)
            statistic += (observed - expected) ** 2 / expected
    return _upper_gamma_regularized((len(keys) - 1) / 2, statistic / 2)


def _upper_gamma_regularized(a: float, x: float) -> float:
    """Q(a, x) = Γ(a, x) / Γ(a): the chi-square survival function's core (a series below
    a + 1, a continued fraction above, as in Numerical Recipes)."""
    if x <= 0:
        return 1.0
    if x < a + 1:
        term = total = 1.0 / a
        n = a
        for _ in range(10_000):
            n += 1
            term *= x / n
            total += term
            if abs(term) < abs(total) * 1e-15:
                break
        return max(0.0, 1.0 - total * math.exp(-x + a * math.log(x) - math.lgamma(a)))
    tiny = 1e-300
    b = x + 1 - a
    c = 1 / tiny
    d = 1 / b
    h = d
    for i in range(1, 10_000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < 1e-15:
            break
    return math.exp(-x + a * math.log(x) - math.lgamma(a)) * h
