"""The referee over real gRPC: a server on a free port, bots as child processes or raw clients."""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import grpc
import pytest

from arena.games import get_game
from arena.match.protocol import Choice, Decision, MatchEnd, MatchStart, Reply
from arena.match.referee import MatchReport, MatchSettings
from arena.match.replay import read_log, replay, view
from arena.net.bot_service import MatchHost, MatchSpec
from arena.players.process import BotCommandError, BotProcess
from arena.v1 import arena_pb2 as pb
from arena.v1 import arena_pb2_grpc as pb_grpc
from arena.wire.tokens import digest
from tests.helpers import (
    GAME,
    OPTIONS,
    RAW_SETTINGS,
    eventually,
    eventually_async,
    is_alive,
    on_server,
    running,
    spec,
    started,
)


def test_matches_over_grpc_with_bot_processes_kept_between_matches(tmp_path: Path) -> None:
    async def scenario(host: MatchHost, port: int, tmp: Path) -> list[MatchReport]:
        rnd = await started(host, port, tmp, "random", "python -m bots.random_bot")
        heur = await started(host, port, tmp, "heuristic", "python -m bots.face_card_kill_card")
        try:
            tokens = (rnd.token, heur.token, rnd.token, heur.token)
            reports = [await host.play(spec(str(i), tokens, seed=i)) for i in range(4)]
            # several matches at once, on the same two processes
            reports += await asyncio.gather(*(host.play(spec(f"p{i}", tokens, seed=10 + i))
                                              for i in range(4)))
            assert rnd.starts == 1 and heur.starts == 1
            return reports
        finally:
            await asyncio.gather(rnd.stop(), heur.stop())

    reports = on_server(tmp_path, scenario)
    assert len(reports) == 8
    for report in reports:
        assert report.faults == ("",) * 4
        assert report.decisions > 0 and report.rejected_replies == 0
        assert sorted(report.ranks)[0] == 1
        lines = read_log(GAME, report.log)
        assert sum(1 for line in lines if line.kind == "decision") == report.decisions
    # the stored log replays through the engine to the same events
    first = reports[0]
    assert replay(GAME, 4, 0, OPTIONS, read_log(GAME, first.log))


def test_seat_views_hide_other_hole_cards(tmp_path: Path) -> None:
    async def scenario(host: MatchHost, port: int, tmp: Path) -> MatchReport:
        rnd = await started(host, port, tmp, "random", "python -m bots.random_bot")
        try:
            return await host.play(spec("v", (rnd.token,) * 3, seed=5))
        finally:
            await rnd.stop()

    report = on_server(tmp_path, scenario)
    lines = read_log(GAME, report.log)
    for seat in range(3):
        private = [line.value for line in view(lines, seat) if line.audience is not None]
        assert private and all(getattr(v, "seat", seat) == seat for v in private)


async def _take_seat(channel: grpc.aio.Channel, token: str) -> tuple[Any, Any]:
    """Attend with ``token`` and take the first seat offered: the Attend call, and the
    seat's Play call with its Hello sent."""
    stub = pb_grpc.BotServiceStub(channel)
    attend = stub.Attend(pb.AttendRequest(token=token))
    assignment = await attend.read()
    assert isinstance(assignment, pb.Assignment)
    play = stub.Play()
    await play.write(pb.BotMessage(hello=pb.Hello(credential=assignment.credential)))
    return attend, play


async def _raw_seat(port: int, token: str,
                    answer: Callable[[pb.DecisionRequest, int], list[pb.BotMessage]]) -> list[str]:
    """Attend with ``token`` and play one seat by hand; returns the notices received (and
    ``ended: ...`` when the referee ends the seat's stream with a status)."""
    notices: list[str] = []
    async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel:
        attend, play = await _take_seat(channel, token)
        asked = 0
        try:
            async for message in play:
                kind = message.WhichOneof("kind")
                if kind == "decision":
                    asked += 1
                    for reply in answer(message.decision, asked):
                        await play.write(reply)
                elif kind == "notice":
                    notices.append(message.notice.text)
                elif kind == "end":
                    break
        except grpc.aio.AioRpcError as err:
            assert err.code() == grpc.StatusCode.DEADLINE_EXCEEDED, err
            notices.append(f"ended: {err.details()}")
        attend.cancel()
    return notices


