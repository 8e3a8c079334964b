"""A bot's figures by condition: by seat, by first to act and by its game's own conditions (King's
contracts, Knives' roles, who dealt), each with its count and interval, as the bot's page and
its JSON show them; a match whose deal another rotation has still to play counts nowhere."""

from __future__ import annotations

import asyncio
import math
import random
from collections import Counter, defaultdict
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from arena.games import all_games, get_game
from arena.match.links import LocalLink
from arena.match.referee import MatchReport, MatchSettings, run_match
from arena.match.replay import read_log
from arena.rating.conditions import HandsTally, SeatTally, mean_interval, places, points
from arena.rating.stats import wilson_interval
from arena.storage.store import MatchResult, MatchStatus, Store
from arena.tournament import RunSettings, create_tournament, run_until_done
from bots.king import KingBot
from leaderboard.web.app import create_app
from tests.helpers import RandomPlayer, migrated_store
from tests.inprocess import InProcessExecutor


def _played(game: str, players: int, seed: int) -> MatchReport:
    """A match of random seats through the referee."""
    async def ready(link: LocalLink) -> LocalLink:
        return link

    links = [LocalLink(RandomPlayer(f"{seed}:{seat}"), threaded=False) for seat in range(players)]
    return asyncio.run(run_match(
        game_name=game, players=players, seed=seed,
        options=dict(get_game(game).parse_options(players)), links=[ready(x) for x in links],
        settings=MatchSettings(move_timeout_s=0, start_timeout_s=0, event_delay_s=0)))


def _tally(seat: int, first: bool | None, *ranks: int, faulted: int = 0) -> SeatTally:
    """Seats of King at four, in one seat, with ``ranks``, and ``faulted`` more that faulted."""
    places = [*ranks, *[4] * faulted]  # a faulted seat ranks last
    return SeatTally("king", 4, seat, first, len(places), ranks.count(1), sum(places),
                     sum(r * r for r in places))


def test_wins_and_ranks_by_seat_and_first_to_act_with_their_intervals() -> None:
    found = {(f.condition, f.value): f for f in places([
        _tally(0, True, 1, 2), _tally(0, False, 1), _tally(0, None, faulted=1),
        _tally(2, False, 3), _tally(9, None, 2)])}
    assert list(found) == [("seat", "1"), ("seat", "3"), ("seat", "10"),  # 10 after 3
                           ("first to act", "no"), ("first to act", "yes")]
    first = found[("seat", "1")]
    assert (first.seats, first.wins, first.mean_rank) == (4, 2, 2.0)  # ranks 1, 2, 1, 4
    assert first.win_interval == wilson_interval(0.5, 4)
    half = 1.959963984540054 * math.sqrt(2 / 4)  # ranks 1, 1, 2, 4: sample variance 2
    assert first.rank_interval == pytest.approx((2 - half, 2 + half))
    assert found[("seat", "3")].rank_interval is None  # one seat: no interval
    # the seats whose first decision is not recorded count by seat only
    assert (found[("first to act", "yes")].seats, found[("first to act", "no")].seats) == (2, 2)
    assert found[("first to act", "yes")].wins == 1


def test_mean_points_a_hand_with_a_normal_interval() -> None:
    values = [-40.0, 0.0, 20.0, -100.0, 0.0]
    tally = HandsTally("king", "contract", "no hearts", len(values), sum(values),
                       sum(v * v for v in values))
    (figure,) = points([tally, HandsTally("king", "contract", "no men", 0, 0.0, 0.0)])
    assert figure.mean == -24.0 and figure.hands == 5
    spread = 1.959963984540054 * math.sqrt(
        sum((v + 24) ** 2 for v in values) / 4 / 5)
    assert figure.interval == pytest.approx((-24 - spread, -24 + spread))
    assert mean_interval(1, 5.0, 25.0) is None


@pytest.mark.parametrize(("game", "players", "condition"), [("king", 4, "contract"),
                                                            ("knives", 5, "role")])
def test_each_scored_hand_gives_every_seat_its_condition_and_points(
        game: str, players: int, condition: str) -> None:
    for seed in range(6):
        report = _played(game, players, seed)
        found = report.situations()
        events = [line.value for line in read_log(game, report.log) if line.kind == "event"]
        hands = sum(type(e).__name__ == "HandScored" for e in events)
        assert hands >= 1
        for kind in (condition, "dealer"):
            mine = [s for s in found if s.kind == kind]
            assert Counter(s.seat for s in mine) == {seat: hands for seat in range(players)}
            per_seat: dict[int, float] = defaultdict(float)
            for s in mine:
                per_seat[s.seat] += s.points
            # the hands' points add up to each seat's score of the match
            assert tuple(per_seat[seat] for seat in range(players)) == report.scores
        assert sum(s.value == "dealer" for s in found) == hands  # one dealer a hand
        if game == "knives":
            scored = [e for e in events if type(e).__name__ == "HandScored"]
            roles = [s.value for s in found if s.kind == "role"]
            assert Counter(roles)["banker"] + Counter(roles)["banker alone"] == sum(
                e.banker is not None for e in scored)
            assert set(roles) <= {"banker", "banker alone", "shadow", "defender", "leaster",
                                  "moster"}


