"""One seat's knowledge of a match, and full game states drawn consistent with it.

A search bot (PIMC, IS-MCTS) plays forward from *determinizations*: full states in which
the cards its seat cannot see are filled in. :class:`Knowledge` is where a seat's
knowledge lives: it is fed, in order, exactly the events the seat was sent (``learn``) and,
at a decision, the observation the seat was given; from those alone it draws full states
(``sample``). Nothing in its signature carries the true state, so a sample cannot leak
what the seat may not know.

Every game's knowledge keeps to one contract, checked on thousands of random positions
by ``tests/games/test_sampling.py``:

- the seat's own observation of a sample is the observation it was given
  (``game.observe(sample, seat) == observation``), and a sample can be played to the end;
- every card the seat knows the place of is there, and the cards it cannot see are the
  cards still unseen, no more and no fewer;
- where the game deals uniformly, samples are uniform over the deals consistent with
  everything the seat has learned (its hand, the cards played, voids shown, cards passed
  to or from it, claims, the auction...), a rule only some seats saw being used by those
  seats only.

:mod:`arena.games.sampling.deals` draws a uniform deal of unseen cards to the places that
may hold them, exactly, whatever the constraints (a void in a suit, a card known to be in
one of two hands): the counting is done by classes of interchangeable cards, not by rejection.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Hashable, Iterable, Mapping
from typing import Any, Generic, TypeVar

from arena.games.base import OptionValue, Rng

State = TypeVar("State")
Observation = TypeVar("Observation")
Card = TypeVar("Card", bound=Hashable)


class Knowledge(ABC, Generic[State, Observation]):
    """What one seat of one match has learned, from what it was sent, and nothing else.

    Made at the start of a match for ``seat`` of ``players`` with the match's parsed
    ``options``; fed every event the seat receives, in order, opening events included
    (:meth:`learn`); asked for full states at a decision (:meth:`sample`).
    """

    def __init__(self, players: int, seat: int, options: Mapping[str, OptionValue]) -> None:
        self.players = players
        self.seat = seat
        self.options = dict(options)

    def learn(self, events: Iterable[Any]) -> None:
        """Take in events this seat was sent (typed values, in the order they happened)."""
        for event in events:
            self.note(event)

    @abstractmethod
    def note(self, event: Any) -> None:
        """Take in one event this seat was sent."""

    @abstractmethod
    def sample(self, observation: Observation, rng: random.Random) -> State:
        """A full state consistent with ``observation`` (the seat's latest) and everything
        learned, drawn with ``rng`` alone: uniform over the consistent deals where the game
        deals uniformly. The state's own generator (future deals) is drawn from ``rng`` too."""


def future_rng(rng: random.Random) -> Rng:
    """A game generator for a sample's future (its next deals), drawn from the bot's ``rng``:
    the true one is unknowable, so any seed is consistent."""
    return Rng(rng.getrandbits(63))
