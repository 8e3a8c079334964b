"""Who may call what on the operator service, RPC by RPC: a real gRPC server in process,
the operator's token, two authors' tokens, no token and a wrong one."""

from __future__ import annotations

import asyncio
import io
import zipfile
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import grpc
import pytest

from arena.service.auth import POLICY, OperatorAuth, Rule
from arena.service.operator import OperatorServicer
from arena.storage.store import SubmittedCode
from arena.v1 import arena_pb2 as pb
from arena.v1 import arena_pb2_grpc as pb_grpc
from arena.wire.tokens import digest
from tests.helpers import migrated_store

OPERATOR, ANN, BOB = "operator-token-for-this-test", "ann-token-for-this-test", "bob-token-for-this-test"
SERVICE = pb.DESCRIPTOR.services_by_name["OperatorService"]
PREFIX = "/arena.v1.OperatorService/"


def test_every_method_has_a_rule() -> None:
    assert set(POLICY) == {m.name for m in SERVICE.methods}
    assert {name for name, rule in POLICY.items() if rule is Rule.OPERATOR} == {
        "CreateTournament", "CancelTournament", "VoidTournament", "ResumeTournament",
        "ExportTournament"}


def _request(method: Any) -> Any:
    cls = getattr(pb, method.input_type.name)
    return cls()


async def _code(channel: grpc.aio.Channel, method: Any, token: str | None,
                request: Any = None) -> grpc.StatusCode:
    """The status a call of ``method`` ends with (an empty request unless one is given)."""
    request = request if request is not None else _request(method)
    path = PREFIX + method.name
    out = getattr(pb, method.output_type.name)
    metadata = () if token is None else (("authorization", f"Bearer {token}"),)
    kwargs: dict[str, Any] = {"request_serializer": type(request).SerializeToString,
                              "response_deserializer": out.FromString}
    try:
        if method.client_streaming:
            async def requests() -> AsyncIterator[Any]:
                yield request

            await channel.stream_unary(path, **kwargs)(requests(), metadata=metadata, timeout=20)
        elif method.server_streaming:
            async for _ in channel.unary_stream(path, **kwargs)(request, metadata=metadata,
                                                                 timeout=20):
                pass
        else:
            await channel.unary_unary(path, **kwargs)(request, metadata=metadata, timeout=20)
    except grpc.aio.AioRpcError as err:
        return err.code()
    return grpc.StatusCode.OK


def _zip(manifest: str) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        archive.writestr("arena-bot.toml", manifest)
        archive.writestr("bot.py", "print('hello')\n")
    return out.getvalue()


def test_each_rpc_by_caller(tmp_path: Path) -> None:
    store = migrated_store(tmp_path / "arena.db")
    ann = store.add_author("ann", digest(ANN))
    bob = store.add_author("bob", digest(BOB))
    code = SubmittedCode("ab" * 32, b"archive", 1, 7)
    store.submit_bot("anns-bot", "v1", "python bot.py", ["kill"], code, author_id=ann.id)
    store.submit_bot("bobs-bot", "v1", "python bot.py", ["kill"], code, author_id=bob.id)
    logs = tmp_path / "arena-data" / "logs"
    logs.mkdir(parents=True)
    (logs / "anns-bot@v1.log").write_text("ann's own words\n")
    (logs / "bobs-bot@v1.log").write_text("bob's secret words\n")

    async def scenario() -> dict[str, Any]:
        servicer = OperatorServicer(store, tmp_path / "arena-data")
        server = grpc.aio.server(interceptors=[OperatorAuth(OPERATOR, store)])
        pb_grpc.add_OperatorServiceServicer_to_server(servicer, server)
        port = server.add_insecure_port("127.0.0.1:0")
        await server.start()
        found: dict[str, Any] = {}
        try:
            async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel:
                for method in SERVICE.methods:
                    found[method.name] = {
                        who: await _code(channel, method, token) for who, token in (
                            ("nobody", None), ("wrong", "not-a-token-of-anyone"),
                            ("operator", OPERATOR), ("ann", ANN))}
                read = SERVICE.methods_by_name["ReadBotLog"]
                found["ann reads bob's log"] = await _code(
                    channel, read, ANN, pb.ReadBotLogRequest(bot="bobs-bot@v1"))
                found["ann reads her log"] = await _code(
                    channel, read, ANN, pb.ReadBotLogRequest(bot="anns-bot"))
                found["operator reads bob's log"] = await _code(
                    channel, read, OPERATOR, pb.ReadBotLogRequest(bot="bobs-bot"))
                answer = await pb_grpc.OperatorServiceStub(channel).ReadBotLog(
                    pb.ReadBotLogRequest(bot="anns-bot"), metadata=(("authorization", f"Bearer {ANN}"),))
                found["ann's log"] = [(f.name, f.text) for f in answer.files]
                submit = SERVICE.methods_by_name["SubmitBot"]
                found["ann submits as bob"] = await _code(channel, submit, ANN, pb.SubmitBotRequest(
                    data=_zip('name = "bobs-bot"\ncommand = "python bot.py"\ngames = ["kill"]\n')))
                found["bob's token renewed"] = store.set_author_token_hash("bob", digest("new" * 8))
                found["bob's old token"] = await _code(
                    channel, SERVICE.methods_by_name["ListBots"], BOB)
        finally:
            await server.stop(None)
        return found

    found = asyncio.run(scenario())
    refused = {grpc.StatusCode.PERMISSION_DENIED, grpc.StatusCode.UNAUTHENTICATED}
    for method in SERVICE.methods:
        codes = found[method.name]
        assert codes["nobody"] == codes["wrong"] == grpc.StatusCode.UNAUTHENTICATED, method.name
        assert codes["operator"] not in refused, (method.name, codes)
        if POLICY[method.name] is Rule.OPERATOR:
            assert codes["ann"] == grpc.StatusCode.PERMISSION_DENIED, (method.name, codes)
        else:  # let in: an empty request is refused for what it is, if at all
            assert codes["ann"] not in refused, (method.name, codes)
    assert found["ann reads bob's log"] == grpc.StatusCode.PERMISSION_DENIED
    assert found["ann reads her log"] == found["operator reads bob's log"] == grpc.StatusCode.OK
    assert found["ann's log"] == [("anns-bot@v1", "ann's own words\n")]
    assert found["ann submits as bob"] == grpc.StatusCode.PERMISSION_DENIED
    assert found["bob's old token"] == grpc.StatusCode.UNAUTHENTICATED
    assert store.list_bots()[1].name == "bobs-bot" and len(store.list_bots()) == 2


@pytest.mark.parametrize("method", ["CreateTournament", "CancelTournament"])
def test_the_operator_socket_needs_no_token(tmp_path: Path, method: str) -> None:
    """``OperatorAuth(None)``: whoever reaches the server is the operator (its Unix socket)."""
    store = migrated_store(tmp_path / "arena.db")

    async def scenario() -> grpc.StatusCode:
        server = grpc.aio.server(interceptors=[OperatorAuth(None)])
        pb_grpc.add_OperatorServiceServicer_to_server(OperatorServicer(store, tmp_path), server)
        port = server.add_insecure_port("127.0.0.1:0")
        await server.start()
        try:
            async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel:
                return await _code(channel, SERVICE.methods_by_name[method], None)
        finally:
            await server.stop(None)

    assert asyncio.run(scenario()) not in (grpc.StatusCode.PERMISSION_DENIED,
                                           grpc.StatusCode.UNAUTHENTICATED)