def test_games_without_hands_of_their_own_name_no_condition() -> None:
    for name in all_games():
        if name not in ("king", "knives"):
            report = _played(name, get_game(name).min_players, 1)
            assert report.situations() == []
            assert report.first_to_act() == next(line.seat for line in read_log(
                name, report.log) if line.kind == "decision")


def _finished_seats(store: Store, bot: str) -> list[tuple[int, int, int, int]]:
    """The bot's seats in finished matches: (match, seat, first to act, rank), from the logs."""
    found = []
    for info in store.list_matches(limit=1000, status=MatchStatus.FINISHED):
        match = store.get_match(info.id)
        assert match.log is not None
        first = next(line.seat for line in read_log(match.game, match.log)
                     if line.kind == "decision")
        for seat in match.seats:
            if seat.bot == bot:
                assert first is not None and seat.rank is not None
                found.append((match.id, seat.seat, first, seat.rank))
    return found


def test_a_bot_page_gives_its_figures_by_seat_first_to_act_and_contract(tmp_path: Path) -> None:
    """A round-robin of King through the tournament's own run and store (the bots in this
    process); the page's figures equal those read from the stored match logs."""
    store = migrated_store(tmp_path / "arena.db")
    for name in ("ann", "bob", "cy", "dee"):
        store.add_bot(name, "python -m bots.king")
    tid = create_tournament(store, "king", ["ann", "bob", "cy", "dee"], 4, 3, 7, {},
                            RunSettings(), deals_from_seed=True)
    run_until_done(store, tid, tmp_path, RunSettings(parallel=2), executor=InProcessExecutor(
        bots={label: KingBot for label in ("bob@1", "cy@1", "dee@1")}))  # ann: random
    assert store.get_tournament(tid).finished == 12

    web = TestClient(create_app(store))
    found = web.get("/api/bots/ann").json()["bot"]["conditions"]
    mine = _finished_seats(store, "ann@1")
    assert found["seats_read"] == len(mine) == 12
    by = {(p["condition"], p["value"]): p for p in found["places"]}
    for seat in range(4):  # every rotation: three matches in each seat
        row = by[("seat", str(seat + 1))]
        assert row["seats"] == 3 == sum(1 for m in mine if m[1] == seat)
        assert row["wins"] == sum(1 for m in mine if m[1] == seat and m[3] == 1)
        assert row["mean_rank"] == pytest.approx(sum(m[3] for m in mine if m[1] == seat) / 3)
    first = sum(1 for m in mine if m[1] == m[2])
    assert by[("first to act", "yes")]["seats"] == first
    assert by[("first to act", "no")]["seats"] == 12 - first

    # each contract's hands and mean points, as the logs' scored hands give them
    hands: dict[str, list[float]] = defaultdict(list)
    for match_id, seat, _, _ in mine:
        log = store.get_match(match_id).log
        assert log is not None
        for line in read_log("king", log):
            if type(line.value).__name__ == "HandScored":
                hands[line.value.kind.name.lower().replace("_", " ")].append(
                    line.value.scores[seat])
    contracts = {p["value"]: p for p in found["points"] if p["condition"] == "contract"}
    assert set(contracts) == set(hands)
    for kind, scores in hands.items():
        assert contracts[kind]["hands"] == len(scores)
        assert contracts[kind]["mean"] == pytest.approx(sum(scores) / len(scores))
    dealt = {p["value"]: p["hands"] for p in found["points"] if p["condition"] == "dealer"}
    assert dealt["dealer"] + dealt["not dealer"] == sum(map(len, hands.values()))

    page = web.get("/bots/ann")
    assert page.status_code == 200 and "By condition" in page.text
    assert "contract: positive" in page.text and "first to act: yes" in page.text
    store.close()


def test_a_match_whose_deal_another_rotation_has_still_to_play_counts_nowhere(
        tmp_path: Path) -> None:
    store = migrated_store(tmp_path / "arena.db")
    for name in ("ann", "bob", "cy", "dee"):
        store.add_bot(name, "python -m bots.king")
    tid = create_tournament(store, "king", ["ann", "bob", "cy", "dee"], 4, 1, 5, {},
                            RunSettings(), deals_from_seed=True)
    rotations = sorted(store.list_matches(tid, status=MatchStatus.PENDING), key=lambda m: m.id)
    assert len(rotations) == 4  # one deal, four seat rotations
    ann = store.get_bot("ann")
    rng = random.Random(3)

    def finish(match_id: int) -> None:
        report = _played("king", 4, rng.randrange(1000))
        store.mark_running(match_id)
        store.finish_match(match_id, MatchResult(
            report.scores, report.ranks, report.faults, report.log,
            first_to_act=report.first_to_act(), situations=tuple(report.situations())))

    finish(rotations[0].id)
    seats, hands = store.bot_conditions(ann.id, 100)
    assert seats == [] and hands == []  # three rotations of its deal still to play
    for match in rotations[1:]:
        finish(match.id)
    seats, hands = store.bot_conditions(ann.id, 100)
    assert sorted((s.seat, s.seats) for s in seats) == [(0, 1), (1, 1), (2, 1), (3, 1)]
    assert {h.condition for h in hands} == {"contract", "dealer"}
    assert sum(s.seats for s in store.bot_conditions(ann.id, 3)[0]) == 3  # its latest only
    store.close()
