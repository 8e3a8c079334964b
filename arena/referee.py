"""The referee: runs one match of any game between seats reached over links.

It owns the clocks, the decision ids, the faults and the fallback policy, and
knows no game's rules beyond the engine contract. A *link* is one seat's two-way
channel to its bot (the gRPC server provides them; tests may provide others).

A seat that times out, disconnects, crashes, never shows up or answers with an
illegal or malformed action is marked with that fault; from then on the
fallback policy (a random legal action from a generator of the referee's own)
plays for it, and it ranks last in the match.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from arena.codec import FAULT_NAMES, GameCodec, codec_for, encode_options
from arena.games import get_game
from arena.games.base import GameError, OptionValue, Outcome, competition_ranks
from arena.v1 import arena_pb2 as pb


class Link(Protocol):
    """One seat's channel to its bot."""

    async def send(self, message: pb.RefereeMessage) -> None:
        """Deliver a message; silently drops it once the bot is gone."""

    async def receive(self, timeout: float | None) -> pb.BotMessage | None:
        """The bot's next message; ``None`` once the stream is closed.

        Raises ``TimeoutError`` when nothing arrives within ``timeout`` seconds.
        """

    def drain(self) -> list[pb.BotMessage]:
        """Messages that arrived while no decision was pending (taken, without waiting)."""

    async def close(self) -> None:
        """End the stream (the match is over for this seat)."""


MAX_NOTICES = 20  # rejected messages answered with a notice, per seat and match


@dataclass(frozen=True)
class MatchSettings:
    move_timeout_s: float = 10.0   # per decision; 0 means no deadline
    start_timeout_s: float = 30.0  # for every seat to connect
    time_bank_s: float = 0.0       # per seat and match: extra time for slow decisions


@dataclass
class MatchReport:
    """What a finished match leaves behind: outcome after faults, faults, the log."""

    scores: tuple[float, ...]
    ranks: tuple[int, ...]
    faults: tuple[str, ...]
    log: bytes
    decisions: int
    rejected_replies: int
    started_at: float
    duration_s: float


@dataclass
class _Seat:
    link: Link | None
    bank: float = 0.0  # what is left of the seat's time bank
    fault: pb.Fault = pb.FAULT_NONE
    rejected: int = 0
    notes: list[str] = field(default_factory=list)

    @property
    def playing(self) -> bool:
        return self.link is not None and self.fault == pb.FAULT_NONE


def ranks_after_faults(outcome: Outcome, faulted: Sequence[bool]) -> tuple[int, ...]:
    """Faulting seats share the last place; the others keep their order ahead of them."""
    if not any(faulted):
        return outcome.ranks
    keys = [(0, 0) if bad else (1, -rank) for rank, bad in zip(outcome.ranks, faulted, strict=True)]
    return competition_ranks(keys)


async def run_match(
    *,
    game_name: str,
    players: int,
    seed: int,
    options: dict[str, OptionValue],
    links: Sequence[Awaitable[Link]],
    settings: MatchSettings,
    match_id: str = "",
    seat_names: Sequence[str] = (),
    is_alive: Callable[[int], Awaitable[bool]] | None = None,
) -> MatchReport:
    """Play one match to the end. ``links[s]`` resolves when seat s's bot connects.

    ``is_alive(seat)`` tells whether the process behind a seat still runs, to
    tell a crash from a disconnect.
    """
    game = get_game(game_name)
    codec = codec_for(game_name)
    state = game.new(players, seed, options)
    started_at = time.time()
    clock = time.monotonic()
    fallback = random.Random(f"fallback:{seed}")
    seats = await _connect(links, settings.start_timeout_s)
    for seat in seats:
        seat.bank = settings.time_bank_s
    log = pb.MatchLog()

    start = pb.MatchStart(match_id=match_id, game=game.name, game_version=game.version,
                          players=players, seat_names=list(seat_names),
                          move_timeout_s=settings.move_timeout_s,
                          time_bank_s=settings.time_bank_s)
    encode_options(dict(options), start.options)
    for number, seat in enumerate(seats):
        if seat.link is not None:
            start.seat = number
            await seat.link.send(pb.RefereeMessage(start=start))

    await _broadcast(codec, seats, game.opening_events(state), log)
    decision_id = 0
    while (to_act := game.to_act(state)) is not None:
        legal = list(game.legal_actions(state))
        seat = seats[to_act]
        asked_at = time.monotonic()
        action: Any = None
        if seat.playing:
            decision_id += 1
            action = await _ask(codec, seat, decision_id, game.observe(state, to_act), legal,
                                settings.move_timeout_s)
            if settings.move_timeout_s > 0:  # time beyond the move's own comes from the bank
                over = time.monotonic() - asked_at - settings.move_timeout_s
                seat.bank = max(0.0, seat.bank - max(0.0, over))
            if seat.fault == pb.FAULT_DISCONNECTED and is_alive is not None \
                    and not await is_alive(to_act):
                seat.fault = pb.FAULT_CRASHED
        used_fallback = action is None
        if used_fallback:
            action = fallback.choice(legal)
        events = game.apply(state, action)
        entry = log.entries.add().decision
        entry.decision_id = decision_id if not used_fallback else 0
        entry.seat = to_act
        codec.action(action, into=entry.action)
        entry.fallback = used_fallback
        entry.seconds = time.monotonic() - asked_at
        await _broadcast(codec, seats, events, log)

    outcome = game.outcome(state)
    assert outcome is not None
    faulted = [s.fault != pb.FAULT_NONE for s in seats]
    ranks = ranks_after_faults(outcome, faulted)
    end = pb.MatchEnd(scores=list(outcome.scores), ranks=list(ranks), faults=[s.fault for s in seats])
    for seat in seats:
        if seat.link is not None:
            seat.rejected += len(seat.link.drain())
            if seat.playing:
                await seat.link.send(pb.RefereeMessage(end=end))
            await seat.link.close()
    return MatchReport(
        scores=outcome.scores,
        ranks=ranks,
        faults=tuple(FAULT_NAMES[s.fault] for s in seats),
        log=log.SerializeToString(),
        decisions=decision_id,
        rejected_replies=sum(s.rejected for s in seats),
        started_at=started_at,
        duration_s=time.monotonic() - clock,
    )


