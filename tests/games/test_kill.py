"""Kill: scripted games written from docs/games/kill.md, and its invariants."""

from __future__ import annotations

import copy
import random
from collections import Counter
from typing import Any

import pytest

from arena.games.base import IllegalActionError, InvalidActionError, OptionError, Tagged
from arena.games.cards import Card, cards, standard_deck
from arena.games.kill import (
    GAME,
    ClaimJoker,
    ClaimTrio,
    ClaimWin,
    Dealt,
    Discard,
    Draw,
    Drew,
    EndTurn,
    FalseWinShown,
    Fold,
    GiftDiscarded,
    JokerClaimed,
    JokerDiscarded,
    JokerRefill,
    Kill,
    KillAttempt,
    LeaveReason,
    LeftRound,
    MatchEnded,
    Phase,
    Reject,
    Rejected,
    RoundEnd,
    RoundEnded,
    RoundStarted,
    RoundWon,
    ShowTrio,
    ShowTrueWin,
    State,
    Status,
    Swap,
    Swapped,
    Tracker,
    TurnEnded,
    Two,
    TwoCardExchange,
    UsedPileShuffled,
    WinReason,
    can_swap,
    can_two,
    fixed_cards,
    is_trio,
    is_winning,
    told,
)
from arena.match import conformance as suite
from tests import fuzz
from tests.games.stacked import new_stacked

C = Card.parse


def deal_order(players: int, front: str) -> list[Card]:
    """A round's shuffled cards: ``front`` first (hidden cards from the starter on, then
    the draws), the rest in a fixed order behind."""
    fixed = {c for hand in fixed_cards(players) for c in hand}
    head = cards(front)
    return head + [c for c in standard_deck(1, jokers=2) if c not in fixed and c not in head]


class Script:
    """A stacked match driven action by action, keeping every seat's view of the events."""

    def __init__(self, players: int, orders: list[list[Card]], numbers: list[int] | None = None,
                 **options: Any) -> None:
        self.state: State = new_stacked(GAME, players, orders, options, numbers or ())
        self.events: list[Tagged] = list(self.state.round_log)

    def do(self, *actions: Any) -> list[Any]:
        """Apply ``actions`` in turn; the events they showed the last seat (a bystander
        in these scripts)."""
        out: list[Tagged] = []
        for action in actions:
            out += GAME.apply(self.state, action)
        self.events += out
        watcher = self.state.players - 1
        return [t.event for t in out if t.visible(watcher)]

    def seen_by(self, seat: int) -> list[Any]:
        return [t.event for t in self.events if t.visible(seat)]

    def pass_turns(self, count: int) -> None:
        """``count`` turns of draw, reject, end turn."""
        for _ in range(count):
            self.do(Draw(), Reject(), EndTurn())

    @property
    def to_act(self) -> int | None:
        return GAME.to_act(self.state)

    def legal(self) -> list[Any]:
        return list(GAME.legal_actions(self.state))


# Four players: seat suits H, D, C, S; hands start A, 2, 3 of the suit plus one hidden card.
WINNING_DECK = "TH 9D 9C 9S JH 4S 5S 6S QH 7S 8S 4C KH 5C 6C 7C 8C"


def heart_run(script: Script) -> None:
    """Seat 0 collects TH JH QH KH over three turns while the others reject."""
    s = script
    assert s.do(Draw(), Swap(0)) == [Drew(0, C("JH")), Swapped(0, C("JH"), None)]
    s.do(EndTurn())
    s.pass_turns(3)
    s.do(Draw(), Swap(0))
    assert s.state.hands[0] == cards("3H TH JH QH")
    assert is_trio(s.state.hands[0])
    assert s.legal() == [ClaimTrio(), EndTurn()]
    s.do(EndTurn())
    s.pass_turns(3)
    s.do(Draw(), Swap(0))
    assert s.state.hands[0] == cards("TH JH QH KH")


# -- setup and the first turn --------------------------------------------------
def test_setup_deals_fixed_cards_and_one_hidden_card_from_the_starter() -> None:
    s = Script(4, [deal_order(4, WINNING_DECK)], rounds=1)
    assert s.state.hands[0] == cards("AH 2H 3H TH")
    assert s.state.hands[1] == cards("AD 2D 3D 9D")
    assert s.state.hands[3] == cards("AS 2S 3S 9S")
    assert len(s.state.deck) == 38 and s.state.used == []
    start = s.seen_by(2)
    assert start[0] == RoundStarted(0, 0, fixed_cards(4), 38)
    assert Dealt(2, C("9C")) in start and Dealt(0, None) in start and Dealt(0, C("TH")) not in start
    assert s.legal() == [Draw()]  # R5: the first turn of a round is a draw
    obs = GAME.observe(s.state, 1)
    assert obs.hand == tuple(cards("AD 2D 3D 9D")) and obs.hand_sizes == (4, 4, 4, 4)
    assert obs.deck_size == 38 and obs.phase is Phase.TURN_START and obs.to_act == 0


def test_exchange_predicates() -> None:
    assert can_swap(C("2D"), C("TD"))          # same suit
    assert can_swap(C("6S"), C("6H"))          # same value
    assert can_swap(C("5C"), C("4H")) and can_swap(C("5C"), C("6H"))
    assert not can_swap(C("KS"), C("AH"))      # no wrap-around
    assert can_swap(C("X1"), C("3C")) and can_swap(C("3C"), C("X2"))
    assert can_two(C("QS"), C("7H"), C("5D")) and not can_two(C("QS"), C("7H"), C("4D"))
    assert can_two(C("X1"), C("6H"), C("7D")) and not can_two(C("X1"), C("7H"), C("7D"))
    assert can_two(C("5S"), C("X1"), C("4D")) and not can_two(C("4S"), C("X1"), C("4D"))
    assert can_two(C("X1"), C("X2"), C("QD")) and not can_two(C("X1"), C("X2"), C("KD"))
    assert is_winning(cards("TH JD QH KD")) and is_winning(cards("TS QC X1 X2"))
    assert is_trio(cards("TS QC KC 4C")) and not is_trio(cards("TS JS QC KC"))
    assert not is_winning(cards("TH JD QS KD")) and is_trio(cards("TH JD QS KD"))


