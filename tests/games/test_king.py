"""King: scripted games from docs/games/king.md, and its invariants over random games."""

from __future__ import annotations

import dataclasses
from collections import Counter
from typing import Any

import pytest

from arena.games.base import IllegalActionError, OptionError, fast_constructor, public
from arena.games.cards import Card, Suit, cards
from arena.games.king import (
    GAME,
    HAND_TOTALS,
    KING_OF_HEARTS,
    Accept,
    AuctionClosed,
    BeneficiaryChose,
    Bid,
    BidMade,
    CardPlayed,
    CardsDealt,
    Choice,
    ChooseTrump,
    ContractSet,
    DeclareDown,
    DeclareUp,
    Decline,
    Direction,
    FirstDealerDrawn,
    Forfeit,
    HandKind,
    HandScored,
    HandStarted,
    MatchEnded,
    Mode,
    Observation,
    OpenAuction,
    Pass,
    Phase,
    Play,
    State,
    TrickTaken,
    Ultimatum,
)
from arena.match import conformance as suite
from tests import fuzz
from tests.games.stacked import new_stacked

RANKS = "23456789TJQKA"
HEART_LEAD_RULE = (HandKind.NO_HEARTS, HandKind.NO_KING_OF_HEARTS, HandKind.QUICK_HEARTS)
KING_OF_HEARTS_RULE = (HandKind.NO_KING_OF_HEARTS, HandKind.QUICK_HEARTS)
SUITED = {0: "S", 1: "H", 2: "D", 3: "C"}


def deck_for(dealer: int, hands: dict[int, str]) -> list[Card]:
    """The shuffled deck that deals ``hands`` (13 card codes per seat): dealer's left first."""
    deck: list[Card] = []
    for k in range(4):
        hand = cards(hands[(dealer + 1 + k) % 4])
        assert len(hand) == 13
        deck += hand
    assert len(set(deck)) == 52
    return deck


def suited(dealer: int) -> list[Card]:
    """Seat 0 holds every spade, 1 every heart, 2 every diamond, 3 every club."""
    return deck_for(dealer, {s: " ".join(r + suit for r in RANKS) for s, suit in SUITED.items()})


def act(state: State, action: Any) -> list[Any]:
    assert action in GAME.legal_actions(state), (action, GAME.legal_actions(state))
    return [t.event for t in GAME.apply(state, action)]


def play(state: State, codes: str) -> list[Any]:
    events: list[Any] = []
    for card in cards(codes):
        events += act(state, Play(card))
    return events


def play_out(state: State) -> list[Any]:
    """Play the current hand to its end, each seat playing its first legal card."""
    hand = state.hand_no
    events: list[Any] = []
    while state.hand_no == hand and not state.over:
        events += act(state, GAME.legal_actions(state)[0])
    return events


def scored(events: list[Any]) -> HandScored:
    return next(e for e in events if isinstance(e, HandScored))


