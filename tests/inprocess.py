"""An executor for tests of tournament logic that need no real process: each match is played
in this process through the referee, by random in-process seats (or the bots a test names),
and every step is recorded for the test to inspect."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping, Sequence

from arena.match.links import LocalLink
from arena.match.referee import MatchReport, run_match
from arena.tournament import Entrant, Executor, MatchJob
from sdk.bot import Bot
from sdk.local import BotPlayer
from tests.helpers import RandomPlayer


class InProcessExecutor(Executor):
    """Plays each job in this process through the referee, with no network and no process.

    With ``slow_first`` the earlier a match is in the schedule the longer it takes, so that
    matches played at once finish out of schedule order. ``bots``: by entrant (name@version),
    a new bot for each of its seats, where a random player would play it.
    """

    def __init__(self, slow_first: bool = False,
                 bots: Mapping[str, Callable[[], Bot]] | None = None) -> None:
        self.slow_first = slow_first
        self.bots = dict(bots or {})
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
        links = [LocalLink(BotPlayer(self.bots[entrant.name]()) if entrant.name in self.bots
                           else RandomPlayer(f"{job.seed}:{seat}"), threaded=False)
                 for seat, entrant in enumerate(job.seats)]

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