# -- wins ------------------------------------------------------------------------
def test_claimed_win_scores_five_and_ends_the_match_of_one_round() -> None:
    s = Script(4, [deal_order(4, WINNING_DECK)], rounds=1)
    heart_run(s)
    assert s.legal() == [ClaimWin(), EndTurn()]
    events = s.do(ClaimWin())
    assert events == [
        RoundWon(0, WinReason.CLAIMED_WIN, tuple(cards("TH JH QH KH")), 5),
        RoundEnded(0, RoundEnd.WON, (5, 0, 0, 0), (5, 0, 0, 0), ()),
        MatchEnded((5, 0, 0, 0), (1, 2, 2, 2)),
    ]
    outcome = GAME.outcome(s.state)
    assert outcome is not None and outcome.scores == (5, 0, 0, 0) and outcome.ranks == (1, 2, 2, 2)
    assert s.to_act is None and s.legal() == []


def test_true_win_scores_ten() -> None:
    s = Script(4, [deal_order(4, WINNING_DECK)], rounds=1)
    heart_run(s)
    s.do(EndTurn())
    assert Kill(0) in s.legal()  # offered whatever seat 0 holds
    s.pass_turns(3)
    assert ShowTrueWin() in s.legal()
    events = s.do(ShowTrueWin())
    assert events[0] == RoundWon(0, WinReason.TRUE_WIN, tuple(cards("TH JH QH KH")), 10)
    assert GAME.outcome(s.state).scores == (10, 0, 0, 0)  # type: ignore[union-attr]


def test_successful_kill_scores_eleven_for_the_killer() -> None:
    s = Script(4, [deal_order(4, WINNING_DECK)], rounds=1)
    heart_run(s)
    s.do(EndTurn())
    events = s.do(Kill(0))
    assert events == [
        KillAttempt(1, 0, tuple(cards("TH JH QH KH")), True),
        RoundWon(1, WinReason.KILL, (), 11),
        RoundEnded(0, RoundEnd.WON, (0, 11, 0, 0), (0, 11, 0, 0), ()),
        MatchEnded((0, 11, 0, 0), (2, 1, 2, 2)),
    ]


def test_failed_kill_costs_four_reveals_both_hands_and_play_goes_on() -> None:
    s = Script(4, [deal_order(4, WINNING_DECK)], rounds=1)
    s.pass_turns(4)
    assert s.to_act == 0
    s.pass_turns(1)
    events = s.do(Kill(2))
    assert events[0] == KillAttempt(1, 2, tuple(cards("AC 2C 3C 9C")), False)
    assert events[1] == LeftRound(1, LeaveReason.KILL_FAILED, tuple(cards("AD 2D 3D 9D")), -4)
    assert s.to_act == 2
    obs = GAME.observe(s.state, 3)
    assert obs.statuses[1] is Status.KILL_FAILED and obs.round_points == (0, -4, 0, 0)
    assert obs.face_up[1] == tuple(cards("AD 2D 3D 9D")) and obs.face_up[2] == ()
    # Seat 1 is skipped from now on and can no longer be targeted.
    s.pass_turns(2)
    assert s.to_act == 0 and Kill(1) not in s.legal() and ClaimJoker(1) not in s.legal()


# -- Joker claims ----------------------------------------------------------------
JOKER_DECK = "TH 9D X1 9S 4S 5S 6S 7S 8S"


def test_joker_claim_success_gives_immunity_until_the_claimers_next_turn() -> None:
    s = Script(4, [deal_order(4, JOKER_DECK)], rounds=1)
    s.pass_turns(4)
    assert ClaimJoker(2) in s.legal() and ClaimJoker(3) in s.legal()
    events = s.do(ClaimJoker(2))
    hand = tuple(cards("AH 2H 3H TH"))
    assert events == [JokerClaimed(0, 2, hand, True, None), JokerRefill(2, None)]
    for seat, joker in ((0, C("X1")), (1, None), (2, C("X1")), (3, None)):
        assert [e for e in s.seen_by(seat) if isinstance(e, JokerClaimed)] == \
            [JokerClaimed(0, 2, hand, True, joker)]  # which Joker: claimer and giver only
    assert JokerRefill(2, C("8S")) in s.seen_by(2) and JokerRefill(2, C("8S")) not in s.seen_by(1)
    assert s.state.phase is Phase.JOKER_DISCARD and s.to_act == 0
    assert s.state.hands[0] == cards("X1 AH 2H 3H TH") and s.state.hands[2] == cards("AC 2C 3C 8S")
    assert s.legal() == [Discard(i) for i in range(5)]  # no claim after a Joker claim (R12)
    events = s.do(Discard(1))
    assert events[0] == JokerDiscarded(0, None)
    assert JokerDiscarded(0, C("AH")) in s.seen_by(0)
    assert s.state.immune == [True, False, False, False] and s.to_act == 1
    assert Kill(0) not in s.legal() and Kill(2) in s.legal() and ClaimJoker(0) in s.legal()
    s.pass_turns(3)
    assert s.to_act == 0 and s.state.immune[0] is False  # cleared at the start of its turn
    s.pass_turns(1)
    assert Kill(0) in s.legal()


