"""The operator's token survives a restart of ``arena serve`` without ARENA_OPERATOR_TOKEN,
and changes only when the operator rotates it: real servers, over real gRPC."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import grpc

from arena.service.operator_token import TOKEN_FILE
from arena.v1 import arena_pb2 as pb
from arena.v1 import arena_pb2_grpc as pb_grpc
from arena.wire.tokens import digest
from tests.helpers import arena
from tests.served import Served


@contextmanager
def serving(db: Path, *args: str) -> Iterator[tuple[list[str], str]]:
    """``arena serve`` with no ARENA_OPERATOR_TOKEN, once it listens: the lines it said, and its
    address."""
    served = Served(db, "--no-web", *args, env={"ARENA_OPERATOR_TOKEN": None})
    try:
        yield served.lines, served.address
    finally:
        served.stop()


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
    assert kept.read_text() == digest(first) + "\n"  # its hash only, as every token kept

    with serving(db, "--no-sandbox") as (said, address):  # restarted: the same token works
        assert not any("Bearer TOKEN'): " in line for line in said), said
        assert any("operator token: the one of the last start" in line for line in said), said
        assert answers(address, first) == grpc.StatusCode.OK

    with serving(db, "--no-sandbox", "--rotate-operator-token") as (said, address):
        second = new_token(said)
        assert second != first
        assert answers(address, second) == grpc.StatusCode.OK
        assert answers(address, first) == grpc.StatusCode.UNAUTHENTICATED
    assert kept.read_text() == digest(second) + "\n"

    clash = arena("serve", "--port", "0", "--no-web", "--rotate-operator-token",
                  "--operator-token", "x" * 20, db=db, check=False)
    assert clash.returncode == 1 and clash.stderr.strip() == (
        "error: --rotate-operator-token makes a new token: give no --operator-token (nor "
        "ARENA_OPERATOR_TOKEN) with it")
    assert kept.read_text() == digest(second) + "\n"  # refused before anything was written
