"""Knives' sampler: every kind of knowledge honoured (voids, the bank, the banked cards, the
discards, the solo announcement, the shadow), uniform on enumerable endgames, and the two
broken samplers of the contract (one blind to voids, one peeking) caught.

Uniformity is judged against exhaustive enumeration: every deal of the unseen cards to the
places the seat cannot see is replayed from the start of the hand (:mod:`tests.games.replay`;
the banker's hidden ``Bank`` naming the candidate's banked cards), and the deals whose replay
gives the seat the very same events and observation are the support.
"""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import pytest

from arena.games.base import OptionValue
from arena.games.knives import (
    DECK,
    GAME,
    AnnounceSolo,
    Bank,
    Declare,
    KnivesCard,
    KSuit,
    Leaster,
    NoAnnouncement,
    Pass,
    Phase,
    Pick,
    Play,
    Reveal,
    State,
    kcards,
)
from arena.games.sampling import knowledge
from arena.games.sampling.knives import KnivesKnowledge
from tests.games.replay import HandPosition, hand_positions, replays_alike
from tests.games.sampling import check_sample, chi_square_p, positions
from tests.games.stacked import new_stacked

SIGNIFICANCE = 0.001  # a uniform sampler fails a uniformity test here once in a thousand
Hidden = tuple[tuple[KnivesCard, ...], ...]
GS, QD, X = kcards("GS QD X")

# Dealer 0. Seat 1 picks spades and finds QD and the Joker in the bank; it holds the G♠.
DEAL: dict[int | str, str] = {0: "4N GC JC QC KC TD", 1: "GS KS 2N 3N TC MC", 2: "KD GD TS MS JS QS",
                              3: "MD JD GH TH MH JH", 4: "5N 6N 7N AN QH KH", "bank": "QD X"}


