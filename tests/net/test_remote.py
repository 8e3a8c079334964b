"""Remote bots as their authors run them: a token from `arena bot add --remote`, the SDK
started by hand with --server and --token (not by the arena), over plain text and TLS."""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import signal
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest

from arena.games import get_game
from arena.match.referee import MatchSettings
from arena.net.bot_service import MatchHost, MatchSpec, create_server
from arena.storage.store import Store
from arena.v1 import arena_pb2 as pb
from arena.v1 import arena_pb2_grpc as pb_grpc
from arena.wire.tokens import digest
from tests.helpers import cli, eventually, finished_matches, self_signed

GAME = "face-card-kill-card"
CLEAN_ENV = {k: v for k, v in os.environ.items() if not k.startswith("ARENA_")}




def add_remote(db: Path, name: str = "faraway") -> str:
    """Register a remote bot; the token it printed (once)."""
    out = cli("bot", "add", name, "--remote", db=db).stdout
    tokens = re.findall(r"^([A-Za-z0-9_-]{40,})$", out, flags=re.M)
    assert len(tokens) == 1, out
    return str(tokens[0])


class Tournament:
    """`arena tournament run/resume` as a child process, read line by line."""

    def __init__(self, db: Path, *args: str) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "arena", "tournament", *args, "--db", str(db)],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            env={**CLEAN_ENV, "COLUMNS": "200", "PYTHONUNBUFFERED": "1"})
        self.seen: list[str] = []

    def lines(self) -> Iterator[str]:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.seen.append(line)
            yield line

    def wait_for(self, pattern: str) -> re.Match[str]:
        """The first line it prints from now on that matches ``pattern``."""
        for line in self.lines():
            found = re.search(pattern, line)
            if found:
                return found
        raise AssertionError(f"nothing printed matches {pattern!r}:\n" + "".join(self.seen)
                             + self.finish()[1])

    def remote_address(self) -> str:
        """The address it listens on for remote bots (it prints it once it does)."""
        found = self.wait_for(r"listening for remote bots on (\S+):(\d+)")
        return f"{found.group(1)}:{found.group(2)}"

    def finish(self, timeout: float = 180) -> tuple[str, str]:
        out, err = self.process.communicate(timeout=timeout)
        return "".join(self.seen) + out, err

    def finish_beside(self, bot: subprocess.Popen[str], output: Path | None = None) -> str:
        """Its output once it ended well; otherwise fail with its output and the bot's (in
        the file ``output`` if the bot wrote there)."""
        out, err = self.finish()
        if self.process.returncode != 0:
            if bot.poll() is None:
                bot.send_signal(signal.SIGKILL)
            said = bot.communicate()[0] if output is None else output.read_text()
            raise AssertionError(f"the tournament failed:\n{out}{err}\nthe remote bot "
                                 f"(exit code {bot.returncode}) said:\n{said}")
        return out

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.communicate()


def remote_bot(address: str, token: str, *tls: str,
               output: Path | None = None) -> subprocess.Popen[str]:
    """The bundled random bot, started by hand the way a bot author runs it; what it says
    goes to a pipe, or to the file ``output`` (to be read while it runs)."""
    with contextlib.ExitStack() as files:
        return subprocess.Popen(
            [sys.executable, "-m", "bots.random_bot", "--server", address, "--token", token, *tls],
            stdout=subprocess.PIPE if output is None else files.enter_context(output.open("w")),
            stderr=subprocess.STDOUT, text=True, env=CLEAN_ENV)


def ended(process: subprocess.Popen[str], timeout: float = 30,
          output: Path | None = None) -> tuple[int, str]:
    """Its exit code and what it said (in the file ``output`` if it wrote there), once it
    ended by itself."""
    try:
        out, _ = process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        process.send_signal(signal.SIGKILL)
        out, _ = process.communicate()
        said = out if output is None else output.read_text()
        raise AssertionError(f"the bot did not end by itself:\n{said}") from None
    return process.returncode, out if output is None else output.read_text()


def assert_all_played_cleanly(db: Path, tournament_id: int, remote: str) -> None:
    store = Store(str(db))
    tournament = store.get_tournament(tournament_id)
    assert tournament.status == "finished" and tournament.finished == tournament.total > 0
    matches = store.list_matches(tournament_id, 1000)
    assert len(matches) == tournament.total and all(m.status == "finished" for m in matches)
    for match in matches:
        assert remote in [s.bot for s in match.seats], match
        assert [s.fault for s in match.seats] == [""] * len(match.seats), match