def test_whole_match_six_negative_hands_contracts_auction_ultimatum_sums_to_zero() -> None:
    orders = [suited(h % 4) for h in range(10)]
    state = new_stacked(GAME, 4, orders, {"first_dealer": 0})
    assert (state.dealer, state.kind, GAME.to_act(state)) == (0, HandKind.NO_TRICKS, 0)

    # N1..N6: the dealer leads his own suit every trick and takes all 52 cards.
    expected = [(0, -260), (1, -260), (2, -200), (3, -240), (0, -160), (1, -180)]
    for h, (seat, points) in enumerate(expected):
        assert state.hand_no == h and state.dealer == h % 4 and GAME.to_act(state) == h % 4
        if state.kind is HandKind.NO_KING_OF_HEARTS:
            act(state, Play(Card.parse("2S")))
            # The heart holder is void in spades: K♥ is forced at once (K5).
            assert GAME.legal_actions(state) == [Play(KING_OF_HEARTS)]
        score = scored(play_out(state))
        assert score.kind is HandKind(h + 1)
        assert score.scores == tuple(points if s == seat else 0 for s in range(4))
        assert sum(score.scores) == HAND_TOTALS[score.kind]
    assert tuple(state.totals) == (-420, -440, -200, -240)
    assert sum(state.totals) == -1300

    # Hand 6, Beneficiary 2 (diamonds): up with hearts trump. Seat 1 trumps the
    # first diamond lead, then leads hearts and takes every trick.
    assert (state.kind, state.phase, GAME.to_act(state)) == (HandKind.POSITIVE, Phase.BEN_CHOICE, 2)
    assert Forfeit() not in GAME.legal_actions(state)  # forfeit_without_auction is off
    events = act(state, DeclareUp(Suit.HEARTS))
    assert events == [ContractSet(2, Mode.UP, Suit.HEARTS, None, 0)]
    events = play(state, "2D 2C 2S 2H")
    assert events[-1] == TrickTaken(0, 1, tuple(cards("2D 2C 2S 2H")), 25)
    assert GAME.to_act(state) == 1
    assert scored(play_out(state)).scores == (0, 325, 0, 0)

    # Hand 7, Beneficiary 3 (clubs) plays down and takes every trick: 325 - 13 * 75.
    act(state, DeclareDown())
    assert state.hand_scores == [325, 325, 325, 325]
    assert scored(play_out(state)).scores == (325, 325, 325, -650)

    # Hand 8, Beneficiary 0: an auction with a preference match.
    act(state, OpenAuction())
    assert GAME.to_act(state) == 1
    assert act(state, Bid(1, Direction.UP)) == [BidMade(1, 1, Direction.UP, 25, False)]
    act(state, Bid(3, Direction.UP))                    # seat 2
    assert Bid(1, Direction.DOWN) not in GAME.legal_actions(state)  # 1 down = 3 up: not higher
    assert Bid(3, Direction.UP) not in GAME.legal_actions(state)    # seat 3 may not match 2
    act(state, Bid(4, Direction.UP))                    # seat 3
    assert GAME.to_act(state) == 1
    assert act(state, Bid(4, Direction.UP)) == [BidMade(1, 4, Direction.UP, 100, True)]
    assert state.holder == 1
    act(state, Pass())                                  # seat 2
    assert GAME.to_act(state) == 3
    assert Bid(4, Direction.UP) not in GAME.legal_actions(state)
    events = act(state, Pass())                         # seat 3: only the holder is left
    assert events[-1] == AuctionClosed(1, 4, Direction.UP)
    assert (state.phase, GAME.to_act(state)) == (Phase.BEN_RESPONSE, 0)
    assert Forfeit() not in GAME.legal_actions(state)   # 4 up is worth more than 75
    act(state, Accept())
    assert (state.phase, GAME.to_act(state)) == (Phase.WINNER_TRUMP, 1)
    assert act(state, ChooseTrump(Suit.HEARTS)) == [ContractSet(1, Mode.UP, Suit.HEARTS, 1, 100)]
    assert GAME.to_act(state) == 0  # the dealer leads, whoever declared
    # Seat 1 takes all 13 tricks (+325) and pays 100 to the Beneficiary.
    assert scored(play_out(state)).scores == (100, 225, 0, 0)

    # Hand 9, Beneficiary 1: ultimatum; seat 2 passes, seat 3 takes 8 up with clubs.
    act(state, Ultimatum())
    assert GAME.to_act(state) == 2
    assert GAME.legal_actions(state) == [Bid(8, Direction.UP), Pass()]
    act(state, Pass())
    act(state, Bid(8, Direction.UP))
    assert (state.phase, GAME.to_act(state)) == (Phase.WINNER_TRUMP, 3)
    act(state, ChooseTrump(Suit.CLUBS))
    events = play_out(state)
    assert scored(events).scores == (0, 200, 0, 125)
    assert events[-1] == MatchEnded((5, 635, 125, -765), (3, 1, 2, 4))
    assert sum(state.totals) == 0
    assert GAME.to_act(state) is None and GAME.legal_actions(state) == ()
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.ranks == (3, 1, 2, 4)


