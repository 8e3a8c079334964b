"""Exact uniform deals of unseen cards under constraints, counted, never rejected.

A deal is counted by classes of interchangeable cards (cards allowed in the same places):
a sum over how many cards of each class each place gets, of multinomials. Counting every
class over every place costs more the more places there are: five hands, a bank and banked
cards make thousands of splits a sample. Places
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
from collections.abc import Callable, Hashable, Iterable, Sequence
from functools import lru_cache
from math import comb
from typing import Generic, TypeVar

Card = TypeVar("Card", bound=Hashable)


class GroupedDeal(Generic[Card]):
    """A deal of ``cards`` to places ``0 .. len(capacity) - 1``, place ``p`` getting exactly
    ``capacity[p]`` cards and only cards with ``allowed(p, card)``, prepared once and drawn
    many times (:meth:`draw`): uniform over all such deals, exactly, the counts kept from
    one draw to the next. Places
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


def deal_uniform(cards: Sequence[Card], capacity: Sequence[int],
                 allowed: Callable[[int, Card], bool], rng: random.Random) -> list[list[Card]]:
    """One deal of ``cards`` to places ``0 .. len(capacity) - 1`` (hands, a stock, a kitty),
    place ``p`` getting exactly ``capacity[p]`` cards and only cards with
    ``allowed(p, card)``: uniform over all such deals, exactly, each place's cards in a
    uniform order (a stock's is its order). Raises ``ValueError`` when no deal exists: the
    knowledge contradicts itself. A sampler drawing many deals from one observation
    prepares a :class:`GroupedDeal` once instead."""
    hands = GroupedDeal(cards, capacity, allowed).draw(rng)
    for hand in hands:
        rng.shuffle(hand)
    return hands


def count_deals(cards: Sequence[Card], capacity: Sequence[int],
                allowed: Callable[[int, Card], bool]) -> int:
    """How many deals :func:`deal_uniform` draws from: ``cards`` to places of ``capacity``,
    each card only where ``allowed`` (0 when none fits)."""
    if sum(capacity) != len(cards):
        return 0
    classes: dict[tuple[int, ...], int] = {}
    for card in cards:
        where = tuple(p for p, room in enumerate(capacity) if room and allowed(p, card))
        classes[where] = classes.get(where, 0) + 1
    kinds = tuple(sorted(classes.items(), key=lambda item: (len(item[0]), item[1])))
    return _Counter(kinds).ways(0, tuple(capacity))


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
