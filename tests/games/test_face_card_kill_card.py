"""Face Card / Kill Card: scripted games checked by hand against docs/games/face_card_kill_card.md."""

from __future__ import annotations

import random

import pytest

from arena.games.base import IllegalActionError, OptionError, Tagged
from arena.games.cards import Card, cards, standard_deck
from arena.games.face_card_kill_card import (
    GAME,
    Draw,
    Drew,
    Eliminated,
    EndReason,
    GameEnded,
    GameStarted,
    HoleDealt,
    HoleSeen,
    HolesRevealed,
    State,
    Stop,
    Stopped,
)
from arena.match.conformance import play_random
from tests import fuzz
from tests.games.stacked import new_stacked


def stacked(top: str, decks: int = 1) -> list[Card]:
    """A full deck whose first cards dealt are ``top`` (in order); the rest after them."""
    first = cards(top)
    rest = [c for c in standard_deck(decks) if c not in first]
    random.Random(0).shuffle(rest)
    return rest + first[::-1]  # the engine deals from the end of the list


def play(state: State, *actions: Draw | Stop) -> list[Tagged]:
    events: list[Tagged] = []
    for action in actions:
        events += GAME.apply(state, action)
    return events


def public_events(events: list[Tagged]) -> list[object]:
    return [t.event for t in events if t.visible_to is None]


def test_the_scoring_example_of_the_original_text() -> None:
    # 2 players, dealer 0: holes go to seat 1 (7S) then seat 0 (KD); seat 1 plays first.
    state = new_stacked(GAME, 2, [stacked("7S KD AD 3H 4H 9C 6D 5S 3C")])
    opening = GAME.opening_events(state)
    assert public_events(opening) == [GameStarted(0, 0, (0, 1), 1), HoleDealt(1, 1), HoleDealt(0, 1)]
    assert [t for t in opening if t.visible_to is not None] == [
        Tagged(HoleSeen(1, (Card.parse("7S"),)), frozenset({1})),
        Tagged(HoleSeen(0, (Card.parse("KD"),)), frozenset({0})),
    ]
    assert GAME.to_act(state) == 1
    events = play(state, Draw(), Draw(), Draw(), Draw(), Stop())
    assert public_events(events) == [
        Drew(1, Card.parse("AD"), 11), Drew(1, Card.parse("3H"), 14),
        Drew(1, Card.parse("4H"), 18), Drew(1, Card.parse("9C"), 27), Stopped(1, 4),
    ]
    play(state, Draw(), Draw(), Draw(), Stop())        # seat 0: 6D 5S 3C
    obs = GAME.observe(state, 0)
    assert obs.face_up_totals == (14, 27) and obs.consecutive_passes == 0
    assert GAME.outcome(state) is None
    play(state, Stop())                                  # seat 1 passes
    assert GAME.observe(state, 0).consecutive_passes == 1
    events = play(state, Stop())                         # seat 0 passes: everyone passed in a row
    assert public_events(events)[-2:] == [
        HolesRevealed(((Card.parse("KD"),), (Card.parse("7S"),))),
        GameEnded(0, EndReason.SHOWDOWN, (14, 34), (1,)),
    ]
    outcome = GAME.outcome(state)
    assert outcome is not None
    # 7 + 11 + 3 + 4 + 9 = 34, as the text says; K + 6 + 5 + 3 is 14 (the text's "13" is a slip).
    assert outcome.scores == (14.0, 34.0) and outcome.ranks == (2, 1)
    assert GAME.to_act(state) is None and GAME.legal_actions(state) == ()


def test_face_cards_eliminate_and_the_survivor_wins_mid_cycle() -> None:
    # 3 players, dealer 2: holes to 0, 1, 2; seat 0 plays first.
    state = new_stacked(GAME, 3, [stacked("2H 8C 4D QH 5H KS")], {"dealer": 2})
    assert GAME.to_act(state) == 0
    events = play(state, Draw())                          # QH: seat 0 is out
    assert public_events(events) == [Drew(0, Card.parse("QH"), 0), Eliminated(0, Card.parse("QH"))]
    assert GAME.to_act(state) == 1
    play(state, Draw(), Stop())                           # seat 1: 5H, stops
    events = play(state, Draw())                          # seat 2: KS, out; seat 1 survives
    assert public_events(events)[-1] == GameEnded(0, EndReason.SURVIVOR, (2, 13, 4), (1,))
    outcome = GAME.outcome(state)
    assert outcome is not None
    assert outcome.ranks == (2, 1, 2) and outcome.scores == (0.0, 13.0, 0.0)


def test_an_eliminated_hole_card_stays_hidden_until_the_end() -> None:
    state = new_stacked(GAME, 3, [stacked("2H 8C 4D QH 5H")], {"dealer": 2})
    play(state, Draw())                                   # seat 0 out with a hidden 2H
    for seat in (1, 2):
        obs = GAME.observe(state, seat)
        assert Card.parse("2H") not in obs.hole_cards and obs.hole_counts == (1, 1, 1)
        assert obs.eliminated == (True, False, False)