def test_joker_claim_failure_reveals_the_hand_and_ends_the_turn() -> None:
    s = Script(4, [deal_order(4, JOKER_DECK)], rounds=1)
    s.pass_turns(4)
    events = s.do(ClaimJoker(1))
    assert events[0] == JokerClaimed(0, 1, tuple(cards("AH 2H 3H TH")), False, None)
    assert s.to_act == 1 and s.state.immune == [False] * 4
    assert s.state.hands[0] == cards("AH 2H 3H TH") and Kill(0) in s.legal()


def test_which_joker_passes_does_not_tell_whether_the_giver_had_two() -> None:
    """Rules 7: a successful claim shows everyone that t had a Joker, not whether it had
    two. Seat 3 holds X1 and X2 in one deal and only X2 in the other (X1 deep in the
    deck); seat 3 takes X2 from the table in both, so X2 passes in both (whatever the
    coin says: 1 would pick X2 of the two anyway), and a bystander's view is the same."""
    views = []
    for hidden, drop in (("X1", 1), ("9S", 0)):  # seat 3's hand sorted: X1 first
        s = Script(4, [deal_order(4, f"TH 9D 9C {hidden} 4S 5S 6S X2 7S")], [1], rounds=1)
        s.pass_turns(3)
        s.do(Draw(), Swap(drop), EndTurn())  # seat 3 swaps AS for X2, seen by all
        assert s.state.hands[3].count(C("X2")) == 1
        events = s.do(ClaimJoker(3))
        assert events[0] == JokerClaimed(0, 3, tuple(cards("AH 2H 3H TH")), True, C("X2"))
        assert (C("X1") in s.state.hands[3]) is (hidden == "X1")
        s.do(Discard(0))
        views.append((s.seen_by(1), GAME.observe(s.state, 1)))
    assert views[0] == views[1]


def stepwise_views(order: list[Card], numbers: list[int],
                   actions: list[Any]) -> tuple[list[list[Any]], State]:
    """Every seat's view at every step of a stacked one-round game of four: the events
    it received, then its observation (the opening events and observation first)."""
    state = new_stacked(GAME, 4, [order], {"rounds": 1}, numbers)
    views: list[list[Any]] = [
        [([t.event for t in state.round_log if t.visible(s)], GAME.observe(state, s))]
        for s in range(4)]
    for action in actions:
        tagged = GAME.apply(state, action)
        for s in range(4):
            views[s].append(([t.event for t in tagged if t.visible(s)], GAME.observe(state, s)))
    return views, state


@pytest.mark.parametrize("coin", [0, 1])
def test_a_bystander_cannot_tell_whether_the_joker_giver_held_both_jokers(coin: int) -> None:
    """Rules 7: a successful claim shows everyone that t had a Joker; whether t had two
    is not revealed. Two deals identical but for seat 3's hidden card: 9C in one, X2 in
    the other (the card left out lies at the bottom of the deck). Seat 3 takes X1 from
    the table in plain sight, seat 0 claims a Joker from it, discards AH and, a round of
    turns later, folds (its hand face up). Seats 1 and 2 see the same at every step:
    the claim names no Joker to them, and seat 3 gives X1, the Joker everybody saw it
    take, in both deals whatever the seeded coin says (else seat 0's folded hand would
    show X2, proving seat 3 had held both). Seat 0 also sees the same (it receives X1
    both times); seat 3, whose hand differs, does not."""
    front = "TH 9D 8C {} 4S 5S 6S X1 7S 8S 4C 5C"
    plain = [Draw(), Reject(), EndTurn()]
    actions = [*plain * 3, Draw(), Swap(2), EndTurn(),  # seat 3 swaps a fixed card for X1
               ClaimJoker(3), Discard(1), *plain * 3, Fold()]
    runs = {}
    for hidden, other in (("9C", "X2"), ("X2", "9C")):
        head = cards(front.format(hidden))
        order = deal_order(4, front.format(hidden))
        order = head + [c for c in order[len(head):] if c != C(other)] + [C(other)]
        runs[hidden] = stepwise_views(order, [coin], actions)
    one, both = runs["9C"], runs["X2"]
    assert one[1].hands[0] == both[1].hands[0] == cards("X1 2H 3H TH")  # at its fold
    assert C("X2") in both[1].hands[3] and not any(c.is_joker for c in one[1].hands[3])
    claim = 13  # the views after ClaimJoker(3) (the opening views come first)
    hand = tuple(cards("AH 2H 3H TH"))
    for bystander in (1, 2):
        assert one[0][bystander][claim][0][0] == JokerClaimed(0, 3, hand, True, None)
        for step, (a, b) in enumerate(zip(one[0][bystander], both[0][bystander], strict=True)):
            assert a == b, f"seat {bystander} tells the deals apart at step {step}"
    for seat in (0, 3):
        assert one[0][seat][claim][0][0] == JokerClaimed(0, 3, hand, True, C("X1"))
    assert one[0][0] == both[0][0]
    assert one[0][3] != both[0][3]


def test_a_bystanders_tracker_forgets_the_joker_passed_unseen_or_works_out_which() -> None:
    """Seat 3 takes X1 in plain sight and seat 0 claims a Joker from it. Seat 1 no longer
    knows where X1 is (seat 3 may have held both). Had X2 been rejected earlier (in the
    used pile, seen by all), the Joker passed can only be X1: now with seat 0."""
    for first_draw, known in (("4S", None), ("X2", 0)):
        s = Script(4, [deal_order(4, f"TH 9D 8C 9S {first_draw} 5S 6S X1 7S")], rounds=1)
        s.pass_turns(3)
        s.do(Draw(), Swap(0), EndTurn())  # seat 3 swaps AS for X1
        tracker = Tracker(1, 4)
        for event in s.seen_by(1):
            tracker.update(event)
        assert tracker.known[C("X1")] == 3
        s.do(ClaimJoker(3))
        assert C("X1") in s.state.hands[0]
        tracker.update(s.seen_by(1)[-2])
        assert s.seen_by(1)[-2] == JokerClaimed(0, 3, tuple(cards("AH 2H 3H TH")), True, None)
        assert tracker.known.get(C("X1")) == known


