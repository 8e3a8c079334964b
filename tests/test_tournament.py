"""Round-robin schedules: every group, every seat rotation, deterministic from the seed."""

from __future__ import annotations

from collections import Counter

import pytest

from arena.tournament.run import TournamentError, groups, rotations, round_robin


def test_more_bots_than_seats_plays_every_combination_in_every_rotation() -> None:
    schedule = round_robin([1, 2, 3, 4, 5], players=4, repetitions=1, seed=9)
    assert len(schedule) == 5 * 4
    assert {frozenset(m.seat_bot_ids) for m in schedule} == {
        frozenset(g) for g in groups([1, 2, 3, 4, 5], 4)}
    seats = Counter((bot, seat) for m in schedule for seat, bot in enumerate(m.seat_bot_ids))
    assert set(seats.values()) == {4}  # every bot sits in every seat equally often


def test_fewer_bots_than_seats_fills_the_extra_seats_evenly() -> None:
    assert groups([1, 2], 4) == [(1, 1, 1, 2), (1, 1, 2, 2), (1, 2, 2, 2)]
    schedule = round_robin([1, 2], players=4, repetitions=2, seed=1)
    assert len(schedule) == 2 * (4 + 4 + 4)
    per_bot = Counter(bot for m in schedule for bot in m.seat_bot_ids)
    assert per_bot[1] == per_bot[2]


def test_rotations_of_a_group_share_one_deal_and_the_schedule_is_reproducible() -> None:
    schedule = round_robin([1, 2, 3], players=3, repetitions=2, seed=42)
    assert schedule == round_robin([3, 1, 2], players=3, repetitions=2, seed=42)
    assert schedule != round_robin([1, 2, 3], players=3, repetitions=2, seed=43)
    first = [m for m in schedule[:3]]
    assert {m.seed for m in first} == {schedule[0].seed}
    assert [m.seat_bot_ids for m in first] == rotations((1, 2, 3))
    assert schedule[3].seed != schedule[0].seed  # the next repetition deals anew
    assert [m.index for m in schedule] == list(range(len(schedule)))


def test_rotations_skip_repeated_seatings() -> None:
    assert rotations((1, 1, 2, 2)) == [(1, 1, 2, 2), (1, 2, 2, 1), (2, 2, 1, 1), (2, 1, 1, 2)]
    assert rotations((1, 1)) == [(1, 1)]


def test_bad_schedules_are_refused() -> None:
    with pytest.raises(TournamentError, match="two different bots"):
        round_robin([1], players=2, repetitions=1, seed=0)
    with pytest.raises(TournamentError, match="repetitions"):
        round_robin([1, 2], players=2, repetitions=0, seed=0)
