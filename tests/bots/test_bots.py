"""The bundled bots: legal play for every game, and heuristics that beat random."""

from __future__ import annotations

import statistics
from collections.abc import Callable

import pytest

from arena.games import all_games, get_game
from bots.face_card_kill_card import FaceCardBot
from bots.random_bot import RandomBot
from sdk import Bot
from sdk.local import play_local


@pytest.mark.parametrize("name", list(all_games()))
def test_random_bot_plays_every_game_legally(name: str) -> None:
    game = get_game(name)
    for seed in range(5):
        result = play_local(name, [RandomBot(seed + s) for s in range(game.default_players)], seed)
        assert min(result.ranks) == 1


def mean_ranks(make: Callable[[], Bot], players: int, matches: int, game: str) -> tuple[float, float]:
    """Mean rank of the heuristic's seats and of the random seats, over rotated seatings."""
    mine: list[int] = []
    theirs: list[int] = []
    for seed in range(matches):
        count = 1 + seed % (players - 1)        # 1 .. players-1 heuristic seats
        shift = seed % players
        heuristic = [(s - shift) % players < count for s in range(players)]
        bots = [make() if h else RandomBot(seed * 100 + s) for s, h in enumerate(heuristic)]
        result = play_local(game, bots, seed)
        for seat, h in enumerate(heuristic):
            (mine if h else theirs).append(result.ranks[seat])
    return statistics.mean(mine), statistics.mean(theirs)


def test_face_card_heuristic_beats_random() -> None:
    mine, theirs = mean_ranks(FaceCardBot, 4, 300, "face-card-kill-card")
    assert mine < theirs - 0.15, (mine, theirs)
