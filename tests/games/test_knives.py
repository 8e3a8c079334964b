"""Knives: scripted games from docs/games/knives.md, and its invariants over random games."""

from __future__ import annotations

from typing import Any

import pytest

from arena.games.base import IllegalActionError, OptionError
from arena.games.knives import (
    GAME,
    JOKER,
    Announced,
    AnnounceSolo,
    Bank,
    Banked,
    BankRevealed,
    BankSeen,
    BankTaken,
    CardPlayed,
    CardsDealt,
    Declare,
    Declared,
    HandScored,
    HandStarted,
    KMode,
    KnivesCard,
    KSuit,
    Leaster,
    MatchEnded,
    Moster,
    NoAnnouncement,
    Pass,
    Passed,
    Phase,
    Pick,
    Picked,
    Play,
    Reveal,
    State,
    TrickTaken,
    band_points,
    kcards,
    stars,
)
from arena.match import conformance as suite
from tests import fuzz
from tests.games.stacked import new_stacked


def deck_for(dealer: int, hands: dict[int, str], bank: str) -> list[KnivesCard]:
    """The deck dealing ``hands`` (6 codes a seat, one at a time from the dealer's left)."""
    parsed = {s: kcards(c) for s, c in hands.items()}
    deck = [parsed[(dealer + 1 + k) % 5][j] for j in range(6) for k in range(5)]
    deck += kcards(bank)
    assert len(set(deck)) == 32
    return deck


def act(state: State, action: Any) -> list[Any]:
    assert action in GAME.legal_actions(state), (action, GAME.legal_actions(state))
    return [t.event for t in GAME.apply(state, action)]


def tagged(state: State, action: Any) -> list[Any]:
    assert action in GAME.legal_actions(state)
    return GAME.apply(state, action)


def play(state: State, codes: str) -> list[Any]:
    events: list[Any] = []
    for card in kcards(codes):
        events += act(state, Play(card))
    return events


def play_out(state: State) -> list[Any]:
    hand = state.hand_no
    events: list[Any] = []
    while state.hand_no == hand and not state.over:
        events += act(state, GAME.legal_actions(state)[0])
    return events


HAND_A = deck_for(0, {0: "MS 3N 5N JC MD 7N", 1: "TC X AN GC JD GD", 2: "JH QS 2N 6N GS JS",
                      3: "KH TS 4N MC QD MH", 4: "GH TD KS QC KD QH"}, "KC TH")
HAND_B = deck_for(1, {2: "X AN 7N 6N 5N GD", 3: "2N GS TS MS JS QS", 4: "3N GC TC MC JC QC",
                      0: "KC TD MD JD QD KD", 1: "GH TH MH JH QH KH"}, "4N KS")
SUITS_DEAL = deck_for(0, {1: "GS TS MS JS QS KS", 2: "GC TC MC JC QC KC", 3: "GD TD MD JD QD KD",
                          4: "GH TH MH JH QH KH", 0: "2N 3N 4N 5N 6N 7N"}, "AN X")


def test_cards_and_stars() -> None:
    from arena.games.knives import DECK
    assert len(DECK) == 32 and len(set(DECK)) == 32
    assert stars(DECK) == 25
    assert [c.code for c in kcards("2N AN GS KH X")] == ["2N", "AN", "GS", "KH", "X"]
    with pytest.raises(ValueError):
        KnivesCard(KSuit.KNIVES, KnivesCard.parse("KS").rank)


