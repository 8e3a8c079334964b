"""WatchMatch has caps per caller: on a real ``arena serve``, one author cannot hold every
place. Streams are opened for real over gRPC and held open (each has had its first update,
so the server counts it) on a match that has not started."""

from __future__ import annotations

import asyncio
from pathlib import Path

import grpc

from arena.games import get_game
from arena.service.operator import MAX_WATCHERS, MAX_WATCHES_PER_AUTHOR
from arena.storage.store import Store
from arena.v1 import arena_pb2 as pb
from arena.v1 import arena_pb2_grpc as pb_grpc
from arena.wire.tokens import digest
from tests.helpers import eventually_async
from tests.served import AUTH, Served

GAME = "kings-corner"
Call = grpc.aio.UnaryStreamCall[pb.WatchMatchRequest, pb.MatchUpdate]


def _bearer(token: str) -> tuple[tuple[str, str], ...]:
    return (("authorization", f"Bearer {token}"),)


async def _watch(stub: pb_grpc.OperatorServiceStub, match_id: int,
                 metadata: tuple[tuple[str, str], ...]) -> Call | grpc.aio.AioRpcError:
    """A watch held open once its first update came, or the error that refused it."""
    call: Call = stub.WatchMatch(pb.WatchMatchRequest(match_id=match_id), metadata=metadata,
                                 timeout=300)
    try:
        first = await call.read()
    except grpc.aio.AioRpcError as err:
        return err
    assert isinstance(first, pb.MatchUpdate) and first.match.id == match_id
    assert first.match.status == "pending" and not first.ended
    return call


def test_one_author_cannot_hold_every_watch(tmp_path: Path) -> None:
    db = tmp_path / "arena.db"
    tokens = {name: f"{name}-token-for-the-watch-caps" for name in (
        "ann", "bob", *(f"a{i}" for i in range(8)))}
    with Store(str(db)) as store:
        for name, token in tokens.items():
            store.add_author(name, digest(token))
        bots = [store.add_bot(f"random-{i}", "python -m bots.random_bot").id for i in range(2)]
        options = dict(get_game(GAME).parse_options(2))
        match_id = store.create_match(GAME, options, 5, bots)  # never played: stays pending
    served = Served(db)

    async def scenario() -> None:
        channels = {name: grpc.aio.insecure_channel(served.address)
                    for name in (*tokens, "operator")}
        stubs = {name: pb_grpc.OperatorServiceStub(c) for name, c in channels.items()}
        held: list[Call] = []

        async def watch(name: str) -> Call | grpc.aio.AioRpcError:
            found = await _watch(stubs[name], match_id,
                                 AUTH if name == "operator" else _bearer(tokens[name]))
            if not isinstance(found, grpc.aio.AioRpcError):
                held.append(found)
            return found

        try:
            ann = [await watch("ann") for _ in range(MAX_WATCHES_PER_AUTHOR)]
            assert not any(isinstance(c, grpc.aio.AioRpcError) for c in ann)
            refused = await watch("ann")  # the attacker's next one
            assert isinstance(refused, grpc.aio.AioRpcError)
            assert refused.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
            assert refused.details() == (f"author ann has {MAX_WATCHES_PER_AUTHOR} WatchMatch "
                                         "streams open already; close one first")
            for other in ("bob", "operator"):  # the others still get in
                assert not isinstance(await watch(other), grpc.aio.AioRpcError), other

            first = ann[0]
            assert not isinstance(first, grpc.aio.AioRpcError)
            first.cancel()  # a place given back is ann's again
            held.remove(first)

            async def ann_admitted() -> bool:
                again = await watch("ann")
                if isinstance(again, grpc.aio.AioRpcError):  # the server has not seen the cancel
                    assert again.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
                    return False
                return True

            await eventually_async("ann's place once the server saw the cancel", ann_admitted)

            # authors fill every place that is left: the next author is refused, the operator not
            open_now = MAX_WATCHES_PER_AUTHOR + 1  # ann's and bob's
            for i in range(8):
                name = f"a{i}"
                for _ in range(min(MAX_WATCHES_PER_AUTHOR, MAX_WATCHERS - open_now)):
                    assert not isinstance(await watch(name), grpc.aio.AioRpcError), name
                    open_now += 1
                if open_now == MAX_WATCHERS:
                    break
            late = await watch("a7")
            assert isinstance(late, grpc.aio.AioRpcError)
            assert late.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
            assert late.details() == f"{MAX_WATCHERS} WatchMatch streams are open; try again later"
            assert not isinstance(await watch("operator"), grpc.aio.AioRpcError)
        finally:
            for call in held:
                call.cancel()
            for channel in channels.values():
                await channel.close(grace=None)

    try:
        asyncio.run(scenario())
    finally:
        output = served.stop()
    assert "Traceback" not in output, output
