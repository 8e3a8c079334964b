"""Links: how the referee reaches a seat's bot.

A :class:`Link` carries the typed values of :mod:`arena.match.protocol` both
ways. ``arena.net`` provides the gRPC link of a bot process; :class:`LocalLink`
reaches a Python bot in this process (``sdk.local.play_local``, the conformance
suite), under the very same clocks and fault rules: its bot thinks in a thread
of its own, so a slow or stuck bot is out of time exactly as over gRPC.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import queue
import threading
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from arena.match.protocol import Choice, Decision, Failed, MatchEnd, MatchStart, Reply
from arena.wire.messages import failure_message

log = logging.getLogger("arena.match")


class Link(Protocol):
    """One seat's channel to its bot. Sending to a bot that is gone does nothing."""

    async def start(self, start: MatchStart) -> None:
        """The match begins."""

    async def decide(self, decision: Decision) -> None:
        """Ask for a decision (the seat's waiting events ride along)."""

    async def events(self, events: Sequence[Any]) -> None:
        """Events on their own, for a seat that was not asked to act for a while."""

    async def notice(self, text: str, decision_id: int) -> None:
        """Tell the bot that a message of its was rejected, and why."""

    async def end(self, end: MatchEnd) -> None:
        """The match is over (with the seat's last events)."""

    async def receive(self, timeout: float | None) -> Reply | None:
        """The bot's next message; ``None`` once it is gone (its stream closed, it crashed).

        Raises ``TimeoutError`` when nothing arrives within ``timeout`` seconds;
        the link may be closed by then (the referee asks the seat nothing more).
        """

    async def close(self) -> None:
        """The match is over for this seat: release the channel."""


class Player:
    """A bot in this process, as a :class:`LocalLink` drives it: ``act`` answers each
    decision; the other hooks hear the start, the events and the end (no-ops here)."""

    def start(self, start: MatchStart) -> None:
        pass

    def events(self, events: Sequence[Any]) -> None:
        pass

    def act(self, observation: Any, legal_actions: Sequence[Any]) -> Any:
        raise NotImplementedError

    def note(self) -> str:
        """The note on the answer ``act`` just gave (``Choice.note``), taken once."""
        return ""

    def end(self, end: MatchEnd) -> None:
        pass


class LocalLink:
    """A seat played by a :class:`Player` in this process.

    With ``threaded`` (the default) the player runs on a thread of its own, in
    order, so the referee's clock runs while it thinks: an answer later than the
    deadline is a timeout, and a player that never returns is left behind (the
    thread is a daemon; the match goes on with the fallback policy). A player
    that raises is gone, as a crashed process would be: ``error`` keeps the
    exception and :meth:`crashed` says so. Without ``threaded`` the player runs
    inline, for trusted, instant policies (the conformance suite's random play).
    """

    def __init__(self, player: Player, *, threaded: bool = True) -> None:
        self.player = player
        self.error: BaseException | None = None
        self._threaded = threaded
        self._answers: asyncio.Queue[Reply | None] = asyncio.Queue()
        self._calls: queue.SimpleQueue[Callable[[], None] | None] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._gone = False
        self._ended = False  # the match end was handed over: close() waits for it to be taken

    def crashed(self) -> bool:
        return self.error is not None

    async def start(self, start: MatchStart) -> None:
        self._call(lambda: self.player.start(start))

    async def decide(self, decision: Decision) -> None:
        if self._gone:
            return

        def choose() -> Reply:
            if decision.events:
                self.player.events(decision.events)
            action = self.player.act(decision.observation, decision.legal_actions)
            return _choice(decision, action, self.player.note())

        answers = self._answers
        if not self._threaded:
            self._run(lambda: answers.put_nowait(choose()), None)
            return
        loop = asyncio.get_running_loop()
        self._call(lambda: _hand_over(loop, answers, choose()))

    async def events(self, events: Sequence[Any]) -> None:
        batch = list(events)
        self._call(lambda: self.player.events(batch))

    async def notice(self, text: str, decision_id: int) -> None:
        log.warning("referee: %s", text)

    async def end(self, end: MatchEnd) -> None:
        self._ended = True

        def finish() -> None:
            if end.events:
                self.player.events(end.events)
            self.player.end(end)

        self._call(finish)

    async def receive(self, timeout: float | None) -> Reply | None:
        if self._gone and self._answers.empty():
            return None
        return await asyncio.wait_for(self._answers.get(), timeout)

    async def close(self, grace_s: float = 5.0) -> None:
        """Let the player's thread end; wait up to ``grace_s`` for it to take the match end.

        A seat out of the match (out of time, say) is not waited for: its bot may
        still be thinking, and is left to it.
        """
        thread, self._thread = self._thread, None
        if thread is None:
            return
        self._calls.put(None)
        if self._ended and not self._gone:
            await asyncio.get_running_loop().run_in_executor(None, thread.join, grace_s)

    # -- the player's thread ---------------------------------------------------------
    def _call(self, call: Callable[[], None]) -> None:
        if self._gone:
            return
        if not self._threaded:
            self._run(call, None)
            return
        if self._thread is None:
            self._thread = threading.Thread(target=self._work, args=(asyncio.get_running_loop(),),
                                            name="arena-local-seat", daemon=True)
            self._thread.start()
        self._calls.put(call)

    def _work(self, loop: asyncio.AbstractEventLoop) -> None:
        while (call := self._calls.get()) is not None:
            if not self._run(call, loop):
                return

    def _run(self, call: Callable[[], None], loop: asyncio.AbstractEventLoop | None) -> bool:
        try:
            call()
            return True
        except Exception as error:  # the bot's own failure: it leaves the match with an error
            log.exception("a local bot failed; it is out of the match")
            self.error = error
            self._gone = True
            failed = Failed(failure_message(error))
            if loop is None:
                self._answers.put_nowait(failed)
            else:
                _hand_over(loop, self._answers, failed)
            return False


def _hand_over(loop: asyncio.AbstractEventLoop, answers: asyncio.Queue[Reply | None],
               answer: Reply | None) -> None:
    """Put an answer in the referee's queue from the player's thread; an answer that
    comes after the match (a bot left thinking past its time) has nowhere to go."""
    with contextlib.suppress(RuntimeError):  # the loop is closed
        loop.call_soon_threadsafe(answers.put_nowait, answer)


def _choice(decision: Decision, action: Any, note: str = "") -> Choice:
    """The answer a player's action makes: its index among the legal actions. An action
    that is not one of them is answered as the SDK answers it over gRPC: with an index
    past the end, which the referee refuses as an illegal action."""
    legal = decision.legal_actions
    for index, offered in enumerate(legal):
        if offered is action:
            return Choice(decision.decision_id, index=index, note=note)
    try:
        return Choice(decision.decision_id, index=list(legal).index(action), note=note)
    except ValueError:
        log.warning("a local bot chose %r, which is not a legal action", action)
        return Choice(decision.decision_id, index=len(legal), note=note)
