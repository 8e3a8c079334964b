"""The games as PettingZoo environments (sdk.rl): PettingZoo's own certificates (api_test,
seed_test) for every game, the action space holding every action the rules offer, rewards
from the ranks, and one clear error for an illegal action."""

from __future__ import annotations

import copy
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from arena.games import all_games, get_game
from sdk import rl
from sdk.rl.layout import every_game
from sdk.rl.selfplay import SelfPlay
from sdk.rl.spaces import Spaces
from tests import fuzz

GAMES = list(all_games())
# A dict of the observation and its mask, as PettingZoo's own card games give: api_test
# would rather have a plain array, and says so.
pytestmark = pytest.mark.filterwarnings(
    "ignore:Observation space for each agent probably:UserWarning",
    "ignore:Observation is not a NumPy array:UserWarning")


def _tables(name: str) -> list[int]:
    game = get_game(name)
    return sorted({game.min_players, game.default_players, min(game.max_players, 8)})


@pytest.mark.parametrize("name", GAMES)
def test_pettingzoos_api_and_seed_tests_pass(name: str) -> None:
    api_test(rl.env(name), num_cycles=300, verbose_progress=False)
    seed_test(lambda: rl.env(name), num_cycles=300)


@pytest.mark.parametrize("name", GAMES)
def test_every_legal_action_of_random_games_is_in_the_space_and_every_observation_fits(
        name: str) -> None:
    game = get_game(name)
    for players in _tables(name):
        options = game.parse_options(players)
        spaces = Spaces.of(game, players, options)
        catalogue, encoder = spaces.catalogue, spaces.encoder
        for seed in fuzz.seeds(2):
            state, moves = game.new(players, seed, dict(options)), random.Random(seed)
            step = 0
            while (seat := game.to_act(state)) is not None:
                legal = game.legal_actions(state)
                assert all(catalogue.actions[catalogue.index(a)] == a for a in legal)
                seen = game.observe(state, seat)
                vector = encoder.encode(seen)
                assert vector.shape == (encoder.size,)
                if step % 25 == 0:  # what the encoder remembers changes none of its numbers
                    fresh = Spaces.of(game, players, options).encoder.encode(
                        copy.deepcopy(seen))
                    assert np.array_equal(vector, fresh)
                game.apply(state, moves.choice(legal))
                step += 1


@pytest.mark.parametrize("name", GAMES)
def test_a_random_episode_ends_with_each_seats_rank_reward(name: str) -> None:
    env = rl.env(name)
    env.reset(seed=7)
    moves = np.random.default_rng(7)
    returns = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        observation, reward, termination, truncation, _ = env.last()
        returns[agent] += reward
        mask = observation["action_mask"]
        if termination or truncation:
            assert not mask.any()  # nothing is legal once it is over
            env.step(None)
            continue
        assert mask.any() and observation["observation"].shape == (env.encoder.size,)
        env.step(int(moves.choice(np.flatnonzero(mask))))
    outcome = get_game(name).outcome(env.state)
    assert outcome is not None
    ranks = outcome.ranks
    assert returns == {f"seat_{s}": rl.rank_reward(r, len(ranks)) for s, r in enumerate(ranks)}
    assert max(returns.values()) == 1.0


def test_the_same_seed_deals_the_same_match_and_another_seed_another() -> None:
    first = [rl.env("king") for _ in range(3)]
    for env, seed in zip(first, (5, 5, 6), strict=True):
        env.reset(seed=seed)
    seen = [env.observe(env.agent_selection)["observation"] for env in first]
    assert np.array_equal(seen[0], seen[1]) and not np.array_equal(seen[0], seen[2])


def test_an_illegal_action_is_one_clear_error_and_changes_nothing() -> None:
    env = rl.env("kings-corner", players=2)
    env.reset(seed=3)
    mask = env.observe(env.agent_selection)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    before = env.observe(env.agent_selection)["observation"]
    with pytest.raises(ValueError, match=rf"^seat_\d: action {illegal} \(.*\) is not legal now$"):
        env.step(illegal)
    for outside in (-1, len(env.catalogue)):  # never another action by Python's indexing
        with pytest.raises(ValueError, match=rf"^seat_\d: action {outside} \(the space holds"):
            env.step(outside)
    assert np.array_equal(env.observe(env.agent_selection)["observation"], before)


