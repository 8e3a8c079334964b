"""Every hand live, where it is safe: real tournaments (``arena`` as a process, real bots as
processes) held running by the gate bot (tests/web/arena_serve.py), and the real web app over
their database, its bytes read as a spectator gets them.

* ``sealed``: a duplicate-deal tournament of the gate bot and the bundled random bot in the
  sandbox: while its first rotation runs, its page offers all hands, and the replay and the live
  feed of the full view give every hand;
* ``open``: the same with ``--no-sandbox``: the public view only, and the page says why;
* ``remote``: a duplicate deal whose first rotation is all sandboxed but whose second has a
  remote bot in a seat: while the first runs (sealed), nothing the web serves about it (page,
  replay, live feed, in any view) holds a card the public has not seen.

The operator service's ``WatchMatch`` (a real ``arena serve`` over the same database) follows
the same rule with ``all_hands``.
"""

from __future__ import annotations

import functools
import itertools
import json
import os
import subprocess
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

import grpc
import httpx
import pytest

from arena.match.replay import read_log
from arena.players import sandbox
from arena.storage.store import MatchInfo, MatchStatus, ScheduledMatch, Store
from arena.tournament import RunSettings
from arena.v1 import arena_pb2 as pb
from arena.v1 import arena_pb2_grpc as pb_grpc
from arena.wire.tokens import digest
from tests.helpers import cli, eventually
from tests.served import Served
from tests.web.arena_serve import gate_bot, release
from tests.web.replay_fixtures import ROOT, Server, hand_cards, hidden_cards, seat_cards, tokens

GAME = "kings-corner"
HOLD = 3  # the gate bot waits at its third decision of a match
AGAIN = HOLD + 2  # and again at its fifth (random play gives each seat at least ten)
VIEWS = ("public", "seat:0", "seat:1", "full")


@dataclass
class Table:
    """A tournament whose first match the gate bot ``gate`` holds running."""

    name: str
    gate: str
    folder: Path  # the gate bot's: release(folder, seat) lets its match go on
    process: subprocess.Popen[bytes]
    tournament_id: int = 0
    match: MatchInfo | None = None
    log: bytes = b""  # its running log when it was found held

    @property
    def held(self) -> MatchInfo:
        assert self.match is not None
        return self.match


@dataclass
class Tables:
    db: Path
    store: Store
    server: Server
    tables: dict[str, Table]

    def __getitem__(self, name: str) -> Table:
        return self.tables[name]


def _arena(db: Path, out: Path, *args: str) -> subprocess.Popen[bytes]:
    with out.open("wb") as sink:
        return subprocess.Popen([sys.executable, "-m", "arena", *args, "--db", str(db)],
                                stdout=sink, stderr=subprocess.STDOUT, cwd=ROOT)


def _held(store: Store, table: Table) -> bool:
    """Whether the gate bot holds the table's first match: its running log has the gate bot's
    decisions up to the one it waits at (then ``table.match`` and ``table.log`` are set)."""
    assert table.process.poll() is None, f"the {table.name} tournament ended"
    found = [t for t in store.list_tournaments() if f"{table.gate}@1" in t.bots]
    if not found:
        return False
    table.tournament_id = found[0].id
    running = [m for m in store.tournament_matches(table.tournament_id)
               if m.status is MatchStatus.RUNNING]
    if len(running) != 1:
        return False
    seat = [s.bot for s in running[0].seats].index(f"{table.gate}@1")
    data = store.live_log(running[0].id)
    if data is None or sum(line.kind == "decision" and line.seat == seat
                           for line in read_log(GAME, data)) < HOLD - 1:
        return False
    table.match, table.log = store.get_match(running[0].id), data
    return True


