"""The reference search bot (rollouts of the heuristic bots over the SDK's forward model): it
plays every game that has a sampler to the end without a fault, inside its budget, and its
search is sound."""

from __future__ import annotations

import random

import pytest

from arena.games import get_game
from arena.games.sampling import samplers
from arena.match.protocol import MatchStart
from bots.random_bot import RandomBot
from bots.search import Search, SearchingBot, budget_from
from sdk.local import play_local
from sdk.search import ForwardModel
from tests.games.sampling import positions


@pytest.mark.parametrize("name", samplers())
def test_the_search_bot_plays_a_whole_match_without_a_fault(name: str) -> None:
    game = get_game(name)
    players = game.min_players
    options = {key: str(value) for key, value in game.demo_options.items()}
    bots = [SearchingBot(seed=1, rounds=2)] + [RandomBot(seat) for seat in range(1, players)]
    result = play_local(name, bots, seed=4, options=options, move_timeout_s=0)
    assert result.faults == ("",) * players


@pytest.mark.parametrize("name", samplers())
def test_a_search_answers_a_legal_action_of_the_seat_to_act(name: str) -> None:
    game = get_game(name)
    checked = 0
    for position in positions(game, game.default_players, 9, every=3):
        model = ForwardModel(known=(name, position.knowledge))
        match = MatchStart("m", name, game.version, model.seat, model.players, {}, (), 0.0, 0.0)
        legal = game.legal_actions(position.state)
        action = Search.of(model, match).choose(position.observation, legal,
                                                random.Random(checked), 0.0, rounds=3)
        assert action in legal
        checked += 1
        if checked == 8:
            break
    assert checked >= 2


def test_the_budget_is_a_share_of_the_move_clock_and_a_bad_one_is_refused() -> None:
    assert budget_from(["--server", "x", "--budget", "0.25"]) == 0.25
    assert budget_from([]) == 0.1
    with pytest.raises(SystemExit):
        budget_from(["--budget", "0"])
