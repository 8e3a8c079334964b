"""The background worker of the win-probability graphs (arena.app.graph_worker), a real process
over a real SQLite file, as `arena web` and `arena serve` start it; matches played through the
real referee and stored as a tournament stores them.

It computes the graph of a finished match whose deal is over, and not of a finished rotation of
a duplicate deal while another rotation of it is pending, then running: it takes the matches
in the order they were rated, so once a match rated after that rotation has its graph, the
worker has looked at the rotation and held it. Once the deal is over it computes them all.
`arena match graph` does the same on demand, and refuses a rotation whose deal is in play.
"""

from __future__ import annotations

from pathlib import Path

from arena.app.graph_worker import GraphWorker
from arena.games import get_game
from arena.storage.store import Store, StoredGraph
from arena.tournament.schedule import round_robin
from tests.helpers import cli, eventually, migrated_store
from tests.web.replay_fixtures import random_bots, store_played_match
from tests.web.test_traveller_secrecy import play

GAME = "face-card-kill-card"
PLAYERS = 3
CAP_S = 0.5


def duplicate_deal(store: Store) -> list[int]:
    """A tournament of one duplicate deal in three rotations, none played: their ids."""
    ids = random_bots(store, PLAYERS)
    options = dict(get_game(GAME).parse_options(PLAYERS))
    tid = store.create_tournament(GAME, PLAYERS, options, 4, 1, {}, ids,
                                  round_robin(ids, PLAYERS, 1, 4))
    deal = sorted(store.tournament_matches(tid), key=lambda m: m.index)
    assert len(deal) == PLAYERS and len({m.seed for m in deal}) == 1
    return [m.id for m in deal]


def test_the_worker_waits_for_a_deal_to_be_over(tmp_path: Path) -> None:
    db = tmp_path / "arena.db"
    store = migrated_store(db)
    deal = duplicate_deal(store)
    with GraphWorker(store.url, CAP_S, poll_s=0.1) as worker:
        assert worker.process is not None and worker.process.is_alive()
        play(store, deal[0])  # one rotation finished (and rated), two pending
        alone = store_played_match(store, GAME, PLAYERS, 7)  # rated after it, its deal over
        graph = eventually("the graph of the match whose deal is over",
                           lambda: store.win_graph(alone))
        assert graph.error is None and graph.cpu_s <= CAP_S + 0.1
        assert store.win_graph(deal[0]) is None  # looked at before, and held

        assert store.mark_running(deal[1])  # another rotation running: still held
        later = store_played_match(store, GAME, PLAYERS, 8)
        eventually("the graph of a match rated later", lambda: store.win_graph(later))
        assert store.win_graph(deal[0]) is None

        play(store, deal[1])  # it finishes, then the last one: the deal is over
        assert store.win_graph(deal[1]) is None
        play(store, deal[2])
        def every_graph() -> list[StoredGraph] | None:
            found = [store.win_graph(m) for m in deal]
            return [g for g in found if g is not None] if None not in found else None

        graphs = eventually("every rotation's graph", every_graph)
        for match_id, made in zip(deal, graphs, strict=True):
            assert made.error is None
            assert made.steps == len(made.evaluated)  # a short match: every step computed
            assert made.chances[-1] == tuple(
                1.0 / sum(s.rank == 1 for s in store.get_match(match_id).seats)
                if s.rank == 1 else 0.0
                for s in sorted(store.get_match(match_id).seats, key=lambda s: s.seat))
    assert worker.process is None  # stopped with its context
    store.close()


def test_arena_match_graph_computes_on_demand_once_the_deal_is_over(tmp_path: Path) -> None:
    db = tmp_path / "arena.db"
    store = migrated_store(db)
    deal = duplicate_deal(store)
    play(store, deal[0])
    alone = store_played_match(store, GAME, PLAYERS, 7)

    refused = cli("match", "graph", str(deal[0]), db=db, check=False)
    assert refused.returncode == 1
    assert refused.stderr.strip() == (f"error: match {deal[0]} deals the same cards as match "
                                      f"{deal[1]}, which is not finished yet: match {deal[0]} "
                                      "is shown once that match has finished")
    pending = cli("match", "graph", "--pending", "--cpu", "1", db=db)
    assert f"match {alone}: " in pending.stdout and f"match {deal[0]}:" not in pending.stdout
    assert "1 graph computed; 1 wait for another rotation of their deal" in pending.stdout
    assert store.win_graph(alone) is not None and store.win_graph(deal[0]) is None

    not_yet = cli("match", "graph", str(deal[1]), db=db, check=False)
    assert not_yet.returncode == 1
    assert not_yet.stderr.strip() == (f"error: match {deal[1]} is pending: its win-probability "
                                      "graph is computed once it has finished")
    for match_id in deal[1:]:
        play(store, match_id)
    again = cli("match", "graph", str(deal[0]), "--cpu", "1", db=db)
    assert again.stdout.startswith(f"match {deal[0]}: ") and "steps computed" in again.stdout
    rest = cli("match", "graph", "--pending", db=db)
    assert rest.stdout.splitlines()[-1] == "2 graphs computed"
    assert all(store.win_graph(m) is not None for m in deal)
    store.close()
