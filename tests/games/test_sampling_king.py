"""King's sampler: every kind of knowledge honoured, uniform on enumerable endgames, and the
two broken samplers of the contract (one blind to voids, one peeking) caught.

Uniformity is judged against exhaustive enumeration: every deal of the unseen cards to the
other hands is replayed from the start of the hand (:mod:`tests.games.replay`), and the
deals whose replay gives the seat the very same events and observation are the support.
"""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from collections.abc import Iterator, Mapping
from typing import Any

import pytest

from arena.games.base import OptionValue
from arena.games.cards import Card, Suit, cards
from arena.games.king import DECK, GAME, KING_OF_HEARTS, Play, State, power
from arena.games.sampling import knowledge
from arena.games.sampling.king import KingKnowledge
from tests.games.replay import HandPosition, hand_positions, replays_alike
from tests.games.sampling import check_sample, chi_square_p, positions
from tests.games.stacked import new_stacked

SIGNIFICANCE = 0.001  # a uniform sampler fails a uniformity test here once in a thousand
Hidden = tuple[tuple[Card, ...], ...]


# -- scripted positions ----------------------------------------------------------------
def deck_for(dealer: int, hands: Mapping[int, str]) -> list[Card]:
    """The shuffled pack that deals ``hands`` (13 codes a seat), the dealer's left first."""
    deck = [card for k in range(4) for card in cards(hands[(dealer + 1 + k) % 4])]
    assert Counter(map(repr, deck)) == Counter(map(repr, DECK))
    return deck


SUITED = {seat: " ".join(rank + suit for rank in "23456789TJQKA")
          for seat, suit in enumerate("SHDC")}  # seat 0 every spade, 1 every heart...
# Hand 1 (dealer 1): seat 0 holds the A♠ and every ♥ but the K♥, which seat 2 holds; seat 3
# holds every club. Trick 1: 2♠ 3♠ 2♣ (seat 3 is void in ♠) A♠; seat 0 then leads a ♥.
SECOND_HAND = {0: "AS 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH AH",
               1: "2S 4S 5S 6S 7S 8S 9S TS JS QS KS 2D 3D",
               2: "3S KH 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
               3: "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC"}


class Table:
    """A scripted match with every seat's knowledge fed what that seat is sent."""

    def __init__(self, orders: list[list[Card]], options: Mapping[str, OptionValue]) -> None:
        self.state: State = new_stacked(GAME, 4, orders, {"first_dealer": 0, **options})
        parsed = GAME.parse_options(4, {"first_dealer": 0, **options})
        self.known = [knowledge("king", 4, seat, parsed) for seat in range(4)]
        self.send(GAME.opening_events(self.state))

    def send(self, tagged: list[Any]) -> None:
        for seat in range(4):
            self.known[seat].learn([t.event for t in tagged if t.visible(seat)])

    def play(self, codes: str) -> None:
        for card in cards(codes):
            self.send(GAME.apply(self.state, Play(card)))

    def finish_hand(self) -> None:
        hand = self.state.hand_no
        while self.state.hand_no == hand:
            self.send(GAME.apply(self.state, GAME.legal_actions(self.state)[0]))

    def samples(self, seat: int, count: int = 300) -> list[State]:
        observation = GAME.observe(self.state, seat)
        rng = random.Random(seat)
        return [self.known[seat].sample(observation, rng) for _ in range(count)]


def second_hand(quick: bool) -> Table:
    """The match at hand 1 (no hearts, or quick hearts), after a first hand of suits."""
    table = Table([deck_for(0, SUITED), deck_for(1, SECOND_HAND)], {"quick": quick})
    table.finish_hand()
    assert table.state.hand_no == 1 and table.state.dealer == 1
    return table


def test_a_seat_that_fails_to_follow_holds_none_of_the_suit_led() -> None:
    table = Table([deck_for(0, SECOND_HAND)], {"quick": True})  # no tricks and no last
    table.play("AS 2S 3S")
    assert any(c.suit is Suit.SPADES for s in table.samples(0) for c in s.hands[3])  # not yet
    table.play("2C")  # seat 3 shows a void in spades
    for seat in (0, 1, 2):
        hands = [s.hands[3] for s in table.samples(seat)]
        assert not any(c.suit is Suit.SPADES for hand in hands for c in hand)
        if seat != 1:  # seat 1 holds the other spades itself
            assert any(c.suit is Suit.SPADES for s in table.samples(seat) for c in s.hands[1])