def test_the_giver_of_two_jokers_passes_the_one_the_claimer_secretly_knows_it_holds() -> None:
    """With hidden gifts, seat 0 gives X2 to seat 3 (seats 1 and 2 see X2 and 3H shown,
    not which was given); seat 3 also holds X1, dealt face down. When seat 0 claims a
    Joker from seat 3 it gets X2 back although the coin (0) would pick X1: receiving
    X1 would tell it that seat 3 had two."""
    s = Script(4, [deal_order(4, "X2 9D 8C X1 5C 4S 6S 7S 8S")], [0], rounds=1,
               two_card_gift_public=False)
    s.do(Draw(), Two(0, 3, 3))  # X2 (wild, 2) + 3H = 5C; X2 goes to seat 3
    s.do(Discard(1), EndTurn())  # seat 3 discards AS
    s.pass_turns(3)
    assert s.state.hands[3] == cards("X1 X2 2S 3S")
    s.do(ClaimJoker(3))
    hand = tuple(cards("AH 2H 3H 5C"))
    assert s.state.hands[0] == cards("X2 AH 2H 3H 5C") and C("X1") in s.state.hands[3]
    for seat, joker in ((0, C("X2")), (1, None), (2, None), (3, C("X2"))):
        assert [e for e in s.seen_by(seat) if isinstance(e, JokerClaimed)] == \
            [JokerClaimed(0, 3, hand, True, joker)]


JOKERS = (C("X1"), C("X2"))


def giver_with_other_joker_count(state: State, bystander: int, claimer: int,
                                 giver: int) -> State | None:
    """A copy of ``state`` in which ``giver`` holds two Jokers instead of one, or one
    instead of two: a card of its hand is exchanged with one in the deck, the used pile
    or a third seat's hand, neither of whose places ``bystander`` knows (its Tracker),
    exactly one a Joker. ``None`` when there is no such pair. The claimer's hand (shown
    by the claim) and the bystander's are left alone."""
    tracker = Tracker(bystander, state.players)
    for tagged in state.round_log:
        if tagged.visible(bystander):
            tracker.update(tagged.event)
    unknown = [c for c in state.hands[giver] if c not in tracker.known]
    if sum(c.is_joker for c in state.hands[giver]) == 1:
        outs = [c for c in unknown if not c.is_joker]
        ins = [j for j in JOKERS if j not in state.hands[giver]]
    else:
        outs = [c for c in unknown if c.is_joker]
        ins = [c for c in state.deck + state.used if not c.is_joker]
    ins = [c for c in ins if c not in tracker.known]
    other = copy.deepcopy(state)
    places = [other.deck, other.used] + [
        other.hands[q] for q in range(state.players)
        if q not in (bystander, claimer, giver) and state.status[q] is Status.ACTIVE]
    for card in ins:
        place = next((pile for pile in places if card in pile), None)
        if place is not None and outs:
            hand = other.hands[giver]
            hand[hand.index(outs[0])], place[place.index(card)] = card, outs[0]
            hand.sort()
            if place is not other.deck and place is not other.used:
                place.sort()
            return other
    return None


@pytest.mark.parametrize("gift_public", [True, False])
def test_joker_claims_in_random_games_never_tell_bystanders_whether_the_giver_had_two(
        gift_public: bool) -> None:
    """Rules 7, checked where the generic hidden-information test does not: it re-deals
    what a seat cannot see, but skips every Joker claim (the claim shows the claimer's
    hand, so JokerClaimed is one of Kill's ``revealing_events``). Before each successful
    claim along random games, for every bystander, the giver's Joker count is toggled
    between one and two (a card swapped with one the bystander cannot place, see above).
    The bystander's events and observation after the claim and after the claimer's
    discard are the same in both states. And where the bystander knew a Joker to be in
    the giver's hand, the claimer receives the same Joker in both, so showing the
    claimer's hand later (a fold, a kill) does not tell either (with hidden gifts two
    seats may know different Jokers of the giver's hand: no choice can suit both, that
    part is not checked then)."""
    toggled = 0
    seeds = fuzz.seeds(40)
    for seed in seeds:
        players = 3 + seed % 2
        state = GAME.new(players, seed, {"rounds": 1, "two_card_gift_public": gift_public})
        policy = random.Random(seed)
        while (seat := GAME.to_act(state)) is not None:
            legal = list(GAME.legal_actions(state))
            claims = [a for a in legal if isinstance(a, ClaimJoker)]
            if claims and policy.random() < 0.3:
                action: Any = policy.choice(claims)
            elif Draw() in legal and policy.random() < 0.8:
                action = Draw()
            elif EndTurn() in legal:
                action = EndTurn()
            else:
                action = policy.choice(legal)
            if not isinstance(action, ClaimJoker) or not any(
                    c.is_joker for c in state.hands[action.target]):
                GAME.apply(state, action)
                continue
            giver = action.target
            for bystander in range(players):
                if bystander in (seat, giver):
                    continue
                other = giver_with_other_joker_count(state, bystander, seat, giver)
                if other is None:
                    continue
                toggled += 1
                tracker = Tracker(bystander, players)
                for tagged in state.round_log:
                    if tagged.visible(bystander):
                        tracker.update(tagged.event)
                knew = any(tracker.known.get(j) == giver for j in JOKERS)
                a, b = copy.deepcopy(state), other
                for step in (action, Discard(0)):
                    seen = [[t.event for t in GAME.apply(x, step) if t.visible(bystander)]
                            for x in (a, b)]
                    assert seen[0] == seen[1], f"seed {seed}: {step} shows seat {bystander}" \
                        f" whether seat {giver} had two Jokers:\n{seen[0]}\n{seen[1]}"
                    assert GAME.observe(a, bystander) == GAME.observe(b, bystander)
                    if isinstance(step, ClaimJoker) and knew and gift_public:
                        received = [[c for c in x.hands[seat] if c.is_joker] for x in (a, b)]
                        assert received[0] == received[1], f"seed {seed}: seat {seat} got " \
                            f"{received} although seat {bystander} knew a Joker of seat {giver}"
            GAME.apply(state, action)
    assert toggled >= len(seeds) // 3


