"""The arena as a service, with real parts: `arena serve` as a process (a real SQLite file,
bots as processes in the real sandbox), the command line as its client, authors' tokens.

- authors submit bots over the wire; the operator queues a round-robin that the server
  plays; a spectator watches a match live and sees only public events; the server is
  killed with ``kill -9`` mid-tournament and, restarted, finishes it with every match
  exactly once; the leaderboard over the wire shows it;
- an author cannot queue or cancel tournaments, read another's bot log, or submit under
  another's bot name; an upload over the cap is cut off early; a hostile archive over the
  wire is refused in the words `arena bot submit` uses locally; a cancelled tournament
  stops at once.
"""

from __future__ import annotations

import collections
import io
import json
import re
import signal
import zipfile
from collections.abc import Iterator
from pathlib import Path

import grpc

from arena.match.replay import read_log
from arena.storage.store import MatchStatus, Store, TournamentInfo
from arena.v1 import arena_pb2 as pb
from arena.v1 import arena_pb2_grpc as pb_grpc
from arena.wire.codec import codec_for
from tests.helpers import cli
from tests.served import AUTH, OPERATOR, Served, eventually, remote

GAME = "kill"
QUICK = "face-card-kill-card"  # short two-seat matches: the ladder's test
BOT = '''
import sys
import time
from bots.random_bot import RandomBot
from sdk.run import run

class Slow(RandomBot):
    def on_start(self, match):
        super().on_start(match)
        print("NAME takes seat", match.seat, file=sys.stderr)

    def act(self, observation, legal_actions):
        time.sleep(DELAY)
        return super().act(observation, legal_actions)

run(Slow)
'''


def _bot_folder(where: Path, name: str, delay: float = 0.07, game: str = GAME) -> Path:
    folder = where / name
    folder.mkdir(parents=True)
    (folder / "arena-bot.toml").write_text(
        f'name = "{name}"\ncommand = "python bot.py"\ngames = ["{game}"]\n')
    (folder / "bot.py").write_text(BOT.replace("NAME", name).replace("DELAY", str(delay)))
    return folder


def _token(output: str) -> str:
    return output.splitlines()[2].strip()


def _stub(server: Served) -> tuple[grpc.Channel, pb_grpc.OperatorServiceStub]:
    channel = grpc.insecure_channel(server.address)
    return channel, pb_grpc.OperatorServiceStub(channel)


def _tournament(db: Path, tournament_id: int) -> TournamentInfo:
    with Store(str(db)) as store:
        return store.get_tournament(tournament_id)


def _running_matches(db: Path, tournament_id: int) -> list[int]:
    with Store(str(db)) as store:
        return [m.id for m in store.tournament_matches(tournament_id) if m.status == "running"]


