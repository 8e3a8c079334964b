"""Who reads a bot's notes through the operator service's GetMatch: the operator every one, an
author only its own bots', and nobody else; all of them where the tournament made them public.
Authors' submitted bots play a real sandboxed tournament; the service answers over real gRPC."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path

import grpc

from arena.app import bots as bot_use_cases
from arena.cli.common import data_dir_for
from arena.match.replay import read_log
from arena.net.bot_service import MatchHost, create_server
from arena.players.submissions import read_submission
from arena.service.operator import OperatorAuth, OperatorServicer
from arena.storage.store import Store
from arena.v1 import arena_pb2 as pb
from arena.v1 import arena_pb2_grpc as pb_grpc
from arena.wire.tokens import digest
from tests.helpers import cli, migrated_store

GAME = "face-card-kill-card"
OPERATOR_TOKEN = "operator-token-for-the-notes-test"
NOTER = '''
from bots.random_bot import RandomBot
from sdk.run import run

class Noter(RandomBot):
    def act(self, observation, legal_actions):
        self.note("NAME thinks")
        return super().act(observation, legal_actions)

run(Noter)
'''


def _submit(tmp: Path, store: Store, db: Path, name: str, author_id: int) -> None:
    folder = tmp / name
    folder.mkdir()
    (folder / "arena-bot.toml").write_text(
        f'name = "{name}"\ncommand = "python bot.py"\ngames = ["{GAME}"]\n')
    (folder / "bot.py").write_text(NOTER.replace("NAME", name))
    bot_use_cases.submit(store, read_submission(folder, [GAME]), None, data_dir_for(str(db)),
                         author_id)


def _both_noted(store: Store, tournament_id: int) -> int:
    """A match of the tournament in which both bots answered (and so noted) at least once."""
    for match in store.tournament_matches(tournament_id):
        log = store.get_match(match.id).log
        assert log is not None
        if len({line.seat for line in read_log(GAME, log) if line.kind == "decision"}) == 2:
            return match.id
    raise AssertionError("no match in which both bots answered")


def _notes(port: int, match_id: int, token: str) -> set[tuple[int, str]]:
    async def ask() -> set[tuple[int, str]]:
        async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel:
            record = await pb_grpc.OperatorServiceStub(channel).GetMatch(
                pb.GetMatchRequest(match_id=match_id),
                metadata=(("authorization", f"Bearer {token}"),), timeout=30)
            return {(n.seat, n.note) for n in record.notes}
    return asyncio.run(ask())


def test_an_author_reads_its_own_bots_notes_only_and_public_notes_are_everyones(
        tmp_path: Path) -> None:
    db = tmp_path / "arena.db"
    store = migrated_store(db)
    ann = store.add_author("ann", digest("ann-token")).id
    bob = store.add_author("bob", digest("bob-token")).id
    store.add_author("cat", digest("cat-token"))
    _submit(tmp_path, store, db, "ann-noter", ann)
    _submit(tmp_path, store, db, "bob-noter", bob)
    for public in (False, True):
        cli("tournament", "run", "--game", GAME, "--bot", "ann-noter", "--bot", "bob-noter",
            "--players", "2", "--repetitions", "3", "--seed", "5",
            *(["--public-notes"] if public else []), db=db)
    private, shared = (_both_noted(store, t.id)
                       for t in sorted(store.list_tournaments(), key=lambda t: t.id))
    seats = {s.bot.split("@")[0]: s.seat for s in store.get_match(private).seats}

    async def serve() -> tuple[grpc.aio.Server, int]:
        operator = OperatorServicer(store)
        return await create_server(MatchHost(), extra_servicers=[
            lambda s: pb_grpc.add_OperatorServiceServicer_to_server(operator, s)],
            interceptors=[OperatorAuth(OPERATOR_TOKEN, store)])

    loop = asyncio.new_event_loop()
    server, port = loop.run_until_complete(serve())
    try:
        threading.Thread(target=loop.run_forever, daemon=True).start()
        everyone = {(seats["ann-noter"], "ann-noter thinks"),
                    (seats["bob-noter"], "bob-noter thinks")}
        assert _notes(port, private, OPERATOR_TOKEN) == everyone
        assert _notes(port, private, "ann-token") == {(seats["ann-noter"], "ann-noter thinks")}
        assert _notes(port, private, "bob-token") == {(seats["bob-noter"], "bob-noter thinks")}
        assert _notes(port, private, "cat-token") == set()  # an author with no bot in it
        shared_seats = {s.bot.split("@")[0]: s.seat for s in store.get_match(shared).seats}
        assert _notes(port, shared, "cat-token") == {
            (shared_seats["ann-noter"], "ann-noter thinks"),
            (shared_seats["bob-noter"], "bob-noter thinks")}  # --public-notes
    finally:
        asyncio.run_coroutine_threadsafe(server.stop(None), loop).result(timeout=30)
        loop.call_soon_threadsafe(loop.stop)
    store.close()