def test_quick_match_forfeit_failed_ultimatum_down_bid_and_declined_auction() -> None:
    orders = [suited(h % 4) for h in range(7)]
    state = new_stacked(GAME, 4, orders, {"first_dealer": 0, "quick": True})
    for seat, kind, points in [(0, HandKind.QUICK_TRICKS_AND_LAST, -440),
                               (1, HandKind.QUICK_HEARTS, -420),
                               (2, HandKind.QUICK_QUEENS_AND_MEN, -440)]:
        assert state.kind is kind
        score = scored(play_out(state))
        assert score.scores == tuple(points if s == seat else 0 for s in range(4))
    # Hand 3, Beneficiary 3: nobody bids, B forfeits: 4-3-3-3 (K10).
    act(state, OpenAuction())
    for _ in range(3):
        events = act(state, Pass())
    assert events[-1] == AuctionClosed(None, 0, None)
    assert GAME.legal_actions(state) == [Decline(), Forfeit(), Ultimatum()]
    assert scored(act(state, Forfeit())).scores == (75, 75, 75, 100)
    # Hand 4, Beneficiary 0: ultimatum, all pass: B plays down, no payment.
    act(state, Ultimatum())
    for _ in range(2):
        act(state, Pass())
    assert act(state, Pass())[-1] == ContractSet(0, Mode.DOWN, None, None, 0)
    assert scored(play_out(state)).scores == (-650, 325, 325, 325)
    # Hand 5, Beneficiary 1: 2 up, then 1 down (75); B accepts; played down, W pays 75.
    act(state, OpenAuction())
    act(state, Bid(2, Direction.UP))    # seat 2
    act(state, Bid(1, Direction.DOWN))  # seat 3
    act(state, Pass())                  # seat 0
    act(state, Pass())                  # seat 2
    assert Forfeit() in GAME.legal_actions(state)  # best bid worth 75
    assert act(state, Accept())[-1] == ContractSet(3, Mode.DOWN, None, 3, 75)
    assert scored(play_out(state)).scores == (325, -575, 325, 250)
    # Hand 6, Beneficiary 2: 8 up bid; B declines and plays up no trump himself.
    act(state, OpenAuction())
    act(state, Bid(8, Direction.UP))    # seat 3
    assert GAME.legal_actions(state) == [Pass()]
    act(state, Pass())
    act(state, Pass())
    act(state, Decline())
    assert state.phase is Phase.BEN_CONTRACT
    assert act(state, DeclareUp(None)) == [ContractSet(2, Mode.UP, None, None, 0)]
    assert scored(play_out(state)).scores == (0, 0, 325, 0)
    assert state.over and sum(state.totals) == 0
    assert tuple(state.totals) == (-440 + 75 - 650 + 325, -420 + 75 + 325 - 575,
                                   -440 + 75 + 325 + 325 + 325, 100 + 325 + 250)


def test_forced_king_of_hearts_and_early_stop() -> None:
    n5 = deck_for(0, {0: "2S 4S 5S 6S 7S 8S 9S TS JS QS KS 2D 3D",
                      1: "AS 4D 5D 6D 7D 8D 9D TD JD QD KD AD 2C",
                      2: " ".join(r + "H" for r in RANKS),
                      3: "3S 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC"})
    orders = [suited(h % 4) for h in range(4)] + [n5, suited(1)]
    state = new_stacked(GAME, 4, orders, {"first_dealer": 0, "play_out_all_tricks": False})
    for _ in range(4):
        play_out(state)
    assert state.kind is HandKind.NO_KING_OF_HEARTS and GAME.to_act(state) == 0
    act(state, Play(Card.parse("2S")))
    assert GAME.legal_actions(state) == [Play(Card.parse("AS"))]
    act(state, Play(Card.parse("AS")))
    assert GAME.legal_actions(state) == [Play(KING_OF_HEARTS)]
    with pytest.raises(IllegalActionError):
        GAME.apply(state, Play(Card.parse("2H")))
    act(state, Play(KING_OF_HEARTS))
    events = act(state, Play(Card.parse("3S")))
    # K♥ is gone: the hand stops after one trick (score unchanged by stopping).
    assert events[:2] == [CardPlayed(3, Card.parse("3S")),
                          TrickTaken(0, 1, tuple(cards("2S AS KH 3S")), -160)]
    assert scored(events).scores == (0, -160, 0, 0)
    assert isinstance(events[3], HandStarted) and events[3].kind is HandKind.NO_LAST