def test_authors_submit_the_server_plays_survives_kill_9_and_shows_only_public_events(
        tmp_path: Path) -> None:
    db = tmp_path / "arena.db"
    ann = _token(cli("author", "add", "ann", db=db).stdout)
    bob = _token(cli("author", "add", "bob", db=db).stdout)
    server = Served(db, "--no-web")
    try:
        for token, name in ((ann, "ann-a"), (ann, "ann-b"), (bob, "bob-c")):
            sent = json.loads(remote(server, token, "bot", "submit", str(_bot_folder(
                tmp_path, name)), "--label", "v1", "--json").stdout)["submission"]
            assert (sent["bot"], sent["new"], sent["author"]) == (f"{name}@v1", True, name[:3])
        again = remote(server, ann, "bot", "submit", str(tmp_path / "ann-a"))
        assert "is this very code already" in again.stdout
        listed = json.loads(remote(server, bob, "bot", "list", "--json").stdout)["bots"]
        assert [(b["bot"], b["author"], b["kind"]) for b in listed] == [
            ("ann-a@v1", "ann", "submitted"), ("ann-b@v1", "ann", "submitted"),
            ("bob-c@v1", "bob", "submitted")]

        queued = json.loads(remote(
            server, OPERATOR, "tournament", "create", "--game", GAME, "--bot", "ann-a",
            "--bot", "ann-b", "--bot", "bob-c", "--players", "3", "-n", "3", "--option",
            "rounds=5", "--parallel", "2", "--deals", "independent",  # a duplicate deal's
            # finished rotation is shown to an author only once its other rotations are over
            "--json").stdout)["tournament"]
        assert queued["total"] == 9 and queued["status"] in ("queued", "running")
        tid = queued["id"]

        # a spectator watches a match while it is played
        channel, stub = _stub(server)
        with channel:
            running = eventually("a running match", lambda: [
                m for m in stub.ListMatches(pb.ListMatchesRequest(tournament_id=tid),
                                            metadata=AUTH, timeout=10).matches
                if m.status == "running"])
            match_id = running[0].id
            updates = list(stub.WatchMatch(pb.WatchMatchRequest(match_id=match_id),
                                           metadata=(("authorization", f"Bearer {bob}"),),
                                           timeout=60))
        assert updates[-1].ended and updates[-1].match.status == "finished"
        assert not any(u.ended for u in updates[:-1])
        live = [u for u in updates[:-1] if u.events]
        assert live, "no event came while the match was played"
        watched = [e.SerializeToString() for u in updates for e in u.events]

        finished = eventually("some matches finished", lambda: (
            n if (n := _tournament(db, tid).finished) >= 2 else 0))
        assert finished < 9, "the tournament finished before the server could be killed"
        server.stop(signal.SIGKILL)  # mid-tournament: matches in play are lost with it
        with Store(str(db)) as store:
            at_kill = store.get_tournament(tid)
            assert at_kill.status == "interrupted" and at_kill.finished < 9
            logged = store.get_match(match_id)
        lines = read_log(GAME, logged.log or b"")
        public = [line for line in lines if line.kind == "event" and line.audience is None]
        hidden = [line for line in lines if line.kind == "event" and line.audience is not None]
        assert hidden, "this game deals private cards: some events are not public"
        codec = codec_for(GAME)
        assert watched == [codec.event(line.value).SerializeToString() for line in public]

        server = Served(db, "--no-web")  # restarted: it resumes the tournament by itself
        done = eventually("the tournament to finish",
                          lambda: _tournament(db, tid).status == "finished", timeout=120)
        assert done
        shown = remote(server, ann, "tournament", "show", str(tid)).stdout
        assert "finished: 9 of 9 matches finished, 0 void" in shown
        board = json.loads(remote(server, ann, "leaderboard", "--game", GAME, "--all-pools",
                                  "--json").stdout)["leaderboard"]
        assert sorted((row["bot"], row["matches"]) for row in board) == [
            ("ann-a@v1", 9), ("ann-b@v1", 9), ("bob-c@v1", 9)]
        own = remote(server, ann, "bot", "log", "ann-a@v1").stdout
        assert "ann-a takes seat" in own and "bob-c" not in own
        refused = remote(server, ann, "bot", "log", "bob-c", check=False)
        assert refused.returncode == 1 and refused.stdout == ""
        assert refused.stderr.strip().splitlines() == [
            "error: the log of bob-c@v1 is for its author and the operator only: author ann "
            "may read the logs of their own bots"]
    finally:
        output = server.stop()
    assert "Traceback" not in output, output
    with Store(str(db)) as store:
        matches = store.tournament_matches(tid)
        assert [m.status for m in matches] == [MatchStatus.FINISHED] * 9
        seqs = [m.finish_seq for m in matches]
        assert None not in seqs and len(set(seqs)) == 9
        history = collections.Counter(
            point.match_id for bot in store.list_bots()
            for point in store.rating_history(bot.id, f"{GAME}[rounds=5]"))
        assert history == {m.id: 3 for m in matches}  # each match rated once, for its 3 bots