# -- the two-card method -----------------------------------------------------------
def test_two_card_gift_must_be_kept_and_recipient_discards_a_previous_card() -> None:
    s = Script(4, [deal_order(4, "TH 9D 9C 9S 5C")], rounds=1)
    s.do(Draw())
    hand = s.state.hands[0]
    assert hand == cards("AH 2H 3H TH")
    two = Two(give_index=1, keep_index=2, recipient=1)  # 2H + 3H = 5
    assert two in s.legal() and Two(1, 2, 0) not in s.legal() and Two(0, 1, 1) not in s.legal()
    events = s.do(two)
    assert events == [TwoCardExchange(0, 1, C("5C"), tuple(cards("2H 3H")), C("2H"))]
    assert s.state.hands[0] == cards("AH 3H 5C TH")
    assert s.to_act == 1 and s.state.phase is Phase.GIFT_DISCARD
    obs = GAME.observe(s.state, 1)
    assert obs.hand == tuple(cards("AD 2D 3D 9D")) and obs.gift == C("2H")
    assert obs.hand_sizes == (4, 5, 4, 4) and GAME.observe(s.state, 2).gift is None
    assert s.legal() == [Discard(i) for i in range(4)]  # the gift itself cannot go (R8)
    with pytest.raises(IllegalActionError):
        GAME.apply(s.state, Discard(4))
    events = s.do(Discard(3))
    assert events == [GiftDiscarded(1, None)] and GiftDiscarded(1, C("9D")) in s.seen_by(1)
    assert s.state.hands[1] == cards("AD 2H 2D 3D") and s.state.used == cards("9D")
    assert s.to_act == 0 and GAME.observe(s.state, 0).phase is Phase.POST_MOVE


def test_hidden_gift_is_known_only_to_giver_and_recipient() -> None:
    s = Script(4, [deal_order(4, "TH 9D 9C 9S 5C")], rounds=1, two_card_gift_public=False)
    s.do(Draw(), Two(2, 1, 3))
    public_form = TwoCardExchange(0, 3, C("5C"), tuple(cards("2H 3H")), None)
    private_form = TwoCardExchange(0, 3, C("5C"), tuple(cards("2H 3H")), C("3H"))
    for seat, expected in ((0, private_form), (1, public_form), (2, public_form),
                           (3, private_form)):
        assert s.seen_by(seat)[-1] == expected


# -- trios, folds, survivors ------------------------------------------------------
def test_claimed_trio_scores_two_and_shown_trio_three() -> None:
    claimed = Script(4, [deal_order(4, WINNING_DECK)], rounds=1)
    claimed.do(Draw(), Swap(0), EndTurn())
    claimed.pass_turns(3)
    events = claimed.do(Draw(), Swap(0), ClaimTrio())
    assert events[-2] == LeftRound(0, LeaveReason.CLAIMED_TRIO, tuple(cards("3H TH JH QH")), 2)
    assert claimed.state.status[0] is Status.TRIO and claimed.to_act == 1

    shown = Script(4, [deal_order(4, WINNING_DECK)], rounds=1)
    shown.do(Draw(), Swap(0), EndTurn())
    shown.pass_turns(3)
    shown.do(Draw(), Swap(0), EndTurn())
    shown.pass_turns(3)
    assert ShowTrio() in shown.legal()
    events = shown.do(ShowTrio())
    assert events[0] == LeftRound(0, LeaveReason.TRUE_TRIO, tuple(cards("3H TH JH QH")), 3)
    assert shown.state.round_points == [3, 0, 0, 0]


def test_folds_and_a_survivors_win() -> None:
    s = Script(3, [deal_order(3, "TH 9D 9C 4S 5S 6S")], rounds=1)
    s.pass_turns(3)
    assert s.do(Fold()) == [LeftRound(0, LeaveReason.FOLD, tuple(cards("AH 2H 3H TH")), 1),
                            TurnEnded(0, 4)]
    events = s.do(Fold())
    assert events == [
        LeftRound(1, LeaveReason.FOLD, tuple(cards("AD 2D 3D 9D")), 1),
        RoundWon(2, WinReason.SURVIVOR, (), 6),
        RoundEnded(0, RoundEnd.WON, (1, 1, 6), (1, 1, 6), ()),
        MatchEnded((1, 1, 6), (2, 2, 1)),
    ]


def test_a_failed_kill_can_leave_its_target_as_survivor() -> None:
    s = Script(3, [deal_order(3, "TH 9D 9C 4S 5S 6S")], rounds=1)
    s.pass_turns(3)
    s.do(Fold())
    events = s.do(Kill(2))
    assert events[:3] == [
        KillAttempt(1, 2, tuple(cards("AC 2C 3C 9C")), False),
        LeftRound(1, LeaveReason.KILL_FAILED, tuple(cards("AD 2D 3D 9D")), -4),
        RoundWon(2, WinReason.SURVIVOR, (), 6),
    ]
    assert GAME.outcome(s.state).scores == (1, -4, 6)  # type: ignore[union-attr]


