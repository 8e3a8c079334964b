"""Face Card / Kill Card's sampler: what a seat knows (its hole, the face-up cards, the games
already over) is honoured, and samples are uniform over the deals consistent with it.

Uniformity is judged against exhaustive enumeration: a candidate deal is consistent when
replaying the match's true actions from it gives the seat the very events and observation it
got. The deal is a shuffle of whole packs, so whole deals cannot be listed; each test lists
every value of one hidden place (a seat's hole, the top of the stock) instead, moving that one
card in the true deal and replaying: under a uniform deal each consistent value of one place
is equally likely.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import pytest

from arena.games.base import OptionValue, Rng
from arena.games.cards import Card, standard_deck
from arena.games.face_card_kill_card import (
    GAME,
    Action,
    Draw,
    Observation,
    State,
    Stop,
    auto_decks,
)
from arena.games.sampling import knowledge
from arena.games.sampling.face_card_kill_card import FaceCardKillCardKnowledge
from tests.games.sampling import Position, check_sample, chi_square_p, homogeneity_p
from tests.games.stacked import new_stacked
from tests.games.test_face_card_kill_card import play, stacked

SIGNIFICANCE = 0.001  # a uniform sampler fails one of these tests once in a thousand runs
SAMPLES_PER_OUTCOME = 200


@dataclass
class Match:
    """A random match played to a decision, with what it takes to replay it."""

    options: dict[str, OptionValue]
    players: int
    deck: list[Card]  # the first shuffle's order (the engine deals from the end)
    actions: list[Action]
    state: State
    seat: int  # the seat to act
    events: list[Any]  # what that seat was sent
    knowledge: FaceCardKillCardKnowledge


def played(players: int, seed: int, steps: int, options: Mapping[str, OptionValue] | None = None,
           ) -> Match | None:
    """A random match of the main game after ``steps`` actions, or None if it ended first."""
    parsed = GAME.parse_options(players, options)
    decks = auto_decks(players, int(parsed["hole_cards"]))
    deck = standard_deck(decks)
    Rng(seed).shuffle(deck)
    state = new_stacked(GAME, players, [deck], parsed)
    policy = random.Random(seed)
    tagged = GAME.opening_events(state)
    actions: list[Action] = []
    for _ in range(steps):
        if state.to_act is None:
            return None
        legal = GAME.legal_actions(state)
        action = legal[0] if policy.random() < 0.75 else legal[-1]  # mostly draws
        actions.append(action)
        tagged += GAME.apply(state, action)
    seat = state.to_act
    if seat is None or state.tiebreak_game:
        return None
    events = [t.event for t in tagged if t.visible(seat)]
    known = knowledge(GAME.name, players, seat, parsed)
    known.learn(events)
    assert isinstance(known, FaceCardKillCardKnowledge)
    return Match(parsed, players, deck, actions, state, seat, events, known)


def replays_the_same(match: Match, deck: list[Card]) -> bool:
    """Whether the true actions, replayed from ``deck``, give the seat its events and view."""
    state = new_stacked(GAME, match.players, [deck], match.options)
    tagged = GAME.opening_events(state)
    for action in match.actions:
        if action not in GAME.legal_actions(state):
            return False
        tagged += GAME.apply(state, action)
    events = [t.event for t in tagged if t.visible(match.seat)]
    return events == match.events and \
        GAME.observe(state, match.seat) == GAME.observe(match.state, match.seat)


def moved(deck: list[Card], card: Card, into: Card) -> list[Card]:
    """``deck`` with ``card`` and ``into`` trading places."""
    other = list(deck)
    i, j = other.index(card), other.index(into)
    other[i], other[j] = other[j], other[i]
    return other


def support_of(match: Match, card: Card) -> list[Card]:
    """Every card that can stand where ``card`` stands in the true deal: the deals with the
    two traded replay to the same events and observation for the seat."""
    return [c for c in match.deck if replays_the_same(match, moved(match.deck, card, c))]


def counts_of(sampler: FaceCardKillCardKnowledge, match: Match, key: Callable[[State], Hashable],
              samples: int, seed: int) -> Counter[Hashable]:
    rng = random.Random(seed)
    observation = GAME.observe(match.state, match.seat)
    return Counter(key(sampler.sample(observation, rng)) for _ in range(samples))


def _hole_of(seat: int) -> Callable[[State], Hashable]:
    """The key of a sample: the first hole card of ``seat``."""
    return lambda state: state.hole[seat][0]


def matches(players: int, options: Mapping[str, OptionValue] | None, wanted: int,
            steps: Sequence[int] = (2, 4, 6)) -> list[Match]:
    """``wanted`` random matches stopped at a decision with cards face up."""
    found: list[Match] = []
    for seed in range(1000):
        match = played(players, seed, steps[seed % len(steps)], options)
        if match is not None and any(match.state.face_up):
            found.append(match)
            if len(found) == wanted:
                return found
    raise AssertionError("too few matches reach a decision")


# -- what the seat knows ----------------------------------------------------------------
def test_the_seats_hole_and_the_face_up_cards_are_never_dealt_again() -> None:
    # 3 players, dealer 0: holes to seats 1, 2, 0 (7S, KD, 4C); seat 1 draws 9H and 2C, stops.
    state = new_stacked(GAME, 3, [stacked("7S KD 4C 9H 2C")])
    events = [t.event for t in GAME.opening_events(state) + play(state, Draw(), Draw(), Stop())
              if t.visible(2)]
    known = knowledge(GAME.name, 3, 2, GAME.parse_options(3))
    known.learn(events)
    observation = GAME.observe(state, 2)
    assert observation.hole_cards == (Card.parse("KD"),)
    seen = {Card.parse(c) for c in ("KD", "9H", "2C")}
    rng = random.Random(1)
    holes: Counter[Card] = Counter()
    for _ in range(2000):
        sample = known.sample(observation, rng)
        assert sample.hole[2] == [Card.parse("KD")]
        assert sample.face_up[1] == [Card.parse("9H"), Card.parse("2C")]
        hidden = sample.hole[0] + sample.hole[1] + sample.stock
        assert not seen & set(hidden)
        assert sorted(hidden) == sorted(c for c in standard_deck(1) if c not in seen)
        holes.update(sample.hole[1])
    assert len(holes) == 49  # every unseen card, and only those, may be seat 1's hole


def test_an_eliminated_seats_hole_stays_hidden() -> None:
    # 3 players: holes 7S, 5D, KD to seats 1, 2, 0; seat 1 draws the QH and is out, and
    # seat 0 never sees its hole.
    state = new_stacked(GAME, 3, [stacked("7S 5D KD QH")])
    events = [t.event for t in GAME.opening_events(state) + play(state, Draw()) if t.visible(0)]
    assert state.eliminated[1]
    known = knowledge(GAME.name, 3, 0, GAME.parse_options(3))
    known.learn(events)
    observation = GAME.observe(state, 0)
    rng = random.Random(2)
    holes = Counter(known.sample(observation, rng).hole[1][0] for _ in range(5000))
    assert Card.parse("QH") not in holes and Card.parse("KD") not in holes
    assert chi_square_p(holes, [c for c in standard_deck(1) if c.code not in ("QH", "KD")]) \
        > SIGNIFICANCE


def test_a_replay_keeps_the_games_over_and_deals_afresh() -> None:
    options: dict[str, OptionValue] = {"dealer": 2, "tiebreak": "replay"}
    first = stacked("9S 5H 9C")            # seats 0 and 2 tie on 9
    second = stacked("3D 8D")              # replay: holes to 0 (3D) then 2 (8D)
    state = new_stacked(GAME, 3, [first, second], options)
    tagged = GAME.opening_events(state) + play(state, Stop(), Stop(), Stop())
    assert state.tiebreak_game == 1 and state.to_act == 0
    known = knowledge(GAME.name, 3, 0, GAME.parse_options(3, options))
    known.learn(t.event for t in tagged if t.visible(0))
    observation = GAME.observe(state, 0)
    rng = random.Random(3)
    holes: Counter[Card] = Counter()
    for _ in range(300):
        sample = check_sample(GAME, Position(GAME.clone(state), 0, observation, known, [], 0), rng)
        assert sample.rank_keys == state.rank_keys  # the main game's places, as the engine has them
        assert sample.scores == state.scores == [9, 5, 9]
        assert sample.opening == state.opening  # the main game's holes were revealed
        assert sample.hole[1] == []
        holes.update(sample.hole[2])
    assert Card.parse("8D") in holes and len(holes) > 30  # the replay's holes are dealt afresh


# -- uniformity, by exhaustive enumeration ------------------------------------------------
@pytest.mark.parametrize(("players", "options"), [
    (2, None),
    (3, None),
    (2, {"hole_cards": 3}),
    (4, {"hole_cards": 2, "ace_value": 1}),
])
def test_a_hole_is_uniform_over_the_consistent_cards(players: int,
                                                     options: dict[str, OptionValue] | None) -> None:
    for index, match in enumerate(matches(players, options, wanted=2)):
        other = (match.seat + 1) % players
        card = match.state.hole[other][0]
        support = support_of(match, card)
        assert card in support and match.state.hole[match.seat][0] not in support
        counts = counts_of(match.knowledge, match, _hole_of(other),
                           SAMPLES_PER_OUTCOME * len(support), seed=10 * players + index)
        assert set(counts) == set(support)
        assert chi_square_p(counts, support) > SIGNIFICANCE


@pytest.mark.parametrize("players", [2, 4])
def test_the_next_card_drawn_is_uniform_over_the_consistent_cards(players: int) -> None:
    for index, match in enumerate(matches(players, None, wanted=2)):
        top = match.state.stock[-1]
        support = support_of(match, top)
        counts = counts_of(match.knowledge, match, lambda s: s.stock[-1],
                           SAMPLES_PER_OUTCOME * len(support), seed=100 + 10 * players + index)
        assert chi_square_p(counts, support) > SIGNIFICANCE


# -- broken samplers are caught -----------------------------------------------------------
class IgnoresTheFaceUpCards(FaceCardKillCardKnowledge):
    """Broken: forgets that the cards drawn face up are no longer hidden."""

    def unseen(self, observation: Observation) -> list[Card]:
        right = super().unseen(observation)
        cards = [c for c in self.deck if c not in observation.hole_cards]
        random.Random(len(cards)).shuffle(cards)
        return cards[:len(right)]


class Peeks(FaceCardKillCardKnowledge):
    """Broken: handed the true state, it puts the true hole cards back where they are."""

    def __init__(self, players: int, seat: int, options: Mapping[str, OptionValue],
                 truth: State) -> None:
        super().__init__(players, seat, options)
        self.truth = truth

    def sample(self, observation: Observation, rng: random.Random) -> State:
        state = super().sample(observation, rng)
        for s in range(self.players):
            if s != self.seat:
                for i, card in enumerate(self.truth.hole[s]):
                    _put(state, s, i, card)
        return state


def _put(state: State, seat: int, index: int, card: Card) -> None:
    """Move ``card`` to ``state.hole[seat][index]``, the card there taking its old place."""
    places = [*state.hole, state.stock]
    for pile in places:
        if card in pile:
            j = pile.index(card)
            pile[j], state.hole[seat][index] = state.hole[seat][index], card
            return


def test_a_sampler_that_ignores_the_face_up_cards_fails_the_support_check() -> None:
    match = matches(2, None, wanted=1)[0]
    broken = IgnoresTheFaceUpCards(2, match.seat, match.options)
    broken.learn(match.events)
    other = 1 - match.seat
    support = support_of(match, match.state.hole[other][0])
    counts = counts_of(broken, match, lambda s: s.hole[other][0],
                       SAMPLES_PER_OUTCOME * len(support), seed=7)
    assert chi_square_p(counts, support) == 0.0  # face-up cards dealt to a hole: caught


def test_samples_are_the_same_for_every_true_state_of_the_same_knowledge() -> None:
    match = matches(3, None, wanted=1)[0]
    redealt = GAME.redeal_hidden(match.state, match.seat, random.Random(8))
    observation = GAME.observe(match.state, match.seat)
    assert GAME.observe(redealt, match.seat) == observation
    other = (match.seat + 1) % 3
    assert redealt.hole[other] != match.state.hole[other]

    def key(state: State) -> Hashable:
        return state.hole[other][0]

    def histogram(sampler: FaceCardKillCardKnowledge, seed: int) -> Counter[Hashable]:
        sampler.learn(match.events)
        rng = random.Random(seed)
        return Counter(key(sampler.sample(observation, rng)) for _ in range(3000))

    real = [histogram(FaceCardKillCardKnowledge(3, match.seat, match.options), seed)
            for seed in (9, 10)]  # it is never handed a state: S and S' give it the same events
    assert homogeneity_p(*real) > SIGNIFICANCE
    peeking = [histogram(Peeks(3, match.seat, match.options, truth), seed)
               for truth, seed in ((match.state, 9), (redealt, 10))]
    assert homogeneity_p(*peeking) < SIGNIFICANCE  # it samples the truth it was handed: caught


def test_a_clone_plays_on_as_the_original_and_shares_nothing() -> None:
    for seed in range(20):
        state = GAME.new(4, seed, {"tiebreak": "replay"})
        policy = random.Random(seed)
        while state.to_act is not None:
            before = repr(state), state.rng.copy().below(1 << 30)  # the generator too: its next draw
            copy = GAME.clone(state)
            while copy.to_act is not None:  # play the copy out: the original must not change
                GAME.apply(copy, GAME.legal_actions(copy)[0])
            assert (repr(state), state.rng.copy().below(1 << 30)) == before
            legal = GAME.legal_actions(state)
            action = legal[policy.randrange(len(legal))]
            copy = GAME.clone(state)
            assert GAME.apply(copy, action) == GAME.apply(state, action)
            assert repr(copy) == repr(state)