def test_heart_lead_rule_and_king_of_hearts_lead() -> None:
    # N2 dealt so that the dealer (seat 1) holds hearts and other suits.
    n2 = deck_for(1, {0: "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS",
                      1: "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH 2D",
                      2: "AH 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
                      3: " ".join(r + "C" for r in RANKS)})
    state = new_stacked(GAME, 4, [suited(0), n2], {"first_dealer": 0})
    play_out(state)
    assert state.kind is HandKind.NO_HEARTS and GAME.to_act(state) == 1
    assert GAME.legal_actions(state) == [Play(Card.parse("2D"))]  # may not lead ♥
    with pytest.raises(IllegalActionError):
        GAME.apply(state, Play(Card.parse("2H")))
    play(state, "2D 3D 2C 2S")
    # Seat 2 won with 3D and holds AH and diamonds: it may not lead ♥ either.
    assert GAME.to_act(state) == 2
    assert Play(Card.parse("AH")) not in GAME.legal_actions(state)


def test_first_dealer_by_king_of_hearts_deal() -> None:
    first = cards("2S 3S KH") + [c for c in suited(0) if c not in cards("2S 3S KH")]
    state = new_stacked(GAME, 4, [first, suited(2)])
    assert state.first_dealer == 2 and state.dealer == 2 and GAME.to_act(state) == 2
    obs = GAME.observe(state, 0)
    assert obs.first_dealer_draw == tuple(cards("2S 3S KH"))
    # The face-up cards are announced to everyone before the first hand starts.
    opening = GAME.opening_events(state)
    assert opening[0] == public(FirstDealerDrawn(tuple(cards("2S 3S KH")), 2))
    assert opening[1].event == HandStarted(0, HandKind.NO_TRICKS, 2)
    fixed = new_stacked(GAME, 4, [suited(1)], {"first_dealer": 1})
    assert not any(isinstance(t.event, FirstDealerDrawn) for t in GAME.opening_events(fixed))
    assert obs.hand == tuple(cards(" ".join(r + "S" for r in RANKS)))
    assert obs.hand_sizes == (13, 13, 13, 13)


def test_options_are_validated() -> None:
    with pytest.raises(OptionError, match="first_dealer"):
        GAME.parse_options(4, {"first_dealer": 4})
    with pytest.raises(OptionError, match="quick"):
        GAME.parse_options(4, {"quick": "maybe"})
    with pytest.raises(OptionError, match="players"):
        GAME.parse_options(3)
    assert GAME.parse_options(4, {"first_dealer": "2"})["first_dealer"] == 2


def test_pass_is_not_final_lets_a_passer_bid_again() -> None:
    orders = [suited(h % 4) for h in range(7)]
    state = new_stacked(GAME, 4, orders, {"first_dealer": 0, "quick": True,
                                         "pass_is_final": False})
    for _ in range(3):
        play_out(state)
    act(state, OpenAuction())      # Beneficiary 3: L1 = 0, L2 = 1, L3 = 2
    act(state, Pass())             # 0
    act(state, Bid(2, Direction.UP))  # 1
    act(state, Pass())             # 2
    assert GAME.to_act(state) == 0
    assert Bid(2, Direction.UP) in GAME.legal_actions(state)  # 0 passed, may match now
    act(state, Bid(2, Direction.UP))
    act(state, Pass())             # 1 (the old holder)
    assert act(state, Pass())[-1] == AuctionClosed(0, 2, Direction.UP)  # 2


