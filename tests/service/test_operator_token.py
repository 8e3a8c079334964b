"""The operator's token survives a restart of ``arena serve`` without ARENA_OPERATOR_TOKEN,
and changes only when the operator rotates it: real servers, over real gRPC."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import grpc

from arena.service.operator_token import TOKEN_FILE
from arena.v1 import arena_pb2 as pb
from arena.v1 import arena_pb2_grpc as pb_grpc
from tests.helpers import arena

NO_TOKEN_IN_ENV = {k: v for k, v in os.environ.items() if k != "ARENA_OPERATOR_TOKEN"}


@contextmanager
def serving(db: Path, *args: str) -> Iterator[tuple[list[str], str]]:
    """``arena serve`` on a free port: the lines it said up to its address, and the address."""
    server = subprocess.Popen([sys.executable, "-m", "arena", "serve", "--port", "0", "--no-web",
                               "--db", str(db), *args], stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True, env=NO_TOKEN_IN_ENV)
    try:
        assert server.stdout is not None
        said = []
        for line in server.stdout:
            said.append(line.rstrip("\n"))
            if found := re.search(r"listening on \S+:(\d+)", line):
                yield said, f"127.0.0.1:{found.group(1)}"
                break
        else:
            raise AssertionError("\n".join(said))
    finally:
        server.terminate()
        server.communicate(timeout=60)


def answers(address: str, token: str) -> grpc.StatusCode:
    with grpc.insecure_channel(address) as channel:
        try:
            pb_grpc.OperatorServiceStub(channel).ListBots(
                pb.ListBotsRequest(), timeout=30, metadata=[("authorization", f"Bearer {token}")])
        except grpc.RpcError as err:
            assert isinstance(err, grpc.Call)
            return err.code()
        return grpc.StatusCode.OK


def new_token(said: list[str]) -> str:
    found = [re.search(r"operator token \(send as 'authorization: Bearer TOKEN'\): (\S+)$", line)
             for line in said]
    tokens = [f.group(1) for f in found if f]
    assert len(tokens) == 1, said
    assert not tokens[0].startswith("-")
    return tokens[0]


def test_the_operator_token_is_kept_across_restarts_until_rotated(tmp_path: Path) -> None:
    db = tmp_path / "arena.db"
    with serving(db, "--no-sandbox") as (said, address):
        first = new_token(said)
        assert answers(address, first) == grpc.StatusCode.OK
    kept = tmp_path / "arena-data" / TOKEN_FILE  # beside the database, hidden from bots
    assert first not in kept.read_text() and oct(kept.stat().st_mode & 0o777) == "0o600"

    with serving(db, "--no-sandbox") as (said, address):  # restarted: the same token works
        assert not any("Bearer TOKEN'): " in line for line in said), said
        assert any("operator token: the one of the last start" in line for line in said), said
        assert answers(address, first) == grpc.StatusCode.OK

    with serving(db, "--no-sandbox", "--rotate-operator-token") as (said, address):
        second = new_token(said)
        assert second != first
        assert answers(address, second) == grpc.StatusCode.OK
        assert answers(address, first) == grpc.StatusCode.UNAUTHENTICATED

    clash = arena("serve", "--port", "0", "--no-web", "--rotate-operator-token",
                  "--operator-token", "x" * 20, db=db, check=False)
    assert clash.returncode == 1 and clash.stderr.strip() == (
        "error: --rotate-operator-token makes a new token: give no --operator-token (nor "
        "ARENA_OPERATOR_TOKEN) with it")
