"""Live feeds of matches: one cheap reader per match, shared by every spectator, and caps.

A spectator following a running match (the web's live feed, the operator service's
``WatchMatch``) must not cost the server a database read of the whole match each time it
looks: a few hundred of them did, and starved the referee playing in the same process. So:

* **one reader per match**, whatever the number of feeds on it: every :data:`POLL_S` it reads
  the match's status and the *size* of its running log (:meth:`Store.live_progress`, no log
  read), and only when that changed the log itself, once; it turns each new snapshot into
  what the feeds send (``derive``, once, in a worker thread) and wakes them. A feed only
  waits and sends; the reader stops when its last feed closes, or once the match is over;
* **caps**: feeds at once in total, per match and per client (an address, an author); a feed
  over a cap is refused at once (:class:`FeedRefused`, one line) and costs nothing more. A
  client given as None (the operator) is exempt from every cap;
* a feed on a match that has not started ends after :data:`PENDING_LIMIT_S` (its
  :attr:`Feed.expired` says so), rather than holding its place for ever.

What a feed may show (the public view while the match runs, and every hand too while its deal
is sealed; nothing of a finished match while another rotation of its deal is unfinished) is
:mod:`arena.app.visibility`'s: the reader's last snapshot carries what that rule needs
(:attr:`Snapshot.in_play`, :attr:`Snapshot.deal`), so a feed of any view asks the rule of each
snapshot without reading the store.
"""

from __future__ import annotations

import asyncio
import collections
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import Generic, TypeVar

from arena.app.visibility import InPlay, Rotation, deal_of, in_play_of
from arena.storage.store import MatchInfo, MatchStatus, Store, StoreError

T = TypeVar("T")

POLL_S = 0.5
"""How often a match's reader looks at its status and the size of its running log (the run
loop writes that log at most twice a second)."""
PENDING_LIMIT_S = 60.0
"""How long a feed waits for a match that has not started before it ends."""
OVER = (MatchStatus.FINISHED, MatchStatus.VOID)


def not_started(match_id: int, waited_s: float) -> str:
    """Why a feed that waited ``waited_s`` for a match to start has ended (each front end
    adds what to do next)."""
    return f"match {match_id} has not started after {waited_s:g} s"


class FeedRefused(Exception):
    """A feed over a cap: ``cap`` is which (``client``, ``match`` or ``total``), ``limit`` its
    value. The message is one line; adapters may say it in their own words."""

    def __init__(self, cap: str, limit: int, match_id: int) -> None:
        self.cap, self.limit, self.match_id = cap, limit, match_id
        super().__init__({
            "client": f"{limit} live feeds are open from this client already; close one first",
            "match": f"{limit} live feeds follow match {match_id} already; try again later",
            "total": f"{limit} live feeds are open on this server; try again later",
        }[cap])


@dataclass(frozen=True)
class Snapshot:
    """A match as its reader last read it: ``log``, the running log so far while it runs
    (None before its first write), its final log once it is over; ``in_play``: once it has
    finished, whether another rotation of its deal is unfinished; ``deal``: while it runs, the
    rotations of its deal still to play, read when the reader read the match whole (see
    :mod:`arena.app.visibility`: they cannot turn a sealed deal unsealed meanwhile)."""

    match: MatchInfo
    log: bytes | None
    in_play: InPlay | None = None
    deal: tuple[Rotation, ...] | None = None

    @property
    def over(self) -> bool:
        return self.match.status in OVER


@dataclass(frozen=True)
class Update(Generic[T]):
    """A snapshot and what ``derive`` made of it; ``number`` counts the reader's snapshots."""

    snapshot: Snapshot
    value: T
    number: int


class _Reader(Generic[T]):
    """The one reader of a match (see the module's docstring)."""

    def __init__(self, feeds: LiveFeeds[T], match_id: int) -> None:
        self.feeds, self.match_id = feeds, match_id
        self.latest: Update[T] | None = None
        self.error: StoreError | None = None  # why the match could not be read (feeds end)
        self.fresh = asyncio.Event()  # set, and replaced, at each new update and at the end
        self.task = asyncio.get_running_loop().create_task(self._run())

    def _wake(self) -> None:
        fresh, self.fresh = self.fresh, asyncio.Event()
        fresh.set()

    async def _publish(self, snapshot: Snapshot, number: int) -> None:
        value = await asyncio.to_thread(self.feeds.derive, snapshot)
        self.latest = Update(snapshot, value, number)
        self._wake()

    async def _run(self) -> None:
        store, match_id, number = self.feeds.store, self.match_id, 0
        try:
            match = await asyncio.to_thread(store.get_match, match_id)
            deal = await asyncio.to_thread(deal_of, store, match.id, match.status)
            size: int | None = None
            first = True
            while True:
                if match.status in OVER:
                    in_play = await asyncio.to_thread(in_play_of, store, match.id, match.status)
                    await self._publish(Snapshot(match, match.log, in_play), number + 1)
                    return
                status, now = await asyncio.to_thread(store.live_progress, match_id)
                if status != match.status:  # started or ended: read it whole, once
                    match = await asyncio.to_thread(store.get_match, match_id)
                    deal = await asyncio.to_thread(deal_of, store, match.id, match.status)
                    first = True
                    continue
                if first or now != size:
                    log = None if now is None else await asyncio.to_thread(store.live_log,
                                                                           match_id)
                    size, first, number = now, False, number + 1
                    await self._publish(Snapshot(match, log, deal=deal), number)
                await asyncio.sleep(self.feeds.poll_s)
        except StoreError as err:
            self.error = err
        except Exception as err:  # a log that does not decode, say: the feeds end, saying so
            self.error = StoreError(f"match {match_id} cannot be shown live "
                                    f"({type(err).__name__})")
        finally:
            self._wake()


