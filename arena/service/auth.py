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

Wrong tokens are throttled per client address (:class:`Throttle`): the decision is taken
when the call starts, from its peer, which the operator port's front door
(:mod:`arena.net.doors`) maps back to the client's address.
"""

from __future__ import annotations

import asyncio
import contextvars
import hmac
import math
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from enum import Enum
from typing import Any

import grpc

from arena.app.signin import Throttle
from arena.net.doors import split_peer
from arena.service.operator_token import TokenHash
from arena.storage.store import Store, StoreError
from arena.wire.tokens import digest

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
    "GetLadder": Rule.ANYONE,
    "RequestScrimmage": Rule.ANYONE,  # an author's own versions, within their limits
    # an author's own bots
    "SubmitBot": Rule.OWN_BOT,
    "ReadBotLog": Rule.OWN_BOT,
    # the operator's alone
    "CreateTournament": Rule.OPERATOR,
    "CancelTournament": Rule.OPERATOR,
    "VoidTournament": Rule.OPERATOR,
    "ResumeTournament": Rule.OPERATOR,
    "ExportTournament": Rule.OPERATOR,
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


def peer_address(peer: str) -> str | None:
    """The host of a gRPC peer string: the client's address when it connected directly."""
    host, _ = split_peer(peer)
    return host


Decision = Caller | tuple[grpc.StatusCode, str]
"""Who calls, or the code and words of the refusal."""


class OperatorAuth(grpc.aio.ServerInterceptor):  # type: ignore[type-arg]
    """Names the caller of every operator method, and refuses what :data:`POLICY` does not
    allow. ``token``: the operator's (None: every caller is the operator, as on the
    operator's own Unix socket); ``store``: where authors' token hashes are looked up (None:
    no authors); ``throttle``: failed authentications are counted per client address, and an
    address over the throttle's count is refused outright (``RESOURCE_EXHAUSTED``);
    ``client_of``: the client's address behind a call's gRPC peer (None for a call that did
    not come through the door the server is meant to be reached by: refused). Other services
    on the same server (a bot service) are left to their own checks."""

    def __init__(self, token: str | TokenHash | None, store: Store | None = None, *,
                 throttle: Throttle | None = None,
                 client_of: Callable[[str], str | None] = peer_address) -> None:
        self._expected = None if token is None else (
            token if isinstance(token, TokenHash) else TokenHash.of(token)).hexdigest.encode()
        self._store = store
        self._throttle = throttle
        self._client_of = client_of

    async def _caller(self, metadata: Any) -> Caller | None:
        """Who the token in ``metadata`` names (a token is known by its hash: the operator's is
        kept so across restarts, authors' in the store, looked up in a worker thread)."""
        given = dict(metadata or ()).get("authorization", "")
        given_bytes = given.encode() if isinstance(given, str) else bytes(given)
        if not given_bytes.startswith(b"Bearer "):
            return None
        try:
            token = given_bytes[len(b"Bearer "):].decode("utf-8")
        except UnicodeDecodeError:
            return None
        if not token or len(token) > 256:
            return None
        hashed = digest(token)
        assert self._expected is not None  # else every caller is the operator (_decide)
        if hmac.compare_digest(hashed.encode(), self._expected):
            return OPERATOR
        if self._store is None:
            return None
        try:
            author = await asyncio.to_thread(self._store.author_by_token_hash, hashed)
        except StoreError:  # unknown, or the database cannot say: not let in either way
            return None
        return Caller(author.id, author.name)

    async def _decide(self, method: str, metadata: Any, peer: str) -> Decision:
        """Who calls ``method``, or the code and words of the refusal."""
        if self._expected is None:
            return OPERATOR
        client = self._client_of(peer)
        if client is None:
            return (grpc.StatusCode.PERMISSION_DENIED,
                    "calls come through the arena's port, not around it")
        if self._throttle is not None:
            left = self._throttle.blocked_for(client)
            if left > 0:
                return (grpc.StatusCode.RESOURCE_EXHAUSTED,
                        f"too many wrong tokens from your address: try again in "
                        f"{math.ceil(left)} s")
        who = await self._caller(metadata)
        if who is None:
            if self._throttle is not None:
                self._throttle.failed(client)
            return (grpc.StatusCode.UNAUTHENTICATED,
                    "this service needs the operator's token or an author's token "
                    "(authorization: Bearer TOKEN)")
        why = refusal(method, who)
        if why is not None:
            return grpc.StatusCode.PERMISSION_DENIED, why
        return who

    async def intercept_service(self, continuation: Callable[[Any], Any],
                                details: grpc.HandlerCallDetails) -> Any:
        if not details.method.startswith(OPERATOR_PREFIX):
            return await continuation(details)
        method = details.method[len(OPERATOR_PREFIX):]
        handler = await continuation(details)
        if handler is None:
            return None  # no such method: UNIMPLEMENTED
        metadata = details.invocation_metadata
        return _as(handler, lambda peer: self._decide(method, metadata, peer))


async def _admitted(decide: Callable[[str], Awaitable[Decision]], context: Any) -> None:
    """Decide on the call of ``context`` (its peer tells the client's address): refused, it
    ends here (before any request of a stream is read); let in, its caller is set."""
    decision = await decide(context.peer())
    if isinstance(decision, tuple):
        await context.abort(*decision)
    else:
        _CALLER.set(decision)


def _as(handler: Any, decide: Callable[[str], Awaitable[Decision]]) -> Any:
    """``handler`` behind ``decide``, with the caller it names set for the calls it serves."""
    if handler.unary_unary is not None:
        inner_uu: Callable[[Any, Any], Awaitable[Any]] = handler.unary_unary

        async def unary_unary(request: Any, context: Any) -> Any:
            await _admitted(decide, context)
            return await inner_uu(request, context)

        return grpc.unary_unary_rpc_method_handler(
            unary_unary, request_deserializer=handler.request_deserializer,
            response_serializer=handler.response_serializer)
    if handler.unary_stream is not None:
        inner_us: Callable[[Any, Any], AsyncIterator[Any]] = handler.unary_stream

        async def unary_stream(request: Any, context: Any) -> AsyncIterator[Any]:
            await _admitted(decide, context)
            async for item in inner_us(request, context):
                yield item

        return grpc.unary_stream_rpc_method_handler(
            unary_stream, request_deserializer=handler.request_deserializer,
            response_serializer=handler.response_serializer)
    if handler.stream_unary is not None:
        inner_su: Callable[[Any, Any], Awaitable[Any]] = handler.stream_unary

        async def stream_unary(requests: Any, context: Any) -> Any:
            await _admitted(decide, context)
            return await inner_su(requests, context)

        return grpc.stream_unary_rpc_method_handler(
            stream_unary, request_deserializer=handler.request_deserializer,
            response_serializer=handler.response_serializer)
    inner_ss: Callable[[Any, Any], AsyncIterator[Any]] = handler.stream_stream

    async def stream_stream(requests: Any, context: Any) -> AsyncIterator[Any]:
        await _admitted(decide, context)
        async for item in inner_ss(requests, context):
            yield item

    return grpc.stream_stream_rpc_method_handler(
        stream_stream, request_deserializer=handler.request_deserializer,
        response_serializer=handler.response_serializer)


__all__ = ["OPERATOR", "OPERATOR_PREFIX", "POLICY", "Caller", "OperatorAuth",
           "Rule", "Throttle", "caller", "may_read_log", "peer_address", "refusal"]
