"""`arena serve`: the standalone referee with its operator service, over real gRPC."""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
from pathlib import Path

import grpc

from arena.v1 import arena_pb2 as pb
from arena.v1 import arena_pb2_grpc as pb_grpc
from tests.test_cli import add_bots, arena


def test_serve_answers_operators_and_refuses_unknown_bots(tmp_path: Path) -> None:
    db = tmp_path / "arena.db"
    add_bots(db)
    arena("tournament", "run", "--game", "face-card-kill-card", "--bot", "random",
          "--bot", "heuristic", "--seed", "2", db=db)
    token = "operator-secret-for-this-test"
    server = subprocess.Popen([sys.executable, "-m", "arena", "serve", "--port", "0", "--db", str(db)],
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
            try:
                next(iter(bots_api.Attend(pb.AttendRequest(token="guess"), timeout=10)))
                raise AssertionError("an unknown token was admitted")
            except grpc.RpcError as err:
                assert isinstance(err, grpc.Call) and err.code() == grpc.StatusCode.UNAUTHENTICATED
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
        result = arena("serve", "--port", str(port), db=tmp_path / "a.db", check=False)
    assert result.returncode == 1
    assert result.stderr.strip() == f"error: cannot serve on 127.0.0.1:{port}: " \
                                    f"cannot listen on 127.0.0.1:{port} (in use?)"
