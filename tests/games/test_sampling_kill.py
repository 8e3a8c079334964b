"""Kill's sampler: what a seat learns in a round (the fixed cards, cards taken, shown hands,
Joker claims, two-card gifts, unseen discards) is honoured, and samples are uniform over the
deals consistent with it.

Uniformity is judged against exhaustive enumeration: a candidate deal is consistent when
replaying the match's true actions from it gives the seat the very events and observation it
got. A round shuffles 42 or 45 cards, so whole deals cannot be listed; the enumeration moves
the one card of the other hands the seat cannot place (in the round's true shuffle) to every
other place and replays, at positions where that is the only hidden card of a hand.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Hashable, Mapping
from dataclasses import dataclass
from typing import Any

import pytest

from arena.games.base import OptionValue, Rng, Tagged
from arena.games.cards import Card, Rank, standard_deck
from arena.games.kill import (
    GAME,
    USED,
    ClaimJoker,
    ClaimTrio,
    ClaimWin,
    Draw,
    Fold,
    GiftDiscarded,
    JokerDiscarded,
    Kill,
    Observation,
    ShowTrio,
    ShowTrueWin,
    State,
    Status,
    Swap,
    Swapped,
    Tracker,
    Two,
    fixed_cards,
)
from arena.games.kill import knowledge as seats_knowledge
from arena.games.sampling import knowledge
from arena.games.sampling.kill import KillKnowledge
from tests.games.sampling import Position, check_sample, chi_square_p, homogeneity_p, positions
from tests.games.test_kill import JOKER_DECK, WINNING_DECK, C, Script, deal_order

SIGNIFICANCE = 0.001  # a uniform sampler fails one of these tests once in a thousand runs
SAMPLES_PER_OUTCOME = 200


def learnt(script: Script, seat: int) -> tuple[KillKnowledge, Observation]:
    options = GAME.parse_options(script.state.players, script.state.options)
    known = knowledge(GAME.name, script.state.players, seat, options)
    assert isinstance(known, KillKnowledge)
    known.learn(script.seen_by(seat))
    return known, GAME.observe(script.state, seat)


def samples(script: Script, seat: int, count: int = 500, seed: int = 0) -> list[State]:
    known, observation = learnt(script, seat)
    rng = random.Random(seed)
    return [known.sample(observation, rng) for _ in range(count)]


# -- what the seat knows ----------------------------------------------------------------
def test_fixed_cards_taken_cards_and_an_unseen_discard() -> None:
    s = Script(4, [deal_order(4, WINNING_DECK)], rounds=1)
    s.do(Draw(), Swap(0))  # seat 0 takes JH for its AH, which seat 3 does not see
    kept = Counter[int]()
    for sample in samples(s, 3):
        for seat in (1, 2):  # A, 2, 3 where they were dealt, with one card from the deck
            assert set(fixed_cards(4)[seat]) < set(sample.hands[seat])
        hand = set(sample.hands[0])
        assert C("JH") in hand
        fixed = set(fixed_cards(4)[0])
        assert fixed - hand <= set(sample.used) and len(fixed & hand) >= 2  # one card went
        assert len(sample.used) == 1
        kept[len(fixed & hand)] += 1
    assert set(kept) == {2, 3}  # the dealt card or one of the A, 2, 3: both are possible
    for sample in samples(s, 0):
        assert sample.used == [C("AH")]  # its own discard


def test_a_card_that_could_not_be_swapped_for_the_card_taken_stays() -> None:
    s = Script(4, [deal_order(4, "TH 9D 9C 9S JS")], rounds=1)
    s.do(Draw(), Swap(3))  # seat 0 takes JS for TH: none of AH, 2H, 3H could go for a JS
    for sample in samples(s, 3):
        assert sample.hands[0] == [C("AH"), C("2H"), C("3H"), C("JS")]
        assert len(sample.used) == 1 and sample.used[0] not in fixed_cards(4)[0]


def test_a_shown_hand_is_the_whole_hand() -> None:
    s = Script(4, [deal_order(4, WINNING_DECK)], rounds=1)
    s.pass_turns(5)
    s.do(Kill(2))  # seat 1 fails to kill seat 2: both hands are shown, seat 1 leaves
    for sample in samples(s, 3):
        assert sample.hands[2] == [C("AC"), C("2C"), C("3C"), C("9C")]
        assert sample.hands[1] == [C("AD"), C("2D"), C("3D"), C("9D")]
        assert sample.status[1] is Status.KILL_FAILED


def test_a_failed_joker_claim_shows_the_target_holds_no_joker() -> None:
    s = Script(4, [deal_order(4, JOKER_DECK)], rounds=1)
    s.pass_turns(4)
    s.do(ClaimJoker(1))  # seat 1 holds 9D: the claim fails, seat 0's hand is shown
    jokers = Counter[int]()
    for sample in samples(s, 3, count=2000):
        assert sample.hands[0] == [C("AH"), C("2H"), C("3H"), C("TH")]
        assert not any(c.rank is Rank.JOKER for c in sample.hands[1])
        jokers[sum(c.rank is Rank.JOKER for c in sample.hands[2])] += 1
    assert jokers[1] > 0  # seat 2 may hold one (it does)


def test_a_joker_passed_unnamed_is_the_claimers_fifth_card() -> None:
    s = Script(4, [deal_order(4, JOKER_DECK)], rounds=1)
    s.pass_turns(4)
    s.do(ClaimJoker(2))  # seat 2 gives X1; seat 3 sees the claim succeed, not which Joker
    for sample in samples(s, 3):
        hand = sample.hands[0]
        assert hand[1:] == [C("AH"), C("2H"), C("3H"), C("TH")] and hand[0].rank is Rank.JOKER
        assert len(sample.hands[2]) == 4
    for sample in samples(s, 0):  # the claimer knows which, and that seat 2 drew unseen
        assert C("X1") in sample.hands[0]


def test_a_two_card_gift_not_named_is_one_of_the_two_shown() -> None:
    s = Script(4, [deal_order(4, "TH 9D 9C 9S 5C")], rounds=1, two_card_gift_public=False)
    s.do(Draw(), Two(2, 1, 3))  # seat 0 shows 2H 3H, gives 3H to seat 3
    gifts = Counter[Card]()
    for sample in samples(s, 1, count=2000):
        assert sample.gift_recipient == 3 and sample.gift_card in (C("2H"), C("3H"))
        other = C("2H") if sample.gift_card == C("3H") else C("3H")
        assert other in sample.hands[0] and C("5C") in sample.hands[0]
        gifts[sample.gift_card] += 1
    assert chi_square_p(gifts, [C("2H"), C("3H")]) > SIGNIFICANCE
    for sample in samples(s, 3):
        assert sample.gift_card == C("3H")
    s.do(GAME.legal_actions(s.state)[0])  # seat 3 discards a previous card, unseen
    for sample in samples(s, 1):
        assert C("3H") in sample.hands[3] or C("3H") in sample.hands[0]


# -- uniformity, by exhaustive enumeration ------------------------------------------------
class FirstShuffle(Rng):
    """A round's shuffle given, everything after it seeded."""

    def __init__(self, order: list[Card], seed: int) -> None:
        super().__init__(seed)
        self.order: list[Card] | None = list(order)

    def shuffle(self, items: list[Any]) -> None:
        if self.order is None:
            super().shuffle(items)
            return
        assert sorted(items) == sorted(self.order)
        items[:] = self.order
        self.order = None