def start_tables(tmp_path: Path) -> Tables:
    """The three tournaments of this module's docstring, each held at its first match, and a
    web server over their database."""
    db = tmp_path / "arena.db"
    cli("bot", "add", "random", "--command", "python -m bots.random_bot", "--dir", str(ROOT),
        db=db)
    folders = {}
    for name in ("sealed", "open", "remote"):
        folders[name] = gate_bot(tmp_path / f"gate-{name}", HOLD, AGAIN)
        cli("bot", "add", f"gate-{name}", "--command", "python bot.py", "--dir",
            str(folders[name]), db=db)
    store = Store(str(db))
    far = store.add_bot("far", token_hash=digest("a remote bot's token, never connected")).id
    gate, random = store.get_bot("gate-remote").id, store.get_bot("random").id
    remote_id = store.create_tournament(  # one deal: the first rotation the arena's bots', the
        GAME, 2, {}, 7, 1, RunSettings(parallel=1, move_timeout_s=600).saved(),  # second not
        [gate, random, far], [ScheduledMatch(0, 41, (gate, random)),
                              ScheduledMatch(1, 41, (random, far), lane=1)])
    common = ("--game", GAME, "--players", "2", "--parallel", "1", "--move-timeout", "600")
    tables = {
        "sealed": Table("sealed", "gate-sealed", folders["sealed"], _arena(
            db, tmp_path / "sealed.out", "tournament", "run", *common, "--bot", "gate-sealed",
            "--bot", "random", "--deals", "duplicate")),
        "open": Table("open", "gate-open", folders["open"], _arena(
            db, tmp_path / "open.out", "tournament", "run", *common, "--bot", "gate-open",
            "--bot", "random", "--deals", "duplicate", "--no-sandbox")),
        "remote": Table("remote", "gate-remote", folders["remote"], _arena(
            db, tmp_path / "remote.out", "tournament", "resume", str(remote_id), "--listen",
            "127.0.0.1:0", "--wait-for-remote", "0")),
    }
    try:
        for table in tables.values():
            eventually(f"the {table.name} tournament's first match held",
                       functools.partial(_held, store, table), timeout=300)
        server = Server(store).__enter__()
    except BaseException:
        stop_tables(tables.values(), store)
        raise
    return Tables(db, store, server, tables)


def stop_tables(tables: Iterable[Table], store: Store, server: Server | None = None) -> None:
    """Let every gate go, stop the runs (SIGTERM: the running matches finish, no other
    starts) and the server."""
    if server is not None:
        server.__exit__()
    stopping = list(tables)
    for table in stopping:
        for seat, again in itertools.product((0, 1), (False, True)):
            release(table.folder, seat, again=again)
        table.process.terminate()
    for table in stopping:
        try:
            table.process.wait(120)
        except subprocess.TimeoutExpired:
            table.process.kill()
            table.process.wait()
    store.close()


@pytest.fixture(scope="module")
def held(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Tables]:
    """The tables, for every test of a module (the sandbox must run: skipped without it, but
    failed in CI)."""
    found = sandbox.check()
    if not found.works:
        if os.environ.get("CI"):
            pytest.fail(f"the sandbox must run in CI: {found.why_not}")
        pytest.skip(f"no sandbox on this machine: {found.why_not}")
    tables = start_tables(tmp_path_factory.mktemp("all-hands"))
    try:
        yield tables
    finally:
        stop_tables(tables.tables.values(), tables.store, tables.server)


def _frames(body: str) -> list[dict[str, object]]:
    """The frames of a live feed's bytes."""
    lines = body.splitlines()
    return [json.loads(data.removeprefix("data: "))
            for event, data in itertools.pairwise(lines) if event == "event: frame"]


def _feed(url: str, frames: int, **params: str) -> tuple[int, str]:
    """A live feed's status and its bytes, read until it has sent ``frames`` frames (or
    refused, or ended)."""
    with httpx.stream("GET", url, params=params, timeout=httpx.Timeout(30, read=300)) as stream:
        if stream.status_code != 200:
            stream.read()
            return stream.status_code, stream.text
        lines: list[str] = []
        for line in stream.iter_lines():
            lines.append(line)
            if line.startswith("data: ") and len(_frames("\n".join(lines))) >= frames:
                break
            if len(lines) > 1 and lines[-2] == "event: end":
                break
        return 200, "\n".join(lines)


