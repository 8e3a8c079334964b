"""Hostile clients against a real referee server: oversized messages, stream storms,
attempts to claim a result, a bot that stops reading. The matches go on, the server serves."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from pathlib import Path

import grpc
import pytest

from arena.match.referee import MAX_NOTICES, MAX_REJECTED_IN_TURN, MatchReport, MatchSettings
from arena.match.replay import read_log
from arena.net.bot_service import (
    MAX_ATTEND_STREAMS,
    MAX_RECEIVE_BYTES,
    SEND_TIMEOUT_S,
    MatchHost,
    send_timeout,
)
from arena.v1 import arena_pb2 as pb
from arena.wire.messages import ATTENDING_MARK
from tests.helpers import GAME, _varint, attend_call, on_server, play_call, spec, started, unknown_field

SETTINGS = MatchSettings(move_timeout_s=2, start_timeout_s=10)












Answer = Callable[[pb.DecisionRequest, int], list[bytes]]


async def hostile_seat(port: int, token: str, answer: Answer, *, read: bool = True,
                       options: list[tuple[str, int]] | None = None,
                       delay: float = 0.0, start_delay: float = 0.0,
                       after_hello: tuple[bytes, ...] = ()) -> list[pb.RefereeMessage]:
    """Attend with ``token``, take the first seat offered and play it with raw bytes.

    ``answer(request, n)`` gives the bytes to send for the n-th decision. With
    ``read=False`` the seat sends its hello and then never reads its stream; ``delay``
    is how long it thinks before answering, ``start_delay`` how long it waits before
    attending; ``after_hello`` is sent right after the hello.
    """
    received: list[pb.RefereeMessage] = []
    await asyncio.sleep(start_delay)
    async with grpc.aio.insecure_channel(f"127.0.0.1:{port}", options=options) as channel:
        attend = attend_call(channel, token)
        first = await attend.read()
        assert isinstance(first, bytes)
        assignment = pb.Assignment.FromString(first)
        call = play_call(channel)
        await call.write(pb.BotMessage(hello=pb.Hello(credential=assignment.credential))
                         .SerializeToString())
        asked = 0
        try:
            for data in after_hello:
                await call.write(data)
            if not read:
                await asyncio.sleep(3600)  # cancelled by the test once the match is over
            async for data in call:
                message = pb.RefereeMessage.FromString(data)
                received.append(message)
                if message.WhichOneof("kind") == "decision":
                    asked += 1
                    await asyncio.sleep(delay)
                    for reply in answer(message.decision, asked):
                        await call.write(reply)
                elif message.WhichOneof("kind") == "end":
                    break
        except (grpc.aio.AioRpcError, asyncio.InvalidStateError):
            pass  # the referee ended the stream (maybe mid-write): what some tests provoke
        attend.cancel()
    return received


def choice(decision_id: int, index: int) -> bytes:
    return pb.BotMessage(choice=pb.Choice(decision_id=decision_id, index=index)).SerializeToString()


def test_an_oversized_message_faults_the_seat_and_other_matches_go_on(tmp_path: Path) -> None:
    def answer(request: pb.DecisionRequest, asked: int) -> list[bytes]:
        big = choice(request.decision_id, 0) + unknown_field(99, b"x" * (MAX_RECEIVE_BYTES + 1))
        return [big]

    async def scenario(host: MatchHost, port: int, tmp: Path) -> tuple[MatchReport, list[MatchReport]]:
        rnd = await started(host, port, tmp, "random", "python -m bots.random_bot")
        host.admit("hostile")
        try:
            seat = asyncio.create_task(hostile_seat(port, "hostile", answer))
            hostile = host.play(spec("big", ("hostile", rnd.token), settings=SETTINGS, first=0))
            others = [host.play(spec(f"o{i}", (rnd.token, rnd.token), seed=i, settings=SETTINGS))
                      for i in range(3)]
            reports = await asyncio.gather(hostile, *others)
            await asyncio.wait_for(seat, 10)
            return reports[0], list(reports[1:])
        finally:
            await rnd.stop()

    report, others = on_server(tmp_path, scenario)
    assert report.faults == ("disconnected", "")  # the server refused the message and the stream
    assert report.ranks == (2, 1)
    assert all(other.faults == ("", "") for other in others)


def test_stream_storms_are_refused_and_the_match_in_progress_finishes(tmp_path: Path) -> None:
    Codes = dict[str, list[str]]

    async def storm(port: int) -> Codes:
        codes: Codes = {"play": [], "attend": [], "nobody": []}
        async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel:

            async def junk_play(n: int) -> None:
                call = play_call(channel)
                try:
                    await call.write(pb.BotMessage(hello=pb.Hello(credential=f"junk{n}"))
                                     .SerializeToString())
                    await asyncio.wait_for(call.read(), 10)
                    codes["play"].append("ANSWERED")
                except grpc.aio.AioRpcError as err:
                    codes["play"].append(err.code().name)

            async def attend(token: str, kind: str) -> grpc.aio.UnaryStreamCall[bytes, bytes]:
                call = attend_call(channel, token)
                # admitted: the server's mark comes first, then the stream waits for seats;
                # refused: no mark, and the call ends with its code
                if ATTENDING_MARK in tuple(await call.initial_metadata() or ()):
                    codes[kind].append("WAITING")
                else:
                    codes[kind].append((await call.code()).name)
                return call

            await asyncio.gather(*(junk_play(n) for n in range(300)))
            held = await asyncio.gather(*(attend("storm-token", "attend") for _ in range(20)))
            await asyncio.gather(*(attend(f"nobody{n}", "nobody") for n in range(50)))
            for call in held:
                call.cancel()
        return codes

    async def scenario(host: MatchHost, port: int, tmp: Path) -> tuple[list[MatchReport], Codes]:
        rnd = await started(host, port, tmp, "random", "python -m bots.random_bot")
        host.admit("storm-token")
        try:
            match = asyncio.create_task(host.play(spec("m", (rnd.token,) * 4, settings=SETTINGS)))
            codes = await storm(port)
            reports = [await match]
            reports.append(await host.play(spec("after", (rnd.token,) * 3, seed=9, settings=SETTINGS)))
            return reports, codes
        finally:
            await rnd.stop()

    reports, codes = on_server(tmp_path, scenario)
    assert all(report.faults == ("",) * len(report.faults) for report in reports)
    # junk credentials are refused; streams beyond the per-connection cap may be refused
    # outright (UNAVAILABLE, or INTERNAL when grpc resets them): none is ever served
    assert len(codes["play"]) == 300
    assert "ANSWERED" not in codes["play"] and "OK" not in codes["play"]
    assert codes["play"].count("UNAUTHENTICATED") >= 200
    assert sorted(codes["attend"]) == sorted(["WAITING"] * MAX_ATTEND_STREAMS
                                             + ["ALREADY_EXISTS"] * (20 - MAX_ATTEND_STREAMS))
    assert codes["nobody"] == ["UNAUTHENTICATED"] * 50


def _claim_and_play(request: pb.DecisionRequest, asked: int) -> list[bytes]:
    """Everything a bot might send to claim a result, then the honest answer."""
    did = request.decision_id
    end = pb.RefereeMessage(end=pb.MatchEnd(scores=[100, -100], ranks=[1, 2])).SerializeToString()
    return [
        pb.BotMessage(hello=pb.Hello(credential="again")).SerializeToString(),  # a Hello mid-match
        choice(did + 1, 0),                           # a choice for a future decision
        choice(did + 10**12, 0),                      # ... far in the future
        b"",                                          # an empty message
        end,                                          # a MatchEnd's bytes
        unknown_field(4, end[2:]) + unknown_field(9, b"\x0a\x00"),  # MatchEnd-like unknown fields
        choice(did, 0) + unknown_field(7, end),       # the right choice, with a MatchEnd inside
        choice(did, 0),                               # a duplicate of it
    ]


def _honest(request: pb.DecisionRequest, asked: int) -> list[bytes]:
    return [choice(request.decision_id, 0)]


def test_a_bot_cannot_claim_a_result(tmp_path: Path) -> None:
    async def match(host: MatchHost, port: int, seat0: Answer, match_id: str) -> tuple[
            MatchReport, list[pb.RefereeMessage]]:
        host.admit(f"{match_id}-a")
        host.admit(f"{match_id}-b")
        seats = [asyncio.create_task(hostile_seat(port, f"{match_id}-a", seat0)),
                 asyncio.create_task(hostile_seat(port, f"{match_id}-b", _honest))]
        # seed 14: a long match (13 decisions) that seat 0 loses when both seats play index 0
        report = await host.play(spec(match_id, (f"{match_id}-a", f"{match_id}-b"), seed=14,
                                      settings=SETTINGS, first=0))
        received = await asyncio.wait_for(seats[0], 10)
        await asyncio.wait_for(seats[1], 10)
        return report, received

    async def scenario(host: MatchHost, port: int, tmp: Path) -> tuple[
            tuple[MatchReport, list[pb.RefereeMessage]], tuple[MatchReport, list[pb.RefereeMessage]]]:
        return await match(host, port, _honest, "honest"), await match(host, port, _claim_and_play,
                                                                       "claim")

    (honest, _), (claimed, received) = on_server(tmp_path, scenario)
    assert claimed.faults == ("", "") and honest.decisions >= 10
    assert honest.ranks == (2, 1)  # the seat that tries to claim the result lost it honestly
    assert (claimed.scores, claimed.ranks) == (honest.scores, honest.ranks)
    assert claimed.decisions == honest.decisions
    decisions = [(line.seat, line.value) for line in read_log(GAME, claimed.log) if line.kind == "decision"]
    assert decisions == [(line.seat, line.value) for line in read_log(GAME, honest.log)
                         if line.kind == "decision"]
    asked = sum(1 for m in received if m.WhichOneof("kind") == "decision")
    # all but the honest choice, every time (the duplicate sent after the very last choice
    # may arrive after the match has ended, uncounted)
    assert 7 * asked - 1 <= claimed.rejected_replies <= 7 * asked
    notices = [m for m in received if m.WhichOneof("kind") == "notice"]
    assert len(notices) == MAX_NOTICES  # answered up to the cap, then only counted
    end = [m.end for m in received if m.WhichOneof("kind") == "end"]
    assert end and list(end[0].scores) == list(honest.scores)


@pytest.mark.parametrize("bank", [0.0, 2.0])
def test_a_bot_that_stops_reading_cannot_stall_the_referee(tmp_path: Path, bank: float) -> None:
    """A write waits for the bot as long as one decision of the seat may take, its move clock
    and its time bank (a write the bot takes at once can finish late on a busy machine, as
    an answer can), and then the seat is cut off."""
    # The hostile client keeps its HTTP/2 window tiny (no BDP growth), so the referee's
    # writes to it block as soon as a few hundred bytes are unread.
    tiny_window = [("grpc.http2.bdp_probe", 0), ("grpc.http2.lookahead_bytes", 256)]
    settings = MatchSettings(move_timeout_s=1, start_timeout_s=10, time_bank_s=bank)

    async def scenario(host: MatchHost, port: int, tmp: Path) -> tuple[MatchReport, float]:
        rnd = await started(host, port, tmp, "random", "python -m bots.random_bot")
        host.admit("deaf")
        seat = asyncio.create_task(hostile_seat(port, "deaf", _honest, read=False,
                                                options=tiny_window))
        try:
            began = time.monotonic()
            # many events reach the deaf seat before it is asked anything
            report = await asyncio.wait_for(host.play(spec(
                "deaf", (rnd.token,) * 7 + ("deaf",), settings=settings, first=0)), 60)
            return report, time.monotonic() - began
        finally:
            seat.cancel()
            await asyncio.gather(seat, return_exceptions=True)
            await rnd.stop()

    report, took = on_server(tmp_path, scenario)
    assert report.faults == ("",) * 7 + ("disconnected",)
    assert report.ranks[7] == max(report.ranks)
    assert took >= settings.move_timeout_s + bank  # the blocked write waited that long


def test_the_write_deadline_is_the_seats_clock_and_bank_or_ten_seconds_without_a_clock() -> None:
    assert send_timeout(MatchSettings(move_timeout_s=0.1, time_bank_s=30)) == pytest.approx(30.1)
    assert send_timeout(MatchSettings(move_timeout_s=2)) == 2
    assert send_timeout(MatchSettings(move_timeout_s=0, time_bank_s=30)) == SEND_TIMEOUT_S == 10


def test_a_flood_of_messages_hangs_up_on_the_seat(tmp_path: Path) -> None:
    """Junk sent while the referee is busy elsewhere waits unread: beyond a bound, a hang-up."""
    junk = tuple(choice(1000 + n, 0) for n in range(MAX_REJECTED_IN_TURN * 2))

    async def scenario(host: MatchHost, port: int, tmp: Path) -> MatchReport:
        host.admit("flood")
        host.admit("late")
        seats = [asyncio.create_task(hostile_seat(port, "flood", _honest, after_hello=junk)),
                 asyncio.create_task(hostile_seat(port, "late", _honest, start_delay=1.5))]
        try:  # the referee waits for the late seat while the flood piles up
            return await host.play(spec("flood", ("flood", "late"), settings=SETTINGS, first=0))
        finally:
            await asyncio.wait_for(asyncio.gather(*seats), 10)

    report = on_server(tmp_path, scenario)
    # every junk message alone is harmless (rejected); the backlog of them is what hangs up
    assert report.faults == ("disconnected", "")
    assert report.rejected_replies == MAX_REJECTED_IN_TURN  # read up to the bound, no further


@pytest.mark.parametrize("size", [MAX_RECEIVE_BYTES // 2])
def test_messages_below_the_limit_are_accepted(tmp_path: Path, size: int) -> None:
    """The limit is not set so low that a bot's ordinary (even padded) answer is refused."""

    def answer(request: pb.DecisionRequest, asked: int) -> list[bytes]:
        return [choice(request.decision_id, 0) + unknown_field(99, b"x" * size)]

    assert _versus_random(tmp_path, answer).faults == ("", "")