def test_passes_count_across_the_cycle_and_a_hole_face_card_is_worth_nothing() -> None:
    # seat 1 (hole QC: 0 points) draws 9H; seat 0 (hole 4S) passes; seat 1 passes -> showdown
    state = new_stacked(GAME, 2, [stacked("QC 4S 9H")])
    play(state, Draw(), Stop(), Stop())
    assert GAME.outcome(state) is None                    # one pass is not enough
    play(state, Stop())
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.scores == (4.0, 9.0) and outcome.ranks == (2, 1)


def test_a_tie_for_first_is_shared_by_default() -> None:
    state = new_stacked(GAME, 3, [stacked("5S 5H 9C 6D 2C")], {"dealer": 2})
    play(state, Stop(), Stop(), Stop())                   # everyone passes at once
    outcome = GAME.outcome(state)
    assert outcome is not None
    assert outcome.scores == (5.0, 5.0, 9.0) and outcome.ranks == (2, 2, 1)
    state = new_stacked(GAME, 3, [stacked("9S 5H 9C")], {"dealer": 2})
    play(state, Stop(), Stop(), Stop())
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.ranks == (1, 3, 1)


def test_replay_breaks_a_tie_among_the_tied_seats_only() -> None:
    options: dict[str, int | bool | str] = {"dealer": 2, "tiebreak": "replay"}
    first = stacked("9S 5H 9C")            # seats 0 and 2 tie on 9
    second = stacked("3D 8D")              # replay: dealer = seat 2 (tied); holes to 0 then 2
    state = new_stacked(GAME, 3, [first, second], options)
    events = play(state, Stop(), Stop(), Stop())
    assert GameStarted(1, 2, (0, 2), 1) in public_events(events)
    obs = GAME.observe(state, 0)
    assert obs.tiebreak_game == 1 and obs.in_game == (True, False, True)
    assert GAME.to_act(state) == 0
    play(state, Stop(), Stop())
    outcome = GAME.outcome(state)
    assert outcome is not None
    assert outcome.ranks == (2, 3, 1)      # seat 2 won the replay 8 to 3; seat 1 stays last
    assert outcome.scores == (9.0, 5.0, 9.0)


def test_aces_as_ones() -> None:
    state = new_stacked(GAME, 2, [stacked("AS 2S AH")], {"ace_value": 1})
    events = play(state, Draw())
    assert public_events(events) == [Drew(1, Card.parse("AH"), 1)]


def test_options_are_checked_with_clear_errors() -> None:
    with pytest.raises(OptionError, match="at least 2"):
        GAME.parse_options(7, {"decks": "1"})
    with pytest.raises(OptionError, match="dealer"):
        GAME.parse_options(4, {"dealer": 4})
    with pytest.raises(OptionError, match="ace_value"):
        GAME.parse_options(4, {"ace_value": "7"})
    with pytest.raises(OptionError, match="2 to 12 players"):
        GAME.parse_options(13)
    assert GAME.new(7, 1).decks == 2 and GAME.new(6, 1).decks == 1
    assert GAME.new(4, 1, {"hole_cards": 3}).decks == 2


def test_an_illegal_action_changes_nothing() -> None:
    state = new_stacked(GAME, 2, [stacked("QC 4S 9H")])
    play(state, Stop(), Stop())
    with pytest.raises(IllegalActionError):
        GAME.apply(state, Draw())


@pytest.mark.parametrize("players", [2, 3, 4, 6, 8, 12])
def test_invariants_over_random_games(players: int) -> None:
    for seed in fuzz.seeds(90):
        options = {"hole_cards": 1 + seed % 3, "tiebreak": ("shared", "replay")[seed % 2]}
        trace = play_random(GAME, players, seed, options, check=False)
        state = GAME.new(players, seed, trace.options)
        ended_by_survivor = False
        for action in trace.actions:
            active = [s for s in range(players) if state.in_game[s] and not state.eliminated[s]]
            assert state.consecutive_passes < len(active)
            assert state.stock and any(c.rank.is_face for c in state.stock)
            for seat in range(players):
                faces = [c for c in state.face_up[seat] if c.rank.is_face]
                if state.eliminated[seat]:
                    assert faces == [state.face_up[seat][-1]]
                else:
                    assert not faces
            events = GAME.apply(state, action)
            ended_by_survivor |= any(isinstance(t.event, GameEnded)
                                     and t.event.reason is EndReason.SURVIVOR for t in events)
        outcome = GAME.outcome(state)
        assert outcome is not None
        assert len(GAME.cards_in_play(state)) == 52 * state.decks
        if ended_by_survivor and state.tiebreak_game == 0:
            assert outcome.ranks.count(1) == 1
        if outcome.ranks.count(1) > 1:
            last_end = [t.event for t in trace.events if isinstance(t.event, GameEnded)][-1]
            assert last_end.reason is EndReason.SHOWDOWN and len(last_end.winners) > 1
