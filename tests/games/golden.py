"""Golden transcripts of random matches: proof that a faster engine plays the same game.

For a game, its options and a seed, :func:`transcript_digest` plays a whole random match
(the policy seeded too) and digests everything the engine shows: the legal actions at every
decision, the action taken, the observation of the seat to act, the events each seat
receives and the public ones, a clone's legal actions, and the final outcome. Any change of a
rule, an observation, an event or the engine's random stream changes the digest.

``python -m tests.games.golden`` rewrites :data:`GOLDEN` from the engines as they are now:
only ever before a change meant to keep behaviour, never to make a failing check pass.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from arena.games import all_games
from arena.games.base import Game, Tagged

GOLDEN = Path(__file__).with_name("golden.json")
SEEDS = 60
# (game, players, options, label): both variants of each game's rules
CASES: tuple[tuple[str, int, Mapping[str, Any], str], ...] = (
    ("king", 4, {}, "standard"),
    ("king", 4, {"quick": True}, "quick"),
    ("king", 4, {"quick": True, "first_dealer": 2, "pass_is_final": False,
                 "forfeit_without_auction": True, "play_out_all_tricks": False}, "quick-options"),
    ("knives", 5, {}, "standard"),
    ("knives", 5, {"target_score": 6}, "quick"),
    ("knives", 5, {"target_score": 6, "simplified_rules": True, "simplified_scoring": True},
     "simplified"),
)


def case_key(game: str, players: int, label: str) -> str:
    return f"{game}/{players}/{label}"


def transcript_digest(game: Game[Any, Any, Any], players: int, seed: int,
                      options: Mapping[str, Any]) -> str:
    """The digest of one random match's whole transcript (see the module's docstring)."""
    digest = hashlib.sha256()

    def put(value: object) -> None:
        digest.update(repr(value).encode())
        digest.update(b"\n")

    def send(tagged: list[Tagged]) -> None:
        for seat in (None, *range(players)):
            put((seat, [t.event for t in tagged if t.visible(seat)]))

    state = game.new(players, seed, options)
    policy = random.Random(seed)
    send(game.opening_events(state))
    while (seat := game.to_act(state)) is not None:
        legal = list(game.legal_actions(state))
        put((seat, legal, game.observe(state, seat)))
        if policy.randrange(8) == 0:  # a clone offers the same now (and leaves the original be)
            put(list(game.legal_actions(game.clone(state))))
        send(game.apply(state, legal[policy.randrange(len(legal))]))
    put(game.outcome(state))
    return digest.hexdigest()[:16]


def digests(game_name: str, players: int, options: Mapping[str, Any], seeds: range) -> list[str]:
    game = all_games()[game_name]
    return [transcript_digest(game, players, seed, options) for seed in seeds]


def _write() -> None:
    recorded = {case_key(name, players, label): digests(name, players, options, range(SEEDS))
                for name, players, options, label in CASES}
    GOLDEN.write_text(json.dumps(recorded, indent=1) + "\n")
    print(f"written {GOLDEN}", file=sys.stderr)


if __name__ == "__main__":
    _write()