async def _connect(links: Sequence[Awaitable[Link]], timeout: float) -> list[_Seat]:
    """Wait (together, up to ``timeout``) for every seat's bot to connect."""
    tasks = [asyncio.ensure_future(link) for link in links]
    if tasks:
        await asyncio.wait(tasks, timeout=timeout or None)
    seats = []
    for task in tasks:
        if task.done() and not task.cancelled() and task.exception() is None:
            seats.append(_Seat(task.result()))
        else:
            task.cancel()
            seats.append(_Seat(None, fault=pb.FAULT_NO_SHOW))
    return seats


async def _ask(codec: GameCodec, seat: _Seat, decision_id: int, observation: Any,
               legal: list[Any], timeout_s: float) -> Any:
    """Ask a seat for a decision; the action, or ``None`` with the seat's fault set."""
    assert seat.link is not None
    for stale in seat.link.drain():
        await _reject(seat, stale, decision_id)
    if timeout_s > 0:
        timeout_s += seat.bank
    request = pb.DecisionRequest(decision_id=decision_id, time_left_s=timeout_s,
                                 observation=codec.observation(observation),
                                 legal_actions=[codec.action(a) for a in legal])
    await seat.link.send(pb.RefereeMessage(decision=request))
    deadline = time.monotonic() + timeout_s if timeout_s > 0 else None
    while True:
        remaining = None if deadline is None else max(0.0, deadline - time.monotonic())
        try:
            message = await seat.link.receive(remaining)
        except TimeoutError:
            seat.fault = pb.FAULT_TIMEOUT
            return None
        if message is None:
            seat.fault = pb.FAULT_DISCONNECTED
            return None
        kind = message.WhichOneof("kind")
        if kind != "choice" or message.choice.decision_id != decision_id:
            await _reject(seat, message, decision_id)
            continue
        choice = message.choice
        pick = choice.WhichOneof("pick")
        if pick == "index":
            if choice.index < len(legal):
                return legal[choice.index]
            seat.fault = pb.FAULT_ILLEGAL_ACTION
            return None
        if pick == "action":
            try:
                action = codec.decode_action(choice.action)
            except (GameError, ValueError):
                seat.fault = pb.FAULT_MALFORMED
                return None
            if action in legal:
                return action
            seat.fault = pb.FAULT_ILLEGAL_ACTION
            return None
        seat.fault = pb.FAULT_MALFORMED
        return None


async def _reject(seat: _Seat, message: pb.BotMessage, decision_id: int) -> None:
    """A stale, duplicate, forged or out-of-place message: counted, answered, never applied.

    Only the first ``MAX_NOTICES`` per seat and match are answered, so that a bot
    cannot make the referee write without end (and block on a bot that never reads).
    """
    assert seat.link is not None
    seat.rejected += 1
    if seat.rejected > MAX_NOTICES:
        return
    kind = message.WhichOneof("kind")
    await seat.link.send(pb.RefereeMessage(notice=pb.Notice(
        text=f"rejected: expected a choice for decision {decision_id}",
        decision_id=message.choice.decision_id if kind == "choice" else 0)))


async def _broadcast(codec: GameCodec, seats: Sequence[_Seat], events: Sequence[Any],
                     log: pb.MatchLog) -> None:
    """Log every event with its audience and send each seat the ones it may see."""
    if not events:
        return
    encoded = []
    for tagged in events:
        entry = log.entries.add().event
        wire = codec.event(tagged.event, into=entry.event)
        entry.public = tagged.visible_to is None
        if tagged.visible_to is not None:
            entry.visible_to.extend(sorted(tagged.visible_to))
        encoded.append((tagged, wire))
    sends = []
    for number, seat in enumerate(seats):
        if not seat.playing or seat.link is None:
            continue
        mine = [wire for tagged, wire in encoded if tagged.visible(number)]
        if mine:
            sends.append(seat.link.send(pb.RefereeMessage(events=pb.Events(events=mine))))
    await asyncio.gather(*sends)  # to every seat at once