# -- scripted positions ----------------------------------------------------------------
def deck_for(dealer: int, deal: Mapping[int | str, str]) -> list[KnivesCard]:
    """The shuffled deck that deals ``deal`` (6 codes a seat, 2 to the bank): one card at a
    time from the dealer's left, the bank last."""
    hands = {seat: kcards(deal[seat]) for seat in range(5)}
    deck = [hands[(dealer + 1 + i) % 5][i // 5] for i in range(30)] + kcards(deal["bank"])
    assert Counter(deck) == Counter(DECK)
    return deck


class Table:
    """A scripted hand with every seat's knowledge fed what that seat is sent."""

    def __init__(self) -> None:
        self.state: State = new_stacked(GAME, 5, [deck_for(0, DEAL)], {"first_dealer": 0})
        options = GAME.parse_options(5, {"first_dealer": 0})
        self.known = [knowledge("knives", 5, seat, options) for seat in range(5)]
        self.send(GAME.opening_events(self.state))

    def send(self, tagged: list[Any]) -> None:
        for seat in range(5):
            self.known[seat].learn([t.event for t in tagged if t.visible(seat)])

    def act(self, *actions: Any) -> Table:
        for action in actions:
            self.send(GAME.apply(self.state, action))
        return self

    def play(self, codes: str) -> Table:
        return self.act(*(Play(card) for card in kcards(codes)))

    def samples(self, seat: int, count: int = 300) -> list[State]:
        observation = GAME.observe(self.state, seat)
        rng = random.Random(seat)
        return [self.known[seat].sample(observation, rng) for _ in range(count)]


def banked_hand(solo: bool) -> Table:
    """Seat 1 picks, banks the G♠ and Q♦, answers the solo question; seat 2 leads K♦ and
    seat 4 (a Knife) and seat 1 (the T♣) show voids in diamonds."""
    table = Table().act(Declare(KSuit.SPADES), Pick(), Bank(GS, QD))
    table.act(AnnounceSolo() if solo else NoAnnouncement())
    return table.play("KD MD 5N TD TC")


def test_a_void_rules_out_the_hand_but_not_the_banked_cards() -> None:
    samples = banked_hand(solo=False).samples(3)
    for seat in (1, 4):
        assert not any(c.suit is KSuit.DIAMONDS for s in samples for c in s.hands[seat])
    assert any(c.suit is KSuit.DIAMONDS for s in samples for c in s.banked)  # banked before
    assert any(c.suit is KSuit.DIAMONDS for s in samples for c in s.hands[0])  # no void shown


def test_the_banker_knows_the_bank_and_what_it_banked() -> None:
    table = Table().act(Declare(KSuit.SPADES), Pick())
    assert all(X in s.hands[1] and QD in s.hands[1] and not s.bank for s in table.samples(1))
    assert not all(X in s.hands[1] for s in table.samples(2))  # the others do not
    table.act(Bank(GS, QD), NoAnnouncement())
    assert all(s.banked == [GS, QD] and s.solo and s.shadow is None for s in table.samples(1))


@pytest.mark.parametrize("solo", [True, False])
def test_a_solo_announcement_puts_the_ghost_with_the_banker(solo: bool) -> None:
    samples = banked_hand(solo).samples(3)
    with_banker = [GS in s.hands[1] or GS in s.banked for s in samples]
    assert any(GS in s.banked for s in samples) and any(GS in s.hands[1] for s in samples)
    for s in samples:  # the shadow is whoever holds the Ghost in the sample
        holders = [seat for seat in (0, 2, 4) if GS in s.hands[seat]]
        assert (s.solo, s.shadow) == ((False, holders[0]) if holders else (True, None))
    if solo:
        assert all(with_banker)
    else:
        assert not all(with_banker)


def test_the_shadow_knows_itself_and_nobody_else_learns_it() -> None:
    table = Table().act(Declare(KSuit.CLUBS), Pass(KSuit.SPADES), Pick())  # seat 2 picks ♠
    table.act(Bank(*kcards("GD KD")), NoAnnouncement())
    assert all(s.shadow == 1 and GS in s.hands[1] for s in table.samples(1))  # the shadow
    shadows = Counter(s.shadow for s in table.samples(3))
    assert set(shadows) == {0, 1, 4, None}  # the others cannot tell, nor if the banker is solo


def test_the_dealer_of_a_leaster_keeps_what_it_saw_of_the_bank() -> None:
    table = Table().act(Declare(KSuit.SPADES), Pass(KSuit.CLUBS), Pass(KSuit.DIAMONDS),
                        Pass(KSuit.HEARTS), Pass(KSuit.SPADES), Pass(KSuit.CLUBS), Leaster())
    assert GAME.observe(table.state, 0).bank_seen == (X, QD)
    table.act(Reveal((QD,)))
    assert all(s.discarded == [X] and s.revealed == [QD] for s in table.samples(0))
    others = table.samples(2)
    assert all(len(s.discarded) == 1 and s.revealed == [QD] for s in others)
    assert len({s.discarded[0] for s in others}) > 1  # the others do not know the discard


@pytest.mark.parametrize("options", [
    {"simplified_rules": True},
    {"simplified_scoring": True, "first_dealer": 3, "target_score": 6},
])
def test_every_sample_keeps_to_the_contract_under_other_options(options: dict[str, Any]) -> None:
    rng = random.Random(repr(options))
    checked = 0
    for seed in range(2):
        for position in positions(GAME, 5, seed, options, every=5):
            check_sample(GAME, position, rng)
            checked += 1
    assert checked >= 50


# -- uniformity against exhaustive enumeration ----------------------------------------------
def places(state: State, seat: int) -> list[int | str]:
    """Where the cards ``seat`` cannot see lie (docs/games/knives.md, Information)."""
    named: list[int | str] = [s for s in range(5) if s != seat]
    if state.bank and not (seat == state.dealer and state.phase is Phase.REVEAL):
        named.append("bank")
    if state.banked and seat != state.banker:
        named.append("banked")
    if state.discarded and seat != state.dealer:
        named.append("discarded")
    return named


def content(state: State, place: int | str) -> list[KnivesCard]:
    return state.hands[place] if isinstance(place, int) else getattr(state, place)


def hidden(state: State, seat: int) -> Hidden:
    return tuple(tuple(sorted(content(state, p))) for p in places(state, seat))


def support(position: HandPosition) -> list[Hidden]:
    """Every deal of the unseen cards to the places the seat cannot see whose replay from
    the start of the hand gives the seat the same events and observation."""
    truth, seat = position.state, position.seat
    named = places(truth, seat)
    played: dict[int, list[KnivesCard]] = {s: [] for s in range(5)}
    for trick in truth.tricks:
        for s, card in zip(trick.seats, trick.cards, strict=True):
            played[s].append(card)
    if truth.trick is not None:
        for s, card in zip(truth.trick.seats, truth.trick.cards, strict=True):
            played[s].append(card)
    unseen = sorted(c for p in named for c in content(truth, p))
    consistent = []
    for deal in _deals(unseen, [len(content(truth, p)) for p in named]):
        candidate = dict(zip(named, deal, strict=True))
        start = GAME.clone(position.start)
        actions = list(position.actions)
        for s in range(5):
            if s in candidate:
                start.hands[s] = sorted([*candidate[s], *played[s]])
        if "banked" in candidate:  # the bank held what was banked; the Bank named it
            start.bank = sorted(candidate["banked"])
            actions = [Bank(*start.bank) if isinstance(a, Bank) else a for a in actions]
        if "discarded" in candidate:
            start.bank = sorted([*candidate["discarded"], *truth.revealed])
        if "bank" in candidate:
            start.bank = sorted(candidate["bank"])
        if replays_alike(GAME, start, actions, seat, position.seen, position.observation):
            consistent.append(tuple(tuple(sorted(cards)) for cards in deal))
    return consistent


def _deals(cards: list[KnivesCard], sizes: Sequence[int]) -> Iterator[Hidden]:
    if not sizes:
        yield ()
        return
    for chosen in itertools.combinations(cards, sizes[0]):
        rest = [c for c in cards if c not in chosen]
        for deal in _deals(rest, sizes[1:]):
            yield (tuple(chosen), *deal)


def _multinomial(sizes: Sequence[int]) -> int:
    ways, left = 1, sum(sizes)
    for size in sizes:
        ways *= math.comb(left, size)
        left -= size
    return ways


def endgames(count: int) -> Iterator[tuple[HandPosition, list[Hidden]]]:
    """Late positions of random matches (at most 6 unseen cards) whose support (3 to 40
    deals) is smaller than the number of deals of the unseen cards: the seat knows
    something."""
    found = 0
    for seed in itertools.count():
        for position in hand_positions(GAME, 5, seed, hand_of=lambda s: s.hand_no):
            named = places(position.state, position.seat)
            sizes = [len(content(position.state, p)) for p in named]
            if position.state.phase is not Phase.PLAY or sum(sizes) > 6:
                continue
            consistent = support(position)
            if 3 <= len(consistent) <= 40 and len(consistent) < _multinomial(sizes):
                yield position, consistent
                found += 1
                if found == count:
                    return


def fresh(position: HandPosition, kind: type[KnivesKnowledge] = KnivesKnowledge) -> KnivesKnowledge:
    """A knowledge of the position's seat fed the events it was sent (the live one moves on)."""
    known = kind(5, position.seat, GAME.parse_options(5, {}))
    known.learn(position.events)
    return known


def histogram(known: KnivesKnowledge, position: HandPosition, draws: int,
              seed: int) -> Counter[Hidden]:
    rng = random.Random(seed)
    return Counter(hidden(known.sample(position.observation, rng), position.seat)
                   for _ in range(draws))


@pytest.fixture(scope="module")
def small_endgames() -> list[tuple[HandPosition, list[Hidden]]]:
    return list(endgames(5))


def test_samples_are_uniform_over_the_deals_consistent_with_the_play(
        small_endgames: list[tuple[HandPosition, list[Hidden]]]) -> None:
    for index, (position, consistent) in enumerate(small_endgames):
        counts = histogram(fresh(position), position, 200 * len(consistent), index)
        assert set(counts) == set(consistent)
        p = chi_square_p(counts, consistent)
        assert p > SIGNIFICANCE, f"support {len(consistent)}: p = {p}"


class IgnoresVoids(KnivesKnowledge):
    """Broken on purpose: forgets every void shown."""

    def excluded(self, seat: int) -> frozenset[KnivesCard]:
        return frozenset()


def test_a_sampler_that_ignores_voids_fails_the_uniformity_check(
        small_endgames: list[tuple[HandPosition, list[Hidden]]]) -> None:
    for index, (position, consistent) in enumerate(small_endgames):
        counts = histogram(fresh(position, IgnoresVoids), position, 200 * len(consistent), index)
        assert chi_square_p(counts, consistent) == 0.0, "deals outside the support: caught"


class Peeks(KnivesKnowledge):
    """Broken on purpose: handed the true state, it deals the real hidden cards."""

    def __init__(self, truth: State, seat: int, options: Mapping[str, OptionValue]) -> None:
        super().__init__(5, seat, options)
        self.truth = truth

    def sample(self, observation: Any, rng: random.Random) -> State:
        state = super().sample(observation, rng)
        truth = self.truth
        state.hands = [list(h) for h in truth.hands]
        state.bank, state.banked = list(truth.bank), list(truth.banked)
        state.discarded, state.shadow, state.solo = list(truth.discarded), truth.shadow, truth.solo
        return state


def same_distribution(make: Any, position: HandPosition, seed: int) -> bool:
    """Whether the samples drawn for the true state and for a re-deal of what the seat cannot
    see (same knowledge) are the same, draw for draw."""
    options = GAME.parse_options(5, {})
    redealt = GAME.redeal_hidden(position.state, position.seat, random.Random(seed))
    assert GAME.observe(redealt, position.seat) == position.observation
    histograms = []
    for truth in (position.state, redealt):
        known = make(truth, position.seat, options)
        known.learn(position.events)
        histograms.append(histogram(known, position, 100, seed))
    return histograms[0] == histograms[1]


def test_samples_are_the_same_for_every_true_state_behind_the_same_knowledge() -> None:
    def honest(truth: State, seat: int, options: Mapping[str, OptionValue]) -> KnivesKnowledge:
        return KnivesKnowledge(5, seat, options)

    middles = [p for p in hand_positions(GAME, 5, 3, hand_of=lambda s: s.hand_no)
               if len(p.observation.tricks) == 2][:4]
    assert middles
    for index, position in enumerate(middles):
        assert same_distribution(honest, position, index)
        assert not same_distribution(Peeks, position, index), "the peeking sampler is caught"