def choice(decision_id: int, index: int) -> pb.BotMessage:
    return pb.BotMessage(choice=pb.Choice(decision_id=decision_id, index=index))


def run_with_raw_seat(tmp_path: Path, answer: Callable[[pb.DecisionRequest, int],
                                                       list[pb.BotMessage]],
                      settings: MatchSettings = RAW_SETTINGS) -> tuple[MatchReport, list[str]]:
    async def scenario(host: MatchHost, port: int, tmp: Path) -> tuple[MatchReport, list[str]]:
        rnd = await started(host, port, tmp, "random", "python -m bots.random_bot")
        host.admit("raw-token")
        try:
            raw = asyncio.create_task(_raw_seat(port, "raw-token", answer))
            report = await host.play(spec("raw", ("raw-token", rnd.token, rnd.token),
                                          settings=settings, first=0))
            notices = await asyncio.wait_for(raw, 10)
            return report, notices
        finally:
            await rnd.stop()

    result: tuple[MatchReport, list[str]] = on_server(tmp_path, scenario)
    return result


def test_stale_duplicate_and_forged_decision_ids_are_rejected(tmp_path: Path) -> None:
    def answer(request: pb.DecisionRequest, asked: int) -> list[pb.BotMessage]:
        did = request.decision_id
        if asked == 1:  # forged id first, then the real answer, then a duplicate of it
            return [choice(did + 1000, 0), choice(did, 1), choice(did, 0)]
        return [choice(did, 1)]  # always stop

    report, notices = run_with_raw_seat(tmp_path, answer)
    assert report.faults == ("", "", "")
    lines = read_log(GAME, report.log)
    mine = [line for line in lines if line.kind == "decision" and line.seat == 0]
    assert mine and all(type(line.value).__name__ == "Stop" for line in mine)
    # the forged id is read and rejected at once; the duplicate waits, unread, until the
    # seat is asked again (then it is rejected, not taken for the new decision)
    assert report.rejected_replies == (2 if len(mine) > 1 else 1)
    assert notices[:1] == ["rejected: expected a choice for decision 1"]


def test_illegal_answer_is_a_fault_and_ranks_last(tmp_path: Path) -> None:
    report, _ = run_with_raw_seat(tmp_path, lambda req, n: [choice(req.decision_id, 99)])
    assert report.faults[0] == "illegal-action"
    assert report.ranks[0] == 3 and min(report.ranks[1:]) == 1


def test_malformed_answer_is_a_fault(tmp_path: Path) -> None:
    def answer(request: pb.DecisionRequest, asked: int) -> list[pb.BotMessage]:
        return [pb.BotMessage(choice=pb.Choice(decision_id=request.decision_id,
                                               action=pb.GameAction()))]

    report, _ = run_with_raw_seat(tmp_path, answer)
    assert report.faults[0] == "malformed"
    assert report.ranks[0] == 3


def test_silence_is_a_timeout_and_the_match_goes_on(tmp_path: Path) -> None:
    began = time.monotonic()
    report, notices = run_with_raw_seat(tmp_path, lambda req, n: [], MatchSettings(0.3, 10))
    assert time.monotonic() - began < 8  # the seat is asked once, then the fallback plays
    assert report.faults[0] == "timeout"
    assert notices == ["ended: no answer in time: this seat is out of the match"]  # told why
    assert report.ranks[0] == 3
    lines = read_log(GAME, report.log)
    mine = [line for line in lines if line.kind == "decision" and line.seat == 0]
    assert mine and all(line.fallback for line in mine)  # the fallback played every move
    assert report.faults[1:] == ("", "")


