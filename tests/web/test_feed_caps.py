"""Live feeds cannot stall the referee: on a real ``arena serve`` playing a tournament of
sandboxed bots on a 100 ms move clock (and a small time bank), an attacker opens 400 live
feeds at once on a match that has not started (then more from other addresses). All but the
caps are refused: with a 429 and one line, or, past the connections one address may hold
(arena.net.doors), closed at once. The tournament plays on with no fault and every match
accounted for; the web still answers; the feeds held open end, saying why, once the match
has kept them waiting (``arena serve --live-wait``: :data:`LIVE_WAIT_S` here), and their
places are free again."""

from __future__ import annotations

import asyncio
import collections
import json
import os
from collections.abc import AsyncIterator
from pathlib import Path

import httpx

from arena.games import get_game
from arena.match.faults import Fault
from arena.net.doors import PER_ADDRESS
from arena.storage.store import MatchStatus, Store
from leaderboard.web.replay import MAX_FEEDS_PER_CLIENT, MAX_FEEDS_PER_MATCH
from tests.helpers import cli, eventually_async, fault_reasons
from tests.served import OPERATOR, Served, eventually, remote

GAME = "face-card-kill-card"
REPETITIONS = 40  # 240 short matches: the tournament outlasts the attack's burst (60 did not on
# a quiet machine once the server stopped pausing for garbage collections)
BANK_S = 30.0
"""Each seat's time bank per match, beside the 100 ms move clock: a bot late now and then on a
loaded machine is not faulted (5 s was not enough in the suite's first minutes, a Ray cluster
starting beside it: one seat of 240 timed out), one held up for good (the live feeds' old
cost: a tournament went from 25 matches a minute to 1, seconds late at every move) soon is."""
ATTEMPTS = 400
LIVE_WAIT_S = 20.0  # the server's wait for a match to start, below the default (60 s)
OTHERS = [f"127.0.0.{i}" for i in range(2, 12)]  # more attackers, each from its own address


class Attacker:
    """Opens live feeds from one address and holds the accepted ones open."""

    def __init__(self, web: str, address: str) -> None:
        self.web = web
        self.client = httpx.AsyncClient(
            base_url=web, timeout=httpx.Timeout(120, read=None),
            transport=httpx.AsyncHTTPTransport(local_address=address, limits=httpx.Limits(
                max_connections=None, max_keepalive_connections=0)))
        self.held: list[tuple[httpx.Response, AsyncIterator[str]]] = []  # and its lines
        self.refusals: list[str] = []

    async def open(self, match_id: int) -> int:
        """The reply's status; 0 for a connection the server closed unanswered (the web's
        door caps connections per address, below this many at once)."""
        try:
            response = await self.client.send(
                self.client.build_request("GET", f"/api/matches/{match_id}/live"), stream=True)
        except (httpx.RemoteProtocolError, httpx.ReadError, httpx.ConnectError):
            return 0
        if response.status_code == 200:
            lines = response.aiter_lines()  # kept: dropped, it would close the connection
            assert await anext(lines) == "retry: 2000"
            self.held.append((response, lines))
        else:
            self.refusals.append(json.loads(await response.aread())["error"])
            await response.aclose()
        return response.status_code

    async def ends(self) -> list[list[str]]:
        """The rest of every held feed, read to its end."""
        async def rest(response: httpx.Response, lines: AsyncIterator[str]) -> list[str]:
            found = [line async for line in lines]
            await response.aclose()
            return found
        return list(await asyncio.gather(*(rest(*held) for held in self.held)))

    async def close(self) -> None:
        for response, _ in self.held:
            await response.aclose()
        await self.client.aclose()