def test_banker_hand_shadow_ghost_thieves_joker_then_solo_to_target() -> None:
    state = new_stacked(GAME, 5, [HAND_A, HAND_B], {"first_dealer": 0, "target_score": 6})
    assert (state.phase, GAME.to_act(state)) == (Phase.DECLARE, 0)
    assert GAME.observe(state, 2).hand == tuple(kcards("2N 6N GS JS QS JH"))
    act(state, Declare(KSuit.SPADES))
    assert GAME.legal_actions(state) == [Pick(), Pass(KSuit.CLUBS), Pass(KSuit.DIAMONDS),
                                         Pass(KSuit.HEARTS)]
    assert act(state, Pass(KSuit.HEARTS)) == [Passed(1, KSuit.HEARTS)]
    assert Pass(KSuit.HEARTS) not in GAME.legal_actions(state)
    events = tagged(state, Pick())
    assert events[0].event == Picked(2, KSuit.HEARTS)
    assert [(t.event, t.visible_to) for t in events[1:]] == [
        (BankTaken(2, ()), frozenset({0, 1, 3, 4})),
        (BankTaken(2, tuple(kcards("KC TH"))), frozenset({2}))]
    assert GAME.observe(state, 2).hand == tuple(kcards("2N 6N GS JS QS KC TH JH"))
    assert len(GAME.legal_actions(state)) == 28
    events = tagged(state, Bank(*kcards("GS JS")))
    assert [t.event for t in events if t.visible(0)] == [Banked(2, ())]
    assert [t.event for t in events if t.visible(2)] == [Banked(2, tuple(kcards("GS JS")))]
    # The shadow (GH holder) is seat 4; only seat 4 knows it.
    assert [GAME.observe(state, s).is_shadow for s in range(5)] == [False] * 4 + [True]
    assert GAME.observe(state, 2).banked == tuple(kcards("GS JS"))
    assert GAME.observe(state, 3).banked == ()
    assert GAME.legal_actions(state) == [NoAnnouncement()]  # banker lacks GH: no solo
    assert act(state, NoAnnouncement()) == [Announced(2, False)]
    assert GAME.to_act(state) == 3  # the banker's left leads
    # Trick 1: GH beats its King (V6); the lone Thief TC gives seat 1 the lead (V7).
    events = play(state, "KH GH MS TC JH")
    assert all(GAME.observe(state, s).ghost_played_by == 4 for s in range(5))
    assert events[-1] == TrickTaken(0, 4, tuple(kcards("KH GH MS TC JH")), 4, 1)
    assert GAME.to_act(state) == 1
    # Trick 2: the Joker is led; any card may follow; two Thieves cancel.
    play(state, "X")
    assert len(GAME.legal_actions(state)) == 5  # Joker led: no suit to follow
    events = play(state, "QS TS TD 3N")
    assert events[-1] == TrickTaken(1, 1, tuple(kcards("X QS TS TD 3N")), 2, 1)
    # Trick 3: Knives led; seat 4 is void and discards.
    trick = tuple(kcards("AN 2N 4N KS 5N"))
    assert play(state, "AN 2N 4N KS 5N")[-1] == TrickTaken(2, 1, trick, 4, 1)
    # Trick 4: GC beats KC in the led suit too.
    trick = tuple(kcards("GC KC MC QC JC"))
    assert play(state, "GC KC MC QC JC")[-1] == TrickTaken(3, 1, trick, 6, 1)
    # Trick 5: the banker, void in diamonds, wins with a Knife.
    play(state, "JD 6N")
    with pytest.raises(IllegalActionError):  # seat 3 holds QD: must follow diamonds
        GAME.apply(state, Play(kcards("MH")[0]))
    assert play(state, "QD KD MD")[-1] == TrickTaken(4, 2, tuple(kcards("JD 6N QD KD MD")), 6, 2)
    # Trick 6: a lone Thief does not lead after the last trick.
    events = play(state, "TH MH QH 7N GD")
    assert events[5] == TrickTaken(5, 0, tuple(kcards("TH MH QH 7N GD")), 2, 0)
    # Banker 6 + shadow 4 + banked JS 1 = 11 < 13: each defender +1.
    assert events[6] == HandScored(0, KMode.BANKER, 2, 4, False, tuple(kcards("GS JS")), 11,
                                   (2, 12, 6, 0, 4), (1, 1, 0, 1, 0), (1, 1, 0, 1, 0))
    assert isinstance(events[7], HandStarted) and events[7].dealer == 1

    # Hand B, dealer 1: seat 2 picks diamonds, banks the Ghost and plays solo.
    act(state, Declare(KSuit.DIAMONDS))
    act(state, Pick())
    assert act(state, Bank(*kcards("KS GD")))[0] == Banked(2, ())
    assert GAME.observe(state, 2).is_shadow is False
    assert GAME.legal_actions(state) == [AnnounceSolo(), NoAnnouncement()]
    act(state, AnnounceSolo())
    assert GAME.observe(state, 0).announcement is True
    events = play_out(state)
    scored = next(e for e in events if isinstance(e, HandScored))
    assert (scored.banker, scored.shadow, scored.solo, scored.team_stars) == (2, None, True, 25)
    assert scored.points == (0, 0, 6, 0, 0) and scored.totals == (1, 1, 6, 1, 0)
    assert events[-1] == MatchEnded((1, 1, 6, 1, 0), (2, 2, 1, 2, 5))
    assert state.over and GAME.to_act(state) is None
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.ranks == (2, 2, 1, 2, 5)