def test_voids_of_a_finished_hand_are_forgotten_at_the_next_deal() -> None:
    table = second_hand(quick=False)  # in hand 0 every seat showed three voids
    assert any(c.suit is Suit.SPADES for s in table.samples(1) for c in s.hands[3])


@pytest.mark.parametrize("quick", [False, True])
def test_a_heart_lead_shows_a_hand_of_hearts_only(quick: bool) -> None:
    table = second_hand(quick)  # no hearts, or quick hearts: the ♥ lead rule
    table.play("2S 3S 2C AS 2H")
    samples = table.samples(1)
    assert all(c.suit is Suit.HEARTS for s in samples for c in s.hands[0])
    holds_the_king = [KING_OF_HEARTS in s.hands[0] for s in samples]
    if quick:  # the forced K♥: leading a small ♥ with only ♥ left shows it is elsewhere
        assert not any(holds_the_king)
        assert all(KING_OF_HEARTS in s.hands[2] for s in samples)  # seat 3 showed it too
    else:  # no forced K♥ in no hearts: it may be among them
        assert any(holds_the_king) and not all(holds_the_king)


def test_the_forced_king_of_hearts_shows_who_lacks_it() -> None:
    table = second_hand(quick=True)
    table.play("2S 3S 2C")  # seat 3, void in spades, would have had to play the K♥
    for seat in (0, 1):
        samples = table.samples(seat)
        assert not any(KING_OF_HEARTS in s.hands[3] for s in samples)
        assert any(KING_OF_HEARTS in s.hands[2] for s in samples)
    plain = second_hand(quick=False)  # no hearts: nothing is forced
    plain.play("2S 3S 2C")
    assert any(KING_OF_HEARTS in s.hands[3] for s in plain.samples(1))


@pytest.mark.parametrize("options", [
    {"quick": True, "play_out_all_tricks": False},
    {"first_dealer": 2, "pass_is_final": False, "forfeit_without_auction": True},
])
def test_every_sample_keeps_to_the_contract_under_other_options(options: dict[str, Any]) -> None:
    rng = random.Random(repr(options))
    checked = 0
    for seed in range(2):
        for position in positions(GAME, 4, seed, options, every=5):
            check_sample(GAME, position, rng)
            checked += 1
    assert checked >= 100


# -- uniformity against exhaustive enumeration ----------------------------------------------
def hidden(state: State, seat: int) -> Hidden:
    return tuple(tuple(state.hands[s]) for s in range(4) if s != seat)


def support(position: HandPosition) -> list[Hidden]:
    """Every deal of the unseen cards to the other hands whose replay from the start of the
    hand gives the seat the same events and observation (the hand's true actions all legal)."""
    seat, observation = position.seat, position.observation
    others = [s for s in range(4) if s != seat]
    played: dict[int, list[Card]] = {s: [] for s in range(4)}
    for trick in observation.tricks:
        for s, card in zip(trick.seats, trick.cards, strict=True):
            played[s].append(card)
    for s, card in zip(observation.trick_seats, observation.trick_cards, strict=True):
        played[s].append(card)
    unseen = sorted((c for s in others for c in position.state.hands[s]), key=_order)
    sizes = [observation.hand_sizes[s] for s in others]
    consistent = []
    for deal in _deals(unseen, sizes):
        start = GAME.clone(position.start)
        for s, cards_now in zip(others, deal, strict=True):
            start.hands[s] = tuple(sorted([*cards_now, *played[s]], key=_order))
        if replays_alike(GAME, start, position.actions, seat, position.seen, observation):
            consistent.append(deal)
    return consistent


def _order(card: Card) -> tuple[int, int]:
    return (int(card.suit), power(card))


def _multinomial(sizes: list[int]) -> int:
    ways, left = 1, sum(sizes)
    for size in sizes:
        ways *= math.comb(left, size)
        left -= size
    return ways


def _deals(cards_left: list[Card], sizes: list[int]) -> Iterator[Hidden]:
    if not sizes:
        yield ()
        return
    for chosen in itertools.combinations(cards_left, sizes[0]):
        rest = [c for c in cards_left if c not in chosen]
        for deal in _deals(rest, sizes[1:]):
            yield (tuple(chosen), *deal)