def test_a_remote_bot_plays_a_whole_tournament_against_a_managed_bot(tmp_path: Path) -> None:
    db = tmp_path / "arena.db"
    cli("bot", "add", "random", "--command", "python -m bots.random_bot", db=db)
    token = add_remote(db)
    listing = cli("bot", "list", db=db).stdout
    assert re.search(r"faraway@1\W+remote", listing) and re.search(r"random@1\W+managed", listing)

    run = Tournament(db, "run", "--game", GAME, "--bot", "random", "--bot", "faraway",
                     "--players", "2", "--repetitions", "3", "--seed", "4",
                     "--listen", "127.0.0.1:0", "--wait-for-remote", "60")
    try:
        address = run.remote_address()
        with grpc.insecure_channel(address) as channel:  # a wrong token is refused
            with pytest.raises(grpc.RpcError) as refused:
                next(iter(pb_grpc.BotServiceStub(channel).Attend(
                    pb.AttendRequest(token=token[:-1] + ("A" if token[-1] != "A" else "B")), timeout=10)))
            assert isinstance(refused.value, grpc.Call)
            assert refused.value.code() == grpc.StatusCode.UNAUTHENTICATED
        impostor = remote_bot(address, "not-the-token-" + token[:10])
        code, said = ended(impostor)
        assert code == 1 and "UNAUTHENTICATED" in said, said

        # it says so while it waits (the bot starts only then, so that it must)
        run.wait_for(r"waiting up to 60 s for remote bots: faraway@1")
        bot = remote_bot(address, token)
        run.finish_beside(bot)
        code, said = ended(bot)  # dismissed when the tournament ends: it exits by itself
        assert code == 0, said
    finally:
        run.kill()
    assert_all_played_cleanly(db, 1, "faraway@1")

    stored = b"".join(p.read_bytes() for p in tmp_path.iterdir() if p.name.startswith("arena.db"))
    assert token.encode() not in stored  # the token is nowhere in the database files
    assert digest(token).encode() in stored  # only its hash


def test_a_remote_bot_over_tls_after_a_wait_that_ran_out_and_a_new_token(tmp_path: Path) -> None:
    db = tmp_path / "arena.db"
    cert, key = self_signed(tmp_path)
    cli("bot", "add", "random", "--command", "python -m bots.random_bot", db=db)
    old_token = add_remote(db)

    # Nobody connects: the run stops before the first match, nothing is played.
    first = cli("tournament", "run", "--game", GAME, "--bot", "random", "--bot", "faraway",
                "--players", "2", "--repetitions", "2", "--seed", "9", "--listen", "localhost:0",
                "--tls-cert", str(cert), "--tls-key", str(key), "--wait-for-remote", "0.5",
                db=db, check=False)
    assert first.returncode == 1, first.stdout + first.stderr
    assert first.stderr.strip().count("\n") == 0 and "Traceback" not in first.stderr
    assert "did not connect within 0.5 s: faraway@1" in first.stderr
    assert "arena tournament resume 1" in first.stderr
    assert "(TLS)" in first.stdout
    stopped = Store(str(db)).get_tournament(1)
    assert stopped.finished == 0 and stopped.status == "interrupted"

    new_token = cli("bot", "token", "faraway", db=db).stdout.splitlines()[2].strip()
    assert new_token != old_token and len(new_token) >= 40

    # The resume listens as saved (TLS, localhost); only the wait is given anew.
    resume = Tournament(db, "resume", "1", "--wait-for-remote", "60")
    try:
        address = resume.remote_address()
        assert address.startswith("localhost:")
        port = address.rsplit(":", 1)[1]
        plain = remote_bot(f"127.0.0.1:{port}", new_token, "--retry", "0")  # no TLS: no connection
        code, said = ended(plain)
        assert code == 1 and "UNAVAILABLE" in said, said
        stale = remote_bot(f"127.0.0.1:{port}", old_token, "--tls-ca", str(cert))
        code, said = ended(stale)
        assert code == 1 and "UNAUTHENTICATED" in said, said

        bot = remote_bot(f"127.0.0.1:{port}", new_token, "--tls-ca", str(cert))
        out = resume.finish_beside(bot)
        assert "remote bot faraway@1 connected" in out
        code, said = ended(bot)
        assert code == 0, said
    finally:
        resume.kill()
    assert_all_played_cleanly(db, 1, "faraway@1")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def retrying(said_file: Path) -> bool:
    """Whether the bot said it lost the connection, then that it tries again."""
    _, lost, after = said_file.read_text().partition("lost the connection")
    return bool(lost) and "cannot be reached" in after


