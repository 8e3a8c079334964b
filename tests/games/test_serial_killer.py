"""Serial Killer: scripted games from docs/games/serial_killer.md, and its invariants.

Stacked decks: the first card of a stacked order is the first card drawn.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from arena.games.base import IllegalActionError, Tagged
from arena.games.cards import Card, Rank, cards, standard_deck
from arena.games.serial_killer import (
    GAME,
    Arrested,
    BuryNow,
    ClueReason,
    CluesChanged,
    Drew,
    EndReason,
    EndTurn,
    GameEnded,
    GameStarted,
    Held,
    Hold,
    InformantPlayed,
    InformNow,
    Phase,
    Placed,
    PlayCorpse,
    PlayInformant,
    Reshuffled,
    State,
    TurnEnded,
    TurnStarted,
    is_closer,
    is_victim,
)
from arena.match import conformance
from tests import fuzz
from tests.games.stacked import new_stacked

PEN, INF, DIS = ClueReason.PENALTY, ClueReason.INFORMED, ClueReason.DISCREDITED


def deck(codes: str, pool: list[Card] | None = None) -> list[Card]:
    """The given cards first, then the rest of ``pool`` (default: the full deck) in order."""
    head = cards(codes)
    rest = [c for c in (pool if pool is not None else standard_deck()) if c not in head]
    return head + rest


def ev(tagged: list[Tagged]) -> list[Any]:
    assert all(t.visible_to is None for t in tagged), "every Serial Killer event is public"
    return [t.event for t in tagged]


def c(code: str) -> Card:
    return Card.parse(code)


def graves(state: State) -> list[str]:
    return [" ".join(card.code for card in g) for g in state.graves]


def test_a_kill_and_a_missed_turn_costing_a_clue() -> None:
    state = new_stacked(GAME, 2, [deck("2S 3S KS 4S 5S 6S 7S 8S 9S TS 2H")], numbers=[0])
    assert ev(GAME.opening_events(state)) == [
        GameStarted(2, 0, 6),
        TurnStarted(0, 1, (0, 1, 2, 3, 4, 5)),
        Drew(0, c("2S"), 0), Placed(0, c("2S"), 0, False),
        Drew(0, c("3S"), 1), Placed(0, c("3S"), 1, False),
        Drew(0, c("KS"), 2), Placed(0, c("KS"), 2, True),
        Drew(0, c("4S"), 3), Placed(0, c("4S"), 3, False),
        Drew(0, c("5S"), 4), Placed(0, c("5S"), 4, False),
        Drew(0, c("6S"), 5), Placed(0, c("6S"), 5, False),
    ]
    assert state.phase is Phase.END_OF_TURN and state.killed_this_turn
    assert GAME.legal_actions(state) == (EndTurn(),)
    assert ev(GAME.apply(state, EndTurn())) == [
        TurnEnded(0, True),
        TurnStarted(1, 2, (0, 1, 3, 4, 5)),
        Drew(1, c("7S"), 0), Placed(1, c("7S"), 0, False),
        Drew(1, c("8S"), 1), Placed(1, c("8S"), 1, False),
        Drew(1, c("9S"), 3), Placed(1, c("9S"), 3, False),
        Drew(1, c("TS"), 4), Placed(1, c("TS"), 4, False),
        Drew(1, c("2H"), 5), Placed(1, c("2H"), 5, False),
    ]
    assert graves(state) == ["2S 7S", "3S 8S", "KS", "4S 9S", "5S TS", "6S 2H"]
    assert ev(GAME.apply(state, EndTurn()))[:2] == [
        TurnEnded(1, False), CluesChanged(1, -1, 5, PEN)]
    assert state.clues == [6, 5]
    obs = GAME.observe(state, 1)
    # Seat 0's second turn drew the next stack card (the rest of the deck is in order: AS).
    assert obs.police_pile == 1 and obs.to_act == 0 and obs.stack_size == 52 - 12
    assert obs.phase is Phase.ACE_DRAWN and obs.drawn_card == c("AS") and obs.current_grave == 0


def test_jack_held_then_closing_a_grave_and_an_ace_used_both_ways() -> None:
    order = deck("JS QS 2S 3S 4S 5S  AS 6S 7S 8S  AH KH 9S TS")
    state = new_stacked(GAME, 2, [order], numbers=[0])
    # Turn 1, seat 0: a Jack for grave 0 -> asked, even though holding is always possible.
    assert ev(GAME.opening_events(state))[-1] == Drew(0, c("JS"), 0)
    assert state.phase is Phase.JACK_DRAWN and GAME.legal_actions(state) == (BuryNow(), Hold())
    obs = GAME.observe(state, 1)
    assert obs.current_grave == 0 and obs.drawn_card == c("JS") and obs.phase is Phase.JACK_DRAWN
    assert ev(GAME.apply(state, Hold())) == [
        Held(0, c("JS")),
        Drew(0, c("QS"), 1), Placed(0, c("QS"), 1, True),
        Drew(0, c("2S"), 2), Placed(0, c("2S"), 2, False),
        Drew(0, c("3S"), 3), Placed(0, c("3S"), 3, False),
        Drew(0, c("4S"), 4), Placed(0, c("4S"), 4, False),
        Drew(0, c("5S"), 5), Placed(0, c("5S"), 5, False),
    ]
    assert graves(state) == ["", "QS", "2S", "3S", "4S", "5S"]  # grave 0 skipped this turn
    assert state.held == [[c("JS")], []]
    assert GAME.legal_actions(state) == (
        *(PlayCorpse(c("JS"), g) for g in (0, 2, 3, 4, 5)), EndTurn())
    assert ev(GAME.apply(state, PlayCorpse(c("JS"), 0))) == [Placed(0, c("JS"), 0, True)]
    assert state.held == [[], []] and GAME.legal_actions(state) == (EndTurn(),)
    # Turn 2, seat 1: an Ace, played at once on the Queen against seat 0.
    events = ev(GAME.apply(state, EndTurn()))
    assert events == [TurnEnded(0, True), TurnStarted(1, 2, (2, 3, 4, 5)), Drew(1, c("AS"), 2)]
    # Seat 1 has all 6 clues, so it cannot discredit; only seat 0 can be informed on.
    assert GAME.legal_actions(state) == (InformNow(1, 0), Hold())
    with pytest.raises(IllegalActionError):
        GAME.apply(state, InformNow(1, 1))
    assert ev(GAME.apply(state, InformNow(1, 0))) == [
        InformantPlayed(1, c("AS"), 1, 0), CluesChanged(0, -1, 5, INF),
        Drew(1, c("6S"), 3), Placed(1, c("6S"), 3, False),
        Drew(1, c("7S"), 4), Placed(1, c("7S"), 4, False),
        Drew(1, c("8S"), 5), Placed(1, c("8S"), 5, False),
    ]
    assert graves(state) == ["JS", "QS AS", "2S", "3S 6S", "4S 7S", "5S 8S"]
    # Turn 3, seat 0: an Ace with no victim grave (QS has its informant) must be held.
    events = ev(GAME.apply(state, EndTurn()))
    assert events == [TurnEnded(1, False), CluesChanged(1, -1, 5, PEN),
                      TurnStarted(0, 3, (2, 3, 4, 5)), Drew(0, c("AH"), 2)]
    assert GAME.observe(state, 0).phase is Phase.ACE_DRAWN
    assert GAME.legal_actions(state) == (Hold(),)
    assert ev(GAME.apply(state, Hold()))[:3] == [
        Held(0, c("AH")), Drew(0, c("KH"), 3), Placed(0, c("KH"), 3, True)]
    # End of turn: the held Ace on the new victim, either way; seat 0 discredits a clue.
    assert GAME.legal_actions(state) == (
        PlayInformant(c("AH"), 3, 0), PlayInformant(c("AH"), 3, 1), EndTurn())
    assert ev(GAME.apply(state, PlayInformant(c("AH"), 3, 0))) == [
        InformantPlayed(0, c("AH"), 3, 0), CluesChanged(0, 1, 6, DIS)]
    assert state.clues == [6, 5] and graves(state)[3] == "3S 6S KH AH"
    assert ev(GAME.apply(state, EndTurn()))[0] == TurnEnded(0, True)
    assert state.clues == [6, 5]


def test_reshuffle_when_all_six_graves_close_keeps_held_cards() -> None:
    first = deck("JS KS QS KH QH KD JH")
    after = [card for card in standard_deck() if card != c("JS")]
    second = deck("2C 3C 4C 5C 6C 7C", after)
    state = new_stacked(GAME, 2, [first, second], numbers=[0])
    GAME.apply(state, Hold())
    GAME.apply(state, EndTurn())  # five kills; grave 0 still open
    assert graves(state) == ["", "KS", "QS", "KH", "QH", "KD"]
    assert state.to_act == 1 and state.phase is Phase.JACK_DRAWN
    # Seat 1 buries the Jack in grave 0: all six graves are closed.
    assert ev(GAME.apply(state, BuryNow())) == [Placed(1, c("JH"), 0, True)]
    assert GAME.legal_actions(state) == (EndTurn(),)
    events = ev(GAME.apply(state, EndTurn()))
    assert events[:4] == [TurnEnded(1, False), CluesChanged(1, -1, 5, PEN), Reshuffled(51),
                          TurnStarted(0, 3, (0, 1, 2, 3, 4, 5))]
    assert events[4:6] == [Drew(0, c("2C"), 0), Placed(0, c("2C"), 0, False)]
    assert graves(state) == ["2C", "3C", "4C", "5C", "6C", "7C"]
    assert state.held == [[c("JS")], []] and len(state.stack) == 51 - 6
    assert Counter(GAME.cards_in_play(state)) == Counter(standard_deck())


def test_arrest_sets_held_cards_aside_and_the_last_killer_wins() -> None:
    # Turn 1 closes graves 0-4 with victims; from then on each turn draws one card for grave 5.
    order = deck("KS QS KH QH KD 2S  3S JS AS 4S 5S AH JH 7S AD 8S AC 9S")
    state = new_stacked(GAME, 3, [order], numbers=[0])
    GAME.apply(state, EndTurn())                       # t1 seat 0 killed: 6 6 6
    GAME.apply(state, EndTurn())                       # t2 seat 1 drew 3S: 6 5 6
    GAME.apply(state, Hold())                          # t3 seat 2 holds JS
    GAME.apply(state, EndTurn())                       # 6 5 5
    assert state.held == [[], [], [c("JS")]]
    assert GAME.legal_actions(state)[:5] == (
        InformNow(0, 1), InformNow(0, 2), InformNow(1, 1), InformNow(1, 2), InformNow(2, 1))
    GAME.apply(state, InformNow(0, 1))                 # t4 seat 0 informs: 6 4 5
    GAME.apply(state, EndTurn())                       # 5 4 5
    GAME.apply(state, EndTurn())                       # t5 seat 1 drew 4S: 5 3 5
    GAME.apply(state, EndTurn())                       # t6 seat 2 drew 5S: 5 3 4
    GAME.apply(state, InformNow(1, 1))                 # t7 seat 0: 5 2 4
    GAME.apply(state, EndTurn())                       # 4 2 4
    GAME.apply(state, Hold())                          # t8 seat 1 holds JH
    GAME.apply(state, EndTurn())                       # 4 1 4
    GAME.apply(state, EndTurn())                       # t9 seat 2 drew 7S: 4 1 3
    assert state.clues == [4, 1, 3] and state.held == [[], [c("JH")], [c("JS")]]
    assert ev(GAME.apply(state, InformNow(2, 1))) == [  # t10 seat 0 arrests seat 1
        InformantPlayed(0, c("AD"), 2, 1), CluesChanged(1, -1, 0, INF), Arrested(1, (c("JH"),))]
    assert state.arrested == [False, True, False] and state.set_aside == [c("JH")]
    assert state.held == [[], [], [c("JS")]]
    # Seat 1 no longer plays, and cannot be informed on.
    assert ev(GAME.apply(state, EndTurn())) == [
        TurnEnded(0, False), CluesChanged(0, -1, 3, PEN),
        TurnStarted(2, 11, (5,)), Drew(2, c("8S"), 5), Placed(2, c("8S"), 5, False)]
    GAME.apply(state, EndTurn())                       # 3 0 2
    assert state.to_act == 0
    assert InformNow(3, 1) not in GAME.legal_actions(state)
    GAME.apply(state, InformNow(3, 2))                 # t12 seat 0: 3 0 1
    GAME.apply(state, EndTurn())                       # 2 0 1
    assert ev(GAME.apply(state, EndTurn())) == [       # t13 seat 2 drew 9S and is arrested
        TurnEnded(2, False), CluesChanged(2, -1, 0, PEN), Arrested(2, (c("JS"),)),
        GameEnded(EndReason.LAST_KILLER, (2, 0, 0), 0)]
    assert GAME.to_act(state) is None and GAME.legal_actions(state) == ()
    outcome = GAME.outcome(state)
    assert outcome is not None
    assert outcome.scores == (2.0, 0.0, 0.0) and outcome.ranks == (1, 3, 2)
    assert state.arrest_order == [1, 2] and state.set_aside == [c("JH"), c("JS")]


def test_turn_cap_ranks_free_seats_by_clues_above_the_arrested() -> None:
    # Reaching turn 100 by play takes long; set up its last turn's clues by hand instead.
    state = GAME.new(4, 5, {"max_turns": 100})
    while state.phase is not Phase.END_OF_TURN:
        GAME.apply(state, Hold())
    state.clues = [3, 5, 3, 0]
    state.arrested = [False, False, False, True]
    state.arrest_order = [3]
    state.held[3] = []
    state.turn_count = 100
    state.killed_this_turn = True
    events = ev(GAME.apply(state, EndTurn()))
    assert events[-1] == GameEnded(EndReason.TURN_CAP, (3, 5, 3, 0), None)
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.ranks == (2, 1, 2, 4)


def test_options() -> None:
    assert GAME.parse_options(4) == {"clues": 6, "max_turns": 1000}
    with pytest.raises(ValueError, match="clues"):
        GAME.parse_options(4, {"clues": 5})
    with pytest.raises(ValueError, match="max_turns"):
        GAME.parse_options(4, {"max_turns": 99})
    with pytest.raises(ValueError, match="2 to 8 players"):
        GAME.parse_options(9)
    GAME.parse_options(2)


# -- invariants (rules §12) over thousands of random games ---------------------------
def check_graves(state: State) -> None:
    for pile in state.graves:
        closers = [i for i, card in enumerate(pile) if is_closer(card)]
        aces = [i for i, card in enumerate(pile) if card.rank is Rank.ACE]
        assert len(closers) <= 1 and len(aces) <= 1
        if closers:
            k = closers[0]
            assert all(card.rank in range(2, 11) for card in pile[:k])
            if aces:
                assert aces[0] == k + 1 == len(pile) - 1 and is_victim(pile[k])
            else:
                assert k == len(pile) - 1
        else:
            assert not aces and all(2 <= card.rank <= 10 for card in pile)


def check_invariants(players: int, seed: int) -> None:
    trace = conformance.play_random(GAME, players, seed, check=False)
    state = GAME.new(players, seed)
    n = players
    batches = [GAME.opening_events(state)] + [[] for _ in trace.actions]
    turn: TurnStarted | None = None
    drawn = penalties = 0
    deck = Counter(standard_deck())
    for i, action in enumerate([None, *trace.actions]):
        if action is not None:
            batches[i] = GAME.apply(state, action)
        events = ev(batches[i])
        assert Counter(GAME.cards_in_play(state)) == deck
        check_graves(state)
        assert all(card.rank in (Rank.JACK, Rank.ACE) for h in state.held for card in h)
        assert all(0 <= k <= 6 for k in state.clues)
        assert GAME.observe(state, 0).police_pile == 6 * n - sum(state.clues)
        for j, event in enumerate(events):
            if isinstance(event, TurnStarted):
                turn, drawn, penalties = event, 0, 0
                draws_after = sum(isinstance(e, Drew) for e in events[j:])
                stack_at_start = len(state.stack) + draws_after
                assert event.graves, "a turn started with every grave closed"
                assert stack_at_start >= len(event.graves) + 2
            elif isinstance(event, Drew):
                drawn += 1
            elif isinstance(event, CluesChanged) and event.reason is PEN:
                assert turn is not None and event.seat == turn.seat
                penalties += 1
                assert penalties == 1
            elif isinstance(event, TurnEnded):
                assert turn is not None and drawn == len(turn.graves), "the draw phase ended early"
    end = trace.events[-1].event
    assert isinstance(end, GameEnded)
    if end.reason is EndReason.LAST_KILLER:
        assert sum(1 for k in state.clues if k > 0) == 1 and end.winner is not None
        assert state.clues[end.winner] > 0
    outcome = GAME.outcome(state)
    assert outcome is not None and sorted(outcome.ranks) == list(range(1, n + 1))


@pytest.mark.parametrize("block", range(4))
def test_invariants_over_random_games(block: int) -> None:
    for seed in fuzz.seeds(125, block):
        check_invariants(2 + seed % 7, seed)


# -- further scripted rules (review) -----------------------------------------------
def numbers(count: int, skip: str = "") -> str:
    """``count`` number cards (2-10) in deck order, leaving out the codes in ``skip``."""
    taken = [card.code for card in standard_deck()
             if 2 <= card.rank <= 10 and card.code not in skip.split()]
    assert len(taken) >= count
    return " ".join(taken[:count])


def test_an_informant_arresting_the_last_rival_ends_the_game_mid_draw() -> None:
    # Turn 1: three victims close graves 0-2; graves 3-5 stay open for the rest of the game.
    # Then nine turns of three number cards each: every turn misses, both seats lose clues.
    head = "KS KH KD 2S 3S 4S"
    order = deck(f"{head} {numbers(27, head)} AS")
    state = new_stacked(GAME, 2, [order], numbers=[0])
    for _ in range(10):
        GAME.apply(state, EndTurn())
    assert state.clues == [2, 1] and state.to_act == 0 and state.turn_count == 11
    # Turn 11, seat 0: the Ace drawn for grave 3 may inform on seat 1 or discredit (2 < 6).
    assert state.phase is Phase.ACE_DRAWN and GAME.observe(state, 1).current_grave == 3
    assert GAME.legal_actions(state) == (
        InformNow(0, 0), InformNow(0, 1), InformNow(1, 0), InformNow(1, 1),
        InformNow(2, 0), InformNow(2, 1), Hold())
    stack = len(state.stack)
    # S9: seat 1 loses its last clue; the game ends at once: no draws for graves 4 and 5,
    # no end-of-turn phase, no penalty for seat 0's kill-less turn.
    assert ev(GAME.apply(state, InformNow(1, 1))) == [
        InformantPlayed(0, c("AS"), 1, 1), CluesChanged(1, -1, 0, INF), Arrested(1, ()),
        GameEnded(EndReason.LAST_KILLER, (2, 0), 0)]
    assert len(state.stack) == stack and GAME.to_act(state) is None
    assert graves(state)[1] == "KH AS"
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.scores == (2.0, 0.0) and outcome.ranks == (1, 2)


def test_a_corpse_closing_the_last_grave_reshuffles_the_set_aside_cards_too() -> None:
    first = deck("KS QS KH QH KD 2S  JS  JH  3S  4S")
    second = deck("2C 3C 4C 5C 6C 7C")  # all 52 cards: nothing is held when it reshuffles
    state = new_stacked(GAME, 3, [first, second], numbers=[0])
    state.clues[2] = 1  # set-up shortcut: seat 2 is one missed turn from arrest
    GAME.apply(state, EndTurn())            # t1 seat 0: five kills, grave 5 open (2S)
    GAME.apply(state, Hold())               # t2 seat 1 holds JS (grave 5 gets nothing)
    GAME.apply(state, EndTurn())            # seat 1 missed: 5 clues
    GAME.apply(state, Hold())               # t3 seat 2 holds JH
    assert ev(GAME.apply(state, EndTurn()))[:4] == [
        TurnEnded(2, False), CluesChanged(2, -1, 0, PEN), Arrested(2, (c("JH"),)),
        TurnStarted(0, 4, (5,))]
    assert state.set_aside == [c("JH")] and state.held == [[], [c("JS")], []]
    GAME.apply(state, EndTurn())            # t4 seat 0 drew 3S: 5 clues
    assert state.to_act == 1 and graves(state)[5] == "2S 3S 4S"
    # t5 seat 1 drew 4S; at the end of its turn its held Jack closes the last open grave.
    assert GAME.legal_actions(state) == (PlayCorpse(c("JS"), 5), EndTurn())
    GAME.apply(state, PlayCorpse(c("JS"), 5))
    # Penalty first, then the reshuffle of graves + stack + set-aside (the stacked order
    # must hold exactly those cards: the whole deck, JH included); seat 2 is skipped.
    events = ev(GAME.apply(state, EndTurn()))
    assert events[:4] == [TurnEnded(1, False), CluesChanged(1, -1, 4, PEN), Reshuffled(52),
                          TurnStarted(0, 6, (0, 1, 2, 3, 4, 5))]
    assert state.set_aside == [] and graves(state) == ["2C", "3C", "4C", "5C", "6C", "7C"]
    assert len(state.stack) == 46 and c("JH") in state.stack


def test_the_turn_cap_stops_the_game_after_its_last_turn() -> None:
    """Seats that discredit whenever they can outlast 100 turns (seed found by search)."""
    rng = random.Random(3)
    state = GAME.new(8, 3, {"max_turns": 100})
    log: list[Any] = []
    while (seat := GAME.to_act(state)) is not None:
        legal = GAME.legal_actions(state)
        own = [a for a in legal if isinstance(a, (InformNow, PlayInformant)) and a.target == seat]
        corpses = [a for a in legal if isinstance(a, PlayCorpse)]
        if own:
            action: Any = own[0]
        elif Hold() in legal:
            action = Hold()
        elif state.phase is Phase.END_OF_TURN and not corpses:
            action = EndTurn()
        else:
            action = rng.choice(legal)
        log += ev(GAME.apply(state, action))
    started = sum(isinstance(e, TurnStarted) for e in log) + 1  # the opening turn
    assert started == 100 == state.turn_count
    assert log[-1] == GameEnded(EndReason.TURN_CAP, (0, 0, 5, 1, 0, 5, 0, 1), None)
    assert state.arrest_order == [4, 0, 6, 1]
    # Free seats by clues (5, 5 share 1st; 1, 1 share 3rd), then the arrested, latest first.
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.ranks == (7, 5, 1, 3, 8, 1, 6, 3)
    assert outcome.scores == (0.0, 0.0, 5.0, 1.0, 0.0, 5.0, 0.0, 1.0)
