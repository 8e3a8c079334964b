"""Who may call what on the operator service: the one place that decides.

Every call names its caller with ``authorization: Bearer TOKEN``. The operator's token
may call everything; an author's token (``arena author add``: its SHA-256 is in the
store, compared there by index, never the token) may call what :data:`POLICY` gives
authors; anything else is ``PERMISSION_DENIED``, an unknown token ``UNAUTHENTICATED``.
A method missing from :data:`POLICY` is the operator's alone (closed by default).

Two rules depend on the data: an author submits versions of its own bots only (a bot's
name belongs to the author who first submitted it: the store keeps that rule, in the
same transaction as the submission), and reads the logs of its own bots only
(:func:`may_read_log`). The servicer asks :func:`caller` who is calling: the
interceptor sets it for the call, and a call that did not pass it has no caller.
"""

from __future__ import annotations

import contextvars
import hmac
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from enum import Enum
from typing import Any

import grpc

from arena.net.bot_service import digest
from arena.storage.store import Store, StoreError

OPERATOR_PREFIX = "/arena.v1.OperatorService/"


class Rule(Enum):
    OPERATOR = "the operator"
    ANYONE = "the operator or any author"
    OWN_BOT = "the operator, or the author of the bot"


POLICY: dict[str, Rule] = {
    # public reads: any token
    "ListBots": Rule.ANYONE,
    "ListTournaments": Rule.ANYONE,
    "GetTournament": Rule.ANYONE,
    "ListMatches": Rule.ANYONE,
    "GetMatch": Rule.ANYONE,  # an author: a seat's or the full view once the match (and its deal) is over
    "Leaderboard": Rule.ANYONE,
    "WatchMatch": Rule.ANYONE,  # the public view only, for everyone
    # an author's own bots
    "SubmitBot": Rule.OWN_BOT,
    "ReadBotLog": Rule.OWN_BOT,
    # the operator's alone
    "CreateTournament": Rule.OPERATOR,
    "CancelTournament": Rule.OPERATOR,
}
"""Who may call each method of ``OperatorService``, by its name."""


@dataclass(frozen=True)
class Caller:
    """Who is calling: the operator, or an author (with its id in the store)."""

    author_id: int | None = None
    author: str | None = None

    @property
    def operator(self) -> bool:
        return self.author_id is None

    def __str__(self) -> str:
        return "the operator" if self.operator else f"author {self.author}"


OPERATOR = Caller()
_CALLER: contextvars.ContextVar[Caller | None] = contextvars.ContextVar("arena_caller", default=None)


def caller() -> Caller | None:
    """The caller of the call being served (None: the call was not authenticated)."""
    return _CALLER.get()


def may_read_log(who: Caller, bot_author_id: int | None) -> bool:
    """Whether ``who`` may read the captured output of a bot of ``bot_author_id``."""
    return who.operator or (bot_author_id is not None and bot_author_id == who.author_id)


def refusal(method: str, who: Caller) -> str | None:
    """Why ``who`` may not call ``method`` (None: it may, subject to the data rules)."""
    rule = POLICY.get(method, Rule.OPERATOR)
    if who.operator or rule is not Rule.OPERATOR:
        return None
    return f"{method} is for {rule.value}: {who} may not call it"


