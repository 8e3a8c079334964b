"""sdk.pimc's rollout search keeps to its clock: a round the budget cuts short counts for
nothing, and when no round fits at all the answer is the rollout policy's own choice."""

from __future__ import annotations

import itertools
import random
import time
from collections.abc import Sequence
from typing import Any

import pytest

from arena.games import get_game
from arena.games.base import IllegalActionError
from bots.search import PLANS, margin
from sdk import mcts, pimc
from sdk.search import ForwardModel
from tests.games.sampling import positions

STEP_S = 0.01  # each reading of the clock: 10 ms later than the last


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """A clock that moves only when read, so that every timing below is exact (the search
    reads ``time.monotonic``; nothing else in these tests does)."""
    ticks = itertools.count()
    monkeypatch.setattr(time, "monotonic", lambda: next(ticks) * STEP_S)


def _king_decision() -> tuple[ForwardModel, Any, list[Any]]:
    game = get_game("king")
    for position in positions(game, game.default_players, 3, every=7):
        legal = list(game.legal_actions(position.state))
        if len(legal) >= 3:
            return ForwardModel(known=("king", position.knowledge)), position.observation, legal
    raise AssertionError("no decision with three legal actions")


@pytest.mark.usefixtures("clock")
def test_when_no_round_fits_the_answer_is_the_policys_and_the_search_stops() -> None:
    model, observation, legal = _king_decision()
    calls = 0

    def last_legal(_state: Any, options: Sequence[Any], _rng: random.Random) -> Any:
        nonlocal calls
        calls += 1
        return options[-1]

    deals = PLANS["king"].deals
    assert deals is not None
    answer = pimc.choose(model, observation, legal, random.Random(1), budget_s=0.05,
                         evaluate=margin(deals), horizon=deals.deal, policy=last_legal)
    assert answer == legal[-1]  # the policy's own choice at the root
    # given up at twice the budget: the clock is read every 16 moves, 10 ms a reading
    assert calls <= 16 * 12


@pytest.mark.usefixtures("clock")
def test_a_round_cut_short_counts_for_nothing() -> None:
    model, observation, legal = _king_decision()
    deals = PLANS["king"].deals
    assert deals is not None
    evaluations = 0
    evaluate = margin(deals)

    def counted(state: Any) -> Sequence[float]:
        nonlocal evaluations
        evaluations += 1
        return evaluate(state)

    timed = pimc.choose(model, observation, legal, random.Random(2), budget_s=1.0,
                        evaluate=counted, horizon=deals.deal)
    whole, cut = divmod(evaluations, len(legal))
    assert whole >= 1 and cut > 0  # the budget ran out inside a round
    # the same deals, the whole rounds alone: the same answer
    assert pimc.choose(model, observation, legal, random.Random(2), budget_s=0.0,
                       evaluate=evaluate, horizon=deals.deal, rounds=whole) == timed


@pytest.mark.usefixtures("clock")
def test_when_no_round_fits_the_kept_action_is_the_answer() -> None:
    model, observation, legal = _king_decision()

    def last_legal(_state: Any, options: Sequence[Any], _rng: random.Random) -> Any:
        return options[-1]

    deals = PLANS["king"].deals
    assert deals is not None
    answer = pimc.choose(model, observation, legal, random.Random(1), budget_s=0.05,
                         evaluate=margin(deals), horizon=deals.deal, policy=last_legal,
                         keep=legal[1])
    assert answer == legal[1] != legal[-1]


def test_the_kept_action_stands_where_the_rollouts_tell_no_difference() -> None:
    """Every action scores the same in every round (the value does not depend on it): the
    best total is the first action's, by order, and the kept one, the last, stands."""
    model, observation, legal = _king_decision()
    calls = itertools.count()
    by_round = [random.Random(r).random() for r in range(20)]  # a value per round (its deal)

    def value_of_the_round(_state: Any) -> Sequence[float]:
        return [by_round[next(calls) // len(legal)]] * 4  # every action of a round in turn

    answer = pimc.choose(model, observation, legal, random.Random(3), budget_s=0.0,
                         evaluate=value_of_the_round, rounds=20, keep=legal[-1])
    assert answer == legal[-1]
    free = pimc.choose(model, observation, legal, random.Random(3), budget_s=0.0,
                       evaluate=lambda _state: [0.0] * 4, rounds=20)
    assert free == legal[0]  # without keep: the first of the equal totals


def test_an_action_replaces_the_kept_one_only_beyond_the_noise() -> None:
    """The paired differences' mean against Student's t standard errors: a steady lead of 0.2
    over ten rounds is beyond it; the same mean from differences of +-1.2 is not; one round
    never; a lead of 3.6 standard errors over 3 rounds is within the noise of so few (Student's
    t: 4.30, where z would say 2), the same differences over 30 rounds are not."""
    steady = [0.2] * 10
    noisy = [1.2, -0.8] * 5
    few = [1.0, 1.2, 0.4]  # mean 0.87, standard error 0.24: 3.6 of them
    many = few * 10  # the same mean over 30 rounds: 14 standard errors
    for diffs, beyond in ((steady, True), (noisy, False), ([5.0], False), (few, False),
                          (many, True)):
        squares = sum(d * d for d in diffs)
        assert pimc._beyond_noise(sum(diffs), squares, len(diffs)) is beyond, diffs


@pytest.mark.parametrize("name", ["king", "knives", "kill"])
def test_play_plays_a_legal_action_as_apply_does_and_apply_still_refuses(name: str) -> None:
    """``ForwardModel.play`` (a playout's move, unchecked) leaves every sampled state as
    ``apply`` would, move after move to the end; ``apply`` still refuses an illegal one."""
    game = get_game(name)
    position = next(positions(game, game.default_players, 5, every=9))
    model = ForwardModel(known=(name, position.knowledge))
    rng = random.Random(3)
    played = model.sample(position.observation, rng)
    applied = model.copy(played)
    while model.to_act(played) is not None:
        legal = model.legal_actions(played)
        assert list(model.legal_actions(applied)) == list(legal)
        action = legal[rng.randrange(len(legal))]
        model.play(played, action)
        model.apply(applied, action)
        seat = model.to_act(played)
        assert seat == model.to_act(applied)
        if seat is not None:
            assert model.observe(played, seat) == model.observe(applied, seat)
    assert model.outcome(played) == model.outcome(applied)
    with pytest.raises(IllegalActionError, match="not legal"):
        model.apply(played, legal[0])  # the match is over


@pytest.mark.parametrize("own_playout", [False, True])
def test_is_mcts_answers_a_legal_action_from_as_many_iterations_as_asked(
        own_playout: bool) -> None:
    """``sdk.mcts.search`` over a King decision: its random playouts (moves played unchecked,
    ``ForwardModel.play``) or a policy of the bot's own (checked); a legal answer, every
    iteration counted in the tree's first level, the same answer for the same generator."""
    model, observation, legal = _king_decision()

    def first_legal(_state: Any, actions: Sequence[Any]) -> Any:
        return actions[0]

    playout = first_legal if own_playout else None
    roots: list[mcts.Node] = []
    iterate = mcts.iterate

    def counted(model_: ForwardModel, root: mcts.Node, *args: Any) -> Any:
        if not roots:
            roots.append(root)
        return iterate(model_, root, *args)

    answers = []
    for _ in range(2):
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(mcts, "iterate", counted)
            roots.clear()
            answers.append(mcts.search(model, observation, random.Random(4), budget_s=60.0,
                                       playout=playout, iterations=24))
        assert answers[-1] in legal
        assert sum(child.visits for child in roots[0].children.values()) == 24
    assert answers[0] == answers[1]
