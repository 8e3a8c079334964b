"""Signing in with an author's token, and the throttle on wrong tokens: one home for both doors
that take a token (the operator service's calls, and the web's sign-in form).

- :class:`Throttle`: failed authentications per client address; over the count, the address
  is refused outright for a while, its tokens never looked up.
- :func:`sign_in`: the author a token names, or a refusal (one line) that counts against the
  address. The web keeps, in its signed session cookie, the token's hash (never the token):
  :func:`signed_in` looks it up on every request, so a new token (``arena author token``)
  signs out every session of the old one, and so does a session older than
  :data:`SESSION_S`.
- :class:`SignIns`: the web's sign-ins, the throttle and the sessions signed out (whose
  copies of the cookie are refused).
"""

from __future__ import annotations

import math
import secrets
import time
from collections import OrderedDict, deque
from collections.abc import Callable, Mapping

from arena.errors import ArenaError, ErrorKind
from arena.net.doors import address_key
from arena.storage.store import AuthorInfo, Store, StoreError
from arena.wire.tokens import digest

THROTTLE_FAILURES = 10
"""Wrong or missing tokens one address may send within :data:`THROTTLE_WINDOW_S` ..."""
THROTTLE_WINDOW_S = 60.0
THROTTLE_BLOCK_S = 60.0
"""... before every call from it is refused this long, token or not, with no look-up."""
THROTTLE_ADDRESSES = 10_000
"""Addresses the throttle remembers at most (the oldest are forgotten first)."""
SESSION_S = 8 * 3600
"""How long a web session lasts after signing in (then the author signs in again)."""
MAX_TOKEN = 256
"""The longest token looked up (an author's is 43 characters)."""


class Throttle:
    """Failed authentications per client address: after :data:`THROTTLE_FAILURES` within
    :data:`THROTTLE_WINDOW_S`, the address is refused outright for :data:`THROTTLE_BLOCK_S`
    (its calls never reach the store: a guesser costs the arena nothing, and learns nothing,
    not even whether a right token would have been right). Addresses are counted as the
    doors count them (:func:`arena.net.doors.address_key`: an IPv6 /64 is one)."""

    def __init__(self, failures: int = THROTTLE_FAILURES, window_s: float = THROTTLE_WINDOW_S,
                 block_s: float = THROTTLE_BLOCK_S, clock: Callable[[], float] = time.monotonic,
                 remember: int = THROTTLE_ADDRESSES) -> None:
        self.failures = failures
        self.window_s = window_s
        self.block_s = block_s
        self._clock = clock
        self._remember = remember
        self._failed: OrderedDict[str, deque[float]] = OrderedDict()
        self._blocked: dict[str, float] = {}  # address -> until when

    def blocked_for(self, host: str) -> float:
        """Seconds ``host`` is still refused for (0: it is not)."""
        key = address_key(host)
        until = self._blocked.get(key)
        if until is None:
            return 0.0
        left = until - self._clock()
        if left <= 0:
            del self._blocked[key]
            return 0.0
        return left

    def failed(self, host: str) -> None:
        """One more failed authentication from ``host``."""
        key, now = address_key(host), self._clock()
        times = self._failed.pop(key, None) or deque()
        times.append(now)
        while times and times[0] <= now - self.window_s:
            times.popleft()
        if len(times) >= self.failures:
            self._blocked[key] = now + self.block_s
            times.clear()
        else:
            self._failed[key] = times  # the newest last
        while len(self._failed) > self._remember:
            self._failed.popitem(last=False)
        if len(self._blocked) > self._remember:  # the blocks over first, then the oldest
            kept = [(k, t) for k, t in self._blocked.items() if t > now]
            self._blocked = dict(kept[-self._remember:])


class SignInRefused(ArenaError):
    """A token that names no author, or an address over the throttle."""

    kind = ErrorKind.NOT_ALLOWED


class Throttled(SignInRefused):
    kind = ErrorKind.BUSY


