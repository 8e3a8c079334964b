"""The grouped deal: exactly uniform over the consistent deals, as the plain one is, each
place's cards in the order given."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest

from arena.games.sampling.deals import GroupedDeal
from tests.games.sampling import chi_square_p

SIGNIFICANCE = 0.001  # a uniform deal fails a test at this level once in a thousand


def consistent(cards: str, capacity: list[int], forbidden: dict[int, str]) -> list[tuple[str, ...]]:
    """Every deal of ``cards`` to places of these sizes holding no forbidden card."""
    deals = set()
    for order in itertools.permutations(cards):
        start, hands = 0, []
        for room in capacity:
            hands.append("".join(sorted(order[start:start + room])))
            start += room
        if not any(c in forbidden.get(p, "") for p, hand in enumerate(hands) for c in hand):
            deals.add(tuple(hands))
    return sorted(deals)


@pytest.mark.parametrize(("capacity", "forbidden"), [
    ([2, 1, 1, 2], {0: "ab"}),             # one constrained place, three interchangeable
    ([1, 1, 2, 2], {1: "cd", 2: "cd"}),    # two places alike, constrained alike
    ([2, 1, 0, 2, 1], {3: "a", 4: "f"}),   # an empty place, each place its own constraint
    ([3, 2, 1], {}),                       # no constraint at all
])
def test_a_grouped_deal_is_uniform_over_the_consistent_deals(
        capacity: list[int], forbidden: dict[int, str]) -> None:
    cards = "abcdef"
    support = consistent(cards, capacity, forbidden)
    rng = random.Random(3)
    deal = GroupedDeal(list(cards), capacity, lambda p, c: c not in forbidden.get(p, ""))
    counts = Counter(tuple("".join(hand) for hand in deal.draw(rng))
                     for _ in range(200 * len(support)))
    assert set(counts) == set(support)
    assert chi_square_p(counts, support) > SIGNIFICANCE


def test_no_consistent_grouped_deal_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match="no deal"):
        GroupedDeal(list("abcd"), [2, 2], lambda p, c: p == 1 or c == "a")