class Feed(Generic[T]):
    """One spectator's place on a match: :meth:`updates` gives each new snapshot (the latest
    only: a slow spectator skips what it missed, and the values are whole so far), ending once
    the match is over or when it stays pending past the limit (:attr:`expired`). Close it (it
    is a context manager) to give the place back."""

    def __init__(self, feeds: LiveFeeds[T], reader: _Reader[T], client: str | None) -> None:
        self._feeds, self._reader, self.client = feeds, reader, client
        self.match_id = reader.match_id
        self.expired = False
        self.closed = False

    @property
    def pending_limit_s(self) -> float:
        """How long it follows a match that has not started (then :attr:`expired`)."""
        return self._feeds.pending_limit_s

    async def updates(self, keepalive_s: float | None = None) -> AsyncIterator[Update[T] | None]:
        """Each new update; ``None`` after ``keepalive_s`` without one (for a comment line that
        keeps a connection open). Ends after the match's last update, or on expiry; a
        :class:`StoreError` if the match cannot be read."""
        seen = 0
        began = quiet = time.monotonic()
        reader = self._reader
        while True:
            latest = reader.latest
            if latest is not None and latest.number > seen:
                seen, quiet = latest.number, time.monotonic()
                yield latest
                if latest.snapshot.over:
                    return
                continue
            if reader.task.done():
                if reader.error is not None:
                    raise reader.error
                return  # stopped with the server
            pending = latest is None or latest.snapshot.match.status is MatchStatus.PENDING
            now = time.monotonic()
            left = began + self._feeds.pending_limit_s - now
            if pending and left <= 0:
                self.expired = True
                return
            waits = [left] if pending else []
            if keepalive_s is not None:
                waits.append(quiet + keepalive_s - now)
            try:
                await asyncio.wait_for(reader.fresh.wait(),
                                       max(0.0, min(waits)) if waits else None)
            except TimeoutError:
                if keepalive_s is not None and time.monotonic() - quiet >= keepalive_s:
                    quiet = time.monotonic()
                    yield None

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            self._feeds._release(self)

    def __enter__(self) -> Feed[T]:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()


class LiveFeeds(Generic[T]):
    """The feeds of one server (made in its event loop, used there only): ``derive`` turns a
    snapshot into what a feed sends (in a worker thread, once per snapshot); caps: ``total``,
    ``per_match``, ``per_client`` (None: no such cap)."""

    def __init__(self, store: Store, derive: Callable[[Snapshot], T], *, total: int | None,
                 per_match: int | None, per_client: int | None, poll_s: float = POLL_S,
                 pending_limit_s: float = PENDING_LIMIT_S) -> None:
        self.store, self.derive = store, derive
        self.total, self.per_match, self.per_client = total, per_match, per_client
        self.poll_s, self.pending_limit_s = poll_s, pending_limit_s
        self._readers: dict[int, _Reader[T]] = {}
        self._by_match: collections.Counter[int] = collections.Counter()
        self._by_client: collections.Counter[str] = collections.Counter()
        self._capped = 0  # feeds counted against the caps (not the exempt ones)

    @property
    def open_feeds(self) -> int:
        return sum(self._by_match.values())

    @property
    def readers(self) -> int:
        return len(self._readers)

    def open(self, match_id: int, client: str | None) -> Feed[T]:
        """A place on ``match_id``'s feed for ``client`` (None: exempt from the caps), or
        :class:`FeedRefused` over a cap."""
        if client is not None:
            if self.per_client is not None and self._by_client[client] >= self.per_client:
                raise FeedRefused("client", self.per_client, match_id)
            if self.per_match is not None and self._by_match[match_id] >= self.per_match:
                raise FeedRefused("match", self.per_match, match_id)
            if self.total is not None and self._capped >= self.total:
                raise FeedRefused("total", self.total, match_id)
            self._by_client[client] += 1
            self._capped += 1
        self._by_match[match_id] += 1
        reader = self._readers.get(match_id)
        if reader is None or reader.task.done():  # a new feed reads the match anew
            reader = self._readers[match_id] = _Reader(self, match_id)
        return Feed(self, reader, client)

    def _release(self, feed: Feed[T]) -> None:
        if feed.client is not None:
            self._by_client[feed.client] -= 1
            if self._by_client[feed.client] <= 0:
                del self._by_client[feed.client]
            self._capped -= 1
        self._by_match[feed.match_id] -= 1
        if self._by_match[feed.match_id] <= 0:
            del self._by_match[feed.match_id]
            reader = self._readers.pop(feed.match_id, None)
            if reader is not None and not reader.task.done():
                reader.task.cancel()


__all__ = ["OVER", "PENDING_LIMIT_S", "POLL_S", "Feed", "FeedRefused", "LiveFeeds", "Snapshot",
           "Update", "not_started"]
