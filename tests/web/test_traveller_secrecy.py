"""A deal's traveller exists only once every rotation of the deal is over (the secrecy rule of
arena.app.visibility): a real web server over a real store, a duplicate tournament scheduled
by the real scheduler, its matches played by the real referee (random players, one of them
answering illegal actions, so that a seat faults and the referee's fallback plays it).

One rotation of a deal finished while another is pending, then running: the traveller's page
and JSON refuse in one line, and nothing of the finished rotation's cards is in them; the
tournament page links the deals that are over, not that one. Then the deal ends, its last
rotation void: the traveller shows the two rotations played and says the third is void.
"""

from __future__ import annotations

import asyncio
import random
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx

from arena.games import get_game
from arena.match.conformance import UNTIMED
from arena.match.links import LocalLink, Player
from arena.match.referee import run_match
from arena.match.replay import describe, read_log, steps
from arena.storage.store import MatchInfo, MatchResult, MatchStatus, Store
from arena.tournament.schedule import round_robin
from tests.helpers import migrated_store
from tests.web.replay_fixtures import RandomPlayer, Server, random_bots, tokens
from tests.web.test_traveller import check_traveller

GAME = "face-card-kill-card"
PLAYERS = 3


class Illegal(Player):
    """A seat that answers an action of no game: it faults at once, and the referee's
    fallback plays it from there."""

    def act(self, observation: Any, legal_actions: Sequence[Any]) -> Any:
        return object()


def play(store: Store, match_id: int, illegal: int | None = None) -> None:
    """Play a stored match through the real referee from its stored deal (random players, each
    seeded by the match and its seat; seat ``illegal`` answering illegal actions) and store it
    as a tournament does: running, then finished with its log."""
    match = store.get_match(match_id)
    store.mark_running(match_id)
    players: list[Player] = [Illegal() if seat == illegal else
                             RandomPlayer(random.Random(f"{match_id}:{seat}"))
                             for seat in range(len(match.seats))]
    links = [LocalLink(player, threaded=False) for player in players]

    async def ready(link: LocalLink) -> LocalLink:
        return link

    report = asyncio.run(run_match(game_name=match.game, players=len(players), seed=match.seed,
                                   options=dict(match.options),
                                   links=[ready(link) for link in links], settings=UNTIMED))
    assert store.finish_match(match_id, MatchResult(
        scores=report.scores, ranks=report.ranks, faults=report.faults, log=report.log,
        duration_s=report.duration_s, reasons=report.reasons))


def seen_cards(match: MatchInfo) -> set[str]:
    """Every card any seat of a finished match held or saw, at any step (its real deal,
    stepped through its log): what its full view shows."""
    game = get_game(match.game)
    found: set[str] = set()
    for step in steps(match.game, len(match.seats), match.seed, dict(match.options),
                      read_log(match.game, match.log or b"")):
        for seat in range(len(match.seats)):
            found |= tokens(describe(game.observe(step.state, seat)))
        found |= tokens(" ".join(describe(line.value) for line in step.events))
    return found


def links_in(page: str) -> list[str]:
    """The traveller links of a tournament page."""
    return [str(link) for link in re.findall(r'<a class="traveller" href="([^"]+)">', page)]


@dataclass
class Site:
    url: str

    def get(self, path: str) -> httpx.Response:
        return httpx.get(self.url + path, timeout=60)

    def json(self, path: str) -> Any:
        reply = self.get(path)
        assert reply.status_code == 200, (path, reply.status_code, reply.text)
        return reply.json()


def test_no_traveller_while_a_rotation_of_its_deal_is_to_play(tmp_path: Path) -> None:
    store = migrated_store(tmp_path / "arena.db")
    ids = random_bots(store, PLAYERS)
    options = dict(get_game(GAME).parse_options(PLAYERS))
    tid = store.create_tournament(GAME, PLAYERS, options, 9, 2, {}, ids,
                                  round_robin(ids, PLAYERS, 2, 9))  # two duplicate deals
    schedule = sorted(store.tournament_matches(tid), key=lambda m: m.index)
    held, over = schedule[:PLAYERS], schedule[PLAYERS:]
    assert len({m.seed for m in held}) == 1 and len({m.seed for m in over}) == 1
    assert held[0].seed != over[0].seed
    play(store, over[0].id, illegal=0)  # a deal played in every rotation, a seat faulting
    for match in over[1:]:
        play(store, match.id)
    play(store, held[0].id)  # one rotation of the other deal finished, two pending
    cards = seen_cards(store.get_match(held[0].id))
    assert len(cards) >= PLAYERS, cards  # a hole card each at least

    with Server(store) as server:
        site = Site(server.url)

        def refused(other: int) -> None:
            for match in held:  # any rotation's id finds the deal: refused alike
                for prefix in ("", "/api"):
                    reply = site.get(f"{prefix}/tournaments/{tid}/deals/{match.id}")
                    assert reply.status_code == 403, (prefix, match.id, reply.text)
                    message = reply.json()["error"] if prefix else reply.text
                    assert f"the traveller of deal {held[0].id} is shown once every rotation" \
                        f" of it is over: match {held[0].id} deals the same cards as match " \
                        f"{other}, which is not finished yet" in message
                    if prefix:
                        assert reply.json() == {"version": 1, "error": message}
                        assert "\n" not in message
                    else:
                        assert reply.headers["content-type"].startswith("text/html")
                    assert not tokens(reply.text) & cards, "the finished rotation's cards"
            page = site.get(f"/tournaments/{tid}").text  # links the deal over, not this one
            assert set(links_in(page)) == {f"/tournaments/{tid}/deals/{over[0].id}"}

        refused(held[1].id)  # the other rotations pending
        assert store.mark_running(held[1].id)
        refused(held[1].id)  # one of them running

        play(store, held[1].id)  # it finishes; the last one is given up: the deal is over
        assert store.void_match(held[2].id)
        deal = [store.get_match(m.id) for m in held]
        assert [m.status for m in deal] == [MatchStatus.FINISHED, MatchStatus.FINISHED,
                                            MatchStatus.VOID]
        doc = site.json(f"/api/tournaments/{tid}/deals/{held[0].id}")["traveller"]
        check_traveller(site, doc, deal)
        assert [r["void"] for r in doc["rotations"]] == [False, False, True]
        assert doc["rotations"][2]["replay"] is None and doc["finished"] == 2
        assert all(seat["top"] == 1 for r in doc["rotations"][:2] for seat in r["seats"])
        page = site.get(f"/tournaments/{tid}/deals/{held[0].id}")
        assert page.status_code == 200
        assert "void: it never finished; not counted" in page.text
        assert set(links_in(site.get(f"/tournaments/{tid}").text)) == {
            f"/tournaments/{tid}/deals/{over[0].id}", f"/tournaments/{tid}/deals/{held[0].id}"}

        # the deal with a faulting seat: it places last, whatever rank it had
        played = [store.get_match(m.id) for m in over]
        assert played[0].seats[0].fault
        doc = site.json(f"/api/tournaments/{tid}/deals/{over[0].id}")["traveller"]
        check_traveller(site, doc, played)
        assert doc["rotations"][0]["seats"][0]["place"] == PLAYERS
    store.close()