# -- the deck, the turn cap, false claims --------------------------------------------
def test_used_pile_is_reshuffled_when_the_deck_runs_out_and_turn_cap_ends_the_round() -> None:
    first = deal_order(4, "TH 9D 9C 9S")
    drawn = first[4:]
    assert len(drawn) == 38
    reshuffled = list(reversed(drawn))  # the second stacked order: the used pile, reversed
    s = Script(4, [first, reshuffled], rounds=1, max_turns_per_round=50)
    s.pass_turns(38)
    assert len(s.state.deck) == 0 and s.state.used == drawn
    events = s.do(Draw())
    assert events == [UsedPileShuffled(38), Drew(2, reshuffled[0])]
    s.do(Reject(), EndTurn())
    assert len(s.state.deck) + len(s.state.used) == 38
    s.pass_turns(11)
    round_end = [e for e in s.seen_by(0) if isinstance(e, RoundEnded)]
    assert round_end == [RoundEnded(0, RoundEnd.TURN_CAP, (0, 0, 0, 0), (0, 0, 0, 0), ())]
    assert GAME.outcome(s.state).ranks == (1, 1, 1, 1)  # type: ignore[union-attr]


def test_false_true_win_claim_is_an_option() -> None:
    s = Script(4, [deal_order(4, WINNING_DECK)], rounds=1)
    s.pass_turns(4)
    assert ShowTrueWin() not in s.legal()
    s = Script(4, [deal_order(4, WINNING_DECK)], rounds=1, allow_false_claims=True)
    s.pass_turns(4)
    events = s.do(ShowTrueWin())
    assert events[0] == FalseWinShown(0, tuple(cards("AH 2H 3H TH")))
    assert s.to_act == 1 and s.state.round_points == [0, 0, 0, 0]


def test_reveal_hands_at_round_end_option() -> None:
    s = Script(4, [deal_order(4, WINNING_DECK)], rounds=1, reveal_hands_at_round_end=True)
    heart_run(s)
    ended = s.do(ClaimWin())[1]
    assert isinstance(ended, RoundEnded)
    assert ended.hands[0] == tuple(cards("TH JH QH KH")) and ended.hands[3] == tuple(
        cards("AS 2S 3S 9S"))


# -- a match to 31, starter rotation ---------------------------------------------
def test_match_reaches_31_with_starter_rotating_backwards() -> None:
    rounds = 13
    orders = [deal_order(4, "") for _ in range(rounds)]
    s = Script(4, orders)
    starters = []
    expected = [0, 0, 0, 0]
    for r in range(rounds):
        starter = s.state.starter
        starters.append(starter)
        assert s.to_act == starter
        s.pass_turns(4)  # everyone's first turn is a draw
        for k in range(3):  # starter, then the next two fold; the last seat survives
            s.do(Fold())
            expected[(starter + k) % 4] += 1
        expected[(starter - 1) % 4] += 6
        ends = [e for e in s.seen_by(0) if isinstance(e, RoundEnded)]
        assert ends[-1].round_index == r and list(ends[-1].totals) == expected
    assert starters == [0, 3, 2, 1] * 3 + [0]
    assert expected == [28, 28, 28, 33]
    assert s.seen_by(1)[-1] == MatchEnded((28, 28, 28, 33), (2, 2, 2, 1))
    outcome = GAME.outcome(s.state)
    assert outcome is not None and outcome.ranks == (2, 2, 2, 1)
    assert GAME.observe(s.state, 2).previous_rounds[0] == (1, 1, 1, 6)


# -- options and refusals ----------------------------------------------------------
def test_options_are_validated() -> None:
    assert GAME.parse_options(4)["target_score"] == 31
    assert GAME.parse_options(3, {"rounds": "2"})["rounds"] == 2
    with pytest.raises(OptionError, match="max_turns_per_round"):
        GAME.parse_options(4, {"max_turns_per_round": 10})
    with pytest.raises(OptionError, match="rounds"):
        GAME.parse_options(4, {"rounds": 0})
    with pytest.raises(OptionError, match="3 to 4 players"):
        GAME.parse_options(5)


def test_bad_actions_leave_the_state_untouched() -> None:
    s = Script(4, [deal_order(4, WINNING_DECK)], rounds=1)
    before = GAME.observe(s.state, 0)
    with pytest.raises(InvalidActionError):
        GAME.apply(s.state, "draw")  # type: ignore[arg-type]
    with pytest.raises(IllegalActionError):
        GAME.apply(s.state, Fold())  # not on the first turn
    with pytest.raises(IllegalActionError):
        GAME.apply(s.state, Swap(0))
    assert GAME.observe(s.state, 0) == before


# -- hidden information with the variant options -------------------------------------
@pytest.mark.parametrize("options", [
    {"two_card_gift_public": False},
    {"allow_false_claims": True, "reveal_hands_at_round_end": True},
])
def test_hidden_information_with_options(options: dict[str, Any]) -> None:
    compared = 0
    for seed in range(3):
        compared += suite.hidden_information(GAME, seed, players=3 + seed % 2,
                                             options={**options, "rounds": 2})
    assert compared > 0


# -- invariants (rules section 11) over thousands of random games ----------------------
POINTS = {11, 10, 6, 5, 3, 2, 1, 0, -4}