def _all_pass(state: State) -> None:
    act(state, Declare(KSuit.SPADES))
    for suit in (KSuit.CLUBS, KSuit.DIAMONDS, KSuit.HEARTS, KSuit.SPADES, KSuit.CLUBS):
        act(state, Pass(suit))
    assert (state.phase, GAME.to_act(state), state.strong) == (Phase.MODE, 0, KSuit.CLUBS)


@pytest.mark.parametrize("mode, points", [(KMode.LEASTER, (0, 2, 2, 2, 2)),
                                          (KMode.MOSTER, (2, 0, 0, 0, 0))])
def test_leaster_and_moster(mode: KMode, points: tuple[int, ...]) -> None:
    state = new_stacked(GAME, 5, [SUITS_DEAL, SUITS_DEAL], {"first_dealer": 0})
    _all_pass(state)
    events = tagged(state, Leaster() if mode is KMode.LEASTER else Moster())
    assert [t.event for t in events if t.visible(0)][1] == BankSeen(0, (JOKER, kcards("AN")[0]))
    assert [t.event for t in events if t.visible(3)][1] == BankSeen(0, ())
    bank = (JOKER, kcards("AN")[0])
    assert GAME.legal_actions(state) == [Reveal(()), Reveal((bank[0],)), Reveal((bank[1],)),
                                         Reveal(bank)]
    assert act(state, Reveal((JOKER,))) == [BankRevealed(0, (JOKER,), 1)]
    assert GAME.observe(state, 3).revealed == (JOKER,)
    assert GAME.observe(state, 3).bank_seen == ()
    assert GAME.observe(state, 0).bank_seen == tuple(kcards("AN"))  # hidden for good, but his
    assert GAME.to_act(state) == 1  # the dealer's left leads
    events = play_out(state)
    scored = next(e for e in events if isinstance(e, HandScored))
    # Seat 0's Knives take every trick: 24 stars; the discarded AN counts for nobody.
    assert scored.stars == (24, 0, 0, 0, 0) and scored.banked == () and scored.banker is None
    assert scored.points == points


def test_simplified_rules_dealer_must_pick_no_ghost_or_thief_power() -> None:
    state = new_stacked(GAME, 5, [HAND_A], {"first_dealer": 0, "simplified_rules": True})
    assert (state.phase, state.strong, GAME.to_act(state)) == (Phase.CHOOSE, KSuit.SPADES, 1)
    for _ in range(4):
        act(state, Pass(None))
    assert GAME.legal_actions(state) == [Pick()]
    act(state, Pick())
    assert GAME.winning_index(state, kcards("KS GS TS MS JS")) == 0
    normal = new_stacked(GAME, 5, [HAND_A], {"first_dealer": 0})
    act(normal, Declare(KSuit.SPADES))
    assert GAME.winning_index(normal, kcards("KS GS TS MS JS")) == 1
    assert GAME.winning_index(normal, kcards("KD GD 2N X MS")) == 3
    assert GAME.winning_index(normal, kcards("KD GD QS GC JC")) == 2  # strong suit trumps