@dataclass
class Match:
    players: int
    options: dict[str, OptionValue]
    order: list[Card]
    seed: int
    actions: list[Any]
    state: State
    seat: int
    events: list[Any]
    hidden: Card  # the one card of the other hands the seat cannot place


def replay(match: Match, order: list[Card]) -> tuple[State, list[Tagged]] | None:
    state = GAME.start(match.players, FirstShuffle(order, match.seed), match.options)
    tagged = GAME.opening_events(state)
    for action in match.actions:
        if action not in GAME.legal_actions(state):
            return None
        tagged += GAME.apply(state, action)
    return state, tagged


def one_hidden_card(state: State, seat: int, events: list[Any]) -> Card | None:
    """The one card of the other active hands the seat's tracker cannot place, if only one,
    and no other seat has discarded unseen this round."""
    if any(isinstance(e, (Swapped, GiftDiscarded, JokerDiscarded)) and e.seat != seat
           for e in events):
        return None
    tracker = Tracker(seat, state.players)
    for event in events:
        tracker.update(event)
    hidden = [c for s in range(state.players) if s != seat and state.status[s] is Status.ACTIVE
              for c in state.hands[s] if tracker.known.get(c) != s]
    if state.gift_card is not None and state.gift_recipient != seat:
        return None
    return hidden[0] if len(hidden) == 1 else None