def check_random_game(players: int, seed: int, options: dict[str, Any]) -> int:
    state = GAME.new(players, seed, options)
    policy = random.Random(seed)
    full = Counter(standard_deck(1, jokers=2))
    rounds_seen = 0
    round_log: list[Any] = [t.event for t in state.round_log]

    def check_round_start() -> None:
        for hand in state.hands:
            assert len(hand) == 4 and not is_winning(hand) and not is_trio(hand)
        assert len(state.deck) == (38 if players == 4 else 42) and not state.used

    check_round_start()
    while (seat := GAME.to_act(state)) is not None:
        assert Counter(GAME.cards_in_play(state)) == full
        active = [s for s in range(players) if state.status[s] is Status.ACTIVE]
        assert len(active) >= 2
        phase = state.phase
        sizes = [len(h) for h in state.hands]
        if phase in (Phase.TURN_START, Phase.POST_MOVE, Phase.DRAWN):
            assert sizes == [4] * players
        elif phase is Phase.GIFT_DISCARD:
            assert sizes == [4] * players and state.gift_card is not None
        elif phase is Phase.JOKER_DISCARD:
            assert sizes == [5 if s == seat else 4 for s in range(players)]
        if phase is Phase.TURN_START:
            assert len(state.deck) + len(state.used) == 54 - 4 * players
            assert state.drawn is None
        for hand in state.hands:
            assert not (is_winning(hand) and is_trio(hand))
        legal = list(GAME.legal_actions(state))
        action = policy.choice(legal)
        if phase is Phase.TURN_START and not state.had_turn[seat]:
            assert action == Draw()
        if isinstance(action, Kill):
            assert state.status[action.target] is Status.ACTIVE and not state.immune[action.target]
            assert action.target != seat
        events = [t.event for t in GAME.apply(state, action)]
        for event in events:
            round_log.append(event)
            if isinstance(event, RoundEnded):
                rounds_seen += 1
                check_round(round_log, event, players)
                round_log = []
            if isinstance(event, RoundStarted):
                round_log = [event]
        if any(isinstance(e, RoundStarted) for e in events):
            check_round_start()
    outcome = GAME.outcome(state)
    assert outcome is not None and sum(outcome.scores) == sum(
        sum(r) for r in state.previous_rounds)
    return rounds_seen


def check_round(log: list[Any], end: RoundEnded, players: int) -> None:
    scorers = [e.seat for e in log if isinstance(e, (LeftRound, RoundWon))]
    assert len(scorers) == len(set(scorers)), "a seat scored twice in a round"
    wins = [e for e in log if isinstance(e, RoundWon)]
    if end.reason is RoundEnd.WON:
        assert len(wins) == 1
    else:
        assert not wins
    assert all(p in POINTS for p in end.round_points)
    for e in log:
        if isinstance(e, (LeftRound, RoundWon)):
            assert end.round_points[e.seat] == e.points


@pytest.mark.parametrize("players", [3, 4])
def test_invariants_hold_over_thousands_of_random_games(players: int) -> None:
    rounds = 0
    variants: list[dict[str, Any]] = [
        {"rounds": 1},
        {"rounds": 1, "two_card_gift_public": False, "allow_false_claims": True},
    ]
    seeds = fuzz.seeds(250)
    for seed in seeds:
        rounds += check_random_game(players, seed, variants[seed % 2])
    for seed in fuzz.seeds(5):
        rounds += check_random_game(players, 10_000 + seed, {"max_turns_per_round": 50})
    assert rounds >= len(seeds)


def test_random_matches_reach_the_target() -> None:
    for seed in range(20):
        trace = suite.play_random(GAME, 4, seed, check=False)
        ended = [t.event for t in trace.events if isinstance(t.event, MatchEnded)]
        assert len(ended) == 1 and max(ended[0].totals) >= 31
        assert sum(isinstance(t.event, Rejected) for t in trace.events) > 0


def test_a_hidden_card_swapped_away_and_a_joker_refill_do_not_reach_other_seats() -> None:
    """Two deals differing only in seat 2's hidden card (later discarded unseen), in the
    card it draws secretly as Joker giver, and in the deck order behind them."""
    views = []
    for hidden, refill in (("9C", "8S"), ("8C", "7S")):
        front = f"TH 9D {hidden} X1 4S 5S 5C 6S {refill}"
        s = Script(4, [deal_order(4, front)], rounds=1)
        s.pass_turns(2)
        s.do(Draw(), Swap(3), EndTurn())  # seat 2 swaps its hidden card for 5C
        s.pass_turns(1)
        s.do(ClaimJoker(3))  # seat 3 gives X1 and draws the refill secretly
        s.do(Discard(0))
        views.append((s.seen_by(1), GAME.observe(s.state, 1), s.seen_by(0)))
    assert views[0] == views[1]


# -- the heuristic bot --------------------------------------------------------------
def test_heuristic_bot_beats_random_bots() -> None:
    from bots.kill import KillBot
    from bots.random_bot import RandomBot
    from sdk.local import play_local

    matches, players = 40, 4
    ranks, random_ranks, wins = [], [], 0
    for m in range(matches):
        seat = m % players
        bots = [KillBot() if s == seat else RandomBot(seed=1000 * m + s) for s in range(players)]
        result = play_local("kill", bots, seed=m)
        ranks.append(result.ranks[seat])
        random_ranks += [r for s, r in enumerate(result.ranks) if s != seat]
        wins += result.ranks[seat] == 1
    assert sum(ranks) / matches <= 1.3
    assert sum(random_ranks) / len(random_ranks) >= 2.5
    assert wins >= 0.8 * matches


# -- rules without a scripted test before the review -------------------------------------
def three_folds(s: Script) -> None:
    """Everyone draws once, then the starter and the next two fold: the last seat survives."""
    s.pass_turns(s.state.players)
    for _ in range(s.state.players - 1):
        s.do(Fold())


