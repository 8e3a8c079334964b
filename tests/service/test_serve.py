"""`arena serve`: the operator service on its own, over real gRPC (no bot service)."""

from __future__ import annotations

import os
import re
import signal
import socket
import stat
import subprocess
import sys
from pathlib import Path

import grpc
import pytest

from arena.v1 import arena_pb2 as pb
from arena.v1 import arena_pb2_grpc as pb_grpc
from tests.helpers import add_bots, arena, cli, self_signed


def test_serve_answers_operators_and_serves_no_bot_service(tmp_path: Path) -> None:
    db = tmp_path / "arena.db"
    add_bots(db)
    cli("tournament", "run", "--game", "face-card-kill-card", "--bot", "random",
        "--bot", "heuristic", "--seed", "2", db=db)
    token = "operator-secret-for-this-test"
    server = subprocess.Popen([sys.executable, "-m", "arena", "serve", "--port", "0", "--no-web",
                               "--db", str(db)],
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                              env={**os.environ, "COLUMNS": "200", "ARENA_OPERATOR_TOKEN": token})
    try:
        assert server.stdout is not None
        line = server.stdout.readline()
        found = re.search(r":(\d+)", line)
        assert found, line
        with grpc.insecure_channel(f"127.0.0.1:{found.group(1)}") as plain:
            for credentials in ([], [("authorization", "Bearer wrong-token-guessed")]):
                try:  # without the operator token, operator methods are refused
                    pb_grpc.OperatorServiceStub(plain).ListBots(
                        pb.ListBotsRequest(), timeout=10, metadata=credentials)
                    raise AssertionError("an operator method answered without the token")
                except grpc.RpcError as err:
                    assert isinstance(err, grpc.Call)
                    assert err.code() == grpc.StatusCode.UNAUTHENTICATED
        auth = [("authorization", f"Bearer {token}")]
        with grpc.insecure_channel(f"127.0.0.1:{found.group(1)}") as channel:
            operator = pb_grpc.OperatorServiceStub(channel)
            bots = operator.ListBots(pb.ListBotsRequest(), timeout=10, metadata=auth)
            assert sorted(b.name for b in bots.bots) == ["heuristic", "random"]
            board = operator.Leaderboard(pb.LeaderboardRequest(game="face-card-kill-card"),
                                         timeout=10, metadata=auth)
            assert [r.bot for r in board.rows] and board.rows[0].conservative >= board.rows[1].conservative
            tournaments = operator.ListTournaments(pb.ListTournamentsRequest(), timeout=10, metadata=auth)
            assert tournaments.tournaments[0].finished == tournaments.tournaments[0].matches == 12
            matches = operator.ListMatches(pb.ListMatchesRequest(tournament_id=1), timeout=10, metadata=auth)
            match_id = matches.matches[0].id
            seat0 = operator.GetMatch(pb.GetMatchRequest(match_id=match_id, seat=0),
                                      timeout=10, metadata=auth)
            everyone = operator.GetMatch(pb.GetMatchRequest(match_id=match_id), timeout=10, metadata=auth)
            assert 0 < len(seat0.events) < len(everyone.events)
            try:
                operator.GetMatch(pb.GetMatchRequest(match_id=999), timeout=10, metadata=auth)
                raise AssertionError("an unknown match was found")
            except grpc.RpcError as err:
                assert isinstance(err, grpc.Call) and err.code() == grpc.StatusCode.NOT_FOUND
            bots_api = pb_grpc.BotServiceStub(channel)
            try:  # bots connect to a tournament (--listen), not to `arena serve`
                next(iter(bots_api.Attend(pb.AttendRequest(token="guess"), timeout=10)))
                raise AssertionError("arena serve answered a bot")
            except grpc.RpcError as err:
                assert isinstance(err, grpc.Call) and err.code() == grpc.StatusCode.UNIMPLEMENTED
    finally:
        server.send_signal(signal.SIGINT)
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


