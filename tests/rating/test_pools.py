"""Rating pools: a game with its standard rules is rated apart from its variants and other
targets, so quick or variant matches never move the standard ratings."""

from __future__ import annotations

import json
from pathlib import Path

from arena.games import base_game, get_game, pool_of
from arena.storage.store import Store
from tests.helpers import cli, migrated_store, result_for, round_robin, three_bots

GAME = "kill"


def test_a_pool_is_the_game_and_the_options_that_change_it() -> None:
    kill = get_game(GAME)
    assert kill.pool(kill.parse_options(4)) == "kill"
    assert kill.pool(kill.parse_options(4, {"target_score": "11"})) == "kill[target_score=11]"
    # a safety cap does not change the skill a match measures: the standard pool
    assert kill.pool(kill.parse_options(4, {"max_rounds": "50"})) == "kill"
    both = kill.parse_options(4, {"allow_false_claims": "true", "target_score": "60"})
    assert kill.pool(both) == "kill[target_score=60,allow_false_claims=true]"
    fckc = get_game("face-card-kill-card")
    assert fckc.pool(fckc.parse_options(4, {"dealer": "2"})) == "face-card-kill-card"
    assert pool_of("no-such-game", {"x": 1}) == "no-such-game"  # a record from elsewhere
    assert base_game("kill[target_score=11]") == base_game("kill") == "kill"
    for game in (get_game(name) for name in ("king", "knives", "kings-corner")):
        assert game.pool(game.parse_options(game.default_players, game.demo_options)) != game.name


def play(store: Store, options: dict[str, object], ids: list[int]) -> int:
    tid = store.create_tournament(GAME, 3, options, 1, 1, {}, ids, round_robin(ids, 3, 4))
    for match in store.claim_unfinished(tid):
        store.finish_match(match.id, result_for(match.seat_bot_ids, match.seed))
    return tid


def test_variant_matches_never_move_the_standard_ratings(tmp_path: Path) -> None:
    alone = migrated_store(tmp_path / "alone.db")
    ids = three_bots(alone)
    unplayed = alone.create_tournament(GAME, 3, {"target_score": 11}, 1, 1, {}, ids,
                                       round_robin(ids, 3, 4))
    alone.void_unfinished(unplayed)  # never played (its match ids taken: ties are ordered by id)
    play(alone, {"target_score": 31}, ids)
    mixed = migrated_store(tmp_path / "mixed.db")
    ids = three_bots(mixed)
    play(mixed, {"target_score": 11}, ids)  # quick matches first
    play(mixed, {"target_score": 31}, ids)
    standard = [(r.label, r.mu, r.sigma, r.matches) for r in mixed.leaderboard(pool=GAME)]
    assert standard == [(r.label, r.mu, r.sigma, r.matches) for r in alone.leaderboard(pool=GAME)]
    quick = mixed.leaderboard(pool="kill[target_score=11]")
    assert {r.matches for r in quick} == {12} and {r.game for r in quick} == {GAME}
    assert len(mixed.leaderboard(GAME)) == 6  # the game's every pool
    before = [(r.pool, r.label, r.mu, r.sigma) for r in mixed.leaderboard()]
    mixed.rebuild_ratings()
    assert [(r.pool, r.label, r.mu, r.sigma) for r in mixed.leaderboard()] == before


def test_the_leaderboard_shows_the_standard_pool_unless_asked(tmp_path: Path) -> None:
    db = tmp_path / "arena.db"
    store = Store(str(db))
    ids = three_bots(store)
    play(store, {"target_score": 11}, ids)
    shown = json.loads(cli("leaderboard", "--json", db=db).stdout)["leaderboard"]
    assert shown == []  # only quick matches were played
    every = json.loads(cli("leaderboard", "--all-pools", "--json", db=db).stdout)["leaderboard"]
    assert {(r["game"], r["pool"]) for r in every} == {(GAME, "kill[target_score=11]")}
    one = cli("leaderboard", "--pool", "kill[target_score=11]", db=db).stdout
    assert "kill[target_score=11]" in one and "ann@1" in one
