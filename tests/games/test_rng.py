"""The games' generator: a seed draws what ``random.Random`` draws, and a copy (a search copies
states by the thousand) draws the same numbers as its original from then on, independently."""

from __future__ import annotations

import copy
import random

from arena.games.base import Rng
from tests.games.stacked import StackedRng


def draws(rng: Rng, count: int = 20) -> list[int]:
    deck = list(range(52))
    rng.shuffle(deck)
    return deck + [rng.below(1000) for _ in range(count)]


def test_a_seed_draws_what_random_draws() -> None:
    reference = random.Random(7)
    deck = list(range(52))
    for i in range(51, 0, -1):
        j = reference.randrange(i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    assert draws(Rng(7), 5) == deck + [reference.randrange(1000) for _ in range(5)]


def test_copies_draw_the_same_numbers_independently() -> None:
    for drawn_before in (False, True):
        original = Rng(11)
        if drawn_before:
            original.below(10)
        first = copy.deepcopy(original)
        of_copy = copy.deepcopy(first)  # a copy of a copy that never drew
        expected = draws(original)
        assert draws(first) == expected
        assert draws(of_copy) == expected
        again = copy.deepcopy(first)  # a copy taken after its original drew
        assert draws(again) == draws(first)


def test_a_copy_of_a_scripted_generator_keeps_its_script() -> None:
    stacked = StackedRng([[3, 2, 1]], numbers=[1, 0])
    twin = copy.deepcopy(stacked)
    for rng in (stacked, twin):
        deck = [1, 2, 3]
        rng.shuffle(deck)
        assert (deck, rng.below(2), rng.below(2)) == ([3, 2, 1], 1, 0)