def test_crashed_bot_is_recorded_and_restarted(tmp_path: Path) -> None:
    async def scenario(host: MatchHost, port: int, tmp: Path) -> tuple[MatchReport, MatchReport,
                                                                        int]:
        rnd = await started(host, port, tmp, "random", "python -m bots.random_bot")
        crash = await started(host, port, tmp, "crash", "python -m tests.bots.misbehaving crash")
        try:
            tokens = (crash.token, rnd.token)
            crashed = await host.play(spec("c1", tokens, seed=3, first=0), is_alive(crash, rnd))
            await crash.ensure_running()  # as the tournament does before every match
            again = await host.play(spec("c2", tokens, seed=4, first=0), is_alive(crash, rnd))
            return crashed, again, crash.starts
        finally:
            await asyncio.gather(rnd.stop(), crash.stop())

    crashed, again, starts = on_server(tmp_path, scenario)
    assert crashed.faults[0] == "crashed" and crashed.ranks == (2, 1)
    assert starts == 2
    assert again.faults[1] == ""  # the other seat plays on either way


def test_a_seat_out_of_time_is_cut_off_and_its_bot_plays_its_next_match(tmp_path: Path) -> None:
    """A bot too slow for its clock: a timeout, its stream ended at once, no crash, and the
    same process plays the next match (the SDK says why, without a traceback)."""
    settings = MatchSettings(move_timeout_s=0.5, start_timeout_s=10)

    async def scenario(host: MatchHost, port: int, tmp: Path) -> tuple[list[MatchReport], int]:
        rnd = await started(host, port, tmp, "random", "python -m bots.random_bot")
        release = tmp / "release"
        release.mkdir()
        slow = await started(host, port, tmp, "slow", "python -m tests.bots.misbehaving slow",
                             env={"SLOW_RELEASE": str(release)})
        try:
            tokens = (slow.token, rnd.token)
            reports = []
            for i in range(2):  # each match played without the slow seat, then its answer given
                reports.append(await host.play(spec(f"s{i}", tokens, seed=3 + i, settings=settings,
                                                    first=0), is_alive(slow, rnd)))
                (release / f"s{i}").touch()
            # the late answer of the last match is given, and refused: the bot's log says so
            log = tmp / "logs" / "slow.log"
            await eventually_async("the bot's log to say both late answers were refused",
                                   lambda: log.read_text().count(LATE) >= 2)
            assert await slow.is_alive()
            return reports, slow.starts
        finally:
            await asyncio.gather(rnd.stop(), slow.stop())

    reports, starts = on_server(tmp_path, scenario)
    assert [r.faults for r in reports] == [("timeout", "")] * 2
    assert starts == 1
    said = (tmp_path / "logs" / "slow.log").read_text()
    for match in ("s0", "s1"):  # the clock's verdict, not a guess
        verdict = re.search(f"match {match} seat 0: {LATE} \\(out of time: the answer took "
                            r"(\d+\.\d\d) s of the (0\.[45]\d) s it had\); the match goes on "
                            "without it", said)
        assert verdict, said
        # over the clock (both rounded to 10 ms, so 0.504 s of 0.50 s reads 0.50 of 0.50)
        assert float(verdict.group(1)) >= float(verdict.group(2)), said
    assert "Traceback" not in said


LATE = "the referee ended this seat's stream before its answer went out"


def test_an_illegal_answer_is_logged_with_its_match_seat_and_decision(tmp_path: Path) -> None:
    async def scenario(host: MatchHost, port: int, tmp: Path) -> MatchReport:
        rnd = await started(host, port, tmp, "random", "python -m bots.random_bot")
        bad = await started(host, port, tmp, "bad", "python -m tests.bots.misbehaving illegal")
        try:
            return await host.play(spec("i1", (bad.token, rnd.token), first=0), is_alive(bad, rnd))
        finally:
            await asyncio.gather(rnd.stop(), bad.stop())

    report = on_server(tmp_path, scenario)
    assert report.faults == ("illegal-action", "")
    said = (tmp_path / "logs" / "bad.log").read_text()
    assert re.search(r"match i1 seat 0 decision \d+: the bot chose .*, which is not one of its "
                     r"\d+ legal actions; the referee will refuse it", said), said




