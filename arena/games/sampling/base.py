"""One seat's knowledge of a match, and full game states drawn consistent with it.

A search bot (PIMC, IS-MCTS) plays forward from *determinizations*: full states in which
the cards its seat cannot see are filled in. :class:`Knowledge` is where a seat's
knowledge lives: it is fed, in order, exactly the events the seat was sent (``learn``) and,
at a decision, the observation the seat was given; from those alone it draws full states
(``sample``). Nothing in its signature carries the true state, so a sample cannot leak
what the seat may not know.

Every game's knowledge keeps to one contract, checked on thousands of random positions
by ``tests/games/test_sampling.py``:

- the seat's own observation of a sample is the observation it was given
  (``game.observe(sample, seat) == observation``), and a sample can be played to the end;
- every card the seat knows the place of is there, and the cards it cannot see are the
  cards still unseen, no more and no fewer;
- where the game deals uniformly, samples are uniform over the deals consistent with
  everything the seat has learned (its hand, the cards played, voids shown, cards passed
  to or from it, claims, the auction...), a rule only some seats saw being used by those
  seats only.

:func:`deal_uniform` draws a uniform deal of unseen cards to the places that may hold them,
exactly, whatever the constraints (a void in a suit, a card known to be in one of two
hands): the counting is done by classes of interchangeable cards, not by rejection.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from functools import lru_cache
from math import comb
from typing import Any, Generic, TypeVar

from arena.games.base import OptionValue, Rng

State = TypeVar("State")
Observation = TypeVar("Observation")
Card = TypeVar("Card", bound=Hashable)


class Knowledge(ABC, Generic[State, Observation]):
    """What one seat of one match has learned, from what it was sent, and nothing else.

    Made at the start of a match for ``seat`` of ``players`` with the match's parsed
    ``options``; fed every event the seat receives, in order, opening events included
    (:meth:`learn`); asked for full states at a decision (:meth:`sample`).
    """

    def __init__(self, players: int, seat: int, options: Mapping[str, OptionValue]) -> None:
        self.players = players
        self.seat = seat
        self.options = dict(options)

    def learn(self, events: Iterable[Any]) -> None:
        """Take in events this seat was sent (typed values, in the order they happened)."""
        for event in events:
            self.note(event)

    @abstractmethod
    def note(self, event: Any) -> None:
        """Take in one event this seat was sent."""

    @abstractmethod
    def sample(self, observation: Observation, rng: random.Random) -> State:
        """A full state consistent with ``observation`` (the seat's latest) and everything
        learned, drawn with ``rng`` alone: uniform over the consistent deals where the game
        deals uniformly. The state's own generator (future deals) is drawn from ``rng`` too."""


def future_rng(rng: random.Random) -> Rng:
    """A game generator for a sample's future (its next deals), drawn from the bot's ``rng``:
    the true one is unknowable, so any seed is consistent."""
    return Rng(rng.getrandbits(63))


def deal_uniform(cards: Sequence[Card], capacity: Sequence[int],
                 allowed: Callable[[int, Card], bool], rng: random.Random) -> list[list[Card]]:
    """Deal ``cards`` to places ``0 .. len(capacity) - 1`` (hands, a stock, a kitty), place
    ``p`` getting exactly ``capacity[p]`` cards and only cards with ``allowed(p, card)``:
    uniform over all such deals, exactly.

    Cards allowed in the same places are interchangeable for counting; the number of deals
    is counted class by class (a sum over how many cards of each class each place gets, of
    multinomials) and the deal is drawn from those counts, so a tight constraint (voids in
    three suits) costs no more than a loose one. Raises ``ValueError`` when no deal exists:
    the knowledge contradicts itself.
    """
    places = len(capacity)
    if sum(capacity) != len(cards):
        raise ValueError(f"{len(cards)} cards for {sum(capacity)} places")
    classes: dict[tuple[int, ...], list[Card]] = {}
    for card in cards:
        where = tuple(p for p in range(places) if capacity[p] and allowed(p, card))
        classes.setdefault(where, []).append(card)
    hands: list[list[Card]] = [[] for _ in range(places)]
    if len(classes) == 1:  # no constraint tells the cards apart: shuffle and cut
        [(where, pool)] = classes.items()
        if any(capacity[p] for p in range(places) if p not in where):
            raise ValueError("no deal is consistent with what is known")
        pool = list(pool)
        rng.shuffle(pool)
        start = 0
        for p in range(places):
            hands[p] = pool[start:start + capacity[p]]
            start += capacity[p]
        return hands
    groups = sorted(classes.items(), key=lambda item: (len(item[0]), len(item[1])))
    kinds = tuple((where, len(pool)) for where, pool in groups)
    counts = _Counter(kinds)
    left = tuple(capacity)
    if counts.ways(0, left) == 0:
        raise ValueError("no deal is consistent with what is known")
    for index, (where, pool) in enumerate(groups):
        split = counts.draw(index, left, rng)
        pool = list(pool)
        rng.shuffle(pool)
        start = 0
        remaining = list(left)
        for place, k in zip(where, split, strict=True):
            hands[place] += pool[start:start + k]
            start += k
            remaining[place] -= k
        left = tuple(remaining)
    return hands


class _Counter:
    """Numbers of deals of classes ``index ..`` into the places' remaining room."""

    def __init__(self, kinds: tuple[tuple[tuple[int, ...], int], ...]) -> None:
        self.kinds = kinds
        self.ways = lru_cache(maxsize=None)(self._ways)

    def _ways(self, index: int, left: tuple[int, ...]) -> int:
        if index == len(self.kinds):
            return 1 if not any(left) else 0
        where, n = self.kinds[index]
        if sum(left[p] for p in where) < n:
            return 0
        later = {p for kind in self.kinds[index + 1:] for p in kind[0]}
        if any(left[p] for p in range(len(left)) if p not in where and p not in later):
            return 0  # a place no later class can fill
        total = 0
        for split in _splits(n, [left[p] for p in where]):
            total += _multinomial(n, split) * self.ways(index + 1, _minus(left, where, split))
        return total

    def draw(self, index: int, left: tuple[int, ...], rng: random.Random) -> tuple[int, ...]:
        """How many cards of class ``index`` each of its places gets, drawn in proportion
        to the deals that follow."""
        where, n = self.kinds[index]
        pick = rng.randrange(self.ways(index, left))
        for split in _splits(n, [left[p] for p in where]):
            weight = _multinomial(n, split) * self.ways(index + 1, _minus(left, where, split))
            if pick < weight:
                return split
            pick -= weight
        raise AssertionError("the counts do not add up")


def _splits(n: int, room: Sequence[int]) -> Iterable[tuple[int, ...]]:
    """Every way to give ``n`` cards to places with this much room, in a fixed order."""
    if len(room) == 1:
        if n <= room[0]:
            yield (n,)
        return
    for k in range(min(n, room[0]) + 1):
        for rest in _splits(n - k, room[1:]):
            yield (k, *rest)


def _minus(left: tuple[int, ...], where: tuple[int, ...], split: tuple[int, ...]) -> tuple[int, ...]:
    remaining = list(left)
    for place, k in zip(where, split, strict=True):
        remaining[place] -= k
    return tuple(remaining)


def _multinomial(n: int, split: Sequence[int]) -> int:
    ways = 1
    for k in split:
        ways *= comb(n, k)
        n -= k
    return ways