# -- invariants over random games --------------------------------------------------
def _check_match(trace: suite.Trace) -> int:
    """Check the King rules on one random match from its full event log; returns hands."""
    start = GAME.new(4, trace.seed, trace.options)  # the first deal has no events
    hands: list[list[Card]] = [list(h) for h in start.hands]
    kind, dealer = start.kind, start.dealer
    trick: list[tuple[int, Card]] = []
    first_play = True
    beneficiaries: list[int] = []
    totals = [0, 0, 0, 0]
    played: Counter[Card] = Counter()
    hands_seen = 0
    for tagged in trace.events:
        ev = tagged.event
        if isinstance(ev, HandStarted):
            kind, dealer, first_play, trick = ev.kind, ev.dealer, True, []
            played = Counter()
            if kind is HandKind.POSITIVE:
                beneficiaries.append(dealer)
        elif isinstance(ev, CardsDealt):
            assert tagged.visible_to == frozenset({ev.seat})
            hands[ev.seat] = list(ev.cards)
        elif isinstance(ev, CardPlayed):
            if first_play:
                assert ev.seat == dealer, "the dealer leads trick 1"
                first_play = False
            hand = hands[ev.seat]
            assert ev.card in hand
            if trick:
                led = trick[0][1].suit
                if ev.card.suit is not led:
                    assert all(c.suit is not led for c in hand), "follow suit"
            elif kind in HEART_LEAD_RULE and ev.card.suit is Suit.HEARTS:
                assert all(c.suit is Suit.HEARTS for c in hand), "♥ lead rule"
            if kind in KING_OF_HEARTS_RULE and KING_OF_HEARTS in hand:
                led_suit = trick[0][1].suit if trick else None
                void = led_suit is not None and all(c.suit is not led_suit for c in hand)
                leading_hearts_only = not trick and all(c.suit is Suit.HEARTS for c in hand)
                if void or led_suit is Suit.HEARTS or leading_hearts_only:
                    assert ev.card == KING_OF_HEARTS, "K♥ forced"
            hand.remove(ev.card)
            played[ev.card] += 1
            trick.append((ev.seat, ev.card))
        elif isinstance(ev, TrickTaken):
            assert len(trick) == 4 and len({s for s, _ in trick}) == 4
            trick = []
        elif isinstance(ev, HandScored):
            assert sum(ev.scores) == HAND_TOTALS[ev.kind], (ev.kind, ev.scores)
            if trace.options["play_out_all_tricks"] and sum(played.values()):
                assert sum(played.values()) == 52 and max(played.values()) == 1
            totals = [t + s for t, s in zip(totals, ev.scores, strict=True)]
            assert list(ev.totals) == totals
            hands_seen += 1
        elif isinstance(ev, MatchEnded):
            assert sum(ev.totals) == 0
    assert sorted(beneficiaries) == [0, 1, 2, 3], "each seat is Beneficiary once"
    assert hands_seen == (7 if trace.options["quick"] else 10)
    return hands_seen


def _check_auction(trace: suite.Trace) -> None:
    """Each accepted call is higher in value, or a same-terms match by a preferred seat."""
    high: tuple[int, int] | None = None  # (value, preference position)
    b = 0
    ultimatum = False
    for tagged in trace.events:
        ev = tagged.event
        if isinstance(ev, HandStarted):
            high, b, ultimatum = None, ev.dealer, False
        elif isinstance(ev, BeneficiaryChose) and ev.choice is Choice.ULTIMATUM:
            ultimatum = True
        elif isinstance(ev, BidMade) and not ultimatum:
            pos = (ev.seat - b - 1) % 4
            assert pos in (0, 1, 2)
            if ev.matched:
                assert high is not None and ev.value == high[0] and pos < high[1]
            else:
                assert high is None or ev.value > high[0]
            high = (ev.value, pos)


@pytest.mark.parametrize("options", [
    {},
    {"quick": True},
    {"pass_is_final": False, "forfeit_without_auction": True},
    {"play_out_all_tricks": False, "quick": True},
])
def test_invariants_on_random_matches(options: dict[str, Any]) -> None:
    hands = 0
    seeds = fuzz.seeds(60)
    for seed in seeds:
        trace = suite.play_random(GAME, 4, seed, options, check=False)
        hands += _check_match(trace)
        _check_auction(trace)
    assert hands >= 4 * len(seeds)