def _zip(entries: dict[str, str]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        for name, text in entries.items():
            archive.writestr(name, text)
    return out.getvalue()


def test_what_an_author_may_not_do_uploads_over_the_cap_hostile_archives_and_cancel(
        tmp_path: Path) -> None:
    db = tmp_path / "arena.db"
    ann = _token(cli("author", "add", "ann", db=db).stdout)
    bob = _token(cli("author", "add", "bob", db=db).stdout)
    server = Served(db, "--no-web")
    try:
        for token, name in ((bob, "bob-a"), (OPERATOR, "house-b"), (OPERATOR, "house-c")):
            remote(server, token, "bot", "submit", str(_bot_folder(tmp_path, name, delay=0.2)))

        def refused(*args: str) -> str:
            done = remote(server, ann, *args, check=False)
            assert done.returncode == 1 and done.stdout == "", done.stdout + done.stderr
            lines = done.stderr.strip().splitlines()
            assert len(lines) == 1 and lines[0].startswith("error: "), done.stderr
            return lines[0]

        assert refused("tournament", "create", "--game", GAME, "--bot", "bob-a", "--bot",
                       "house-b", "--bot", "house-c", "--players", "3") == \
            "error: CreateTournament is for the operator: author ann may not call it"
        assert refused("tournament", "cancel", "1") == \
            "error: CancelTournament is for the operator: author ann may not call it"
        assert refused("bot", "log", "bob-a") == (
            "error: the log of bob-a@" + json.loads(remote(server, bob, "bot", "list", "--json")
                                                   .stdout)["bots"][0]["version"]
            + " is for its author and the operator only: author ann may read the logs of "
            "their own bots")
        impostor = tmp_path / "impostor"
        _bot_folder(impostor, "bob-a")
        assert refused("bot", "submit", str(impostor / "bob-a")) == \
            "error: the bot name bob-a belongs to author bob: submit under another name"
        assert refused("bot", "submit", str(tmp_path / "house-b")) == \
            "error: the bot name house-b is the operator's: submit under another name"

        # a hostile archive: refused over the wire in the words used locally
        evil = tmp_path / "evil.zip"
        evil.write_bytes(_zip({"arena-bot.toml": 'name = "evil"\ncommand = "python bot.py"\n'
                               'games = ["kill"]\n', "../escape.py": "print('out')\n"}))
        over_wire = refused("bot", "submit", str(evil))
        local = cli("bot", "submit", str(evil), db=tmp_path / "local.db", check=False)
        assert local.returncode == 1 and local.stderr.strip() == over_wire
        assert over_wire == "error: '../escape.py': a path that leads out of the bot's folder"

        # an upload over the cap: refused as soon as it goes over, the rest never read
        sent = 0
        chunk = b"\0" * (64 * 1024)

        def upload() -> Iterator[pb.SubmitBotRequest]:
            nonlocal sent
            for _ in range(1024):  # 64 MiB, three times the cap
                sent += len(chunk)
                yield pb.SubmitBotRequest(data=chunk)

        channel, stub = _stub(server)
        with channel:
            try:
                stub.SubmitBot(upload(), metadata=(("authorization", f"Bearer {ann}"),), timeout=60)
                raise AssertionError("an upload over the cap was taken")
            except grpc.RpcError as err:
                assert isinstance(err, grpc.Call)
                assert err.code() == grpc.StatusCode.RESOURCE_EXHAUSTED, err.details()
                assert "may hold at most 20,971,520" in (err.details() or "")
        assert 20 * 2**20 < sent < 40 * 2**20, sent

        # the operator cancels a tournament the server is playing: it stops at once
        tid = json.loads(remote(server, OPERATOR, "tournament", "create", "--game", GAME,
                                "--bot", "bob-a", "--bot", "house-b", "--bot", "house-c",
                                "--players", "3", "-n", "3", "--json").stdout)["tournament"]["id"]
        eventually("a match in play", lambda: _running_matches(db, tid))
        cancelled = remote(server, OPERATOR, "tournament", "cancel", str(tid)).stdout
        assert re.search(r"cancelled: \d+ unfinished matches void", cancelled), cancelled
        listed = remote(server, ann, "tournament", "list", "--json").stdout
        row = json.loads(listed)["tournaments"][0]
        assert row["status"] == "cancelled" and row["finished"] + row["void"] == row["total"] == 9
        assert row["void"] > 0
    finally:
        output = server.stop()
    assert "Traceback" not in output, output
    with Store(str(db)) as store:
        assert {m.status for m in store.tournament_matches(tid)} <= {MatchStatus.FINISHED,
                                                                     MatchStatus.VOID}


def test_the_server_keeps_a_ladder_playing_and_a_submission_joins_it_first(tmp_path: Path) -> None:
    """`arena serve --ladder face-card-kill-card`: the ladder plays among the bots entered for the game while
    the server runs; a version an author submits meanwhile joins it and is in the matches
    right after; stopped and started again, the server goes on with the same ladder."""
    db = tmp_path / "arena.db"
    for name in ("ann", "bob", "cat"):
        cli("bot", "submit", str(_bot_folder(tmp_path, name, 0.0, QUICK)), db=db)
    author = _token(cli("author", "add", "dan", db=db).stdout)
    server = Served(db, "--no-web", "--ladder", QUICK, "--parallel", "2")
    try:
        eventually("the ladder's first 15 matches",
                   lambda: _tournament(db, 1).finished >= 15, timeout=120)
        remote(server, author, "bot", "submit", str(_bot_folder(tmp_path, "dan", 0.0, QUICK)))
        joined = _tournament(db, 1).total
        eventually("20 more matches", lambda: _tournament(db, 1).finished >= joined + 20, timeout=120)
    finally:
        said = server.stop()
    assert f"ladder 1 of {QUICK}: playing" in said
    again = Served(db, "--no-web", "--ladder", QUICK)
    try:
        before = _tournament(db, 1).finished
        eventually("the same ladder going on", lambda: _tournament(db, 1).finished >= before + 3,
                   timeout=120)
    finally:
        again.stop()
    with Store(str(db)) as store:
        matches = sorted(store.tournament_matches(1), key=lambda m: m.index)
        assert len(store.list_tournaments()) == 1  # one ladder, gone on with
        assert len(matches) >= 38 and {m.status for m in matches} <= {MatchStatus.FINISHED}
        dan = [i for i, m in enumerate(matches) if any(s.bot.startswith("dan@") for s in m.seats)]
        assert dan and dan[0] >= joined - 2  # it entered once submitted ...
        assert dan[:5] == list(range(dan[0], dan[0] + 5))  # ... and played its first matches next
