"""A forward model for search bots: sample what your seat cannot see, and play it forward.

Everything runs in the bot's own process, from what the bot was sent and nothing else::

    from sdk.search import SearchBot

    class MyBot(SearchBot):
        def act(self, observation, legal_actions):
            state = self.model.sample(observation, self.rng)   # a full, consistent state
            for action in self.model.legal_actions(state):
                after = self.model.copy(state)
                self.model.apply(after, action)
                ...

:class:`ForwardModel` keeps the seat's knowledge (fed every event the seat receives) and
draws full states consistent with it (:meth:`ForwardModel.sample`); on a state it gives the
legal actions, applies actions, copies cheaply and reads the outcome with the referee's own
engine. :class:`SearchBot` is a :class:`~sdk.bot.Bot` that keeps one up to date.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import Any

from arena.games import get_game
from arena.games.base import Outcome
from arena.games.sampling import Knowledge, knowledge
from sdk.bot import Bot, MatchInfo


class ForwardModel:
    """One seat's sampler and the game's engine, for the match ``match`` describes (or,
    with ``known``, over a seat's knowledge already made and fed)."""

    def __init__(self, match: MatchInfo | None = None, *,
                 known: tuple[str, Knowledge[Any, Any]] | None = None) -> None:
        if match is not None:
            self.game = get_game(match.game)
            self.knowledge = knowledge(match.game, match.players, match.seat, match.options)
        elif known is not None:
            self.game = get_game(known[0])
            self.knowledge = known[1]
        else:
            raise TypeError("a forward model needs a match or a game's knowledge")
        self.seat = self.knowledge.seat
        self.players = self.knowledge.players

    def learn(self, events: Iterable[Any]) -> None:
        """Take in the events the seat was sent, in order (a :class:`SearchBot` does this)."""
        self.knowledge.learn(events)

    def sample(self, observation: Any, rng: random.Random) -> Any:
        """A full state consistent with ``observation`` and every event learned so far."""
        return self.knowledge.sample(observation, rng)

    def to_act(self, state: Any) -> int | None:
        """The seat to act in ``state``; ``None`` once it is over."""
        return self.game.to_act(state)

    def legal_actions(self, state: Any) -> Sequence[Any]:
        return self.game.legal_actions(state)

    def apply(self, state: Any, action: Any) -> None:
        """Play ``action`` in ``state`` (which changes): the referee's own rules, which refuse
        an action not legal there (:class:`~arena.games.base.IllegalActionError`)."""
        self.game.apply(state, action)

    def play(self, state: Any, action: Any) -> None:
        """:meth:`apply` for an action taken from ``legal_actions(state)``, without checking
        it again (``Game.step``: checking costs about as much again, and a playout does
        nothing else). Anything else leaves the state wrong, silently: use :meth:`apply`."""
        self.game.step(state, action)

    def copy(self, state: Any) -> Any:
        """A copy of ``state`` that shares nothing mutable with it."""
        return self.game.clone(state)

    def outcome(self, state: Any) -> Outcome | None:
        """Scores and ranks once ``state`` is over, else ``None``."""
        return self.game.outcome(state)

    def observe(self, state: Any, seat: int) -> Any:
        """What ``seat`` would see in ``state`` (an information set's key)."""
        return self.game.observe(state, seat)


class SearchBot(Bot):
    """A bot with a :class:`ForwardModel` of its seat (``self.model``), kept up to date, and
    its own random generator (``self.rng``). Subclasses write :meth:`act`; one that
    overrides ``on_start`` or ``on_events`` calls ``super()`` first."""

    model: ForwardModel

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def on_start(self, match: MatchInfo) -> None:
        self.model = ForwardModel(match)

    def on_events(self, events: Sequence[Any]) -> None:
        self.model.learn(events)
