"""Serial Killer's sampler: what a seat knows (every card shown, never the stack's order),
uniformity over every consistent stack on small endgames, and two broken samplers caught.

Only the stack's order is hidden in Serial Killer, so the consistent states of a position
are its orders of the stack. The uniformity test plays matches from a stacked deck (the
36 number cards first, so the graves stay open and the stack gets short), and at a
decision with a short stack enumerates every order of the stack's cards, keeping those
for which replaying the match from the whole pack so ordered gives the seat the very
events and observation it had: the ground truth, with no use of the sampler's own code.
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
from arena.games.sampling import knowledge
from arena.games.sampling.serial_killer import SerialKillerKnowledge
from arena.games.serial_killer import (
    GAME,
    Drew,
    EndTurn,
    Hold,
    Observation,
    Phase,
    PlayCorpse,
    Reshuffled,
    State,
    grave_open,
)
from tests.games.sampling import chi_square_p, positions
from tests.games.stacked import StackedRng, new_stacked

SIGNIFICANCE = 0.001  # a uniform sampler fails a uniformity test once in a thousand
PER_OUTCOME = 200  # samples per consistent stack order


def deck(codes: str, pool: list[Card] | None = None) -> list[Card]:
    """The given cards first, then the rest of ``pool`` (default: the full deck) in order."""
    head = cards(codes)
    return head + [c for c in (pool if pool is not None else standard_deck()) if c not in head]


def drawing_order(state: State) -> tuple[Card, ...]:
    """The stack as it will be drawn, first card first."""
    return tuple(reversed(state.stack))


@dataclass
class Scripted:
    """A match from a stacked pack, with every seat's knowledge fed what it was sent."""

    players: int
    first: int
    order: list[Card]
    state: State
    known: list[SerialKillerKnowledge]
    seen: list[list[Any]]
    actions: list[Any]

    @classmethod
    def start(cls, players: int, order: list[Card], first: int = 0) -> Scripted:
        state = new_stacked(GAME, players, [order], numbers=[first])
        known = [SerialKillerKnowledge(players, seat, state.options) for seat in range(players)]
        match = cls(players, first, order, state, known, [[] for _ in range(players)], [])
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


def samples(known: SerialKillerKnowledge, observation: Observation, count: int,
            seed: int) -> list[State]:
    rng = random.Random(seed)
    return [known.sample(observation, rng) for _ in range(count)]


# -- each kind of knowledge ------------------------------------------------------------
def test_held_set_aside_and_pending_cards_are_never_stacked_and_come_back_on_a_reshuffle() -> None:
    first = deck("KS QS KH QH KD 2S  JS  JH  3S  4S")
    second = deck("2C 3C 4C 5C 6C 7C")
    match = Scripted.start(3, first)
    match.state.clues[2] = 1  # set-up shortcut: seat 2 is one missed turn from arrest
    match.play(EndTurn())          # t1 seat 0: five kills, grave 5 open (2S)
    assert match.state.phase is Phase.JACK_DRAWN  # t2 seat 1 drew JS: pending
    for seat in range(3):
        for sample in samples(match.known[seat], match.observation(seat), 50, seed=seat):
            assert Card.parse("JS") not in sample.stack and sample.pending == Card.parse("JS")
            assert len(sample.stack) == 52 - 7
    match.play(Hold())             # seat 1 holds JS
    match.play(EndTurn())
    match.play(Hold())             # t3 seat 2 holds JH
    match.play(EndTurn())          # seat 2 is arrested: JH set aside
    match.play(EndTurn())          # t4 seat 0 drew 3S
    assert match.state.set_aside == cards("JH") and match.state.held[1] == cards("JS")
    observation = match.observation(0)
    shown = set(cards("KS QS KH QH KD 2S 3S 4S JS JH"))
    for sample in samples(match.known[0], observation, 200, seed=9):
        assert set(sample.stack) == set(standard_deck()) - shown  # every other card, no more
        assert sample.set_aside == cards("JH") and sample.held[1] == cards("JS")
    match.play(PlayCorpse(Card.parse("JS"), 5))
    match.state.rng = StackedRng([second])  # the reshuffle gathers all 52 cards
    match.play(EndTurn())
    assert any(isinstance(e, Reshuffled) for e in match.seen[2])
    observation = match.observation(2)
    tops = Counter(drawing_order(s)[0] for s in samples(match.known[2], observation, 2000, 3))
    assert Card.parse("JH") in tops  # the set-aside Jack went back into the stack
    assert set(tops) <= set(standard_deck()) - set(cards("2C 3C 4C 5C 6C 7C"))


def test_a_finished_game_samples_as_finished() -> None:
    known = knowledge(GAME.name, 2, 0)
    state = GAME.new(2, 4)
    known.learn(t.event for t in GAME.opening_events(state))
    rng = random.Random(4)
    while GAME.to_act(state) is not None:
        legal = GAME.legal_actions(state)
        known.learn(t.event for t in GAME.apply(state, legal[rng.randrange(len(legal))]))
    sample = known.sample(GAME.observe(state, 0), random.Random(1))
    assert GAME.to_act(sample) is None
    assert GAME.outcome(sample) == GAME.outcome(state)


