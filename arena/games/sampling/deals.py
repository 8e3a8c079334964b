"""An exact uniform constrained deal that first merges interchangeable places.

:func:`~arena.games.sampling.base.deal_uniform` counts deals by splitting every class of
cards over every place that may hold it, so its cost grows quickly with the number of
places: five hands, a bank and banked cards make thousands of splits a sample. Places
that may hold exactly the same cards (every hand with no void shown, a bank, banked
cards) are interchangeable: :class:`GroupedDeal` deals to each group of them as one place
of their summed size, then shares a group's cards among its places by a shuffle and cut.
Each deal to the groups stands for the same number of deals to the places (a product of
multinomials of the sizes), so the result is still exactly uniform over the consistent
deals, at the cost of a deal over far fewer places. It reads the constraints and counts
the deals once, then draws many: a sampler prepares one per decision.
"""

from __future__ import annotations

import random
from bisect import bisect_right
from collections.abc import Callable, Hashable, Sequence
from typing import Generic, TypeVar

from arena.games.sampling.base import _Counter, _minus, _multinomial, _splits

Card = TypeVar("Card", bound=Hashable)


class GroupedDeal(Generic[Card]):
    """A deal of ``cards`` to places ``0 .. len(capacity) - 1``, place ``p`` getting exactly
    ``capacity[p]`` cards and only cards with ``allowed(p, card)``, prepared once and drawn
    many times (:meth:`draw`): uniform over all such deals, exactly, as
    :func:`~arena.games.sampling.base.deal_uniform`, by the same counting (its counter of
    deals by classes of interchangeable cards), kept from one draw to the next. Places
    allowed the same cards are dealt to as one. Raises ``ValueError`` when no deal exists."""

    def __init__(self, cards: Sequence[Card], capacity: Sequence[int],
                 allowed: Callable[[int, Card], bool]) -> None:
        self.cards = list(cards)
        self.capacity = list(capacity)
        if sum(capacity) != len(self.cards):
            raise ValueError(f"{len(self.cards)} cards for {sum(capacity)} places")
        groups: dict[tuple[int, ...], list[int]] = {}
        for place, room in enumerate(capacity):
            if room:
                fits = tuple(i for i, card in enumerate(self.cards) if allowed(place, card))
                groups.setdefault(fits, []).append(place)
        self.groups = list(groups.values())
        self.sizes = tuple(sum(capacity[p] for p in places) for places in self.groups)
        fit_sets = [frozenset(fits) for fits in groups]
        classes: dict[tuple[int, ...], list[int]] = {}
        for i in range(len(self.cards)):
            where = tuple(g for g, fits in enumerate(fit_sets) if i in fits)
            classes.setdefault(where, []).append(i)
        self.classes = sorted(classes.items(), key=lambda item: (len(item[0]), len(item[1])))
        self.counter = _Counter(tuple((where, len(pool)) for where, pool in self.classes))
        if self.counter.ways(0, self.sizes) == 0:
            raise ValueError("no deal is consistent with what is known")
        self.tables: dict[tuple[int, tuple[int, ...]], tuple[list[tuple[int, ...]], list[int]]] = {}

    def draw(self, rng: random.Random) -> list[list[Card]]:
        """One deal: each place's cards in the order of ``cards``."""
        dealt: list[list[int]] = [[] for _ in self.groups]
        left = self.sizes
        for index, (where, members) in enumerate(self.classes):
            split = self._split(index, left, rng)
            pool = list(members)
            rng.shuffle(pool)
            start = 0
            remaining = list(left)
            for group, k in zip(where, split, strict=True):
                dealt[group] += pool[start:start + k]
                start += k
                remaining[group] -= k
            left = tuple(remaining)
        hands: list[list[Card]] = [[] for _ in self.capacity]
        for places, pool in zip(self.groups, dealt, strict=True):
            if len(places) > 1:
                rng.shuffle(pool)
            start = 0
            for place in places:
                room = self.capacity[place]
                hands[place] = [self.cards[i] for i in sorted(pool[start:start + room])]
                start += room
        return hands

    def _split(self, index: int, left: tuple[int, ...], rng: random.Random) -> tuple[int, ...]:
        """How many cards of class ``index`` each of its groups gets, drawn in proportion to
        the deals that follow (the weights worked out once for each room left)."""
        table = self.tables.get((index, left))
        if table is None:
            where, n = self.counter.kinds[index]
            splits, cumulative, total = [], [], 0
            for split in _splits(n, [left[g] for g in where]):
                total += _multinomial(n, split) * self.counter.ways(index + 1,
                                                                    _minus(left, where, split))
                splits.append(split)
                cumulative.append(total)
            table = self.tables[(index, left)] = (splits, cumulative)
        splits, cumulative = table
        return splits[bisect_right(cumulative, rng.randrange(cumulative[-1]))]