def found(players: int, wanted: int, options: Mapping[str, OptionValue] | None = None,
          ) -> list[Match]:
    """Random matches stopped where one card of the other hands is hidden from the seat."""
    parsed = GAME.parse_options(players, {"rounds": 1, **(options or {})})
    fixed = {c for hand in fixed_cards(players) for c in hand}
    out: list[Match] = []
    for seed in range(2000):
        order = [c for c in standard_deck(1, jokers=2) if c not in fixed]
        random.Random(seed).shuffle(order)
        state = GAME.start(players, FirstShuffle(order, seed), parsed)
        tagged = GAME.opening_events(state)
        policy = random.Random(-seed)
        actions: list[Any] = []
        while (seat := state.to_act) is not None and len(actions) < 60:
            events = [t.event for t in tagged if t.visible(seat)]
            hidden = one_hidden_card(state, seat, events) if len(actions) > 8 else None
            if hidden is not None:
                out.append(Match(players, parsed, order, seed, list(actions), GAME.clone(state),
                                 seat, events, hidden))
                break
            legal = GAME.legal_actions(state)
            actions.append(legal[policy.randrange(len(legal))])
            tagged += GAME.apply(state, actions[-1])
        if len(out) == wanted:
            return out
    raise AssertionError("too few positions with one hidden card")


def support_of(match: Match) -> list[Card]:
    """Every card that can be the hidden one: traded with it in the true shuffle, the true
    actions replay to the same events and observation for the seat."""
    truth = GAME.observe(match.state, match.seat)
    out = []
    for card in match.order:
        order = list(match.order)
        i, j = order.index(match.hidden), order.index(card)
        order[i], order[j] = order[j], order[i]
        replayed = replay(match, order)
        if replayed is None:
            continue
        state, tagged = replayed
        if [t.event for t in tagged if t.visible(match.seat)] == match.events \
                and GAME.observe(state, match.seat) == truth:
            out.append(card)
    return out


def holder(state: State, card: Card) -> int:
    return next(s for s, hand in enumerate(state.hands) if card in hand)


def hidden_key(match: Match) -> Any:
    """A sample's key: the card of the hidden card's hand that the seat cannot place."""
    seat = holder(match.state, match.hidden)
    rest = [c for c in match.state.hands[seat] if c != match.hidden]

    def key(sample: State) -> Hashable:
        extra = [c for c in sample.hands[seat] if c not in rest]
        return extra[0] if len(extra) == 1 else tuple(extra)
    return key


def histogram(sampler: KillKnowledge, match: Match, count: int, seed: int) -> Counter[Hashable]:
    rng = random.Random(seed)
    observation = GAME.observe(match.state, match.seat)
    key = hidden_key(match)
    return Counter(key(sampler.sample(observation, rng)) for _ in range(count))


def learnt_by(match: Match, cls: type[KillKnowledge] = KillKnowledge) -> KillKnowledge:
    known = cls(match.players, match.seat, match.options)
    known.learn(match.events)
    return known


@pytest.mark.parametrize(("players", "options"), [
    (3, None),
    (4, None),
    (3, {"two_card_gift_public": False, "allow_false_claims": True}),
])
def test_the_hidden_card_is_uniform_over_the_consistent_cards(
        players: int, options: dict[str, OptionValue] | None) -> None:
    for index, match in enumerate(found(players, 2, options)):
        support = support_of(match)
        assert match.hidden in support
        counts = histogram(learnt_by(match), match, SAMPLES_PER_OUTCOME * len(support),
                           10 * players + index + (50 if options else 0))
        assert set(counts) == set(support)
        assert chi_square_p(counts, support) > SIGNIFICANCE


# -- broken samplers are caught -----------------------------------------------------------
class IgnoresWhatItLearnt(KillKnowledge):
    """Broken: knows its observation only; any card it does not see may be anywhere."""

    def note(self, event: Any) -> None:
        super().note(event)
        self.where = {}
        self.room = [4] * self.players
        self.no_joker = [False] * self.players