def test_simplified_rules_thief_does_not_lead() -> None:
    state = new_stacked(GAME, 5, [HAND_A], {"first_dealer": 0, "simplified_rules": True})
    act(state, Pass(None))
    act(state, Pick())  # seat 2 banker, strong spades
    act(state, Bank(*kcards("KC TH")))
    act(state, NoAnnouncement())
    # MS is strong (spades) and wins; the lone Thief TC does not take the lead.
    events = play(state, "KH GH MS TC JH")
    assert events[-1] == TrickTaken(0, 0, tuple(kcards("KH GH MS TC JH")), 4, 0)


def test_scoring_bands() -> None:
    standard = [(12, (0, 1)), (13, (1, 0)), (16, (1, 0)), (17, (2, 0)), (20, (2, 0)),
                (21, (3, 0)), (25, (3, 0))]
    for s, expected in standard:
        assert band_points(s, False, False, False) == expected
        solo = (expected[0] * 2, expected[1])
        assert band_points(s, True, False, False) == solo
    for s, expected in [(12, (0, 1)), (13, (2, 0)), (24, (2, 0)), (25, (3, 0))]:
        assert band_points(s, False, True, False) == expected
    assert band_points(25, True, True, False) == (6, 0)
    assert band_points(13, True, False, True) == (4, 0)
    assert band_points(25, True, True, True) == (4, 0)
    assert band_points(12, True, False, True) == (0, 1)


def test_options_are_validated() -> None:
    with pytest.raises(OptionError, match="first_dealer"):
        GAME.parse_options(5, {"first_dealer": 5})
    with pytest.raises(OptionError, match="target_score"):
        GAME.parse_options(5, {"target_score": 0})
    with pytest.raises(OptionError, match="players"):
        GAME.parse_options(4)


# -- invariants over random games --------------------------------------------------
def _check_match(trace: suite.Trace) -> int:
    """The Knives rules checked on one random match from its full event log; returns hands."""
    start = GAME.new(5, trace.seed, trace.options)  # the first deal has no events
    strong = start.strong
    bank_stars = stars(start.bank)
    trick_stars = 0
    tricks = 0
    played: list[int] = [0] * 5
    hands = 0
    for t in trace.events:
        ev = t.event
        if isinstance(ev, HandStarted):
            strong, trick_stars, tricks, played = None, 0, 0, [0] * 5
        elif isinstance(ev, CardsDealt):
            assert t.visible_to == frozenset({ev.seat}) and len(ev.cards) == 6
        elif isinstance(ev, Declared | Passed) and ev.suit is not None:
            assert ev.suit is not strong and ev.suit is not KSuit.KNIVES
            strong = ev.suit
        elif isinstance(ev, BankSeen) and ev.cards:
            bank_stars = stars(ev.cards)
        elif isinstance(ev, CardPlayed):
            played[ev.seat] += 1
        elif isinstance(ev, TrickTaken):
            assert len(ev.cards) == 5
            assert stars(ev.cards) == ev.stars
            trick_stars += ev.stars
            tricks += 1
        elif isinstance(ev, HandScored):
            hands += 1
            assert tricks == 6 and played == [6] * 5
            assert sum(ev.stars) == trick_stars
            if ev.mode is KMode.BANKER:
                assert ev.banker is not None
                team = {ev.banker} if ev.shadow is None else {ev.banker, ev.shadow}
                assert ev.solo == (ev.shadow is None)
                assert trick_stars + stars(ev.banked) == 25
                assert ev.team_stars == sum(ev.stars[s] for s in team) + stars(ev.banked)
                winners = team if ev.team_stars >= 13 else set(range(5)) - team
                assert all(p > 0 for s, p in enumerate(ev.points) if s in winners)
                assert all(p == 0 for s, p in enumerate(ev.points) if s not in winners)
                assert len({ev.points[s] for s in winners}) == 1
            else:
                assert trick_stars == 25 - bank_stars
                assert set(ev.points) <= {0, 2} and 2 in ev.points
        elif isinstance(ev, MatchEnded):
            assert max(ev.totals) >= trace.options["target_score"] or \
                hands == trace.options["max_hands"]
    return hands


