"""The rating order: which finished matches may be rated now, and their numbers."""

from __future__ import annotations

import random

from arena.rating.order import Unrated, numbered, ready_to_rate


def test_a_tournament_rates_only_the_matches_before_its_first_match_still_to_play() -> None:
    unrated = [Unrated(14, 4), Unrated(11, 1), Unrated(12, 2), Unrated(16, 6)]
    assert ready_to_rate(unrated, 3) == [11, 12]  # in schedule order, not as given
    assert ready_to_rate(unrated, 1) == []  # the first match is still to play: nothing waits less
    assert ready_to_rate(unrated, 5) == [11, 12, 14]
    assert ready_to_rate(unrated, None) == [11, 12, 14, 16]  # nothing left to play: every one


def test_a_match_outside_a_tournament_is_rated_at_once_and_nothing_is_rated_from_nothing() -> None:
    assert ready_to_rate([Unrated(7, 0)], None) == [7]
    assert ready_to_rate([], None) == []
    assert ready_to_rate([], 0) == []


def test_the_order_is_the_schedule_whatever_order_the_matches_finished_in() -> None:
    matches = [Unrated(100 + i, i) for i in range(50)]
    draw = random.Random(3)
    for _ in range(20):
        shuffled = draw.sample(matches, len(matches))
        first_to_play = draw.choice([None, *range(50)])
        got = ready_to_rate(shuffled, first_to_play)
        limit = 50 if first_to_play is None else first_to_play
        assert got == [100 + i for i in range(limit)]


def test_places_shared_by_two_matches_are_ordered_by_id() -> None:
    assert ready_to_rate([Unrated(9, 0), Unrated(3, 0), Unrated(5, 1)], None) == [3, 9, 5]


def test_numbers_follow_the_last_one_given() -> None:
    assert numbered([11, 12, 14], 41) == [(11, 42), (12, 43), (14, 44)]
    assert numbered([5], None) == [(5, 1)]  # the first match ever rated
    assert numbered([], 9) == []