class Peeks(KillKnowledge):
    """Broken: handed the true state, it puts the other hands' true cards back in them."""

    def __init__(self, players: int, seat: int, options: Mapping[str, OptionValue],
                 truth: State) -> None:
        super().__init__(players, seat, options)
        self.truth = truth

    def sample(self, observation: Observation, rng: random.Random) -> State:
        state = super().sample(observation, rng)
        for s in range(self.players):
            if s != self.seat and state.status[s] is Status.ACTIVE:
                for card in self.truth.hands[s]:
                    if card not in state.hands[s]:
                        _trade(state, s, card)
        return state


def _trade(state: State, seat: int, card: Card) -> None:
    """Put ``card`` in ``seat``'s hand for a card there that ``seat`` does not truly hold."""
    for pile in [*state.hands, state.deck, state.used]:
        if card in pile:
            out = next(c for c in state.hands[seat] if c not in pile)
            pile[pile.index(card)] = out
            state.hands[seat][state.hands[seat].index(out)] = card
            state.hands[seat].sort()
            return


def test_a_sampler_that_ignores_what_it_learnt_fails_the_support_check() -> None:
    match = found(3, 1)[0]
    support = support_of(match)
    counts = histogram(learnt_by(match, IgnoresWhatItLearnt), match,
                       SAMPLES_PER_OUTCOME * len(support), seed=5)
    assert chi_square_p(counts, support) == 0.0  # cards it should have placed: caught


def test_samples_are_the_same_for_every_true_state_of_the_same_knowledge() -> None:
    match = found(3, 1)[0]
    redealt = GAME.redeal_hidden(match.state, match.seat, random.Random(6))
    assert GAME.observe(redealt, match.seat) == GAME.observe(match.state, match.seat)
    seat = holder(match.state, match.hidden)
    assert redealt.hands[seat] != match.state.hands[seat]
    real = [histogram(learnt_by(match), match, 2000, seed) for seed in (7, 8)]
    assert homogeneity_p(*real) > SIGNIFICANCE  # never handed a state: S and S' look alike
    peeking = []
    for truth, seed in ((match.state, 7), (redealt, 8)):
        peeker = Peeks(match.players, match.seat, match.options, truth)
        peeker.learn(match.events)
        peeking.append(histogram(peeker, match, 2000, seed))
    assert homogeneity_p(*peeking) < SIGNIFICANCE  # it samples the truth it was handed: caught


def test_a_clone_plays_on_as_the_original_and_shares_nothing() -> None:
    for seed in range(3):
        state = GAME.new(3, seed, {"rounds": 2})
        policy = random.Random(seed)
        while state.to_act is not None:
            before = repr(state), state.rng.copy().below(1 << 30)  # the generator too: its next draw
            copy = GAME.clone(state)
            ahead = random.Random(seed)
            for _ in range(20):  # play the copy on a little: the original must not change
                if copy.to_act is None:
                    break
                legal = GAME.legal_actions(copy)
                GAME.apply(copy, legal[ahead.randrange(len(legal))])
            assert (repr(state), state.rng.copy().below(1 << 30)) == before
            legal = GAME.legal_actions(state)
            action = legal[policy.randrange(len(legal))]
            copy = GAME.clone(state)
            assert GAME.apply(copy, action) == GAME.apply(state, action)
            assert repr(copy) == repr(state)


def send(tagged: list[Tagged], known: list[Any], seen: Counter[str]) -> None:
    """Feed every seat's knowledge the events it may see; count seat 0's by kind."""
    for s, seat_knowledge in enumerate(known):
        events = [t.event for t in tagged if t.visible(s)]
        seat_knowledge.learn(events)
        seen.update(type(e).__name__ for e in events if s == 0)


def test_long_rounds_with_reshuffles_joker_refills_and_gifts_keep_to_the_contract() -> None:
    """Random play rarely reaches a reshuffle or a Joker refill (a kill or a fold ends the
    round first): here seats seldom leave and often claim Jokers."""
    leaving = (Kill, Fold, ShowTrio, ClaimTrio, ClaimWin, ShowTrueWin)
    rng = random.Random(3)
    seen: Counter[str] = Counter()
    for seed in range(12):
        players = 3 + seed % 2
        options = GAME.parse_options(players, {"rounds": 1, "max_turns_per_round": 120,
                                               "two_card_gift_public": seed % 2 == 0})
        state = GAME.new(players, seed, options)
        known = [knowledge(GAME.name, players, s, options) for s in range(players)]

        send(GAME.opening_events(state), known, seen)
        policy = random.Random(seed)
        step = 0
        while (seat := state.to_act) is not None:
            if step % 3 == 0:
                check_sample(GAME, Position(GAME.clone(state), seat, GAME.observe(state, seat),
                                            known[seat], [], step), rng)
            legal = list(GAME.legal_actions(state))
            calm = [a for a in legal if not isinstance(a, leaving)]
            claims = [a for a in legal if isinstance(a, ClaimJoker)]
            pool = claims if claims and policy.random() < 0.15 else calm or legal
            send(GAME.apply(state, pool[policy.randrange(len(pool))]), known, seen)
            step += 1
    assert seen["UsedPileShuffled"] and seen["JokerRefill"] and seen["GiftDiscarded"]