def test_no_show_is_recorded_after_the_start_timeout(tmp_path: Path) -> None:
    async def scenario(host: MatchHost, port: int, tmp: Path) -> MatchReport:
        rnd = await started(host, port, tmp, "random", "python -m bots.random_bot")
        gone = await started(host, port, tmp, "gone", "python -m tests.bots.misbehaving exit")
        try:
            return await host.play(spec("n", (gone.token, rnd.token),
                                        settings=MatchSettings(2, 1.0)))
        finally:
            await asyncio.gather(rnd.stop(), gone.stop())

    report = on_server(tmp_path, scenario)
    assert report.faults == ("no-show", "")
    assert report.ranks == (2, 1)


def test_a_match_cancelled_while_its_seats_wait_leaves_no_task_behind() -> None:
    """A match cancelled (the server stopping) before its bots connect: when their processes
    end afterwards, no waiting task is left to fail unretrieved (asyncio would print its
    traceback)."""
    import gc

    from arena.match.referee import run_match

    async def scenario() -> list[str]:
        loop = asyncio.get_running_loop()
        problems: list[str] = []
        loop.set_exception_handler(lambda _, context: problems.append(context["message"]))
        never: list[asyncio.Future[Any]] = [loop.create_future() for _ in range(4)]
        processes_end = asyncio.Event()
        waiting = asyncio.Event()

        async def ended(seat: int) -> None:
            waiting.set()
            await processes_end.wait()

        match = asyncio.ensure_future(run_match(
            game_name="king", players=4, seed=1, options=dict(get_game("king").parse_options(4)),
            links=never, settings=MatchSettings(move_timeout_s=1, start_timeout_s=600),
            ended=ended))
        await waiting.wait()  # the referee waits for the seats
        match.cancel()
        with pytest.raises(asyncio.CancelledError):
            await match
        processes_end.set()
        for _ in range(5):
            await asyncio.sleep(0)
        gc.collect()
        return problems

    assert asyncio.run(scenario()) == []


def test_unknown_credentials_and_tokens_are_refused(tmp_path: Path) -> None:
    async def scenario(host: MatchHost, port: int, tmp: Path) -> tuple[Any, Any]:
        async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel:
            stub = pb_grpc.BotServiceStub(channel)
            with pytest.raises(grpc.aio.AioRpcError) as attend_error:
                await stub.Attend(pb.AttendRequest(token="nobody")).read()
            play = stub.Play()
            await play.write(pb.BotMessage(hello=pb.Hello(credential="forged")))
            with pytest.raises(grpc.aio.AioRpcError) as play_error:
                await play.read()
            return attend_error.value.code(), play_error.value.code()

    codes = on_server(tmp_path, scenario)
    assert codes == (grpc.StatusCode.UNAUTHENTICATED, grpc.StatusCode.UNAUTHENTICATED)


def test_stopping_a_bot_ends_its_whole_process_group(tmp_path: Path) -> None:
    pid_file = tmp_path / "grandchild.pid"

    async def scenario(host: MatchHost, port: int, tmp: Path) -> int:
        # started() runs the bot unsandboxed, so it can write the pid file the test reads
        bot = await started(host, port, tmp, "spawn", "python -m tests.bots.misbehaving spawn",
                            env={"GRANDCHILD_PID_FILE": str(pid_file)})
        try:
            pid = int(await eventually_async(
                "the bot to write its grandchild's pid",
                lambda: pid_file.read_text() if pid_file.exists() else None))
            assert running(pid), "the grandchild never ran: nothing to test"
        finally:
            await bot.stop()
        return pid

    grandchild = on_server(tmp_path, scenario)
    eventually("the bot's grandchild to end with the bot (not survive it)",
               lambda: not running(grandchild))


def test_missing_bot_command_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(BotCommandError, match="not found"):
        BotProcess("x", "no-such-program --flag", "127.0.0.1:1", tmp_path)
    with pytest.raises(BotCommandError, match="empty"):
        BotProcess("x", "  ", "127.0.0.1:1", tmp_path)



