"""A deal stays secret while any rotation of it is unfinished, at every door of a real
``arena serve`` (the web app and the operator service), by one rule (arena.app.visibility).

The attack: a duplicate-deal tournament plays the same cards in two seat rotations. Once one
rotation has finished, its *public* view (the cards played, drawn face up, shown down) tells
anyone reading it the cards the other rotation, still running, has yet to see: its hands,
its stock. The gate bot (tests/web/arena_serve.py), in the real sandbox, holds each rotation
running until the test lets it go, so that the attack is made at the moment it matters.
"""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any

import grpc
import httpx

from arena.match.replay import read_log
from arena.storage.store import MatchInfo, MatchStatus, Store
from arena.v1 import arena_pb2 as pb
from arena.v1 import arena_pb2_grpc as pb_grpc
from tests.helpers import cli
from tests.served import AUTH, OPERATOR, Served, eventually, remote
from tests.web.arena_serve import gate_bot, release
from tests.web.replay_fixtures import hidden_cards, tokens

GAME = "kings-corner"  # every card played goes to the table, face up: public events name cards
VIEWS = ("public", "seat:0", "seat:1", "full")


class Follower:
    """A spectator following a match's live feed on the web, in a thread: every line it got."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.lines: list[str] = []
        self.status: int | None = None
        self.started = threading.Event()
        self.thread = threading.Thread(target=self._follow, daemon=True)
        self.thread.start()

    def _follow(self) -> None:
        try:
            with httpx.stream("GET", self.url, timeout=httpx.Timeout(30, read=600)) as stream:
                self.status = stream.status_code
                self.started.set()
                for line in stream.iter_lines():
                    self.lines.append(line)
        finally:
            self.started.set()

    def frames(self) -> int:
        return sum(line == "event: frame" for line in self.lines)

    def end(self) -> dict[str, Any]:
        """The ``end`` event's data, once it has come."""
        self.thread.join(timeout=120)
        assert not self.thread.is_alive(), "the live feed did not end"
        at = self.lines.index("event: end")
        data: dict[str, Any] = json.loads(self.lines[at + 1].removeprefix("data: "))
        return data


def _code(call: Any) -> grpc.StatusCode:
    try:
        call()
    except grpc.RpcError as err:
        assert isinstance(err, grpc.Call)
        code: grpc.StatusCode = err.code()
        return code
    return grpc.StatusCode.OK


def _held(store: Store, tid: int) -> list[tuple[MatchInfo, bytes]] | None:
    """Both rotations, running, each with a running log holding the gate bot's first two
    decisions (at its third it waits), in the order of the gate bot's seat; else None."""
    matches = store.tournament_matches(tid)
    if len(matches) != 2 or any(m.status is not MatchStatus.RUNNING for m in matches):
        return None
    found = []
    for match in sorted(matches, key=lambda m: [s.bot for s in m.seats].index("gate@1")):
        seat = [s.bot for s in match.seats].index("gate@1")
        data = store.live_log(match.id)
        if data is None or sum(line.kind == "decision" and line.seat == seat
                               for line in read_log(GAME, data)) < 2:
            return None
        found.append((match, data))
    return found