def test_a_sealed_running_match_shows_every_hand_live(held: Tables) -> None:
    table = held["sealed"]
    match = table.held
    rotations = held.store.deal_rotations(match.id)
    assert [(r.status, r.sealed, r.remote) for r in rotations] == \
        [(MatchStatus.RUNNING, True, ()), (MatchStatus.PENDING, False, ())]
    seats = seat_cards(match, table.log)
    assert all(seats), seats  # both seats hold cards the public view hides (the deal is random)
    hands = set().union(*seats)
    web = httpx.Client(base_url=held.server.url, timeout=30)
    page = web.get(f"/matches/{match.id}")
    assert page.status_code == 200 and 'id="all-hands"' in page.text
    assert f'href="/matches/{match.id}?view=full">All hands, live</a>' in page.text
    assert 'id="private-refused"' not in page.text
    full = web.get(f"/matches/{match.id}", params={"view": "full"})
    assert full.status_code == 200 and 'data-live="true"' in full.text
    assert "Live: every hand" in full.text
    replay = web.get(f"/api/matches/{match.id}/replay", params={"view": "full"})
    assert replay.status_code == 200 and not replay.json()["final"]
    assert hands <= tokens(replay.text), "the full view shows every seat's hand"
    for view in VIEWS[1:3]:
        assert web.get(f"/api/matches/{match.id}/replay", params={"view": view}).status_code \
            == 200
    steps = replay.json()["steps"]
    status, body = _feed(f"{held.server.url}/api/matches/{match.id}/live", steps, view="full")
    assert status == 200 and body.count("event: frame") >= steps
    assert hands <= tokens(body), "the live feed of the full view gives every hand"
    assert _frames(body)[:steps] == replay.json()["frames"]
    status, public = _feed(f"{held.server.url}/api/matches/{match.id}/live", steps)
    hidden = hidden_cards(match, held.store.live_log(match.id) or b"")
    assert status == 200 and len(hidden) >= 10 and not tokens(public) & hidden  # as before
    web.close()


def test_a_match_run_without_the_sandbox_shows_its_public_view_and_says_why(
        held: Tables) -> None:
    table = held["open"]
    match = table.held
    assert [r.sealed for r in held.store.deal_rotations(match.id)] == [False, False]
    why = (f"match {match.id} is running, and it runs without the sandbox (--no-sandbox), "
           "where bots may read the web")
    web = httpx.Client(base_url=held.server.url, timeout=30)
    page = web.get(f"/matches/{match.id}")
    assert page.status_code == 200 and 'id="all-hands"' not in page.text
    assert 'id="private-refused"' in page.text and why in page.text
    for view in VIEWS[1:]:
        refused = web.get(f"/api/matches/{match.id}/replay", params={"view": view})
        assert refused.status_code == 403 and why in refused.json()["error"]
    status, body = _feed(f"{held.server.url}/api/matches/{match.id}/live", 1, view="full")
    assert status == 403 and why in body
    steps = web.get(f"/api/matches/{match.id}/replay").json()["steps"]
    status, body = _feed(f"{held.server.url}/api/matches/{match.id}/live", steps)
    assert status == 200 and body.count("event: frame") >= steps
    hidden = hidden_cards(match, held.store.live_log(match.id) or b"")
    assert len(hidden) >= 10 and not tokens(body) & hidden
    web.close()