class ScriptedLink:
    """An in-memory seat that answers index 0 after ``delay`` seconds (seat 0) or at once."""

    def __init__(self, delay: float) -> None:
        self.delay = delay
        self.time_left: list[float] = []
        self.inbox: asyncio.Queue[Reply | None] = asyncio.Queue()

    async def start(self, start: MatchStart) -> None:
        pass

    async def decide(self, decision: Decision) -> None:
        self.time_left.append(decision.time_left_s)
        asyncio.get_running_loop().call_later(
            self.delay, self.inbox.put_nowait, Choice(decision.decision_id, index=0))

    async def events(self, events: Sequence[Any]) -> None:
        pass

    async def notice(self, text: str, decision_id: int) -> None:
        pass

    async def end(self, end: MatchEnd) -> None:
        pass

    async def receive(self, timeout: float | None) -> Reply | None:
        return await asyncio.wait_for(self.inbox.get(), timeout)

    async def close(self) -> None:
        return None


def test_a_time_bank_pays_for_slow_moves_until_it_runs_out() -> None:
    from arena.match.referee import run_match

    async def scenario() -> tuple[MatchReport, list[float]]:
        links = [ScriptedLink(0.4)] + [ScriptedLink(0.0) for _ in range(3)]

        async def ready(link: ScriptedLink) -> ScriptedLink:
            return link

        report = await run_match(
            game_name="king", players=4, seed=3, options=dict(get_game("king").parse_options(4)),
            links=[ready(link) for link in links],
            settings=MatchSettings(move_timeout_s=0.2, start_timeout_s=5, time_bank_s=0.5))
        return report, links[0].time_left

    report, time_left = asyncio.run(scenario())
    # 0.2 s per move plus the bank: 0.7 s, then 0.5 s and 0.3 s as each 0.4 s answer draws 0.2 s
    assert time_left[0] == pytest.approx(0.7)
    assert time_left[1] == pytest.approx(0.5, abs=0.05)
    assert time_left[2] == pytest.approx(0.3, abs=0.05)
    assert len(time_left) == 3 and report.faults[0] == "timeout"  # the third answer is too late
    own = [line for line in read_log("king", report.log) if line.kind == "decision" and line.seat == 0]
    assert [line.fallback for line in own[:3]] == [False, False, True]


# ---------------------------------------------------------------- event delivery

Received = list[tuple[str, int, list[bytes], float]]  # (kind, decision id, events, monotonic time)


async def _watching_seat(port: int, token: str, think_s: float = 0.0, slow: int = 0) -> Received:
    """Attend with ``token``, play one seat by hand and record everything it receives.

    It answers index 0, after ``think_s`` seconds for its first ``slow`` decisions.
    """
    received: Received = []
    async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel:
        attend, play = await _take_seat(channel, token)
        async for message in play:
            kind = message.WhichOneof("kind")
            if kind == "decision":
                request = message.decision
                received.append((kind, request.decision_id,
                                 [e.SerializeToString() for e in request.events], time.monotonic()))
                if slow > 0:
                    slow -= 1
                    await asyncio.sleep(think_s)
                await play.write(choice(request.decision_id, 0))
            elif kind == "events":
                received.append((kind, 0, [e.SerializeToString() for e in message.events.events],
                                 time.monotonic()))
            elif kind == "end":
                received.append((kind, 0, [e.SerializeToString() for e in message.end.events],
                                 time.monotonic()))
                break
        attend.cancel()
    return received


def check_delivery(log: bytes, seat: int, received: Received) -> None:
    """``received`` holds exactly the seat's view of the log, in order, each event before
    the decision it precedes and all of them before the end."""
    visible: list[bytes] = []
    before: dict[int, int] = {}  # decision id -> how many visible events came before it
    for entry in pb.MatchLog.FromString(log).entries:
        if entry.WhichOneof("entry") == "event":
            event = entry.event
            if event.public or seat in event.visible_to:
                visible.append(event.event.SerializeToString())
        elif entry.decision.seat == seat and not entry.decision.fallback:
            before[entry.decision.decision_id] = len(visible)
    got: list[bytes] = []
    asked = []
    for kind, decision_id, events, _ in received:
        got += events
        if kind == "decision":
            asked.append(decision_id)
            assert got == visible[:before[decision_id]], f"decision {decision_id}"
    assert received[-1][0] == "end" and got == visible
    assert asked == sorted(before), "the seat decided when asked, and only then"