def _versus_random(tmp_path: Path, answer: Answer) -> MatchReport:
    """A match of a raw-bytes seat that answers with ``answer`` (seat 0) against the random bot."""
    async def scenario(host: MatchHost, port: int, tmp: Path) -> MatchReport:
        rnd = await started(host, port, tmp, "random", "python -m bots.random_bot")
        host.admit("raw")
        seat = asyncio.create_task(hostile_seat(port, "raw", answer))
        try:
            return await host.play(spec("raw", ("raw", rnd.token), settings=SETTINGS, first=0))
        finally:
            await asyncio.wait_for(seat, 10)
            await rnd.stop()

    report: MatchReport = on_server(tmp_path, scenario)
    return report


def _reordered(decision_id: int, index: int) -> bytes:
    """A choice written with the index first and a needlessly long varint: still the same."""
    body = b"\x10" + bytes([index | 0x80, 0x00]) + b"\x08" + _varint(decision_id)
    return b"\x12" + _varint(len(body)) + body


@pytest.mark.parametrize(("form", "fault"), [
    (lambda decision_id: [_reordered(decision_id, 0)], ""),  # parsed in full: accepted
    (lambda decision_id: [b"\x12\x05\x08\xff\xff"], "malformed"),  # no BotMessage at all
    (lambda decision_id: [b"\x12\x03\x08" + _varint(decision_id)[:1] + b"\x10"], "malformed"),
])
def test_answers_are_read_as_protobuf_reads_them(tmp_path: Path, form: Callable[[int], list[bytes]],
                                                 fault: str) -> None:
    """The referee reads the usual answer without parsing it; anything else is parsed in
    full, so an unusual but valid encoding is the same answer, and bytes that are no
    BotMessage are a malformed reply (the seat is out, the match goes on)."""
    def answer(request: pb.DecisionRequest, asked: int) -> list[bytes]:
        return form(request.decision_id)

    report = _versus_random(tmp_path, answer)
    assert report.faults == (fault, "")
    assert report.decisions > (1 if fault else 2)  # the match was played to its end
