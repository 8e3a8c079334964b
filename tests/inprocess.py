"""An executor for tests of tournament logic that need no real process: each match is played
in this process through the referee, by random in-process seats, and every step is recorded
for the test to inspect."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

from arena.match.links import LocalLink
from arena.match.referee import MatchReport, run_match
from arena.tournament import Entrant, Executor, MatchJob
from tests.helpers import RandomPlayer


class InProcessExecutor(Executor):
    """Plays each job in this process through the referee, with no network and no process.

    With ``slow_first`` the earlier a match is in the schedule the longer it takes, so that
    matches played at once finish out of schedule order.
    """

    def __init__(self, slow_first: bool = False) -> None:
        self.slow_first = slow_first
        self.started: list[list[Entrant]] = []
        self.jobs: list[MatchJob] = []
        self.finished: list[int] = []  # job indices, in the order their matches ended
        self.reports: dict[int, MatchReport] = {}
        self.closed = 0

    async def start(self, entrants: Sequence[Entrant]) -> None:
        self.started.append(list(entrants))

    async def play(self, job: MatchJob) -> MatchReport:
        self.jobs.append(job)
        if self.slow_first:
            await asyncio.sleep(max(0.0, 0.3 - 0.03 * job.index))
        links = [LocalLink(RandomPlayer(f"{job.seed}:{seat}"), threaded=False)
                 for seat in range(job.players)]

        async def ready(link: LocalLink) -> LocalLink:
            return link

        report = await run_match(game_name=job.game, players=job.players, seed=job.seed,
                                 options=dict(job.options), links=[ready(link) for link in links],
                                 settings=job.clocks, match_id=str(job.match_id),
                                 seat_names=[seat.name for seat in job.seats])
        self.finished.append(job.index)
        self.reports[job.match_id] = report
        return report

    async def close(self) -> None:
        self.closed += 1


__all__ = ["InProcessExecutor"]