def test_a_port_in_use_is_one_clear_error(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = arena("serve", "--port", str(port), "--no-web", db=tmp_path / "a.db", check=False)
    assert result.returncode == 1
    assert result.stderr.strip() == f"error: cannot serve on 127.0.0.1:{port}: " \
                                    f"cannot listen on 127.0.0.1:{port} (in use?)"


def _ctrl_c_as_a_terminal_sends_it() -> None:
    """In the server's process before it starts: SIGINT delivered and not ignored, whatever
    the test process inherited (a signal ignored or blocked there is ignored or blocked in
    its children: in a full run the server never saw its Ctrl-C, alone it always did)."""
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "sigterm"])
def test_tls_and_the_operator_socket_which_needs_no_token(tmp_path: Path, stop: signal.Signals) -> None:
    db = tmp_path / "arena.db"
    add_bots(db)
    cli("bot", "add", "faraway", "--remote", db=db)  # listed as remote, with no command
    cert, key = self_signed(tmp_path)
    path = tmp_path / "operator.sock"
    with socket.socket(socket.AF_UNIX) as stale:  # left behind by a server that died
        stale.bind(str(path))
    token = "operator-secret-for-this-test"
    command = [sys.executable, "-m", "arena", "serve", "--port", "0", "--no-web", "--tls-cert", str(cert),
               "--tls-key", str(key), "--operator-socket", str(path), "--db", str(db)]
    server = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                              env={**os.environ, "COLUMNS": "200", "ARENA_OPERATOR_TOKEN": token},
                              preexec_fn=_ctrl_c_as_a_terminal_sends_it)
    try:
        assert server.stdout is not None
        line = server.stdout.readline()
        found = re.search(r":(\d+) \(TLS", line)
        assert found, line
        assert "operator socket" in server.stdout.readline()
        assert stat.S_ISSOCK(path.lstat().st_mode) and stat.S_IMODE(path.stat().st_mode) == 0o600

        with grpc.insecure_channel(f"unix:{path}") as local:  # no token on the socket
            bots = pb_grpc.OperatorServiceStub(local).ListBots(pb.ListBotsRequest(), timeout=10)
            assert sorted((b.name, b.remote, bool(b.command)) for b in bots.bots) == [
                ("faraway", True, False), ("heuristic", False, True), ("random", False, True)]

        trusted = grpc.ssl_channel_credentials(root_certificates=cert.read_bytes())
        with grpc.secure_channel(f"localhost:{found.group(1)}", trusted) as tcp:
            operator = pb_grpc.OperatorServiceStub(tcp)
            try:  # the same call over TCP (TLS) without the token is refused
                operator.ListBots(pb.ListBotsRequest(), timeout=10)
                raise AssertionError("an operator method answered over TCP without the token")
            except grpc.RpcError as err:
                assert isinstance(err, grpc.Call) and err.code() == grpc.StatusCode.UNAUTHENTICATED
            bots = operator.ListBots(pb.ListBotsRequest(), timeout=10,
                                     metadata=[("authorization", f"Bearer {token}")])
            assert len(bots.bots) == 3
        with grpc.insecure_channel(f"127.0.0.1:{found.group(1)}") as plain:
            try:  # the TCP port speaks TLS only
                pb_grpc.OperatorServiceStub(plain).ListBots(
                    pb.ListBotsRequest(), timeout=5, metadata=[("authorization", f"Bearer {token}")])
                raise AssertionError("the TLS port answered in plain text")
            except grpc.RpcError as err:
                assert isinstance(err, grpc.Call) and err.code() == grpc.StatusCode.UNAVAILABLE

        second = arena("serve", "--port", "0", "--no-web", "--operator-socket", str(path), db=db, check=False)
        assert second.returncode == 1 and "already listens on" in second.stderr, second.stderr
    finally:
        server.send_signal(stop)
        try:
            rest, _ = server.communicate(timeout=60)  # a safety net: it stops in a second or two
        except subprocess.TimeoutExpired:
            server.kill()
            rest, _ = server.communicate()
    # it stops with no warning or traceback (the scheduler's line, printed right after the
    # socket's, may have come in the same read of the pipe as that one: then it sits in the
    # text wrapper's buffer, which communicate(), reading the pipe itself, never sees)
    # the protections the server says it is under come first (tests/service/test_doors.py)
    scheduler = "scheduler: plays queued tournaments, at most 2 matches at once"
    assert server.returncode == 0 and [
        line for line in rest.splitlines() if line.strip() and line != scheduler
        and line != "protections:" and not line.startswith("  ")] == ["stopped"], rest
    assert not path.exists() and not path.is_symlink()  # removed on exit


def test_a_sigterm_as_soon_as_it_says_it_listens_stops_it_cleanly(tmp_path: Path) -> None:
    """A service manager (or a test) that waits for the first line and stops the server at
    once meets its own handler, not SIGTERM's default: exit code 0, "stopped"."""
    db = tmp_path / "arena.db"
    server = subprocess.Popen(
        [sys.executable, "-m", "arena", "serve", "--port", "0", "--no-web", "--db", str(db)],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        env={**os.environ, "COLUMNS": "200", "ARENA_OPERATOR_TOKEN": "a-token-for-this-test"})
    assert server.stdout is not None
    first = server.stdout.readline()
    server.send_signal(signal.SIGTERM)
    try:
        rest, _ = server.communicate(timeout=60)  # a safety net: it stops in a second or two
    except subprocess.TimeoutExpired:
        server.kill()
        rest, _ = server.communicate()
    assert "operator service listening" in first, first + rest
    assert server.returncode == 0 and rest.splitlines()[-1:] == ["stopped"], (server.returncode,
                                                                              rest)
