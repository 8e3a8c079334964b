"""Shared pieces: result rows, timing, and an in-memory :class:`arena.match.links.Link`."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from arena.match.protocol import Choice, Decision, MatchEnd, MatchStart, Reply
from arena.net.seat_wire import SeatWire
from arena.v1 import arena_pb2 as pb


@dataclass
class Row:
    """One line of the results table."""

    section: str
    metric: str
    value: float
    unit: str
    reference: str = ""
    reference_value: float | None = None
    ratio: float | None = None
    target: str = ""
    met: bool | None = None
    note: str = ""

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def timed_loop(body: Callable[[], int], seconds: float) -> tuple[int, int, float]:
    """Call ``body`` until ``seconds`` of this process's CPU time have passed.

    Returns (calls, sum of what it returned, CPU seconds). CPU time rather than
    wall time: on a machine shared with other work, a single-threaded loop's
    wall time mostly measures the neighbours.
    """
    calls = total = 0
    began = time.process_time()
    while True:
        total += body()
        calls += 1
        elapsed = time.process_time() - began
        if elapsed >= seconds:
            return calls, total, elapsed


class InstantLink:
    """A seat whose bot answers every decision at once with a random legal index.

    After ``park_after`` decisions it stops answering: the referee waits for ever
    on that seat's next decision (cancel the match to end it). ``journal``, when
    given, receives (seat, message) for everything the referee sends, in order,
    as the ``arena.v1.RefereeMessage`` a gRPC link would have sent.
    """

    def __init__(self, seat: int = 0, park_after: int | None = None,
                 journal: list[tuple[int, pb.RefereeMessage]] | None = None,
                 game: str = "king") -> None:
        self._inbox: asyncio.Queue[Reply | None] = asyncio.Queue()
        self._random = random.Random(seat)
        self._seat = seat
        self._park_after = park_after
        self.decisions = 0
        self._journal = journal
        self._wire = SeatWire.for_game(game)
        self.parked = asyncio.Event()

    def _record(self, data: bytes) -> None:
        if self._journal is not None:
            self._journal.append((self._seat, pb.RefereeMessage.FromString(data)))

    async def start(self, start: MatchStart) -> None:
        if self._journal is not None:
            self._record(self._wire.start(start))

    async def decide(self, decision: Decision) -> None:
        if self._journal is not None:
            self._record(self._wire.decision(decision))
        self.decisions += 1
        if self._park_after is not None and self.decisions > self._park_after:
            self.parked.set()
            return
        index = self._random.randrange(len(decision.legal_actions))
        self._inbox.put_nowait(Choice(decision.decision_id, index=index))

    async def events(self, events: Sequence[Any]) -> None:
        if self._journal is not None:
            self._record(self._wire.events(events))

    async def notice(self, text: str, decision_id: int) -> None:
        if self._journal is not None:
            self._record(self._wire.notice(text, decision_id))

    async def end(self, end: MatchEnd) -> None:
        if self._journal is not None:
            self._record(self._wire.end(end))

    async def receive(self, timeout: float | None) -> Reply | None:
        return await self._inbox.get()

    async def close(self) -> None:
        pass


async def ready(link: InstantLink) -> InstantLink:
    return link