def _joker_wins(trace: suite.Trace) -> None:
    """A trick containing the Joker is won by the Joker's player."""
    seats: list[int] = []
    cards: list[KnivesCard] = []
    for t in trace.events:
        ev = t.event
        if isinstance(ev, CardPlayed):
            seats.append(ev.seat)
            cards.append(ev.card)
        elif isinstance(ev, TrickTaken):
            if JOKER in cards:
                assert ev.winner == seats[cards.index(JOKER)]
            seats, cards = [], []


@pytest.mark.parametrize("options", [{}, {"simplified_scoring": True},
                                     {"simplified_rules": True, "target_score": 10}])
def test_invariants_on_random_matches(options: dict[str, Any]) -> None:
    hands = 0
    seeds = fuzz.seeds(30)
    for seed in seeds:
        trace = suite.play_random(GAME, 5, seed, options, check=False)
        hands += _check_match(trace)
        _joker_wins(trace)
    assert hands >= 8 * len(seeds)


def test_shadow_stays_hidden_until_the_ghost_is_played() -> None:
    import random

    state = new_stacked(GAME, 5, [HAND_A], {"first_dealer": 0})
    act(state, Declare(KSuit.SPADES))
    act(state, Pass(KSuit.HEARTS))
    act(state, Pick())
    act(state, Bank(*kcards("GS JS")))
    act(state, NoAnnouncement())
    rng = random.Random(1)
    for viewer in (0, 1, 2, 3):  # everyone but the shadow, the banker included
        shadows = set()
        for _ in range(30):
            other = GAME.redeal_hidden(state, viewer, rng)
            shadows.add(other.shadow)
            assert GAME.observe(other, viewer) == GAME.observe(state, viewer)
        assert len(shadows) > 1, "re-deals must move the Ghost for this check to mean anything"
    play(state, "KH GH")
    assert all(GAME.observe(state, s).ghost_played_by == 4 for s in range(5))
    # The banked cards stay hidden from the others until the scoring event.
    assert GAME.observe(state, 3).banked == () and GAME.observe(state, 2).banked != ()


# -- rules checked one by one (review) ----------------------------------------------
def test_deal_one_card_at_a_time_from_the_dealers_left_and_the_last_two_form_the_bank() -> None:
    from arena.games.knives import DECK
    deck = list(DECK)
    state = new_stacked(GAME, 5, [deck], {"first_dealer": 2})
    for k in range(5):
        seat = (2 + 1 + k) % 5
        assert GAME.observe(state, seat).hand == tuple(sorted(deck[k:30:5]))
    assert sorted(state.bank) == sorted(deck[30:]) == sorted(kcards("KH X"))
    assert GAME.observe(state, 0).bank_size == 2 and GAME.observe(state, 0).bank_seen == ()
    assert (state.phase, GAME.to_act(state)) == (Phase.DECLARE, 2)


