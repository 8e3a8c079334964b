"""Deals come from a secret; rotations of a duplicated deal go to different lanes of each bot."""

from __future__ import annotations

import hashlib
import hmac
from collections import defaultdict

import pytest
import sqlalchemy as sa

from arena.storage.store import Store
from arena.tournament import RunSettings, create_tournament
from arena.tournament.schedule import Deals, match_seed, round_robin
from arena.tournament.setup import DUPLICATE, INDEPENDENT

GAME = "face-card-kill-card"


def test_rotations_share_a_secret_deal_each_on_its_own_lane() -> None:
    deals = Deals()
    schedule = round_robin([1, 2, 3, 4], 3, 2, seed=7, deals=deals)
    by_deal: dict[int, list[int]] = defaultdict(list)
    for match in schedule:
        by_deal[match.seed].append(match.lane)
    assert len(by_deal) == 2 * 4  # a deal per group and repetition
    assert all(sorted(lanes) == [0, 1, 2] for lanes in by_deal.values())  # one rotation per lane
    # rotation after rotation in each repetition: lane r is first needed once every group was
    # played in the rotations before it (the executor starts it meanwhile)
    assert [(m.index // 12, m.lane) for m in schedule] == sorted(
        (repetition, lane) for repetition in range(2) for lane in range(3) for _ in range(4))
    assert round_robin([1, 2, 3, 4], 3, 2, 7, Deals(key=deals.key)) == schedule  # exact replays
    other = round_robin([1, 2, 3, 4], 3, 2, 7, Deals())
    assert not {m.seed for m in other} & set(by_deal)  # the same --seed, other deals
    public = {match_seed(7, r, g) for r in range(2) for g in range(4)}
    assert not public & set(by_deal)  # nothing a seed search could find
    key = bytes.fromhex(deals.key)
    first = schedule[0]
    assert first.seed == int.from_bytes(
        hmac.new(key, b"0:0:0", hashlib.sha256).digest()[:8], "big") >> 1


def test_independent_deals_give_every_match_its_own_deal_and_one_lane() -> None:
    schedule = round_robin([1, 2, 3, 4], 3, 2, 7, Deals(duplicate=False))
    assert len({m.seed for m in schedule}) == len(schedule) == 2 * 4 * 3
    assert {m.lane for m in schedule} == {0}


def test_deals_from_the_seed_only_when_asked_and_then_reproducible() -> None:
    one = round_robin([1, 2, 3], 2, 1, 7, Deals(from_seed=True))
    assert one == round_robin([1, 2, 3], 2, 1, 7, Deals(from_seed=True))
    assert {m.seed for m in one} == {match_seed(7, 0, g) for g in range(3)}
    assert Deals(from_seed=True).stored_key is None


def test_a_tournament_keeps_its_key_apart_from_its_settings(store: Store) -> None:
    for name in ("a", "b", "c"):
        store.add_bot(name, "python -m bots.random_bot")
    tid = create_tournament(store, GAME, ["a", "b", "c"], 2, 1, 7, {}, RunSettings())
    engine = sa.create_engine(f"sqlite:///{store.path}")
    with engine.connect() as connection:
        key, settings = connection.execute(
            sa.text("select deal_key, settings from tournament where id = :t"), {"t": tid}).one()
        seeds = [int(s) for (s,) in connection.execute(
            sa.text("select seed from match where tournament_id = :t order by \"index\""),
            {"t": tid})]
    engine.dispose()
    assert len(key) == 64 and key not in settings
    assert '"deals": "duplicate"' in settings
    assert seeds == [m.seed for m in round_robin([1, 2, 3], 2, 1, 7, Deals(key=key))]


@pytest.mark.parametrize(("asked", "expected", "warned"), [
    (None, INDEPENDENT, False), (DUPLICATE, DUPLICATE, True), (INDEPENDENT, INDEPENDENT, False)])
def test_with_a_remote_bot_deals_are_independent_unless_forced(
        store: Store, asked: str | None, expected: str, warned: bool) -> None:
    store.add_bot("a", "python -m bots.random_bot")
    store.add_bot("b", "python -m bots.random_bot")
    store.add_bot("far", token_hash="0" * 64)
    said: list[str] = []
    settings = RunSettings(listen="127.0.0.1:0")
    tid = create_tournament(store, GAME, ["a", "b", "far"], 2, 1, 7, {}, settings, asked,
                            notice=said.append)
    assert store.get_tournament(tid).settings["deals"] == expected
    matches = store.claim_unfinished(tid)
    assert len({m.seed for m in matches}) == (3 if expected == DUPLICATE else 6)
    assert {m.lane for m in matches} == ({0, 1} if expected == DUPLICATE else {0})
    assert bool(said) == warned
    if warned:
        assert "far@1" in said[0] and "remember" in said[0]
