"""A stored log replays through the referee to the very same match, faults included."""

from __future__ import annotations

import asyncio

from arena.games import get_game
from arena.match.links import LocalLink
from arena.match.referee import MatchReport, MatchSettings, run_match
from arena.match.replay import LogLine, read_log, replay
from tests.helpers import RandomPlayer

GAME = "kill"
OPTIONS = dict(get_game(GAME).parse_options(4, {"rounds": "1"}))


def _play(players: list[RandomPlayer], seed: int) -> MatchReport:
    async def main() -> MatchReport:
        links = [LocalLink(p, threaded=False) for p in players]

        async def ready(link: LocalLink) -> LocalLink:
            return link

        return await run_match(game_name=GAME, players=len(players), seed=seed, options=OPTIONS,
                               links=[ready(link) for link in links],
                               settings=MatchSettings(move_timeout_s=0))

    return asyncio.run(main())


def test_a_match_with_a_faulted_seat_replays_to_the_same_log() -> None:
    report = _play([RandomPlayer(1, fail_at=3), RandomPlayer(2), RandomPlayer(3), RandomPlayer(4)], seed=9)
    assert report.faults[0] == "illegal-action"
    lines = read_log(GAME, report.log)
    fallbacks = [line for line in lines if line.kind == "decision" and line.fallback]
    assert fallbacks and all(line.seat == 0 for line in fallbacks)
    assert replay(GAME, 4, 9, OPTIONS, lines)


def test_a_log_that_was_changed_does_not_replay() -> None:
    report = _play([RandomPlayer(1), RandomPlayer(2), RandomPlayer(3), RandomPlayer(4)], seed=5)
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
