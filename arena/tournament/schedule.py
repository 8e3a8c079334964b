"""Schedules (round-robin, gauntlet, a match between two bots): pure functions of the
bots, the seats, the repetitions or sets, a seed and the source of their deals.

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
    """Every group of ``players`` seats drawn from the bots (see :func:`fill`): with at least
    as many bots as seats every combination of distinct bots; with fewer, every bot plays and
    the extra seats are filled by every multiset of the bots, so that no bot is favoured."""
    if len(set(bot_ids)) < 1:
        raise TournamentError("a tournament needs at least one bot")
    return fill(bot_ids, players)


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
    """Every group of the bots, in every seat rotation, ``repetitions`` times (see
    :func:`by_rotation`)."""
    if len(set(bot_ids)) < 2:
        raise TournamentError("a round-robin needs at least two different bots")
    return by_rotation(groups(bot_ids, players), repetitions, seed, deals)


def gauntlet(challenger_ids: Sequence[int], field_ids: Sequence[int], players: int,
             repetitions: int, seed: int, deals: Deals | None = None) -> list[ScheduledMatch]:
    """Each challenger against the field: every group of one challenger and ``players - 1``
    seats of the field (drawn as :func:`groups` draws them), in every seat rotation. The field
    never plays itself, and challengers never meet."""
    challengers, field_ = sorted(set(challenger_ids)), sorted(set(field_ids))
    if not challengers or not field_:
        raise TournamentError("a gauntlet needs at least one challenger and a field of at "
                              "least one bot")
    if set(challengers) & set(field_):
        raise TournamentError("a bot cannot be both a challenger and in the field")
    return by_rotation([(c, *rest) for c in challengers for rest in fill(field_, players - 1)],
                       repetitions, seed, deals)


def versus(a: int, b: int, field_ids: Sequence[int], players: int, sets: int, seed: int,
           deals: Deals | None = None) -> list[ScheduledMatch]:
    """A match between two bots over ``sets`` duplicate sets: set *k* is one deal played in
    every seat rotation of a group of A, B and ``players - 2`` seats of the field (the field's
    draws taken in turn, set after set). Set after set, each complete before the next, so that
    the sets finished at any moment are the first ones (what a sequential test reads)."""
    deals = deals or Deals()
    if a == b:
        raise TournamentError("a match between two bots needs two different bots")
    field_ = sorted(set(field_ids))
    if {a, b} & set(field_):
        raise TournamentError("the two bots of a match cannot also be in its field")
    if players > 2 and not field_:
        raise TournamentError(f"a {players}-player game needs a field for the {players - 2} "
                              "other seats")
    if sets < 1:
        raise TournamentError("a match between two bots needs at least one set")
    others = fill(field_, players - 2)
    schedule: list[ScheduledMatch] = []
    for number in range(sets):
        group = (a, b, *others[number % len(others)])
        for rotation, seating in enumerate(rotations(group)):
            schedule.append(ScheduledMatch(
                index=len(schedule), seed=deals.seed(seed, number, 0, rotation),
                seat_bot_ids=seating, lane=rotation if deals.duplicate else 0))
    return schedule


def fill(bot_ids: Sequence[int], seats: int) -> list[tuple[int, ...]]:
    """Every way to fill ``seats`` seats from the bots: each combination of distinct bots, or
    with fewer bots than seats every multiset that seats each bot at least once."""
    if seats == 0:
        return [()]
    ids = sorted(set(bot_ids))
    if len(ids) >= seats:
        return list(itertools.combinations(ids, seats))
    return [tuple(sorted((*ids, *extra)))
            for extra in itertools.combinations_with_replacement(ids, seats - len(ids))]


def by_rotation(group_list: Sequence[tuple[int, ...]], repetitions: int, seed: int,
                deals: Deals | None = None) -> list[ScheduledMatch]:
    """The schedule of ``group_list``: for each repetition, every group in its first seat
    rotation, then every group in its second, and so on; each match's deal from ``deals`` (by
    default secret duplicates; ``seed`` is used only by deals from the public seed).

    Rotation after rotation, a duplicated deal's lane *r* (the bot processes that play
    rotation *r*) is first needed once every group has been played in the rotations before
    it: the executor starts the later lanes meanwhile, in the CPU the matches leave idle."""
    deals = deals or Deals()
    if repetitions < 1:
        raise TournamentError("repetitions must be at least 1")
    schedule: list[ScheduledMatch] = []
    seatings = [rotations(group) for group in group_list]
    for repetition in range(repetitions):
        for rotation in range(max(map(len, seatings), default=0)):
            for number, group_seatings in enumerate(seatings):
                if rotation >= len(group_seatings):
                    continue
                schedule.append(ScheduledMatch(
                    index=len(schedule), seed=deals.seed(seed, repetition, number, rotation),
                    seat_bot_ids=group_seatings[rotation],
                    lane=rotation if deals.duplicate else 0))
    return schedule
