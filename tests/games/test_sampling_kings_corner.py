"""Kings in the Corner's sampler: what a seat knows (its hand, its draws, the table),
uniformity over every consistent split of the unseen cards on small endgames, and two
broken samplers caught.

A seat never sees its rivals' hands nor the stock's order. The uniformity test plays
random deals from a known pack to a decision where few cards are unseen, and lists
every way to put them in the rivals' hands (their sizes known) and the stock (in
order). Each is rebuilt into the pack it would have been dealt from (the unseen cards
take the places in the true pack of the cards they replace: a rival's hand cards the
places its hand cards came from, the stock's the stock's) and kept if replaying the
deal's actions from that pack gives the seat the very events and observation it had:
the ground truth, with no use of the sampler's own code. The shuffle is uniform and
two such packs are equally likely, so the samples must be uniform over those kept.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from arena.games.base import Tagged
from arena.games.cards import Card, cards, standard_deck
from arena.games.kings_corner import (
    GAME,
    EndTurn,
    Observation,
    Play,
    State,
)
from arena.games.sampling.kings_corner import KingsCornerKnowledge
from tests.games.sampling import chi_square_p, positions
from tests.games.stacked import new_stacked

SIGNIFICANCE = 0.001  # a uniform sampler fails a uniformity test once in a thousand
PER_OUTCOME = 200  # samples per consistent state
N, E, S, W = range(4)

Key = tuple[tuple[frozenset[Card], ...], tuple[Card, ...]]


def deal(hands: list[str], sides: str, stock: str = "") -> list[Card]:
    """A stacked pack: hands from the dealer's left, the four side cards, the stock's top."""
    head = [c for h in hands for c in cards(h)] + cards(sides) + cards(stock)
    return head + [c for c in standard_deck() if c not in head]


@dataclass
class Scripted:
    """The first deal of a match from a stacked pack, every seat's knowledge fed what it
    was sent."""

    players: int
    dealer: int
    order: list[Card]
    state: State
    known: list[KingsCornerKnowledge]
    seen: list[list[Any]]
    actions: list[Any]

    @classmethod
    def start(cls, players: int, order: list[Card], dealer: int = 0) -> Scripted:
        state = new_stacked(GAME, players, [order, standard_deck()], {"first_dealer": dealer})
        known = [KingsCornerKnowledge(players, seat, state.options) for seat in range(players)]
        match = cls(players, dealer, order, state, known, [[] for _ in range(players)], [])
        match.send(GAME.opening_events(state))
        return match

    def send(self, tagged: list[Tagged]) -> None:
        for seat in range(self.players):
            events = [t.event for t in tagged if t.visible(seat)]
            self.known[seat].learn(events)
            self.seen[seat] += events

    def play(self, action: Any) -> None:
        self.actions.append(action)
        self.send(GAME.apply(self.state, action))

    def observation(self, seat: int) -> Observation:
        return GAME.observe(self.state, seat)


def key(state: State, seat: int) -> Key:
    """What the seat cannot see of ``state``: its rivals' hands and the stock, as drawn."""
    rivals = tuple(frozenset(h) for s, h in enumerate(state.hands) if s != seat)
    return rivals, tuple(reversed(state.stock))


def samples(known: KingsCornerKnowledge, observation: Observation, count: int,
            seed: int) -> list[State]:
    rng = random.Random(seed)
    return [known.sample(observation, rng) for _ in range(count)]