def test_live_feeds_are_capped_and_cannot_stall_a_tournament(tmp_path: Path) -> None:
    db = tmp_path / "arena.db"
    for i in range(3):
        cli("bot", "add", f"random{i}", "--command", f"python -m bots.random_bot --seed {i}",
            db=db)
    with Store(str(db)) as store:
        bots = [store.get_bot(f"random{i}").id for i in range(2)]
        pending = store.create_match(GAME, dict(get_game(GAME).parse_options(2)), 9, bots)
    served = Served(db, "--live-wait", f"{LIVE_WAIT_S:g}")
    store = Store(str(db))
    try:
        created = json.loads(remote(
            served, OPERATOR,
            "tournament", "create", "--game", GAME, "--bot", "random0", "--bot", "random1",
            "--bot", "random2", "--players", "2", "-n", str(REPETITIONS), "--move-timeout",
            "0.1", "--time-bank", str(BANK_S), "--parallel", "2", "--json").stdout)["tournament"]
        tid, total = created["id"], created["total"]
        eventually("the tournament's first match", lambda: any(
            m.status is not MatchStatus.PENDING for m in store.tournament_matches(tid)))

        async def attack() -> None:
            main = Attacker(served.web, "127.0.0.1")
            others = [Attacker(served.web, address) for address in OTHERS]
            try:
                codes = collections.Counter(await asyncio.gather(
                    *(main.open(pending) for _ in range(ATTEMPTS))))
                assert (await asyncio.to_thread(store.get_tournament, tid)).status != \
                    "finished", "the attack came too late: the tournament had finished"
                assert codes[200] == MAX_FEEDS_PER_CLIENT, codes
                assert codes[429] + codes[0] == ATTEMPTS - MAX_FEEDS_PER_CLIENT, codes
                assert codes[429] >= PER_ADDRESS - MAX_FEEDS_PER_CLIENT, codes  # past the door
                assert set(main.refusals) == {f"{MAX_FEEDS_PER_CLIENT} live feeds are open from "
                                              "your address already; close one first"}
                more = collections.Counter(await asyncio.gather(
                    *(a.open(pending) for a in others for _ in range(MAX_FEEDS_PER_CLIENT))))
                room = MAX_FEEDS_PER_MATCH - MAX_FEEDS_PER_CLIENT
                assert more == {200: room, 429: len(OTHERS) * MAX_FEEDS_PER_CLIENT - room}
                assert {r for a in others for r in a.refusals} == {
                    f"{MAX_FEEDS_PER_MATCH} live feeds follow match {pending} already; "
                    "try again later"}

                async with httpx.AsyncClient(base_url=served.web, timeout=30) as web:
                    async def finished() -> bool:
                        if (await asyncio.to_thread(store.get_tournament, tid)).status == "finished":
                            return True
                        home = await web.get("/api/home")  # the web answers meanwhile
                        assert home.status_code == 200
                        return False

                    await eventually_async("the tournament's end", finished, every=0.5)
                    assert (await web.get("/")).status_code == 200

                ends = await main.ends()  # the held feeds end when the match keeps them waiting
                for lines in ends:
                    assert "event: end" in lines and "event: frame" not in lines
                    end = json.loads(lines[lines.index("event: end") + 1].removeprefix("data: "))
                    assert end["status"] == "pending"
                    assert end["reason"] == (f"match {pending} has not started after "
                                             f"{LIVE_WAIT_S:g} s: this feed ends; open it "
                                             "again once the match runs")
                main.held.clear()
                assert await main.open(pending) == 200  # their places are free again
            finally:
                await main.close()
                for other in others:
                    await other.close()

        asyncio.run(attack())
        counts = store.match_counts([tid])[tid]
        assert counts == {MatchStatus.FINISHED: total}, counts  # every match accounted for
        faults = [(m.id, s.seat, s.fault) for m in store.tournament_matches(tid)
                  for s in m.seats if s.fault != Fault.NONE]
        assert faults == [], ("the tournament recorded faults under the attack",
                              fault_reasons(db), os.getloadavg())
        assert store.get_match(pending).status is MatchStatus.PENDING
    finally:
        output = served.stop()
        store.close()
    assert "Traceback" not in output, output