def endgames(count: int) -> Iterator[tuple[HandPosition, list[Hidden], int]]:
    """Late positions of random matches (at most 8 unseen cards) whose support (3 to 40
    deals) is smaller than the number of deals of the unseen cards: the seat knows
    something. With the support, and the number of unconstrained deals."""
    found = 0
    for seed in itertools.count():
        for position in hand_positions(GAME, 4, seed, {"quick": True},
                                       hand_of=lambda s: s.hand_no):
            sizes = [n for s, n in enumerate(position.observation.hand_sizes) if s != position.seat]
            if not 3 <= sum(sizes) <= 8:
                continue
            deals = _multinomial(sizes)
            consistent = support(position)
            if 3 <= len(consistent) <= 40 and len(consistent) < deals:
                yield position, consistent, deals
                found += 1
                if found == count:
                    return


def fresh(position: HandPosition, kind: type[KingKnowledge] = KingKnowledge) -> KingKnowledge:
    """A knowledge of the position's seat fed the events it was sent (the live one moves on)."""
    known = kind(4, position.seat, GAME.parse_options(4, {"quick": True}))
    known.learn(position.events)
    return known


def histogram(known: KingKnowledge, position: HandPosition, draws: int,
              seed: int) -> Counter[Hidden]:
    rng = random.Random(seed)
    return Counter(hidden(known.sample(position.observation, rng), position.seat)
                   for _ in range(draws))


@pytest.fixture(scope="module")
def small_endgames() -> list[tuple[HandPosition, list[Hidden], int]]:
    return list(endgames(5))


def test_samples_are_uniform_over_the_deals_consistent_with_the_play(
        small_endgames: list[tuple[HandPosition, list[Hidden], int]]) -> None:
    for index, (position, consistent, _) in enumerate(small_endgames):
        counts = histogram(fresh(position), position, 200 * len(consistent), index)
        assert set(counts) == set(consistent)
        p = chi_square_p(counts, consistent)
        assert p > SIGNIFICANCE, f"support {len(consistent)}: p = {p}"


class IgnoresVoids(KingKnowledge):
    """Broken on purpose: forgets every void and every card shown to be elsewhere."""

    def excluded(self, seat: int) -> frozenset[Card]:
        return frozenset()


def test_a_sampler_that_ignores_voids_fails_the_uniformity_check(
        small_endgames: list[tuple[HandPosition, list[Hidden], int]]) -> None:
    for index, (position, consistent, _) in enumerate(small_endgames):
        counts = histogram(fresh(position, IgnoresVoids), position, 200 * len(consistent), index)
        assert chi_square_p(counts, consistent) == 0.0, "deals outside the support: caught"


class Peeks(KingKnowledge):
    """Broken on purpose: handed the true state, it deals the real hidden hands."""

    def __init__(self, truth: State, seat: int, options: Mapping[str, OptionValue]) -> None:
        super().__init__(4, seat, options)
        self.truth = truth

    def sample(self, observation: Any, rng: random.Random) -> State:
        state = super().sample(observation, rng)
        state.hands = list(self.truth.hands)
        return state


def same_distribution(make: Any, position: HandPosition, seed: int) -> bool:
    """Whether the samples drawn for the true state and for a re-deal of what the seat cannot
    see (same knowledge) are the same, draw for draw."""
    options = GAME.parse_options(4, {"quick": True})
    redealt = GAME.redeal_hidden(position.state, position.seat, random.Random(seed))
    assert GAME.observe(redealt, position.seat) == position.observation
    histograms = []
    for truth in (position.state, redealt):
        known = make(truth, position.seat, options)
        known.learn(position.events)
        histograms.append(histogram(known, position, 100, seed))
    return histograms[0] == histograms[1]


def test_samples_are_the_same_for_every_true_state_behind_the_same_knowledge() -> None:
    def honest(truth: State, seat: int, options: Mapping[str, OptionValue]) -> KingKnowledge:
        return KingKnowledge(4, seat, options)

    middles = [p for p in hand_positions(GAME, 4, 3, {"quick": True}, hand_of=lambda s: s.hand_no)
               if len(p.observation.tricks) == 5][:4]
    assert middles
    for index, position in enumerate(middles):
        assert same_distribution(honest, position, index)
        assert not same_distribution(Peeks, position, index), "the peeking sampler is caught"