def steps_seen(log: bytes, seat: int) -> list[list[bytes]]:
    """The seat's events in the log, grouped by the move (or the opening) that caused them."""
    groups: list[list[bytes]] = [[]]
    for entry in pb.MatchLog.FromString(log).entries:
        if entry.WhichOneof("entry") == "decision":
            groups.append([])
        elif entry.event.public or seat in entry.event.visible_to:
            groups[-1].append(entry.event.event.SerializeToString())
    return [group for group in groups if group]


@pytest.mark.parametrize("delay", [RAW_SETTINGS.event_delay_s, 0.0], ids=["default", "at-once"])
def test_events_reach_a_seat_in_order_before_each_decision_and_before_the_end(
        tmp_path: Path, delay: float) -> None:
    settings = MatchSettings(RAW_SETTINGS.move_timeout_s, RAW_SETTINGS.start_timeout_s,
                             event_delay_s=delay)

    async def scenario(host: MatchHost, port: int, tmp: Path) -> tuple[MatchReport, Received]:
        rnd = await started(host, port, tmp, "random", "python -m bots.random_bot")
        host.admit("raw-token")
        try:
            raw = asyncio.create_task(_watching_seat(port, "raw-token"))
            report = await host.play(spec("ev", ("raw-token", rnd.token, rnd.token), seed=8,
                                          settings=settings, first=0))
            return report, await asyncio.wait_for(raw, 10)
        finally:
            await rnd.stop()

    report, received = on_server(tmp_path, scenario)
    assert report.faults == ("", "", "")
    check_delivery(report.log, 0, received)
    assert sum(1 for kind, *_ in received if kind == "decision") > 1
    riding = [events for kind, _, events, _ in received if kind == "decision" and events]
    assert riding, "events ride on decision requests"
    if delay == 0:  # each move's events reach it as they happen: one batch per move, none merged
        batches = [events for _, _, events, _ in received if events]
        assert batches == steps_seen(report.log, 0)
        assert any(kind == "events" for kind, *_ in received)
    private = {e for entry in pb.MatchLog.FromString(report.log).entries
               if entry.WhichOneof("entry") == "event" and not entry.event.public
               for e in [entry.event.event.SerializeToString()]}
    assert private & {e for _, _, events, _ in received for e in events}, "its own hidden events came"


def test_a_seat_not_asked_hears_events_while_another_thinks(tmp_path: Path) -> None:
    """The thinker's requests carry its events; the watcher's go out on their own once due."""
    settings = MatchSettings(move_timeout_s=5, start_timeout_s=10, event_delay_s=0.05)
    options = dict(get_game("king").parse_options(4, {"quick": "true"}))

    async def scenario(host: MatchHost, port: int, tmp: Path) -> tuple[MatchReport, Received, Received]:
        rnd = await started(host, port, tmp, "random", "python -m bots.random_bot")
        host.admit("watcher")
        host.admit("thinker")
        try:
            watcher = asyncio.create_task(_watching_seat(port, "watcher"))
            thinker = asyncio.create_task(_watching_seat(port, "thinker", think_s=0.3, slow=3))
            report = await host.play(MatchSpec("slow", "king", 4, 2, options,
                                               tuple(map(digest, ("watcher", "thinker",
                                                                  rnd.token, rnd.token))),
                                               ("watcher", "thinker", "r2", "r3"), settings))
            return report, await asyncio.wait_for(watcher, 10), await asyncio.wait_for(thinker, 10)
        finally:
            await rnd.stop()

    report, watched, thought = on_server(tmp_path, scenario)
    assert report.faults == ("",) * 4
    check_delivery(report.log, 0, watched)
    check_delivery(report.log, 1, thought)
    # while the thinker takes 0.3 s over each of its first 3 decisions, the watcher's
    # waiting events fall due and come on their own, before the thinker answers
    alone = [(events, at) for kind, _, events, at in watched if kind == "events"]
    assert alone and all(events for events, _ in alone)
    for _, _, _, asked_at in [r for r in thought if r[0] == "decision"][:3]:
        assert any(asked_at < at < asked_at + 0.3 for _, at in alone), "not while the thinker thought"
