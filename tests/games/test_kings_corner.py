"""Kings in the Corner: scripted deals from docs/games/kings_corner.md, and its invariants.

A stacked deck is dealt in blocks from the dealer's left: 7 cards to each seat in
turn, then N, E, S, W, then the stock (its first card is drawn first).
Piles: N E S W = 0 1 2 3, corners NE SE SW NW = 4 5 6 7.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from arena.games.base import IllegalActionError, InvalidActionError, Tagged
from arena.games.cards import Card, Rank, cards, standard_deck
from arena.games.kings_corner import (
    CORNERS,
    GAME,
    DealEnded,
    DealEndReason,
    DealStarted,
    Drew,
    DrewCard,
    EndTurn,
    FillSide,
    HandDealt,
    KingToCorner,
    MatchEnded,
    MovePile,
    PileMoved,
    PileToCorner,
    Play,
    Played,
    State,
    TurnEnded,
    fits,
    penalty,
)
from tests import fuzz
from tests.games.stacked import new_stacked

N, E, S, W, NE, SE, SW, NW = range(8)


def deal(hands: list[str], sides: str, stock: str = "") -> list[Card]:
    """A stacked deck: hands from the dealer's left, the four side cards, the stock's top."""
    head = [c for h in hands for c in cards(h)] + cards(sides) + cards(stock)
    assert len(set(head)) == len(head)
    return head + [c for c in standard_deck() if c not in head]


def c(code: str) -> Card:
    return Card.parse(code)


def piles(state: State) -> list[str]:
    return [" ".join(card.code for card in p) for p in state.piles]


def seen(tagged: list[Tagged], seat: int) -> list[Any]:
    return [t.event for t in tagged if t.visible(seat)]


def test_building_kings_corners_moving_and_filling_piles() -> None:
    order = deal(["8H KS 7C 5D QD 2C KH", "3H 3D 4D 4S 5S 6S 2H"], "9S 6D 4H KC", "TC")
    state = new_stacked(GAME, 2, [order], {"first_dealer": 1})
    opening = GAME.opening_events(state)
    assert seen(opening, 0) == [
        DealStarted(1, 1, (c("9S"), c("6D"), c("4H"), c("KC")), (7, 7), 34),
        HandDealt(0, tuple(cards("8H KS 7C 5D QD 2C KH"))),
    ]
    assert seen(opening, 1)[1] == HandDealt(1, tuple(cards("3H 3D 4D 4S 5S 6S 2H")))
    assert state.to_act == 0 and piles(state) == ["9S", "6D", "4H", "KC", "", "", "", ""]
    # Down in alternating colours: red 8 on black 9, black 7 on red 8.
    assert GAME.apply(state, Play(c("8H"), N)) == [Tagged(Played(0, c("8H"), N))]
    with pytest.raises(IllegalActionError):
        GAME.apply(state, Play(c("5D"), E))  # a red 5 on a red 6
    GAME.apply(state, Play(c("7C"), N))
    assert piles(state)[N] == "9S 8H 7C"
    # The whole E pile (6D fits 7C) moves onto N; E is empty and may take any card.
    assert [t.event for t in GAME.apply(state, MovePile(E, N))] == [
        PileMoved(0, E, N, (c("6D"),))]
    assert piles(state)[:2] == ["9S 8H 7C 6D", ""]
    assert FillSide(c("2C"), E) in GAME.legal_actions(state)
    assert [t.event for t in GAME.apply(state, FillSide(c("QD"), E))] == [Played(0, c("QD"), E)]
    # Only a King starts a corner.
    assert KingToCorner(c("QD"), NE) not in GAME.legal_actions(state)
    with pytest.raises(IllegalActionError):
        GAME.apply(state, Play(c("QD"), NE))
    GAME.apply(state, KingToCorner(c("KS"), NE))
    GAME.apply(state, MovePile(E, NE))  # red Queen onto black King
    assert piles(state) == ["9S 8H 7C 6D", "", "4H", "KC", "KS QD", "", "", ""]
    # The King dealt to W moves to a corner with its pile (C3); corners never move.
    assert MovePile(NE, N) not in GAME.legal_actions(state)
    assert [t.event for t in GAME.apply(state, PileToCorner(W, NW))] == [
        PileMoved(0, W, NW, (c("KC"),))]
    GAME.apply(state, KingToCorner(c("KH"), SE))
    assert state.hands[0] == cards("5D 2C") and state.moves_this_turn == 8
    assert piles(state) == ["9S 8H 7C 6D", "", "4H", "", "KS QD", "KH", "", "KC"]
    obs = GAME.observe(state, 1)
    assert obs.hand_sizes == (2, 7) and obs.hand == tuple(sorted(cards("3H 3D 4D 4S 5S 6S 2H")))
    # End of turn: the stock's top card is drawn; only the drawer sees it.
    events = GAME.apply(state, EndTurn())
    assert seen(events, 0) == [DrewCard(0, c("TC"), 33), TurnEnded(0, 8, 0)]
    assert seen(events, 1) == [Drew(0, 33), TurnEnded(0, 8, 0)]
    assert state.to_act == 1 and state.hands[0] == cards("5D 2C TC")
    # Seat 1 builds on: black 5 on red 6, red 4 on black 5, then fills W with a red 3,
    # which cannot move onto the red 4.
    GAME.apply(state, Play(c("5S"), N))
    GAME.apply(state, Play(c("4D"), N))
    GAME.apply(state, FillSide(c("3H"), W))
    assert MovePile(W, N) not in GAME.legal_actions(state)
    assert piles(state)[N] == "9S 8H 7C 6D 5S 4D" and piles(state)[W] == "3H"


def test_going_out_ends_the_deal_at_once_without_a_draw() -> None:
    order = deal(["QH JS TH 9S 8H 7S 6H", "KD 2C 3C 4C 5C 2D 3D"], "KC AS AH AD")
    state = new_stacked(GAME, 2, [order, standard_deck()], {"first_dealer": 1})
    for code in ["QH", "JS", "TH", "9S", "8H", "7S"]:
        GAME.apply(state, Play(c(code), N))
    events = [t.event for t in GAME.apply(state, Play(c("6H"), N))]
    assert events[:2] == [
        Played(0, c("6H"), N),
        DealEnded(1, DealEndReason.OUT, 0, (0, 16), (0, 16)),  # KD 2C 3C 4C 5C 2D 3D: 10 + 6
    ]
    assert isinstance(events[2], DealStarted) and events[2].deal == 2 and events[2].dealer == 0
    assert state.totals == [0, 16] and state.to_act == 1  # the new dealer's left


def test_stock_running_out_and_the_stalemate_end() -> None:
    # Six seats: 42 cards in hands, four Aces on the sides (nothing fits on an Ace), 6 in stock.
    hands = ["KS 2S 3S 4S 5S 6S 7S", "8S 9S TS JS QS 2H 3H", "KH KD 4H 5H 6H 7H 8H",
             "9H TH JH QH 2D 3D 4D", "5D 6D 7D 8D 9D TD JD", "QD 2C 3C 4C 5C 6C 7C"]
    order = deal(hands, "AS AH AD AC", "8C 9C KC TC JC QC")
    state = new_stacked(GAME, 6, [order, standard_deck()], {"first_dealer": 5})
    assert GAME.observe(state, 0).stock_size == 6
    for seat in range(6):  # every seat draws once; the stock runs out
        assert state.to_act == seat
        events = GAME.apply(state, EndTurn())
        assert seen(events, (seat + 1) % 6)[0] == Drew(seat, 5 - seat)
    assert state.stock == [] and state.hands[2][-1] == c("KC")
    # Turns now end without a draw; a move resets the idle count.
    assert seen(GAME.apply(state, EndTurn()), 1) == [TurnEnded(0, 0, 1)]
    assert state.to_act == 1
    assert seen(GAME.apply(state, EndTurn()), 0) == [TurnEnded(1, 0, 2)]
    GAME.apply(state, KingToCorner(c("KH"), NE))  # seat 2 moves
    assert state.consecutive_idle_turns == 0
    assert seen(GAME.apply(state, EndTurn()), 0) == [TurnEnded(2, 1, 0)]
    # Seat 1 could put its black Queen on the red King: unwilling seats count as idle (C5).
    for idle, seat in enumerate((3, 4, 5, 0, 1), start=1):
        assert seen(GAME.apply(state, EndTurn()), 0) == [TurnEnded(seat, 0, idle)]
    assert state.consecutive_idle_turns == 5 and state.to_act == 2
    final = [t.event for t in GAME.apply(state, EndTurn())]
    assert final[0] == TurnEnded(2, 0, 6)
    ended = final[1]
    assert isinstance(ended, DealEnded) and ended.reason is DealEndReason.IMPASSE
    assert ended.out is None
    # Seat 0: KS + 7 others; seat 2: KD, KC + 5 others; the rest: 8 plain cards each.
    assert ended.penalties == (17, 8, 25, 8, 8, 8) and ended.totals == ended.penalties
    assert isinstance(final[2], DealStarted) and final[2].dealer == 0


def test_penalties_over_several_deals_to_the_target() -> None:
    deal1 = deal(["QH JS TH 9S 8H 7S 6H", "KD 2C 3C 4C 5C 2D 3D"], "KC AS AH AD")
    # Deal 2, dealer 0: seat 1 is dealt first and goes out; seat 0 keeps KH and 6 more.
    deal2 = deal(["QD JC TD 9C 8D 7C 6D", "KH 2H 3H 4H 5H 2S 3S"], "KS AH AC AD")
    # Deal 3, dealer 1: seat 0 goes out again; seat 1 keeps 7 plain cards.
    deal3 = deal1
    state = new_stacked(GAME, 2, [deal1, deal2, deal3], {"first_dealer": 1, "target_score": 20})
    for code in ["QH", "JS", "TH", "9S", "8H", "7S", "6H"]:
        GAME.apply(state, Play(c(code), N))
    assert state.totals == [0, 16] and state.deal == 2 and state.to_act == 1
    for code in ["QD", "JC", "TD", "9C", "8D", "7C", "6D"]:
        GAME.apply(state, Play(c(code), N))
    assert state.totals == [16, 16] and state.deal == 3 and state.to_act == 0
    assert GAME.outcome(state) is None  # nobody has reached 20 yet
    for code in ["QH", "JS", "TH", "9S", "8H", "7S"]:
        GAME.apply(state, Play(c(code), N))
    events = [t.event for t in GAME.apply(state, Play(c("6H"), N))]
    assert events[-2:] == [
        DealEnded(3, DealEndReason.OUT, 0, (0, 16), (16, 32)),
        MatchEnded(3, (16, 32)),
    ]
    assert GAME.to_act(state) is None and GAME.legal_actions(state) == ()
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.scores == (16.0, 32.0) and outcome.ranks == (1, 2)


def test_options() -> None:
    assert GAME.parse_options(4) == {"target_score": 50, "first_dealer": "random",
                                     "max_deals": 100, "max_turns_per_deal": 500}
    assert GAME.parse_options(3, {"first_dealer": "2"})["first_dealer"] == 2
    with pytest.raises(ValueError, match="first_dealer"):
        GAME.parse_options(3, {"first_dealer": 3})
    with pytest.raises(ValueError, match="target_score"):
        GAME.parse_options(3, {"target_score": 0})
    with pytest.raises(ValueError, match="max_turns_per_deal"):
        GAME.parse_options(3, {"max_turns_per_deal": 49})
    with pytest.raises(ValueError, match="2 to 6 players"):
        GAME.parse_options(7)
    state = GAME.new(3, 1, {"max_deals": 1})
    while GAME.to_act(state) is not None:
        GAME.apply(state, EndTurn())
    assert state.deal == 1 and GAME.outcome(state) is not None


# -- invariants (rules §11) over thousands of random games ---------------------------
def measure(state: State) -> int:
    hands = sum(len(h) for h in state.hands)
    return (2 * hands + sum(1 for s in range(4) if state.piles[s])
            + sum(1 for k in CORNERS if not state.piles[k]))


def check_run(pile: list[Card], corner: bool) -> None:
    assert all(fits(pile[i + 1], pile[i]) for i in range(len(pile) - 1)), pile
    assert not (corner and pile) or pile[0].rank is Rank.KING


def check_invariants(players: int, seed: int, options: dict[str, Any]) -> int:
    """Play one random match, checking §11 at every step; return the number of deals."""
    state = GAME.new(players, seed, options)
    policy = random.Random(seed)
    assert set(GAME.cards_in_play(state)) == set(standard_deck())
    deal_no = state.deal
    while (seat := state.to_act) is not None:
        action = policy.choice(GAME.legal_actions(state))
        before_hands = [len(h) for h in state.hands]
        before_measure, before_stock = measure(state), len(state.stock)
        hands_before = [list(h) for h in state.hands]
        events = [t.event for t in GAME.apply(state, action)]
        now = GAME.cards_in_play(state)
        assert len(now) == 52 and len(set(now)) == 52  # 52 distinct cards of one pack
        ended = next((e for e in events if isinstance(e, DealEnded)), None)
        if ended is not None:
            ended_hands = [[] if s == seat and ended.out == seat else hands_before[s]
                           for s in range(players)]
            if ended.reason is DealEndReason.OUT:
                assert ended.out == seat and ended.penalties[seat] == 0
            else:
                assert before_stock == 0 and all(ended_hands)
            if ended.reason is not DealEndReason.OUT or seat == ended.out:
                others = [s for s in range(players) if s != seat]
                assert all(ended.penalties[s] == penalty(ended_hands[s]) for s in others)
            deal_no = state.deal
            for p, pile in enumerate(state.piles):
                check_run(pile, p in CORNERS)
            continue
        assert state.deal == deal_no
        if isinstance(action, EndTurn):
            grew = [s for s in range(players) if len(state.hands[s]) != before_hands[s]]
            assert grew == ([seat] if before_stock else [])
            assert len(state.stock) == max(0, before_stock - 1)
        else:
            assert measure(state) < before_measure
            assert all(len(state.hands[s]) <= before_hands[s] for s in range(players))
            for p in {getattr(action, name) for name in ("pile", "corner", "side", "dst")
                      if hasattr(action, name)}:
                check_run(state.piles[p], p in CORNERS)
    outcome = GAME.outcome(state)
    assert outcome is not None
    target = int(options.get("target_score", 50))
    assert max(state.totals) >= target or state.deal == 100
    return state.deal


@pytest.mark.parametrize("block", range(4))
def test_invariants_over_random_games(block: int) -> None:
    """Random matches, 125 in each block (mostly to 10 points, so about 3 deals each; 1 in
    10 to 50)."""
    deals = 0
    seeds = fuzz.seeds(125, block)
    for seed in seeds:
        target = 50 if seed % 10 == 0 else 10
        deals += check_invariants(2 + seed % 5, seed, {"target_score": target})
    assert deals > 2 * len(seeds)


# -- further scripted rules (review) -----------------------------------------------
def test_fits_is_one_rank_lower_in_the_other_colour_with_aces_low() -> None:
    assert fits(c("QH"), c("KS")) and fits(c("AH"), c("2S")) and fits(c("2C"), c("3D"))
    assert not fits(c("AH"), c("2D"))  # same colour
    assert not fits(c("2S"), c("AH"))  # nothing fits on an Ace
    assert not fits(c("KS"), c("AH"))  # no wrap-around from Ace to King
    assert not fits(c("JH"), c("KS"))  # exactly one rank lower


def test_going_out_with_any_move_and_tied_totals_share_a_rank() -> None:
    # Four seats, dealer 3: seat 0 plays first. It goes out by starting a corner with a King.
    hands = ["QH JS TH 9S 8H 7S KD", "2C 3C 4C 5C 6C 7C 8C", "2D 3D 4D 5D 6D 7D 8D",
             "KH 2H 3H 4H 5H 6H 7H"]
    order = deal(hands, "KC AS AH AD")
    state = new_stacked(GAME, 4, [order], {"first_dealer": 3, "target_score": 7})
    for code in ["QH", "JS", "TH", "9S", "8H", "7S"]:
        GAME.apply(state, Play(c(code), N))
    events = [t.event for t in GAME.apply(state, KingToCorner(c("KD"), SE))]
    assert events[0] == Played(0, c("KD"), SE)
    ended = events[1]
    assert isinstance(ended, DealEnded) and ended.reason is DealEndReason.OUT and ended.out == 0
    # Penalties: 7 plain cards = 7; King (10) + 6 plain cards = 16. A total equal to the
    # target (7) ends the match.
    assert ended.penalties == (0, 7, 7, 16) and events[2:] == [MatchEnded(1, (0, 7, 7, 16))]
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.scores == (0.0, 7.0, 7.0, 16.0)
    assert outcome.ranks == (1, 2, 2, 4)


def test_filling_an_emptied_side_pile_can_go_out() -> None:
    order = deal(["QH JS TH 9S 8H 7S 2C", "KD 3C 4C 5C 6C 2D 3D"], "KC 6D AH AD")
    state = new_stacked(GAME, 2, [order, standard_deck()], {"first_dealer": 1})
    for code in ["QH", "JS", "TH", "9S", "8H", "7S"]:
        GAME.apply(state, Play(c(code), N))
    GAME.apply(state, MovePile(E, N))  # red 6 on black 7: E is empty
    assert [FillSide(c("2C"), E)] == [a for a in GAME.legal_actions(state)
                                      if isinstance(a, FillSide)]
    events = [t.event for t in GAME.apply(state, FillSide(c("2C"), E))]
    assert events[0] == Played(0, c("2C"), E)
    assert isinstance(events[1], DealEnded) and events[1].out == 0
    assert events[1].penalties == (0, 16) and state.totals == [0, 16] and state.deal == 2


def test_the_per_deal_turn_cap_ends_the_deal_as_an_impasse() -> None:
    """Seats making one move a turn while they can outlast 50 turns (seed found by search)."""
    state = GAME.new(2, 0, {"max_turns_per_deal": 50})
    dealer = state.dealer
    log: list[Any] = []
    while state.deal == 1:
        legal = GAME.legal_actions(state)
        action = legal[0] if state.moves_this_turn == 0 and len(legal) > 1 else EndTurn()
        before = [list(h) for h in state.hands]
        log += [t.event for t in GAME.apply(state, action)]
    turns = [e for e in log if isinstance(e, TurnEnded)]
    ended = next(e for e in log if isinstance(e, DealEnded))
    assert len(turns) == 50 and log[log.index(ended) - 1] is turns[-1]
    assert turns[-1].consecutive_idle_turns < 2  # not an impasse: the cap ended it
    assert ended.reason is DealEndReason.TURN_CAP and ended.out is None
    # Scored as an impasse: every seat pays for the cards it holds (King 10, other 1).
    assert all(before)
    assert ended.penalties == tuple(sum(10 if card.rank is Rank.KING else 1 for card in h)
                                    for h in before)
    assert state.totals == list(ended.penalties) and max(state.totals) < 50
    assert state.deal == 2 and state.dealer == (dealer + 1) % 2
    assert GAME.observe(state, 0).turns_this_deal == 0


def test_malformed_actions_are_refused_as_invalid() -> None:
    state = GAME.new(2, 0)
    card = state.hands[state.to_act or 0][0]
    before = GAME.observe(state, 0)
    for bad in (Play(card, "N"), Play(card, 1.5), MovePile(0, "x"),  # type: ignore[arg-type]
                FillSide("QD", 0), PileToCorner(None, 4)):  # type: ignore[arg-type]
        with pytest.raises(InvalidActionError):
            GAME.apply(state, bad)
    assert GAME.observe(state, 0) == before