def test_no_hand_of_a_deal_a_remote_bot_has_still_to_play_is_shown(held: Tables) -> None:
    table = held["remote"]
    match = table.held
    first, second = held.store.deal_rotations(match.id)
    assert (first.match_id, first.status, first.sealed, first.remote) == \
        (match.id, MatchStatus.RUNNING, True, ())  # this rotation is all in the sandbox ...
    assert (second.status, second.remote) == (MatchStatus.PENDING, ((1, "far@1"),))  # ... not so
    why = (f"match {match.id} is running, and seat 1 of match {second.match_id} (rotation 2 of "
           "its deal) is a remote bot (far@1), which may read the web")
    web = httpx.Client(base_url=held.server.url, timeout=30)
    bodies: dict[str, str] = {}
    for url in (f"/matches/{match.id}", f"/api/matches/{match.id}/replay"):
        for view in VIEWS:
            response = web.get(url, params={"view": view})
            bodies[f"{url}?view={view}"] = response.text
            assert response.status_code == (200 if view == "public" else 403), (url, view)
            if view != "public":
                assert why in response.text
    page = bodies[f"/matches/{match.id}?view=public"]
    assert 'id="all-hands"' not in page and why in page
    steps = json.loads(bodies[f"/api/matches/{match.id}/replay?view=public"])["steps"]
    assert steps >= HOLD - 1
    for view in VIEWS:
        status, body = _feed(f"{held.server.url}/api/matches/{match.id}/live", steps,
                             view=view)
        bodies[f"live?view={view}"] = body
        assert status == (200 if view == "public" else 403), view
    assert bodies["live?view=public"].count("event: frame") >= steps
    # the cards the public has not seen by now (none was shown before: what is hidden now was
    # hidden all along): the hands of both seats and the stock
    hidden = hidden_cards(match, held.store.live_log(match.id) or b"")
    assert hand_cards(match, held.store.live_log(match.id) or b"") <= hidden
    assert len(hidden) >= 20, hidden
    for where, body in bodies.items():
        leaked = tokens(body) & hidden
        assert not leaked, f"{where} shows hidden cards {sorted(leaked)}"
    assert tokens(bodies["live?view=public"]), "control: the public view names cards"
    web.close()


def _watch(stub: pb_grpc.OperatorServiceStub, match_id: int, author: tuple[tuple[str, str], ...],
           all_hands: bool) -> list[pb.GameEvent] | grpc.RpcError:
    """An author's watch of a held match: the events of its first two updates (the match as it
    stands, then its events so far), or the error that refused it."""
    call = stub.WatchMatch(pb.WatchMatchRequest(match_id=match_id, all_hands=all_hands),
                           metadata=author, timeout=120)
    try:
        first, second = next(call), next(call)
    except grpc.RpcError as err:
        return err
    finally:
        call.cancel()
    assert first.match.id == match_id and not first.events and not second.ended
    return list(second.events)


def test_watch_match_gives_every_event_only_where_the_deal_is_sealed(held: Tables) -> None:
    token = "ann's token, to watch every hand"
    held.store.add_author("ann", digest(token))
    author = (("authorization", f"Bearer {token}"),)
    served = Served(held.db, "--no-web")
    try:
        with grpc.insecure_channel(served.address) as channel:
            stub = pb_grpc.OperatorServiceStub(channel)
            sealed = held["sealed"].held

            def events() -> list[bool]:  # the log's events so far: whether each is public
                return [line.audience is None for line in read_log(
                    GAME, held.store.live_log(sealed.id) or b"") if line.kind == "event"]

            before = events()
            every = _watch(stub, sealed.id, author, all_hands=True)
            public = _watch(stub, sealed.id, author, all_hands=False)
            after = events()
            assert before.count(False) >= 2  # the hands dealt, each to its seat
            assert isinstance(every, list) and len(every) >= len(before)  # those too
            assert isinstance(public, list) and 1 <= len(public) <= after.count(True)
            for name, why in (("open", "runs without the sandbox (--no-sandbox)"),
                              ("remote", "is a remote bot (far@1)")):
                match_id = held[name].held.id
                refused = _watch(stub, match_id, author, all_hands=True)
                assert isinstance(refused, grpc.Call), name
                assert refused.code() == grpc.StatusCode.PERMISSION_DENIED
                details = refused.details() or ""
                assert why in details and "(WatchMatch shows its public view meanwhile)" in details
                assert isinstance(_watch(stub, match_id, author, all_hands=False), list)
    finally:
        output = served.stop()
    assert "Traceback" not in output, output