# -- each kind of knowledge ------------------------------------------------------------
def test_the_hand_its_own_draws_and_every_card_played_are_honoured_by_that_seat_only() -> None:
    order = deal(["QH 2C 3C 4C 5C 6C 7C", "JS 9S 2D 3D 4D 5D 6D"], "KC AS AH AD", "8C 9C")
    match = Scripted.start(2, order, dealer=1)  # seat 0 plays first
    match.play(Play(Card.parse("QH"), N))
    match.play(EndTurn())                       # seat 0 draws 8C, shown to it alone
    match.play(Play(Card.parse("JS"), N))
    match.play(EndTurn())                       # seat 1 draws 9C, shown to it alone
    table = set(cards("KC QH JS AS AH AD"))
    for seat, drew, rivals_draw in ((0, "8C", "9C"), (1, "9C", "8C")):
        observation = match.observation(seat)
        own = set(match.state.hands[seat])
        assert Card.parse(drew) in own
        hidden = set(standard_deck()) - own - table
        rival_cards: Counter[Card] = Counter()
        stocked: Counter[Card] = Counter()
        for sample in samples(match.known[seat], observation, 600, seed=seat):
            assert set(sample.hands[seat]) == own  # its hand, its own draw included
            rival = sample.hands[1 - seat]
            assert len(rival) == 7 and len(sample.stock) == 52 - 14 - 6
            assert set(rival) | set(sample.stock) == hidden  # every unseen card, no more
            rival_cards.update(rival)
            stocked.update(sample.stock)
        # the rival's draw was not shown to this seat: the card may be in its hand or stocked
        assert rival_cards[Card.parse(rivals_draw)] and stocked[Card.parse(rivals_draw)]
        assert set(rival_cards) == hidden  # no card of the unseen is kept from the rival


def test_a_finished_match_samples_as_finished() -> None:
    state = GAME.new(2, 4, GAME.parse_options(2, {"target_score": 1}))
    known = KingsCornerKnowledge(2, 1, state.options)
    known.learn(t.event for t in GAME.opening_events(state) if t.visible(1))
    rng = random.Random(4)
    while GAME.to_act(state) is not None:
        legal = GAME.legal_actions(state)
        known.learn(t.event for t in GAME.apply(state, legal[rng.randrange(len(legal))])
                    if t.visible(1))
    sample = known.sample(GAME.observe(state, 1), random.Random(1))
    assert GAME.to_act(sample) is None and GAME.outcome(sample) == GAME.outcome(state)


# -- uniformity over every consistent split, on small endgames ------------------------------
def hidden_count(observation: Observation) -> int:
    return sum(observation.hand_sizes) - len(observation.hand) + observation.stock_size


def endgames(count: int, most: int, players: int) -> Iterator[tuple[Scripted, int]]:
    """Decisions of random first deals where at most ``most`` cards are unseen by the seat
    to act, with some of them still in the stock: one per deal, ``count`` of them."""
    found = 0
    for seed in itertools.count():
        rng = random.Random(f"endgame-{players}-{seed}")
        order = standard_deck()
        rng.shuffle(order)
        match = Scripted.start(players, order, dealer=rng.randrange(players))
        while (seat := GAME.to_act(match.state)) is not None and match.state.deal == 1:
            observation = match.observation(seat)
            if observation.stock_size and hidden_count(observation) <= most:
                yield match, seat
                found += 1
                break
            legal = GAME.legal_actions(match.state)
            match.play(legal[rng.randrange(len(legal))])
        if found == count:
            return


def splits(cards_left: list[Card], sizes: list[int]) -> Iterator[tuple[frozenset[Card], ...]]:
    """Every way to give ``cards_left`` to hands of these sizes."""
    if not sizes:
        yield ()
        return
    for hand in itertools.combinations(cards_left, sizes[0]):
        rest = [c for c in cards_left if c not in hand]
        for others in splits(rest, sizes[1:]):
            yield (frozenset(hand), *others)


def consistent_states(match: Scripted, seat: int) -> list[Key]:
    """Every placement of the unseen cards (rivals' hands, the stock in order) that, rebuilt
    into the pack it came from, replays the deal into the seat's events and observation."""
    state = match.state
    rivals = [s for s in range(match.players) if s != seat]
    hidden = sorted(state.stock + [c for s in rivals for c in state.hands[s]])
    where = {card: i for i, card in enumerate(match.order)}
    hand_places = [sorted(where[c] for c in state.hands[s]) for s in rivals]
    stock_places = [where[c] for c in reversed(state.stock)]
    consistent = []
    for stock in itertools.permutations(hidden, len(state.stock)):
        rest = [c for c in hidden if c not in stock]
        for hands in splits(rest, [len(state.hands[s]) for s in rivals]):
            pack = list(match.order)
            for places, hand in zip(hand_places, hands, strict=True):
                for place, card in zip(places, sorted(hand), strict=True):
                    pack[place] = card
            for place, card in zip(stock_places, stock, strict=True):
                pack[place] = card
            replay = Scripted.start(match.players, pack, match.dealer)
            for action in match.actions:
                replay.play(action)
            if replay.seen[seat] == match.seen[seat] and \
                    replay.observation(seat) == match.observation(seat):
                consistent.append(key(replay.state, seat))
    return consistent