def test_second_round_deals_from_the_new_starter_and_rounds_ignore_the_target() -> None:
    """Rules 4.2/4.4: round 2 starts with seat 3 (starter - 1), which gets the first hidden
    card; 6 (rounds option): with rounds=2 the match goes on although a total reached 1."""
    s = Script(4, [deal_order(4, ""), deal_order(4, "9S TH 9D 9C")], rounds=2, target_score=1)
    three_folds(s)
    assert s.state.totals == [1, 1, 1, 6] and s.to_act == 3
    assert s.state.round_index == 1 and s.state.starter == 3
    assert [s.state.hands[k][-1] for k in (3, 0, 1, 2)] == cards("9S TH 9D 9C")
    assert s.state.status == [Status.ACTIVE] * 4 and s.state.had_turn == [False] * 4
    assert s.state.round_points == [0] * 4 and s.state.used == [] and len(s.state.deck) == 38
    assert s.legal() == [Draw()]
    assert RoundStarted(1, 3, fixed_cards(4), 38) in s.seen_by(0)
    three_folds(s)  # seats 3, 0, 1 fold; seat 2 survives
    assert GAME.outcome(s.state).scores == (2, 2, 7, 7)  # type: ignore[union-attr]
    assert GAME.outcome(s.state).ranks == (3, 3, 1, 1)  # type: ignore[union-attr]


def test_max_rounds_ends_a_target_match() -> None:
    s = Script(4, [deal_order(4, "")], max_rounds=1)
    three_folds(s)
    assert s.to_act is None and s.seen_by(0)[-1] == MatchEnded((1, 1, 1, 6), (2, 2, 2, 1))


def test_joker_refill_from_an_empty_deck_reshuffles_the_used_pile_first() -> None:
    """Rules 5.6: the giver's refill is a draw; with the deck empty the used pile is
    shuffled into a new deck first, and the refill stays the giver's secret."""
    first = deal_order(4, "TH 9D 9C X1")
    reshuffled = list(reversed(first[4:]))
    s = Script(4, [first, reshuffled], rounds=1)
    s.pass_turns(38)
    assert s.to_act == 2 and s.state.deck == [] and len(s.state.used) == 38
    s.do(ClaimJoker(3))
    assert s.seen_by(0)[-3:] == [JokerClaimed(2, 3, tuple(cards("AC 2C 3C 9C")), True, None),
                                 UsedPileShuffled(38), JokerRefill(3, None)]
    assert JokerRefill(3, reshuffled[0]) in s.seen_by(3)
    assert JokerRefill(3, reshuffled[0]) not in s.seen_by(0) + s.seen_by(1) + s.seen_by(2)
    assert reshuffled[0] in s.state.hands[3] and len(s.state.deck) == 37 and s.state.used == []
    s.do(Discard(0))
    assert s.to_act == 3 and len(s.state.deck) + len(s.state.used) == 38


def test_an_immune_seat_cannot_be_killed_but_can_receive_a_two_card_gift() -> None:
    """Rules 5.2: the recipient r may be immune; 5.1: kill(t) needs t not immune."""
    s = Script(4, [deal_order(4, JOKER_DECK + " 5C")], rounds=1)
    s.pass_turns(4)
    s.do(ClaimJoker(2), Discard(1))  # seat 0 takes X1, discards AH, is immune
    assert s.to_act == 1 and Kill(0) not in s.legal()
    s.do(Draw())
    assert s.state.drawn == C("5C") and Two(1, 2, 0) in s.legal()  # 2D + 3D = 5
    s.do(Two(1, 2, 0))
    assert s.to_act == 0 and s.state.phase is Phase.GIFT_DISCARD and s.state.gift_card == C("2D")
    assert s.legal() == [Discard(i) for i in range(4)]
    s.do(Discard(0))  # seat 0 discards X1 from its four previous cards
    assert s.state.hands[0] == cards("2H 2D 3H TH") and s.state.immune[0]
    assert s.to_act == 1 and GAME.observe(s.state, 1).phase is Phase.POST_MOVE


def test_a_re_deal_keeps_what_hand_positions_name() -> None:
    # a Two names the cards it shows by their places in the hand: a re-deal that sorted the
    # hand again moved the seat's public A-2-3 under the same action (found by Hypothesis)
    from arena.games import get_game

    suite.hidden_information(get_game("kill"), 420, seat=1, players=3, budget=150, offset=44)


@pytest.mark.parametrize("gift_public", [True, False])
def test_told_tags_every_event_as_the_engine_does(gift_public: bool) -> None:
    """What a seat saw of an event, retold (:func:`arena.games.kill.told`, the sampler's log),
    is the engine's own tagging: every event with a secret comes as its form without it to the
    others then its full form to the seats shown it, and every other event to all."""
    told_kinds: Counter[str] = Counter()
    for seed in range(12):
        players = 3 + seed % 2
        state = GAME.new(players, seed, {"two_card_gift_public": gift_public,
                                         "target_score": 11})
        tagged = list(GAME.opening_events(state))
        rng = random.Random(seed)
        while GAME.to_act(state) is not None:
            tagged += GAME.apply(state, rng.choice(list(GAME.legal_actions(state))))
        at = 0
        while at < len(tagged):
            event = tagged[at].event
            if tagged[at].visible_to is None:
                assert told(event, players, gift_public) == [tagged[at]], event
                at += 1
                continue
            full = tagged[at + 1]  # the form without the secret, then the full one
            assert told(full.event, players, gift_public) == tagged[at:at + 2], full.event
            told_kinds[type(full.event).__name__] += 1
            at += 2
    assert set(told_kinds) >= {"Dealt", "Swapped", "GiftDiscarded", "JokerDiscarded",
                               "JokerRefill", "JokerClaimed"} | (set() if gift_public
                                                                  else {"TwoCardExchange"})