# -- rules checked one by one (review) ----------------------------------------------
def test_negative_penalties_per_trick_and_card() -> None:
    """docs/games/king.md, negative hands: each hand's penalties, and the merged quick hands (K14)."""
    from arena.games.king import penalty

    trick = cards("QH KH JS 2C")  # a heart queen, the heart king, a jack, a low club
    expected = {
        HandKind.NO_TRICKS: (-20, -20),            # -20 a trick, whichever
        HandKind.NO_HEARTS: (-40, -40),            # two hearts
        HandKind.NO_QUEENS: (-50, -50),            # one queen
        HandKind.NO_MEN: (-60, -60),               # K and J
        HandKind.NO_KING_OF_HEARTS: (-160, -160),  # K♥
        HandKind.NO_LAST: (0, -90),                # only tricks 12 and 13
        HandKind.QUICK_TRICKS_AND_LAST: (-20, -110),
        HandKind.QUICK_HEARTS: (-200, -200),       # two hearts -40, K♥ -160 (K♥ costs -180)
        HandKind.QUICK_QUEENS_AND_MEN: (-110, -110),
    }
    for kind, (early, last) in expected.items():
        assert penalty(kind, 0, trick) == early, kind
        assert penalty(kind, 12, trick) == last, kind
    assert penalty(HandKind.NO_LAST, 10, trick) == 0
    assert penalty(HandKind.NO_LAST, 11, trick) == -90   # trick 12
    assert penalty(HandKind.NO_HEARTS, 0, cards("2S 3S 4S 5S")) == 0


def test_king_of_hearts_forced_on_a_heart_lead_and_heart_leads() -> None:
    """§5: ♥ may be led only by a seat holding only ♥; K♥ is forced when ♥ is led (K5)."""
    n5 = deck_for(0, {0: "AS AD 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH",
                      1: "KH AH 3S 4S 5S 6S 7S 2D 3D 4D 5D 6D 7D",
                      2: "2S 8S 9S TS JS QS KS 8D 9D TD JD QD KD",
                      3: " ".join(r + "C" for r in RANKS)})
    orders = [suited(h % 4) for h in range(4)] + [n5, suited(1)]
    state = new_stacked(GAME, 4, orders, {"first_dealer": 0})
    for _ in range(4):
        play_out(state)
    assert state.kind is HandKind.NO_KING_OF_HEARTS and GAME.to_act(state) == 0
    assert GAME.legal_actions(state) == [Play(Card.parse("AS")), Play(Card.parse("AD"))]
    act(state, Play(Card.parse("AS")))
    # Seat 1 can follow spades: K♥ is not forced.
    assert Play(Card.parse("3S")) in GAME.legal_actions(state)
    play(state, "3S 2S 2C")
    play(state, "AD 2D 8D 3C")
    # Seat 0 now holds only hearts and may lead any of them.
    assert GAME.legal_actions(state) == [Play(c) for c in cards("2H 3H 4H 5H 6H 7H 8H 9H TH JH QH")]
    act(state, Play(Card.parse("2H")))
    # ♥ led: seat 1 must play K♥ although it also holds A♥.
    assert GAME.legal_actions(state) == [Play(KING_OF_HEARTS)]
    events = play(state, "KH 9D 4C")
    assert events[-1] == TrickTaken(2, 1, tuple(cards("2H KH 9D 4C")), -160)
    # Seat 1 leads next and may not lead its A♥ (it still holds other suits).
    assert GAME.to_act(state) == 1
    assert Play(Card.parse("AH")) not in GAME.legal_actions(state)
    assert scored(play_out(state)).scores == (0, -160, 0, 0)


def test_a_heart_only_leader_must_lead_the_king_of_hearts_in_q2_but_not_in_n2() -> None:
    # Quick match, dealer 1 of Q2 holds all 13 hearts: K♥ is its only lead (K5).
    state = new_stacked(GAME, 4, [suited(h % 4) for h in range(2)], {"first_dealer": 0,
                                                                     "quick": True})
    play_out(state)
    assert state.kind is HandKind.QUICK_HEARTS and GAME.to_act(state) == 1
    assert GAME.legal_actions(state) == [Play(KING_OF_HEARTS)]
    # Normal match, N2 (no K♥ rule): the same holder may lead any heart.
    state = new_stacked(GAME, 4, [suited(h % 4) for h in range(2)], {"first_dealer": 0})
    play_out(state)
    assert state.kind is HandKind.NO_HEARTS and GAME.to_act(state) == 1
    assert len(GAME.legal_actions(state)) == 13