def key_counts(known: KingsCornerKnowledge, observation: Observation, total: int,
               seed: int) -> Counter[Key]:
    return Counter(key(s, observation.seat) for s in samples(known, observation, total, seed))


def test_samples_are_uniform_over_every_consistent_state_on_small_endgames() -> None:
    cases = [*endgames(3, most=6, players=2), *endgames(1, most=7, players=3)]
    for index, (match, seat) in enumerate(cases):
        support = consistent_states(match, seat)
        assert key(match.state, seat) in support  # the truth is consistent
        counts = key_counts(match.known[seat], match.observation(seat),
                            PER_OUTCOME * len(support), seed=index)
        p = chi_square_p(counts, support)
        assert p > SIGNIFICANCE, f"endgame {index}: {len(support)} states, p = {p}"


# -- two broken samplers, caught -----------------------------------------------------------
class ForgetsBuriedCards(KingsCornerKnowledge):
    """Broken: remembers only the piles' top cards, so it may hide a card buried in a pile."""

    def sample(self, observation: Observation, rng: random.Random) -> State:
        sample = super().sample(observation, rng)
        shown = set(observation.hand) | {p[-1] for p in observation.piles if p}
        pool = [c for c in standard_deck() if c not in shown]
        rng.shuffle(pool)
        for s in range(observation.players):
            if s != observation.seat:
                sample.hands[s], pool = pool[:len(sample.hands[s])], pool[len(sample.hands[s]):]
        sample.stock = pool[:observation.stock_size]
        return sample


class PeeksAtTheHands(KingsCornerKnowledge):
    """Broken: handed the true state, it copies the rivals' true hands and the stock."""

    def __init__(self, players: int, seat: int, options: dict[str, Any], truth: State) -> None:
        super().__init__(players, seat, options)
        self.truth = truth

    def sample(self, observation: Observation, rng: random.Random) -> State:
        sample = super().sample(observation, rng)
        for s in range(observation.players):
            if s != observation.seat:
                sample.hands[s] = list(self.truth.hands[s])
        sample.stock = list(self.truth.stock)
        return sample


def test_a_sampler_that_forgets_buried_cards_fails_the_uniformity_test() -> None:
    match, seat = next(endgames(1, most=6, players=2))
    assert any(len(p) > 1 for p in match.state.piles), "the endgame has buried cards to forget"
    support = consistent_states(match, seat)
    broken = ForgetsBuriedCards(match.players, seat, match.state.options)
    broken.learn(match.seen[seat])
    counts = key_counts(broken, match.observation(seat), 10 * len(support), seed=1)
    assert chi_square_p(counts, support) == 0.0  # rivals holding a buried card: caught


def rival_hands(known: KingsCornerKnowledge, observation: Observation) -> Counter[Key]:
    return Counter(key(s, observation.seat) for s in samples(known, observation, 300, seed=5))


def test_samples_are_the_same_for_two_states_a_seat_cannot_tell_apart_and_a_peek_is_caught() -> None:
    checked = 0
    for index, position in enumerate(positions(GAME, 3, 21, every=11)):
        state = position.state
        other = GAME.redeal_hidden(state, position.seat, random.Random(index))
        if key(other, position.seat) == key(state, position.seat):
            continue  # nothing hidden to redeal: the peek would not show
        assert GAME.observe(other, position.seat) == position.observation
        honest = [KingsCornerKnowledge(3, position.seat, state.options) for _ in (state, other)]
        peeking = [PeeksAtTheHands(3, position.seat, state.options, truth) for truth in (state, other)]
        for known in (*honest, *peeking):
            known.learn(position.events)
        observation = position.observation
        assert rival_hands(honest[0], observation) == rival_hands(honest[1], observation)
        assert rival_hands(peeking[0], observation) != rival_hands(peeking[1], observation)
        checked += 1
        if checked == 8:
            return
    raise AssertionError(f"only {checked} positions to check")
