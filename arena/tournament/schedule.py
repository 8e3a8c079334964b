"""Round-robin schedules: pure functions of the bots, the seats, the repetitions, a seed
for their order and the source of their deals.

A deal is secret: it comes from a :class:`Deals` key, 256 random bits kept with
the tournament and shown to no one (an HMAC of the repetition and the group, so
that every seat rotation of a group replays the same deal and a replay is
exact). Only on an operator's explicit request do deals come from the public
seed instead (research runs): a bot that knows the scheme can then search the
seed from what it sees and know every deal.

With duplicate deals, each rotation of a group is played by a different *lane*
of every bot in it (a process of its own, see the executor), so that no bot
process sees a deal twice. With independent deals every match has a deal of
its own and every bot one lane.
"""

from __future__ import annotations

import hashlib
import hmac
import itertools
import secrets
from collections.abc import Sequence
from dataclasses import dataclass, field

from arena.storage.store import ScheduledMatch
from arena.tournament.errors import TournamentError


@dataclass(frozen=True)
class Deals:
    """Where a tournament's deals come from, and whether its rotations share them."""

    key: str = field(default_factory=lambda: secrets.token_hex(32), repr=False)  # secret
    duplicate: bool = True  # every seat rotation of a group plays the same deal
    from_seed: bool = False  # derived from the public seed instead of the key (unsafe)

    def seed(self, public_seed: int, repetition: int, group: int, rotation: int) -> int:
        """The deal of one match (63 bits); ``public_seed`` counts only with ``from_seed``."""
        rotation = 0 if self.duplicate else rotation
        if self.from_seed:
            return match_seed(public_seed, repetition, group, rotation)
        data = f"{repetition}:{group}:{rotation}".encode()
        digest = hmac.new(bytes.fromhex(self.key), data, hashlib.sha256).digest()
        return int.from_bytes(digest[:8], "big") >> 1

    @property
    def stored_key(self) -> str | None:
        """What the store keeps: the key, unless the deals do not come from it."""
        return None if self.from_seed else self.key


def match_seed(tournament_seed: int, repetition: int, group: int, rotation: int = 0) -> int:
    """A deal from a public seed (``--deals-from-seed``): anyone who knows the seed knows it."""
    data = f"{tournament_seed}:{repetition}:{group}".encode()
    if rotation:  # rotation 0 keeps the deals of tournaments made before independent deals
        data += f":{rotation}".encode()
    return int.from_bytes(hashlib.sha256(data).digest()[:8], "big") >> 1


def groups(bot_ids: Sequence[int], players: int) -> list[tuple[int, ...]]:
    """Every group of ``players`` seats drawn from the bots.

    With at least as many bots as seats: every combination of distinct bots.
    With fewer: every bot plays, and the extra seats are filled by every
    multiset of the bots, so that no bot is favoured.
    """
    ids = sorted(set(bot_ids))
    if len(ids) < 1:
        raise TournamentError("a tournament needs at least one bot")
    if len(ids) >= players:
        return list(itertools.combinations(ids, players))
    return [tuple(sorted((*ids, *extra)))
            for extra in itertools.combinations_with_replacement(ids, players - len(ids))]


def rotations(group: tuple[int, ...]) -> list[tuple[int, ...]]:
    """The distinct cyclic seatings of a group (each bot takes each seat in turn)."""
    seen: list[tuple[int, ...]] = []
    for shift in range(len(group)):
        seating = group[shift:] + group[:shift]
        if seating not in seen:
            seen.append(seating)
    return seen


def round_robin(bot_ids: Sequence[int], players: int, repetitions: int,
                seed: int, deals: Deals | None = None) -> list[ScheduledMatch]:
    """The full schedule: for each repetition, every group in its first seat rotation, then
    every group in its second, and so on; each match's deal from ``deals`` (by default secret
    duplicates; ``seed`` is used only by deals from the public seed).

    Rotation after rotation, a duplicated deal's lane *r* (the bot processes that play
    rotation *r*) is first needed once every group has been played in the rotations before
    it: the executor starts the later lanes meanwhile, in the CPU the matches leave idle."""
    deals = deals or Deals()
    if len(set(bot_ids)) < 2:
        raise TournamentError("a round-robin needs at least two different bots")
    if repetitions < 1:
        raise TournamentError("repetitions must be at least 1")
    schedule: list[ScheduledMatch] = []
    for repetition in range(repetitions):
        seatings = [rotations(group) for group in groups(bot_ids, players)]
        for rotation in range(max(map(len, seatings), default=0)):
            for number, group_seatings in enumerate(seatings):
                if rotation >= len(group_seatings):
                    continue
                schedule.append(ScheduledMatch(
                    index=len(schedule), seed=deals.seed(seed, repetition, number, rotation),
                    seat_bot_ids=group_seatings[rotation],
                    lane=rotation if deals.duplicate else 0))
    return schedule