class OperatorAuth(grpc.aio.ServerInterceptor):  # type: ignore[type-arg]
    """Names the caller of every operator method, and refuses what :data:`POLICY` does not
    allow. ``token``: the operator's (None: every caller is the operator, as on the
    operator's own Unix socket); ``store``: where authors' token hashes are looked up (None:
    no authors). Other services on the same server (a bot service) are left to their own
    checks."""

    def __init__(self, token: str | None, store: Store | None = None) -> None:
        self._expected = None if token is None else f"Bearer {token}".encode()
        self._store = store

    def _caller(self, metadata: Any) -> Caller | None:
        if self._expected is None:
            return OPERATOR
        given = dict(metadata or ()).get("authorization", "")
        given_bytes = given.encode() if isinstance(given, str) else bytes(given)
        if hmac.compare_digest(given_bytes, self._expected):
            return OPERATOR
        if self._store is None or not given_bytes.startswith(b"Bearer "):
            return None
        try:
            token = given_bytes[len(b"Bearer "):].decode("utf-8")
        except UnicodeDecodeError:
            return None
        if not token or len(token) > 256:
            return None
        try:
            author = self._store.author_by_token_hash(digest(token))
        except StoreError:  # unknown, or the database cannot say: not let in either way
            return None
        return Caller(author.id, author.name)

    async def intercept_service(self, continuation: Callable[[Any], Any],
                                details: grpc.HandlerCallDetails) -> Any:
        if not details.method.startswith(OPERATOR_PREFIX):
            return await continuation(details)
        method = details.method[len(OPERATOR_PREFIX):]
        handler = await continuation(details)
        if handler is None:
            return None  # no such method: UNIMPLEMENTED
        who = self._caller(details.invocation_metadata)
        if who is None:
            return _refusing(handler, grpc.StatusCode.UNAUTHENTICATED,
                             "this service needs the operator's token or an author's token "
                             "(authorization: Bearer TOKEN)")
        why = refusal(method, who)
        if why is not None:
            return _refusing(handler, grpc.StatusCode.PERMISSION_DENIED, why)
        return _as(handler, who)


def _refusing(handler: Any, code: grpc.StatusCode, message: str) -> Any:
    """A handler of the same kind as ``handler`` that refuses at once, reading no request
    (a refused upload is not read at all)."""
    async def refuse(_request: Any, context: grpc.aio.ServicerContext[Any, Any]) -> None:
        await context.abort(code, message)

    async def refuse_stream(_request: Any,
                            context: grpc.aio.ServicerContext[Any, Any]) -> AsyncIterator[Any]:
        await context.abort(code, message)
        yield None  # pragma: no cover (abort raises): makes this an async generator

    if handler.unary_unary is not None:
        return grpc.unary_unary_rpc_method_handler(refuse)
    if handler.stream_unary is not None:
        return grpc.stream_unary_rpc_method_handler(refuse)
    if handler.unary_stream is not None:
        return grpc.unary_stream_rpc_method_handler(refuse_stream)
    return grpc.stream_stream_rpc_method_handler(refuse_stream)


def _as(handler: Any, who: Caller) -> Any:
    """``handler`` with ``who`` as the caller of the calls it serves."""
    if handler.unary_unary is not None:
        inner_uu: Callable[[Any, Any], Awaitable[Any]] = handler.unary_unary

        async def unary_unary(request: Any, context: Any) -> Any:
            _CALLER.set(who)
            return await inner_uu(request, context)

        return grpc.unary_unary_rpc_method_handler(
            unary_unary, request_deserializer=handler.request_deserializer,
            response_serializer=handler.response_serializer)
    if handler.unary_stream is not None:
        inner_us: Callable[[Any, Any], AsyncIterator[Any]] = handler.unary_stream

        async def unary_stream(request: Any, context: Any) -> AsyncIterator[Any]:
            _CALLER.set(who)
            async for item in inner_us(request, context):
                yield item

        return grpc.unary_stream_rpc_method_handler(
            unary_stream, request_deserializer=handler.request_deserializer,
            response_serializer=handler.response_serializer)
    if handler.stream_unary is not None:
        inner_su: Callable[[Any, Any], Awaitable[Any]] = handler.stream_unary

        async def stream_unary(requests: Any, context: Any) -> Any:
            _CALLER.set(who)
            return await inner_su(requests, context)

        return grpc.stream_unary_rpc_method_handler(
            stream_unary, request_deserializer=handler.request_deserializer,
            response_serializer=handler.response_serializer)
    inner_ss: Callable[[Any, Any], AsyncIterator[Any]] = handler.stream_stream

    async def stream_stream(requests: Any, context: Any) -> AsyncIterator[Any]:
        _CALLER.set(who)
        async for item in inner_ss(requests, context):
            yield item

    return grpc.stream_stream_rpc_method_handler(
        stream_stream, request_deserializer=handler.request_deserializer,
        response_serializer=handler.response_serializer)


__all__ = ["OPERATOR", "OPERATOR_PREFIX", "POLICY", "Caller", "OperatorAuth",
           "Rule", "caller", "may_read_log", "refusal"]