def test_a_remote_bot_started_first_waits_for_its_tournament_and_outlives_a_kill_9(
        tmp_path: Path) -> None:
    """The bot is up before the arena listens, and keeps trying while the arena is killed
    and resumed (on the saved address): every match is played once, with no fault."""
    db = tmp_path / "arena.db"
    cli("bot", "add", "random", "--command", "python -m bots.random_bot", db=db)
    token = add_remote(db)
    address = f"127.0.0.1:{free_port()}"
    said_file = tmp_path / "bot.out"
    bot = remote_bot(address, token, "--retry", "60", output=said_file)
    run = Tournament(db, "run", "--game", GAME, "--bot", "random", "--bot", "faraway",
                     "--players", "2", "--repetitions", "20", "--seed", "5", "--listen", address)
    resume = None
    try:
        total = 40
        eventually("three finished matches", lambda: finished_matches(db) >= 3
                   or run.process.poll() is not None, every=0.01)
        assert 3 <= finished_matches(db) < total, run.finish()
        run.process.send_signal(signal.SIGKILL)
        run.process.wait()
        eventually("the bot to find the arena gone and try again", lambda: retrying(said_file))
        assert bot.poll() is None, said_file.read_text()  # it keeps trying

        resume = Tournament(db, "resume", "1")
        out = resume.finish_beside(bot, said_file)
        assert f"listening for remote bots on {address}" in out
        code, said = ended(bot, output=said_file)  # dismissed at the end: it exits by itself
        assert code == 0, said
        assert "cannot be reached" in said and "lost the connection" in said, said
    finally:
        for tournament in (run, resume):
            if tournament is not None:
                tournament.kill()
        if bot.poll() is None:
            bot.kill()
            bot.communicate()
    assert_all_played_cleanly(db, 1, "faraway@1")


def test_a_remote_bot_token_cannot_be_issued_for_a_managed_bot(tmp_path: Path) -> None:
    db = tmp_path / "arena.db"
    cli("bot", "add", "random", "--command", "python -m bots.random_bot", db=db)
    result = cli("bot", "token", "random", db=db, check=False)
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert "random@1 is managed, not remote" in result.stderr


def test_without_a_wait_an_absent_remote_bot_is_a_no_show_in_each_match(tmp_path: Path) -> None:
    db = tmp_path / "arena.db"
    cli("bot", "add", "random", "--command", "python -m bots.random_bot", db=db)
    add_remote(db)
    cli("tournament", "run", "--game", GAME, "--bot", "random", "--bot", "faraway", "--players", "2",
        "--seed", "1", "--listen", "127.0.0.1:0", "--wait-for-remote", "0", "--start-timeout", "10",
        db=db)
    store = Store(str(db))
    matches = store.list_matches(1, 100)
    assert len(matches) == store.get_tournament(1).total == 2
    for match in matches:
        faults = {s.bot: s.fault for s in match.seats}
        assert faults == {"faraway@1": "no-show", "random@1": ""}, faults


def test_a_bot_that_comes_back_is_not_offered_seats_of_matches_already_over() -> None:
    async def main() -> list[pb.Assignment]:
        host = MatchHost()
        server, port = await create_server(host)
        try:
            host.admit_hash(digest("late-token"))
            options = dict(get_game(GAME).parse_options(2))
            report = await host.play(MatchSpec(
                "missed", GAME, 2, 1, options, (digest("late-token"),) * 2, ("late", "late"),
                MatchSettings(move_timeout_s=1, start_timeout_s=0.2)))
            assert report.faults == ("no-show", "no-show")
            asyncio.get_running_loop().call_later(1.0, host.dismiss, "late-token")
            async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel:
                stream = pb_grpc.BotServiceStub(channel).Attend(pb.AttendRequest(token="late-token"))
                return [assignment async for assignment in stream]
        finally:
            await server.stop(grace=0.5)

    assert asyncio.run(main()) == []  # the two seats it missed are not offered any more
