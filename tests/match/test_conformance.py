"""The shared conformance suite, run over every registered game."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from arena.games import all_games, get_game
from arena.games.base import Game
from arena.match import conformance as suite
from tests import fuzz

GAMES = list(all_games())
BLOCKS = 3  # a game's random games are played in three tests, which xdist shares out
BLOCK = 25  # random games per test in the suite's short run (tests/fuzz.py: ARENA_FUZZ=4, 100)
DETERMINISM_SEEDS = 20  # each played a second time
ILLEGAL_ACTION_SEEDS = 10
HIDDEN_INFORMATION_SEEDS = 10


@pytest.mark.parametrize("block", range(BLOCKS))
@pytest.mark.parametrize("name", GAMES)
def test_random_games_pass_every_check(name: str, block: int) -> None:
    """Each random game is played once, checked as it is played (it ends legally, cards are
    conserved at every step, values are typed), and that one record is checked again by
    every check that needs a played game: the same seed plays the same game to the same
    log; bad actions are refused without change; the hidden-information property holds,
    and is exercised (re-deals do move cards and events are compared)."""
    game = get_game(name)
    lengths, compared = [], 0
    seeds = fuzz.seeds(BLOCK, block)
    for seed in seeds:
        trace = suite.random_game(game, seed)
        lengths.append(trace.steps)
        if seed < DETERMINISM_SEEDS:
            suite.determinism(game, seed, trace=trace)
        if seed < ILLEGAL_ACTION_SEEDS:
            suite.illegal_actions_rejected(game, seed, trace=trace)
        if seed < HIDDEN_INFORMATION_SEEDS:
            compared += suite.hidden_information(game, seed, budget=150, trace=trace)
    assert min(lengths) >= 1
    if seeds.start < HIDDEN_INFORMATION_SEEDS:
        assert compared > 0


@pytest.mark.parametrize("name", GAMES)
def test_different_seeds_deal_differently(name: str) -> None:
    game = get_game(name)
    players = game.default_players
    logs = {repr(suite.play_random(game, players, seed).events[:players * 3]) for seed in range(10)}
    assert len(logs) > 1


@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=fuzz.count(10), deadline=None, suppress_health_check=[HealthCheck.too_slow],
          phases=[Phase.explicit, Phase.reuse, Phase.generate])  # shrinking a seed teaches nothing
@given(seed=st.integers(0, 2**32), data=st.data())
def test_hidden_information(name: str, seed: int, data: Any) -> None:
    game: Game[Any, Any, Any] = get_game(name)
    players = data.draw(st.integers(game.min_players, min(game.max_players, 6)))
    seat = data.draw(st.integers(0, players - 1))
    offset = data.draw(st.integers(0, 50))
    suite.hidden_information(game, seed, seat=seat, players=players, budget=150, offset=offset)


@pytest.mark.parametrize("name", GAMES)
def test_options_are_validated(name: str) -> None:
    game = get_game(name)
    with pytest.raises(ValueError, match="no option"):
        game.parse_options(game.default_players, {"no_such_option": 1})
    with pytest.raises(ValueError, match="players"):
        game.parse_options(game.max_players + 1)
    defaults = game.parse_options(game.default_players)
    assert set(defaults) == {o.name for o in game.options}


def test_a_public_view_that_shows_a_hidden_card_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """The public view is checked as a seat's observation is: one of seat 1's cards shown
    on the table, or a count that depends on a hand, fails the property."""
    import dataclasses

    king = get_game("king")
    honest = type(king).spectate

    def leaky(self: Any, state: Any) -> Any:
        return dataclasses.replace(honest(self, state), trick_cards=state.hands[1][:1])

    monkeypatch.setattr(type(king), "spectate", leaky)
    with pytest.raises(AssertionError, match="public view"):
        suite.hidden_information(king, 1, budget=20)


def test_a_public_view_taken_from_one_seats_observation_must_not_depend_on_the_seat(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The default public view is seat 0's observation without its private fields: a field
    they share that each seat observes differently fails the property."""
    import dataclasses

    king = get_game("king")
    honest = type(king).observe

    def per_seat(self: Any, state: Any, seat: int) -> Any:
        seen = honest(self, state, seat)
        return dataclasses.replace(seen, price=seen.price + seat)  # the seat's own number

    monkeypatch.setattr(type(king), "observe", per_seat)
    with pytest.raises(AssertionError, match=r"\['price'\] differ from seat 1's observation"):
        suite.hidden_information(king, 1, budget=20)