def test_solo_without_announcement_still_scores_double() -> None:
    """V8/V9: the banker holding the strong Ghost is solo, announced or not."""
    state = new_stacked(GAME, 5, [SUITS_DEAL, SUITS_DEAL], {"first_dealer": 0})
    act(state, Declare(KSuit.SPADES))
    act(state, Pick())  # seat 1 holds GS: solo
    act(state, Bank(*kcards("QS KS")))
    assert GAME.legal_actions(state) == [AnnounceSolo(), NoAnnouncement()]
    assert act(state, NoAnnouncement()) == [Announced(1, False)]
    assert [GAME.observe(state, s).is_shadow for s in range(5)] == [False] * 5
    assert GAME.observe(state, 3).announcement is False
    assert GAME.to_act(state) == 2
    play(state, "KC KD KH 2N X")   # the Joker beats the Knife: 9 stars to seat 1
    play(state, "AN QC QD QH 3N")  # A high among Knives: 7 stars
    play(state, "JS JC JD JH 4N")  # a Knife beats the strong suit: 4 stars to seat 0
    assert GAME.observe(state, 2).ghost_played_by is None
    play(state, "5N GS GC GD GH")
    assert all(GAME.observe(state, s).ghost_played_by == 1 for s in range(5))
    play(state, "6N TS TC TD TH")  # four Thieves cancel
    events = play(state, "7N MS MC MD MH")
    scored = next(e for e in events if isinstance(e, HandScored))
    # 9 + 7 in tricks + QS KS banked (5) = 21: solo +6 (twice the 21+ row).
    assert (scored.banker, scored.shadow, scored.solo, scored.team_stars) == (1, None, True, 21)
    assert scored.stars == (4, 16, 0, 0, 0) and scored.points == (0, 6, 0, 0, 0)


def test_must_follow_suit_but_the_joker_is_always_playable() -> None:
    state = new_stacked(GAME, 5, [HAND_A], {"first_dealer": 0})
    act(state, Declare(KSuit.SPADES))
    act(state, Pass(KSuit.HEARTS))
    act(state, Pick())
    act(state, Bank(*kcards("GS JS")))
    act(state, NoAnnouncement())
    act(state, Play(kcards("MC")[0]))                     # seat 3 leads clubs
    assert GAME.legal_actions(state) == [Play(c) for c in kcards("QC")]  # seat 4
    act(state, Play(kcards("QC")[0]))
    assert GAME.legal_actions(state) == [Play(c) for c in kcards("JC")]  # seat 0
    act(state, Play(kcards("JC")[0]))
    # Seat 1 holds GC, TC and the Joker: clubs or the Joker, nothing else.
    assert set(GAME.legal_actions(state)) == {Play(c) for c in kcards("X GC TC")}


def test_trick_winners_in_order_joker_knives_strong_ghost_over_king() -> None:
    state = new_stacked(GAME, 5, [HAND_A], {"first_dealer": 0})
    act(state, Declare(KSuit.SPADES))  # strong suit: spades
    w = GAME.winning_index
    assert w(state, kcards("2N AN X KS GS")) == 2        # the Joker beats everything
    assert w(state, kcards("KS GS 2N QS JS")) == 2       # any Knife beats the strong suit
    assert w(state, kcards("KD GD KS GS MH")) == 3       # strong Ghost over its King
    assert w(state, kcards("KD GS MS TD JD")) == 2       # without KS the Ghost is lowest
    assert w(state, kcards("GD KD QD KH JC")) == 0       # led-suit Ghost over its King
    assert w(state, kcards("GD QD KH KC JD")) == 1       # a King of another suit does not help


def test_match_ends_at_the_target_or_at_the_hand_cap() -> None:
    state = new_stacked(GAME, 5, [HAND_A], {"first_dealer": 0, "target_score": 1})
    act(state, Declare(KSuit.SPADES))
    events = play_out(state)
    assert isinstance(events[-1], MatchEnded) and max(events[-1].totals) >= 1
    assert state.over and state.hand_no == 1
    state = new_stacked(GAME, 5, [HAND_A], {"first_dealer": 0, "max_hands": 1,
                                           "target_score": 50})
    events = play_out(state)
    assert isinstance(events[-1], MatchEnded) and max(events[-1].totals) < 50
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.scores == tuple(float(t) for t in events[-1].totals)
