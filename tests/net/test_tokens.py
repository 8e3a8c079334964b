"""A bot token attends once at a time: a copy of it used elsewhere is refused."""

from __future__ import annotations

from pathlib import Path

import grpc
import pytest

from arena.net.bot_service import MatchHost
from arena.wire.messages import ATTENDING_MARK
from arena.wire.tokens import digest
from tests.helpers import attend_call, eventually_async, on_server

LOCAL = [("grpc.use_local_subchannel_pool", 1)]  # a connection of its own, not a shared one


def test_a_second_connection_with_a_copied_token_is_refused_until_the_first_ends(
        tmp_path: Path) -> None:
    async def scenario(host: MatchHost, port: int, tmp: Path) -> tuple[object, str, object]:
        host.admit("the-token")
        address = f"127.0.0.1:{port}"
        async with grpc.aio.insecure_channel(address, options=LOCAL) as owner, \
                grpc.aio.insecure_channel(address, options=LOCAL) as copy:
            first = attend_call(owner, "the-token")
            attending = tuple(await first.initial_metadata())
            second = attend_call(copy, "the-token")
            with pytest.raises(grpc.aio.AioRpcError) as refused:
                await second.read()
            first.cancel()
            await eventually_async("the owner's stream to end, freeing the token",
                                   lambda: not host.attending(digest("the-token")))
            third = attend_call(copy, "the-token")
            again = tuple(await third.initial_metadata())
            third.cancel()
        return attending, f"{refused.value.code().name}: {refused.value.details()}", again

    attending, refused, again = on_server(tmp_path, scenario)
    assert ATTENDING_MARK in attending and ATTENDING_MARK in again
    assert refused == ("ALREADY_EXISTS: this bot token is attending already, on another "
                       "connection (one Attend stream per token)")