@pytest.mark.parametrize("gift_public", [True, False])
def test_in_a_sample_the_other_seats_know_no_more_of_this_seats_hand_than_they_do(
        gift_public: bool) -> None:
    """What each seat knows in a sample (the game's record, :func:`arena.games.kill.knowledge`,
    which the engine and the search bot's rollouts read): the seat sampled for knows what it
    knows in the true state, and another seat places no card in the sampled seat's hand that
    it does not place there in the true state (its dealt card, say, or an unseen discard)."""
    rng = random.Random(7)
    checked = 0
    for seed in range(6):
        options = {"two_card_gift_public": gift_public, "target_score": 11}
        for position in positions(GAME, 4, seed, options, every=5):
            sample = position.knowledge.sample(position.observation, rng)
            me = position.seat
            true, told = seats_knowledge(position.state).trackers, \
                seats_knowledge(sample).trackers
            assert told[me].known == true[me].known, (seed, position.step)
            for other in range(4):
                if other != me:
                    mine = {c for c, place in told[other].known.items() if place == me}
                    assert mine <= {c for c, place in true[other].known.items() if place == me}
            checked += 1
    assert checked > 100


SEAT_1_DISCARDS_A_REFILL = (
    "aaaafbaaaaaaagaddaaaacfacaaaaaadaaabaadaaaaacaaaaaaaaaacaaaaaaaaaaaaaaaaaaaaeaaaaaaaaaaaa"
    "aaaaaaaaafabafbbccaaabaaaaoaaaaaaaaebaaaaddaaeaadfaaaaaaaaaacaaabaabaaaaaaaadaaaaaaaaaaa"
    "aaaaaaaaaaaaaaaaaaacaaaaaaaaaaaadaaaaaafaaabbafcbcbaaabagaaagaaagaaabaafaaheaaaaaadaaaafa"
    "aabaaaaaaafaaaabaaaaaaaaaaaaaacaaaaaabaaaaaaaaeaaaaaaaaabaaaaaaaaaaaaaabbaaaaabaaaaabafab"
    "cbbcbbbcbbaaa")
"""A match of the search bot (seat 1), the heuristic bot and two random bots, seed
7298255797417048277, as the index of each action among the legal ones ('a' the first): after
the used pile is shuffled back into the deck, seats 1 and 2 take the Jokers from each other
again and again, and seat 1 discards a card a refill gave it (found in a versus of 1,354
matches, where the sampler then refused five times: "no deal is consistent")."""


def test_a_card_the_seat_discards_after_a_joker_claim_is_in_the_used_pile() -> None:
    options = GAME.parse_options(4, {"target_score": "11"})
    state = GAME.new(4, 7298255797417048277, options)
    seat, rng = 1, random.Random(3)
    known = knowledge(GAME.name, 4, seat, options)
    assert isinstance(known, KillKnowledge)
    tracker = Tracker(seat, 4)
    for event in [t.event for t in GAME.opening_events(state) if t.visible(seat)]:
        known.learn([event])
        tracker.update(event)
    for letter in SEAT_1_DISCARDS_A_REFILL:
        if GAME.to_act(state) == seat:
            sample = known.sample(GAME.observe(state, seat), rng)  # never refused
            sure_used = {c for c, place in tracker.known.items() if place == USED}
            assert sure_used <= set(sample.used) and set(sample.used) <= set(state.used) | \
                {c for h in state.hands for c in h} | set(state.deck)
        events = [t.event for t in GAME.apply(state, GAME.legal_actions(state)[ord(letter) - 97])
                  if t.visible(seat)]
        known.learn(events)
        for event in events:
            tracker.update(event)
    assert any(isinstance(e, JokerDiscarded) and e.seat == seat for e in known.log)
