"""A stored log replays through the referee to the very same match, faults included."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Sequence
from typing import Any

from arena.games import get_game
from arena.match.links import LocalLink
from arena.match.protocol import MatchEnd, MatchStart
from arena.match.referee import MatchReport, MatchSettings, run_match
from arena.match.replay import LogLine, read_log, replay

GAME = "kill"
OPTIONS = dict(get_game(GAME).parse_options(4, {"rounds": "1"}))


class Player:
    """Random legal actions; from its ``fail_at``-th decision on, an illegal answer."""

    def __init__(self, seed: int, fail_at: int | None = None) -> None:
        self.random = random.Random(seed)
        self.fail_at = fail_at
        self.decisions = 0

    def start(self, start: MatchStart) -> None:
        pass

    def events(self, events: Sequence[Any]) -> None:
        pass

    def act(self, observation: Any, legal_actions: Sequence[Any]) -> Any:
        self.decisions += 1
        if self.fail_at is not None and self.decisions >= self.fail_at:
            return "not an action"
        return self.random.choice(legal_actions)

    def end(self, end: MatchEnd) -> None:
        pass


def _play(players: list[Player], seed: int) -> MatchReport:
    async def main() -> MatchReport:
        links = [LocalLink(p, threaded=False) for p in players]

        async def ready(link: LocalLink) -> LocalLink:
            return link

        return await run_match(game_name=GAME, players=len(players), seed=seed, options=OPTIONS,
                               links=[ready(link) for link in links],
                               settings=MatchSettings(move_timeout_s=0))

    return asyncio.run(main())


def test_a_match_with_a_faulted_seat_replays_to_the_same_log() -> None:
    report = _play([Player(1, fail_at=3), Player(2), Player(3), Player(4)], seed=9)
    assert report.faults[0] == "illegal-action"
    lines = read_log(GAME, report.log)
    fallbacks = [line for line in lines if line.kind == "decision" and line.fallback]
    assert fallbacks and all(line.seat == 0 for line in fallbacks)
    assert replay(GAME, 4, 9, OPTIONS, lines)


def test_a_log_that_was_changed_does_not_replay() -> None:
    report = _play([Player(1), Player(2), Player(3), Player(4)], seed=5)
    lines = read_log(GAME, report.log)
    assert replay(GAME, 4, 5, OPTIONS, lines)
    assert not replay(GAME, 4, 6, OPTIONS, lines), "another deal"
    events = [i for i, line in enumerate(lines) if line.kind == "event"]
    dropped = lines[:events[-1]] + lines[events[-1] + 1:]
    assert not replay(GAME, 4, 5, OPTIONS, dropped), "an event missing"
    decisions = [i for i, line in enumerate(lines) if line.kind == "decision"]
    first = lines[decisions[0]]
    swapped = list(lines)
    swapped[decisions[0]] = LogLine("decision", first.value, first.seat, fallback=True)
    assert not replay(GAME, 4, 5, OPTIONS, swapped), "a bot's own move marked as the fallback's"
