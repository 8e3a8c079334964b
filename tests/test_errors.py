"""The one error base (:mod:`arena.errors`): every domain error has a kind, and each kind one
answer for every front end."""

from __future__ import annotations

import grpc
import pytest

from arena.errors import ArenaError, ErrorKind, kind_of_status
from arena.games import get_game
from arena.games.base import GameError
from arena.net.tls import TlsError
from arena.players.limits import LimitError
from arena.players.process import BotCommandError
from arena.players.submissions import BuildError, SubmissionError
from arena.storage.schema import SchemaError
from arena.storage.store import DatabaseGone, NotAllowedError, NotFoundError, StoreError
from arena.tournament import TournamentError


def test_each_kind_answers_apart_and_names_a_real_grpc_status() -> None:
    kinds = list(ErrorKind)
    assert len({k.grpc_status for k in kinds}) == len(kinds)
    assert len({k.http_status for k in kinds}) == len(kinds)
    for kind in kinds:
        assert grpc.StatusCode[kind.grpc_status].name == kind.grpc_status
        assert kind_of_status(kind.grpc_status) is kind
        assert kind.exit_code != 0
    assert kind_of_status("OK") is None


@pytest.mark.parametrize(("error", "kind"), [
    (GameError("x"), ErrorKind.BAD_REQUEST),
    (TlsError("x"), ErrorKind.BAD_REQUEST),
    (LimitError("x"), ErrorKind.BAD_REQUEST),
    (BotCommandError("x"), ErrorKind.BAD_REQUEST),
    (SubmissionError("x"), ErrorKind.BAD_REQUEST),
    (BuildError("x", "log"), ErrorKind.BAD_REQUEST),
    (TournamentError("x"), ErrorKind.BAD_REQUEST),
    (StoreError("x"), ErrorKind.UNAVAILABLE),
    (DatabaseGone("x"), ErrorKind.UNAVAILABLE),
    (SchemaError("x"), ErrorKind.UNAVAILABLE),
    (NotFoundError("x"), ErrorKind.NOT_FOUND),
    (NotAllowedError("x"), ErrorKind.NOT_ALLOWED),
    (StoreError("x", kind=ErrorKind.CONFLICT), ErrorKind.CONFLICT),
])
def test_domain_errors_derive_from_the_base_with_their_kind(error: ArenaError,
                                                            kind: ErrorKind) -> None:
    assert isinstance(error, ArenaError)
    assert error.kind is kind


def test_a_kind_given_to_one_raise_stays_with_that_error_only() -> None:
    assert StoreError("taken", kind=ErrorKind.CONFLICT).kind is ErrorKind.CONFLICT
    assert StoreError("gone").kind is ErrorKind.UNAVAILABLE


def test_an_unknown_game_is_not_found() -> None:
    with pytest.raises(GameError) as caught:
        get_game("poker")
    assert caught.value.kind is ErrorKind.NOT_FOUND