def refuse_throttled(throttle: Throttle, client: str) -> None:
    """Refuse ``client`` while the throttle blocks it (:class:`Throttled`)."""
    left = throttle.blocked_for(client)
    if left > 0:
        raise Throttled(f"too many wrong tokens from your address: try again in "
                        f"{math.ceil(left)} s")


def sign_in(store: Store, throttle: Throttle, client: str, token: str) -> tuple[AuthorInfo, str]:
    """The author ``token`` names and the token's hash (what a session keeps); a wrong token
    (or none) is a :class:`SignInRefused` counted against ``client``, and a client over the
    throttle is refused before its token is looked up."""
    refuse_throttled(throttle, client)
    token = token.strip()
    if token and len(token) <= MAX_TOKEN:
        hashed = digest(token)
        try:
            return store.author_by_token_hash(hashed), hashed
        except StoreError:
            pass
    throttle.failed(client)
    raise SignInRefused("that token is no author's: sign in with the token `arena author add` "
                        "or `arena author token` gave you")


def signed_in(store: Store, token_hash: object, since: object,
              clock: Callable[[], float] = time.time) -> AuthorInfo | None:
    """The author a session names by its token's ``token_hash``, signed in at ``since`` (epoch
    seconds); None when the session is over: expired (:data:`SESSION_S`), or the author's
    token has changed since."""
    if not isinstance(token_hash, str) or not isinstance(since, int | float):
        return None
    if not 0 <= clock() - since < SESSION_S:
        return None
    try:
        return store.author_by_token_hash(token_hash)
    except StoreError:
        return None


SIGNED_OUT_REMEMBERED = 100_000
"""Signed-out sessions remembered at most (the oldest forgotten first)."""


class SignIns:
    """The web's sign-ins: the throttle on wrong tokens, and the sessions signed out.

    A session lives in a signed cookie, which signing out cannot take back from a copy; so
    each session has an id, and an id signed out is refused until the session would have
    expired anyway. The cookie's key is made at each start, so what is remembered here (in
    memory) covers every session this process can read."""

    def __init__(self, throttle: Throttle | None = None,
                 clock: Callable[[], float] = time.time) -> None:
        self.throttle = throttle if throttle is not None else Throttle()
        self._clock = clock
        self._ended: OrderedDict[str, float] = OrderedDict()  # session id -> its expiry

    def sign_in(self, store: Store, client: str, token: str) -> dict[str, object]:
        """What a new session of the author ``token`` names holds (:func:`sign_in`'s
        refusals otherwise): the token's hash, when, a new session id, the author's name."""
        author, token_hash = sign_in(store, self.throttle, client, token)
        return {"token_hash": token_hash, "since": self._clock(),
                "sid": secrets.token_urlsafe(16), "author": author.name}

    def author(self, store: Store, session: Mapping[str, object]) -> AuthorInfo | None:
        """The author ``session`` names while it lasts: not expired, not signed out, and
        their token unchanged since (:func:`signed_in`)."""
        sid = session.get("sid")
        if not isinstance(sid, str) or sid in self._ended:
            return None
        return signed_in(store, session.get("token_hash"), session.get("since"), self._clock)

    def sign_out(self, session: Mapping[str, object]) -> None:
        """End ``session``: its id is refused until it would have expired."""
        sid, since, now = session.get("sid"), session.get("since"), self._clock()
        while self._ended and next(iter(self._ended.values())) <= now:
            self._ended.popitem(last=False)  # expired anyway: forgotten
        if isinstance(sid, str) and isinstance(since, int | float):
            self._ended[sid] = since + SESSION_S
            while len(self._ended) > SIGNED_OUT_REMEMBERED:
                self._ended.popitem(last=False)


__all__ = [
    "MAX_TOKEN",
    "SESSION_S",
    "SIGNED_OUT_REMEMBERED",
    "THROTTLE_ADDRESSES",
    "THROTTLE_BLOCK_S",
    "THROTTLE_FAILURES",
    "THROTTLE_WINDOW_S",
    "SignInRefused",
    "SignIns",
    "Throttle",
    "Throttled",
    "refuse_throttled",
    "sign_in",
    "signed_in",
]