def test_options_and_table_size_as_keywords_and_render() -> None:
    env: Any = rl.env("kill", players=3, render_mode="ansi", target_score=11)
    env.reset(seed=1)
    assert env.options["target_score"] == 11 and len(env.possible_agents) == 3
    text = env.render()
    assert text.startswith("kill: the table") and "to act sees" in text and "hand:" in text
    with pytest.raises(ValueError, match="no option"):
        rl.env("kill", no_such_option=1)


def test_the_docs_show_each_games_layout_as_the_code_builds_it() -> None:
    page = (Path(__file__).resolve().parents[2] / "docs" / "rl.md").read_text()
    shown = page.split("<!-- layout: generated by python -m sdk.rl.layout -->\n")[1]
    assert shown.split("<!-- end of layout -->")[0] == every_game(), \
        "docs/rl.md's layout is not the code's: paste python -m sdk.rl.layout's output there"


def test_the_docs_example_plays_a_match_to_its_end() -> None:
    page = (Path(__file__).resolve().parents[2] / "docs" / "rl.md").read_text()
    example = page.split("```python\n")[1].split("```")[0]
    scope: dict[str, Any] = {}
    exec(compile(example, "docs/rl.md", "exec"), scope)
    env = scope["env"]
    assert not env.agents  # every seat done, and removed as PettingZoo's loop removes them
    assert sorted(scope["info"]) == ["rank", "score"] and scope["termination"]


def test_self_play_steps_many_matches_at_once_and_deals_again_those_that_end() -> None:
    games = SelfPlay("face-card-kill-card", 6, players=3, seed=4)
    moves = np.random.default_rng(4)
    finished = 0
    while finished < 20:
        batch = games.observe()
        assert batch.observations.shape == (6, games.size) and batch.masks.shape == (6, games.actions)
        assert all(batch.masks[i].any() for i in range(6))
        actions = [int(moves.choice(np.flatnonzero(mask))) for mask in batch.masks]
        ended = games.step(actions)
        assert ended.rewards.shape == (len(ended.matches), 3)
        for rewards in ended.rewards:  # ranks' rewards: the first 1, the last -1 (or a tie)
            assert rewards.max() == 1.0 and rewards.min() >= -1.0
        finished += len(ended.matches)
    assert games.played == finished
    # one match's seat to act, as the environment of that match shows it
    env = games.envs[0]
    shown = env.observe(env.agent_selection if env.agents else env.possible_agents[0])
    batch = games.observe()
    assert batch.seats[0] == env.game.to_act(env.state)
    assert np.array_equal(batch.observations[0], env.encoder.encode(
        env.game.observe(env.state, int(batch.seats[0]))))
    assert shown["observation"].shape == batch.observations[0].shape
    corner = SelfPlay("kings-corner", 2, seed=1)
    before = corner.observe()
    with pytest.raises(ValueError, match=r"^match 1: action \d+ \(.*\) is not legal now$"):
        corner.step([int(np.flatnonzero(before.masks[0])[0]),
                     int(np.flatnonzero(before.masks[1] == 0)[0])])
    after = corner.observe()  # a refused step changed no match
    assert np.array_equal(after.observations, before.observations)


def test_without_the_rl_extra_the_import_says_how_to_install_it() -> None:
    def said(hide: str, code: str) -> str:
        hidden = (f"import sys; sys.modules[{hide!r}] = None\n"  # as if not installed
                  f"try:\n    {code}\nexcept ImportError as e:\n    print(e)")
        return subprocess.run([sys.executable, "-c", hidden], capture_output=True, text=True,
                              check=True).stdout

    assert said("numpy", "import sdk.rl").startswith(
        "sdk.rl needs the rl extra: pip install -e '.[rl]'")
    # the encoding and the action space need numpy only (a trained bot sees with them)
    assert said("pettingzoo", "import sdk.rl.encoding, sdk.rl.actions; print('imported')") == \
        "imported\n"
    assert said("pettingzoo", "import sdk.rl; sdk.rl.env('kill')").startswith(
        "sdk.rl's environments need the rl extra: pip install -e '.[rl]'")