def test_up_with_trump_no_obligation_to_trump_and_trumps_may_be_led() -> None:
    """§3 and K13: a void seat may discard; trumps may be led; the highest trump wins."""
    up = deck_for(3, {0: "2S 3S 4S 5S 6S 7S 8S 2C 4C 6C 8C TC QC",
                      1: "9S TS JS QS KS AS 3C 5C 7C 9C JC KC AC",
                      2: " ".join(r + "H" for r in RANKS),
                      3: " ".join(r + "D" for r in RANKS)})
    state = new_stacked(GAME, 4, [suited(h % 4) for h in range(3)] + [up],
                             {"first_dealer": 0, "quick": True})
    for _ in range(3):
        play_out(state)
    assert (state.phase, GAME.to_act(state)) == (Phase.BEN_CHOICE, 3)
    act(state, DeclareUp(Suit.SPADES))
    act(state, Play(Card.parse("2D")))
    legal = GAME.legal_actions(state)
    assert Play(Card.parse("2C")) in legal and Play(Card.parse("2S")) in legal  # may discard
    act(state, Play(Card.parse("2S")))
    assert Play(Card.parse("3C")) in GAME.legal_actions(state)  # need not over-trump
    events = play(state, "3C 2H")
    assert events[-1] == TrickTaken(0, 0, tuple(cards("2D 2S 3C 2H")), 25)
    assert Play(Card.parse("8S")) in GAME.legal_actions(state)  # a trump lead
    events = play(state, "8S AS 3H 3D")
    assert events[-1].winner == 1


def test_ultimatum_instead_of_answering_an_auction_and_forfeit_without_auction() -> None:
    orders = [suited(h % 4) for h in range(6)]
    state = new_stacked(GAME, 4, orders, {"first_dealer": 0, "quick": True,
                                         "forfeit_without_auction": True})
    for _ in range(3):
        play_out(state)
    # Hand 3, Beneficiary 3: a 5-up bid stands; B may not forfeit (125 > 75).
    assert Forfeit() in GAME.legal_actions(state)  # the option allows it up front
    act(state, OpenAuction())
    act(state, Bid(5, Direction.UP))   # seat 0
    act(state, Pass())                 # seat 1
    act(state, Pass())                 # seat 2
    assert GAME.legal_actions(state) == [Accept(), Decline(), Ultimatum()]
    # The ultimatum makes the 5-up bid lapse (K11): L1 = 0 speaks first again.
    assert act(state, Ultimatum()) == [BeneficiaryChose(3, Choice.ULTIMATUM)]
    assert (state.phase, GAME.to_act(state), state.high) == (Phase.ULTIMATUM, 0, None)
    act(state, Pass())
    act(state, Pass())
    assert act(state, Pass())[-1] == ContractSet(3, Mode.DOWN, None, None, 0)
    assert scored(play_out(state)).scores == (325, 325, 325, -650)  # no payment
    # Hand 4, Beneficiary 0 forfeits at once: 4-3-3-3, nothing is played.
    events = act(state, Forfeit())
    assert events[0] == BeneficiaryChose(0, Choice.FORFEIT)
    assert scored(events).scores == (100, 75, 75, 75)
    assert not any(isinstance(e, CardPlayed) for e in events)


def test_the_fast_observation_is_the_observation_itself() -> None:
    """King builds its observation with base.fast_constructor: the same value in every
    respect as the dataclass's own constructor makes, and still frozen."""
    state = GAME.new(4, 7, GAME.parse_options(4, None))
    for _ in range(40):
        seat = GAME.to_act(state)
        assert seat is not None
        fast = GAME.observe(state, seat)
        slow = Observation(**{f.name: getattr(fast, f.name) for f in dataclasses.fields(Observation)})
        assert type(fast) is Observation and fast == slow and hash(fast) == hash(slow)
        assert repr(fast) == repr(slow)
        GAME.apply(state, GAME.legal_actions(state)[0])
    with pytest.raises(dataclasses.FrozenInstanceError):
        fast.seat = 3  # type: ignore[misc]
    with pytest.raises(TypeError, match="no frozen dataclass"):
        fast_constructor(type(state))  # a mutable dataclass
