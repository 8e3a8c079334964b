"""Both gRPC servers of the arena are built with the one list of options
(:mod:`arena.net.server_options`): the operator's Unix socket, which had none, now bounds what a
request may weigh as the operator's port does. A real server on a real socket."""

from __future__ import annotations

import asyncio
from pathlib import Path

import grpc

from arena.net.bot_service import MAX_RECEIVE_BYTES as BOT_RECEIVE_BYTES
from arena.net.server_options import MAX_STREAMS_PER_CONNECTION, server_options
from arena.service.operator import OperatorServicer
from arena.service.serve import MAX_RECEIVE_BYTES, _start_operator_socket
from arena.storage.store import Store
from arena.v1 import arena_pb2 as pb
from tests.helpers import unknown_field

LIST_BOTS = "/arena.v1.OperatorService/ListBots"


def test_the_operator_socket_refuses_a_request_over_the_operator_limit(tmp_path: Path) -> None:
    store = Store(str(tmp_path / "arena.db"))
    path = tmp_path / "operator.sock"

    async def call(size: int) -> grpc.StatusCode:
        request = pb.ListBotsRequest().SerializeToString() + unknown_field(99, b"x" * size)
        async with grpc.aio.insecure_channel(f"unix:{path}") as channel:
            list_bots = channel.unary_unary(LIST_BOTS, request_serializer=lambda b: b,
                                            response_deserializer=pb.ListBotsResponse.FromString)
            try:
                await list_bots(request, timeout=30)
            except grpc.aio.AioRpcError as err:
                return err.code()
            return grpc.StatusCode.OK

    async def scenario() -> tuple[grpc.StatusCode, grpc.StatusCode]:
        server = await _start_operator_socket(OperatorServicer(store, tmp_path), path)
        try:
            return await call(64 * 1024), await call(MAX_RECEIVE_BYTES + 1)
        finally:
            await server.stop(None)

    assert asyncio.run(scenario()) == (grpc.StatusCode.OK, grpc.StatusCode.RESOURCE_EXHAUSTED)


def test_the_shared_options_differ_only_in_weight_and_connections() -> None:
    bots, operators = server_options(BOT_RECEIVE_BYTES, 4), server_options(MAX_RECEIVE_BYTES)
    assert dict(bots)["grpc.max_receive_message_length"] == 64 * 1024
    assert dict(operators)["grpc.max_receive_message_length"] == 128 * 1024
    assert dict(bots)["grpc.max_allowed_incoming_connections"] == 4
    assert "grpc.max_allowed_incoming_connections" not in dict(operators)
    shared = {"grpc.max_receive_message_length", "grpc.max_allowed_incoming_connections"}
    assert {k: v for k, v in bots if k not in shared} == {k: v for k, v in operators if k not in shared}
    assert dict(operators)["grpc.max_concurrent_streams"] == MAX_STREAMS_PER_CONNECTION
