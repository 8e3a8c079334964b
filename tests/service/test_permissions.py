"""What a bot may do with what it was given: its token, and one credential per seat.

A real server with the bot and operator services (operator token required), a
two-seat match between raw gRPC clients. A bot sees only its own assignments,
cannot use its seat's credential twice or for another seat, and neither its
token nor its credential opens an operator method.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import grpc

from arena.net.bot_service import MatchHost, create_server
from arena.service.operator import OperatorAuth, OperatorServicer
from arena.v1 import arena_pb2 as pb
from arena.v1 import arena_pb2_grpc as pb_grpc
from tests.helpers import RAW_SETTINGS, migrated_store, spec

OPERATOR_TOKEN = "operator-token-for-this-test"


async def _code(call: object) -> grpc.StatusCode | None:
    try:
        await call  # type: ignore[misc]
    except grpc.aio.AioRpcError as err:
        return err.code()
    return None


def test_a_bot_cannot_reuse_a_credential_act_for_another_seat_or_call_operator_methods(
        tmp_path: Path) -> None:
    store = migrated_store(tmp_path / "arena.db")

    async def scenario() -> dict[str, object]:
        host = MatchHost()
        operator = OperatorServicer(store)
        server, port = await create_server(
            host, extra_servicers=[lambda s: pb_grpc.add_OperatorServiceServicer_to_server(operator, s)],
            interceptors=[OperatorAuth(OPERATOR_TOKEN)])
        found: dict[str, object] = {}
        try:
            host.admit("token-a")
            host.admit("token-b")
            match = asyncio.create_task(host.play(spec("m1", ("token-a", "token-b"),
                                                       settings=RAW_SETTINGS)))
            async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel:
                bots = pb_grpc.BotServiceStub(channel)
                attend_a = bots.Attend(pb.AttendRequest(token="token-a"))
                attend_b = bots.Attend(pb.AttendRequest(token="token-b"))
                seat_a, seat_b = await attend_a.read(), await attend_b.read()
                found["seats"] = (seat_a.seat, seat_b.seat)
                play_a = bots.Play()
                await play_a.write(pb.BotMessage(hello=pb.Hello(credential=seat_a.credential)))
                # the same credential again, on a second stream: refused
                again = bots.Play()
                await again.write(pb.BotMessage(hello=pb.Hello(credential=seat_a.credential)))
                found["reuse"] = await _code(again.read())
                operators = pb_grpc.OperatorServiceStub(channel)
                for name, secret in (("token", "token-a"), ("credential", seat_b.credential)):
                    found[f"operator_with_{name}"] = await _code(operators.ListBots(
                        pb.ListBotsRequest(), metadata=[("authorization", f"Bearer {secret}")]))
                found["operator_with_its_token"] = await _code(operators.ListBots(
                    pb.ListBotsRequest(), metadata=[("authorization", f"Bearer {OPERATOR_TOKEN}")]))
                # seat b's credential, shown to the operator service above, still works for seat b
                play_b = bots.Play()
                await play_b.write(pb.BotMessage(hello=pb.Hello(credential=seat_b.credential)))
                found["start_a"] = (await play_a.read()).start.seat

                async def play_out(call: grpc.aio.StreamStreamCall[pb.BotMessage, pb.RefereeMessage],
                                   seen: list[int]) -> None:
                    while True:
                        message = await call.read()
                        if not isinstance(message, pb.RefereeMessage):
                            return
                        if message.WhichOneof("kind") == "decision":
                            await call.write(pb.BotMessage(choice=pb.Choice(
                                decision_id=message.decision.decision_id, index=0)))
                        elif message.WhichOneof("kind") == "end":
                            seen.append(1)
                            return

                ends: list[int] = []
                await asyncio.gather(play_out(play_a, ends), play_out(play_b, ends))
                report = await asyncio.wait_for(match, 30)
                found["faults"] = report.faults
                found["ends"] = len(ends)
                attend_a.cancel()
                attend_b.cancel()
        finally:
            await server.stop(grace=0.5)
        return found

    found = asyncio.run(scenario())
    assert found["seats"] == (0, 1) and found["start_a"] == 0  # each bot is offered its own seat
    assert found["reuse"] == grpc.StatusCode.UNAUTHENTICATED
    assert found["operator_with_token"] == grpc.StatusCode.UNAUTHENTICATED
    assert found["operator_with_credential"] == grpc.StatusCode.UNAUTHENTICATED
    assert found["operator_with_its_token"] is None  # the operator's own token works
    assert found["faults"] == ("", "") and found["ends"] == 2
