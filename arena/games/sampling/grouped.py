"""An exact uniform constrained deal that first merges interchangeable places.

:func:`~arena.games.sampling.base.deal_uniform` counts deals by splitting every class of
cards over every place that may hold it, so its cost grows quickly with the number of
places: five hands, a bank and banked cards make thousands of splits a sample. Places
that may hold exactly the same cards (every hand with no void shown, a bank, banked
cards) are interchangeable: :func:`deal_grouped` deals to each group of them as one place
of their summed size, then shares a group's cards among its places by a shuffle and cut.
Each deal to the groups stands for the same number of deals to the places (a product of
multinomials of the sizes), so the result is still exactly uniform over the consistent
deals, at the cost of a deal over far fewer places.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Sequence
from typing import TypeVar

from arena.games.sampling.base import deal_uniform

Card = TypeVar("Card", bound=Hashable)


def deal_grouped(cards: Sequence[Card], capacity: Sequence[int],
                 allowed: Callable[[int, Card], bool], rng: random.Random) -> list[list[Card]]:
    """As :func:`~arena.games.sampling.base.deal_uniform` (same arguments, same result
    distribution, the same ``ValueError`` when nothing is consistent), places allowed the
    same cards being dealt to as one."""
    groups: dict[frozenset[Card], list[int]] = {}
    for place, room in enumerate(capacity):
        if room:
            groups.setdefault(frozenset(c for c in cards if allowed(place, c)), []).append(place)
    kinds = list(groups.items())
    dealt = deal_uniform(cards, [sum(capacity[p] for p in places) for _, places in kinds],
                         lambda group, card: card in kinds[group][0], rng)
    hands: list[list[Card]] = [[] for _ in capacity]
    for (_, places), pool in zip(kinds, dealt, strict=True):
        rng.shuffle(pool)
        start = 0
        for place in places:
            hands[place] = pool[start:start + capacity[place]]
            start += capacity[place]
    return hands