# -- uniformity over every consistent stack, on small endgames ------------------------------
def endgames(count: int, most: int) -> Iterator[tuple[Scripted, int]]:
    """Decisions of matches from packs with the number cards first (in a random order, then
    the face cards in a random order) where the stack holds at most ``most`` cards, before
    any reshuffle: one per match, ``count`` of them, over 2 or 3 seats."""
    found = 0
    for seed in itertools.count():
        rng = random.Random(f"endgame-{seed}")
        numbers = [c for c in standard_deck() if 2 <= c.rank <= 10]
        faces = [c for c in standard_deck() if not 2 <= c.rank <= 10]
        rng.shuffle(numbers)
        rng.shuffle(faces)
        players = 2 + seed % 2
        match = Scripted.start(players, numbers + faces, first=rng.randrange(players))
        while (seat := GAME.to_act(match.state)) is not None:
            if len(match.state.stack) <= most:
                yield match, seat
                found += 1
                break
            legal = GAME.legal_actions(match.state)
            hold = Hold() in legal and rng.random() < 0.9  # held cards keep graves open
            action = Hold() if hold else legal[rng.randrange(len(legal))]
            if action == EndTurn() and not any(map(grave_open, match.state.graves)):
                break  # it would reshuffle: this match got no short stack
            match.play(action)
        if found == count:
            return


def consistent_orders(match: Scripted, seat: int) -> list[tuple[Card, ...]]:
    """Every order of the stack's cards (as drawn) with which the pack, the cards drawn so
    far first, replays the match's actions into the seat's very events and observation."""
    drawn = [e.card for e in match.seen[seat] if isinstance(e, Drew)]
    hidden = sorted(match.state.stack)
    consistent = []
    for rest in itertools.permutations(hidden):
        replay = Scripted.start(match.players, drawn + list(rest), match.first)
        for action in match.actions:
            replay.play(action)
        if replay.seen[seat] == match.seen[seat] and \
                replay.observation(seat) == match.observation(seat):
            consistent.append(rest)
    return consistent


def stack_counts(known: SerialKillerKnowledge, observation: Observation, total: int,
                 seed: int) -> Counter[tuple[Card, ...]]:
    return Counter(drawing_order(s) for s in samples(known, observation, total, seed))


def test_samples_are_uniform_over_every_consistent_stack_on_small_endgames() -> None:
    for index, (match, seat) in enumerate(endgames(3, most=5)):
        support = consistent_orders(match, seat)
        assert drawing_order(match.state) in support  # the truth is consistent
        counts = stack_counts(match.known[seat], match.observation(seat),
                              PER_OUTCOME * len(support), seed=index)
        p = chi_square_p(counts, support)
        assert p > SIGNIFICANCE, f"endgame {index}: {len(support)} stacks, p = {p}"


# -- two broken samplers, caught -----------------------------------------------------------
class ForgetsHeldCards(SerialKillerKnowledge):
    """Broken: forgets the held and set-aside cards, so it may stack a card shown held."""

    def sample(self, observation: Observation, rng: random.Random) -> State:
        sample = super().sample(observation, rng)
        shown = {c for pile in observation.graves for c in pile} | {observation.drawn_card}
        pool = [c for c in standard_deck() if c not in shown]
        sample.stack = rng.sample(pool, observation.stack_size)
        return sample


class PeeksAtTheStack(SerialKillerKnowledge):
    """Broken: handed the true state, it copies the true stack into every sample."""

    def __init__(self, players: int, seat: int, options: dict[str, Any], truth: State) -> None:
        super().__init__(players, seat, options)
        self.truth = truth

    def sample(self, observation: Observation, rng: random.Random) -> State:
        sample = super().sample(observation, rng)
        sample.stack = list(self.truth.stack)
        return sample


def test_a_sampler_that_forgets_held_cards_fails_the_uniformity_test() -> None:
    match, seat = next(endgames(1, most=5))
    assert any(match.state.held), "the endgame has held cards to forget"
    support = consistent_orders(match, seat)
    broken = ForgetsHeldCards(match.players, seat, match.state.options)
    broken.learn(match.seen[seat])
    counts = stack_counts(broken, match.observation(seat), 10 * len(support), seed=1)
    assert chi_square_p(counts, support) == 0.0  # stacks holding a held card: caught


def top_cards(known: SerialKillerKnowledge, observation: Observation) -> Counter[Card]:
    return Counter(drawing_order(s)[0] for s in samples(known, observation, 300, seed=5))


def test_samples_are_the_same_for_two_states_a_seat_cannot_tell_apart_and_a_peek_is_caught() -> None:
    checked = 0
    for index, position in enumerate(positions(GAME, 4, 21, every=3)):
        state = position.state
        other = GAME.redeal_hidden(state, position.seat, random.Random(index))
        if drawing_order(other)[0] == drawing_order(state)[0]:
            continue  # the redeal kept the top card: the peek would not show on it
        assert GAME.observe(other, position.seat) == position.observation
        honest = [SerialKillerKnowledge(4, position.seat, state.options) for _ in (state, other)]
        peeking = [PeeksAtTheStack(4, position.seat, state.options, truth) for truth in (state, other)]
        for known in (*honest, *peeking):
            known.learn(position.events)
        assert top_cards(honest[0], position.observation) == top_cards(honest[1], position.observation)
        assert top_cards(peeking[0], position.observation) != top_cards(peeking[1], position.observation)
        checked += 1
        if checked == 8:
            return
    raise AssertionError(f"only {checked} positions to check")
