"""The sampler contract, over every game that has a sampler, and the uniform deal under it.

Each game's own knowledge (voids, passes, claims, auctions) is tested in
``test_sampling_<game>.py`` beside this, with exhaustive enumeration on small endgames.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest

from arena.games import get_game
from arena.games.base import OptionValue
from arena.games.sampling import deal_uniform, samplers
from tests import fuzz
from tests.games.sampling import check_sample, chi_square_p, positions, same_samples

SIGNIFICANCE = 0.001  # a uniform sampler fails a test at this level once in a thousand
# Every sample is played to the match's end, and a random match of Kill to its target lasts
# hundreds of rounds: two rounds keep the test short (its sampler knows one round at a time).
OPTIONS: dict[str, dict[str, OptionValue]] = {"kill": {"rounds": 2}}
# Decisions between two checked positions: a match of Kings in the Corner has thousands, and
# every third would be 6,779 positions, each played out to the end of a multi-deal match.
EVERY: dict[str, int] = {"kings-corner": 45}


@pytest.mark.parametrize("name", samplers())
def test_every_sample_keeps_to_the_contract(name: str) -> None:
    game = get_game(name)
    rng = random.Random(f"samples-{name}")
    checked = 0
    # (in the suite's short run) two matches of each size, more while short of 75 positions
    least, matches = fuzz.count(75), fuzz.count(2)
    for seed in itertools.count():
        if seed >= matches and checked >= least:
            break
        for players in sorted({game.min_players, game.default_players, game.max_players}):
            for position in positions(game, players, seed, OPTIONS.get(name),
                                      every=EVERY.get(name, 3)):
                check_sample(game, position, rng)
                checked += 1
    assert checked >= least


@pytest.mark.parametrize("name", samplers())
def test_samples_depend_on_what_the_seat_learned_only(name: str) -> None:
    game = get_game(name)
    for index, position in enumerate(positions(game, game.default_players, 11, OPTIONS.get(name),
                                               every=7)):
        same_samples(game, position, seed=index)


def _brute_force(cards: str, capacity: list[int], allowed) -> list[tuple[str, ...]]:  # type: ignore[no-untyped-def]
    deals = set()
    for order in itertools.permutations(cards):
        start, hands = 0, []
        for room in capacity:
            hands.append("".join(sorted(order[start:start + room])))
            start += room
        if all(allowed(p, c) for p, hand in enumerate(hands) for c in hand):
            deals.add(tuple(hands))
    return sorted(deals)


@pytest.mark.parametrize(("capacity", "forbidden"), [
    ([2, 2, 2], {0: "ab", 1: "c"}),                 # voids in two hands
    ([3, 2, 1], {1: "abcd"}),                       # a hand that can hold two cards only
    ([1, 2, 3], {}),                                # no constraint: shuffle and cut
    ([2, 0, 4], {0: "def"}),                        # an empty place
])
def test_a_constrained_deal_is_uniform_over_the_consistent_deals(
        capacity: list[int], forbidden: dict[int, str]) -> None:
    def allowed(place: int, card: str) -> bool:
        return card not in forbidden.get(place, "")

    support = _brute_force("abcdef", capacity, allowed)
    rng = random.Random(5)
    counts = Counter(tuple("".join(sorted(hand))
                           for hand in deal_uniform(list("abcdef"), capacity, allowed, rng))
                     for _ in range(200 * len(support)))
    assert set(counts) == set(support)
    assert chi_square_p(counts, support) > SIGNIFICANCE


def test_a_deal_that_ignores_a_constraint_fails_the_uniformity_check() -> None:
    support = _brute_force("abcdef", [2, 2, 2], lambda p, c: not (p == 0 and c in "ab"))
    rng = random.Random(6)
    counts = Counter(tuple("".join(sorted(h)) for h in deal_uniform(list("abcdef"), [2, 2, 2],
                                                                      lambda p, c: True, rng))
                     for _ in range(200 * len(support)))
    assert chi_square_p(counts, support) == 0.0  # deals outside the support: caught


def test_a_skewed_deal_fails_the_uniformity_check() -> None:
    support = _brute_force("abcd", [2, 2], lambda p, c: True)
    rng = random.Random(7)
    counts: Counter[tuple[str, ...]] = Counter()
    for _ in range(3000):  # "ab" to the first hand twice as often as it should be
        hands = deal_uniform(list("abcd"), [2, 2], lambda p, c: True, rng)
        key = tuple("".join(sorted(h)) for h in hands)
        counts[key] += 2 if key == ("ab", "cd") else 1
    assert chi_square_p(counts, support) < SIGNIFICANCE


def test_no_consistent_deal_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match="no deal"):
        deal_uniform(list("abcd"), [2, 2], lambda p, c: p == 1 or c == "a", random.Random(1))


def test_the_chi_square_p_value_matches_known_values() -> None:
    # chi-square survival function: df=1 at 3.841 -> 0.05; df=10 at 23.209 -> 0.01
    support = list(range(2))
    assert chi_square_p({0: 50, 1: 50}, support) == pytest.approx(1.0)
    from tests.games.sampling import _upper_gamma_regularized as q
    assert q(0.5, 3.841 / 2) == pytest.approx(0.05, abs=1e-3)
    assert q(5.0, 23.209 / 2) == pytest.approx(0.01, abs=1e-4)
