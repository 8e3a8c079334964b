"""The Face Card / Kill Card heuristic against the random bot, as the demo seats them."""

from __future__ import annotations

import random

from bots.face_card_kill_card import FaceCardBot
from bots.random_bot import RandomBot
from sdk import Bot
from sdk.local import play_local

GAME = "face-card-kill-card"


def places_against_random(deals: int, seed: int) -> float:
    """The heuristic's share of the places between its seats and random's (ahead 1, tied 1/2):
    4 seats with 1, 2 and 3 heuristic seats, every seat rotation playing the same deal, as in
    a round-robin of the two bots."""
    rng = random.Random(seed)
    got = pairs = 0.0
    for _ in range(deals):
        for heuristic in (1, 2, 3):
            deal = rng.getrandbits(62)
            group = [True] * heuristic + [False] * (4 - heuristic)
            for shift in range(4):
                seating = group[shift:] + group[:shift]
                bots: list[Bot] = [FaceCardBot() if h else RandomBot(rng.getrandbits(32))
                                   for h in seating]
                ranks = play_local(GAME, bots, deal, event_delay_s=0).ranks
                for mine, h in zip(ranks, seating, strict=True):
                    for theirs, other in zip(ranks, seating, strict=True):
                        if h and not other:
                            got += 1.0 if mine < theirs else 0.5 if mine == theirs else 0.0
                            pairs += 1
    return got / pairs


def test_the_heuristic_takes_most_places_from_random() -> None:
    # 600 matches: 0.64 here, 0.63-0.645 with other seeds (random against itself: 0.5). The
    # bot it replaced (draw to 10 points, then chase only a far-ahead rival) got 0.60-0.62.
    share = places_against_random(deals=50, seed=17)
    assert share > 0.6, share