def test_no_view_of_a_finished_rotation_while_another_rotation_of_its_deal_runs(
        tmp_path: Path, sandboxed: None) -> None:
    db = tmp_path / "arena.db"
    gate = gate_bot(tmp_path / "gate")
    cli("bot", "add", "gate", "--command", "python bot.py", "--dir", str(gate), db=db)
    cli("bot", "add", "random", "--command", "python -m bots.random_bot", db=db)
    ann = cli("author", "add", "ann", db=db).stdout.splitlines()[2].strip()
    author = (("authorization", f"Bearer {ann}"),)
    served = Served(db)
    store = Store(str(db))
    try:
        created = json.loads(remote(
            served, OPERATOR,
            "tournament", "create", "--game", GAME, "--bot", "gate", "--bot", "random",
            "--players", "2", "--deals", "duplicate", "--parallel", "2", "--move-timeout",
            "600", "--json").stdout)["tournament"]
        tid = created["id"]
        held = eventually("both rotations held running", lambda: _held(store, tid))
        assert held is not None
        (first, _), (second, _) = held
        assert first.seed == second.seed, "the two rotations deal the same cards"
        web = httpx.Client(base_url=served.web, timeout=30)
        # a spectator follows each rotation live: the match being played, its public view
        followers = [Follower(f"{served.web}/api/matches/{m.id}/live") for m in (first, second)]
        for follower in followers:
            assert follower.started.wait(60) and follower.status == 200
        eventually("the live feeds' first frames", lambda: all(f.frames() for f in followers))

        release(gate, 0, fail=True)  # the first rotation finishes (its gate bot failing) ...
        eventually("the first rotation to finish",
                   lambda: store.get_match(first.id).status is MatchStatus.FINISHED)
        twin = store.get_match(second.id)
        assert twin.status is MatchStatus.RUNNING  # ... while the second is still held
        secret = hidden_cards(twin, store.live_log(second.id) or b"")
        assert len(secret) >= 20, secret  # the hands and the stock of the running rotation

        # the live feed that followed the first rotation ends without its last frames
        end = followers[0].end()
        assert end["status"] == "finished" and end["match"] is None
        assert f"deals the same cards as match {second.id}" in end["reason"]
        followed = followers[0].frames()

        bodies: dict[str, str] = {}
        for url in (f"/matches/{first.id}", f"/api/matches/{first.id}/replay"):
            for view in VIEWS:
                response = web.get(url, params={"view": view})
                bodies[f"{url}?view={view}"] = response.text
                assert response.status_code == 403, (url, view, response.status_code)
                assert f"deals the same cards as match {second.id}" in response.text
        response = web.get(f"/api/matches/{first.id}/live")
        bodies["live"] = response.text
        assert response.status_code == 403
        assert response.json()["error"].startswith(f"match {first.id} deals the same cards")
        faults = web.get("/api/bots/gate/faults").json()["faults"]
        assert [(f["match_id"], f["fault"], f["reason"]) for f in faults] == \
            [(first.id, "error", None)], "its bot's own message may name the cards"
        bodies["faults"] = json.dumps(faults)
        for where, body in bodies.items():
            assert not tokens(body) & secret, f"{where} shows the running rotation's cards"

        # the operator service decides alike: an author gets nothing of the finished rotation
        with grpc.insecure_channel(served.address) as channel:
            stub = pb_grpc.OperatorServiceStub(channel)
            for request in (pb.GetMatchRequest(match_id=first.id),
                            pb.GetMatchRequest(match_id=first.id, seat=0)):
                assert _code(lambda r=request: stub.GetMatch(
                    r, metadata=author, timeout=30)) == grpc.StatusCode.PERMISSION_DENIED
            assert _code(lambda: list(stub.WatchMatch(pb.WatchMatchRequest(
                match_id=first.id), metadata=author, timeout=30))) == \
                grpc.StatusCode.PERMISSION_DENIED
            operator = stub.GetMatch(pb.GetMatchRequest(match_id=first.id), metadata=AUTH,
                                     timeout=30)  # who holds the deal key sees it all
            assert operator.events

        # the running rotation's public view shows none of its hidden cards as it is played;
        # every bot of its deal plays in the sandbox, so its other views are live too, its
        # cards in them (tests/web/test_all_hands.py)
        running = web.get(f"/api/matches/{second.id}/replay", params={"view": "public"})
        assert running.status_code == 200 and running.json()["steps"] >= 3
        assert not tokens(running.text) & secret
        for view in VIEWS[1:]:
            shown = web.get(f"/api/matches/{second.id}/replay", params={"view": view})
            assert shown.status_code == 200 and not shown.json()["final"]
        assert tokens(shown.text) & secret, "control: the full view shows them"

        release(gate, 1)  # the last rotation of the deal finishes: everything opens
        eventually("the tournament to finish",
                   lambda: store.get_tournament(tid).status == "finished")
        end = followers[1].end()
        assert end["status"] == "finished" and end["reason"] is None
        assert end["match"]["id"] == second.id
        for url in (f"/matches/{first.id}", f"/api/matches/{first.id}/replay"):
            for view in VIEWS:
                assert web.get(url, params={"view": view}).status_code == 200, (url, view)
        public = web.get(f"/api/matches/{first.id}/replay", params={"view": "public"}).json()
        assert public["steps"] > followed, "the live feed was cut before the match's last frames"
        late = Follower(f"{served.web}/api/matches/{first.id}/live")  # the feed serves it all now
        assert late.end()["reason"] is None and late.frames() == public["steps"]
        leaked = tokens(json.dumps(public)) & secret
        assert leaked, "control: the finished rotation's public view names the other's cards"
        faults = web.get("/api/bots/gate/faults").json()["faults"]
        assert faults[0]["reason"] and "gave up holding" in faults[0]["reason"]
        with grpc.insecure_channel(served.address) as channel:
            stub = pb_grpc.OperatorServiceStub(channel)
            assert stub.GetMatch(pb.GetMatchRequest(match_id=first.id), metadata=author,
                                 timeout=30).events
            watched = list(stub.WatchMatch(pb.WatchMatchRequest(match_id=first.id),
                                           metadata=author, timeout=30))
            assert watched[-1].ended and watched[-1].events
        web.close()
        counts = store.match_counts([tid])[tid]
        assert counts == {MatchStatus.FINISHED: 2}, counts  # every match accounted for
    finally:
        release(gate, 0)
        release(gate, 1)
        output = served.stop()
        store.close()
    assert "Traceback" not in output, output
