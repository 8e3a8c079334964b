"""The ground truth of "consistent" for the samplers' uniformity tests: replaying a hand.

A deal of the hidden cards is consistent with what a seat saw when the hand's true actions,
replayed from that deal, are all legal and give the seat the very events and observation it
was given. :func:`hand_positions` plays random matches keeping, beside every decision, the
state at the start of its hand and the actions since; :func:`replays_alike` replays them
from a candidate start (a hidden action naming hidden cards, as Knives' ``Bank``, names the
candidate's instead). Neither uses a sampler's own reading of the rules: a game's tests
enumerate candidate deals and keep those :func:`replays_alike` accepts.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from arena.games.base import Game, IllegalActionError, Tagged
from arena.games.sampling import Knowledge, knowledge


@dataclass
class HandPosition:
    """A decision of a random match, with its hand's history: the state when the hand was
    dealt (``start``), the actions played since, the seat's events since, and the present;
    ``knowledge`` is the seat's live one, which moves on with the match (``events`` rebuild
    it)."""

    start: Any
    actions: list[Any]
    seen: list[Any]
    state: Any
    seat: int
    observation: Any
    knowledge: Knowledge[Any, Any]
    events: list[Any]


def hand_positions(game: Game[Any, Any, Any], players: int, seed: int,
                   options: Mapping[str, Any] | None = None, *,
                   hand_of: Callable[[Any], int],
                   seats: Sequence[int] | None = None) -> Iterator[HandPosition]:
    """Every decision of one random match (seeded) of ``seats`` (default: all); ``hand_of``
    reads a state's hand number (a new number is a new deal). The present is a copy; the
    hand's ``start`` is shared by the hand's positions and must not be changed."""
    parsed = game.parse_options(players, options)
    state = game.new(players, seed, parsed)
    policy = random.Random(f"replay-{seed}")
    known = [knowledge(game.name, players, seat, parsed) for seat in range(players)]
    events: list[list[Any]] = [[] for _ in range(players)]

    def send(tagged: Sequence[Tagged]) -> None:
        for seat in range(players):
            visible = [t.event for t in tagged if t.visible(seat)]
            known[seat].learn(visible)
            events[seat] += visible

    send(game.opening_events(state))
    start, actions = game.clone(state), list[Any]()
    since: list[list[Any]] = [[] for _ in range(players)]
    while (seat := game.to_act(state)) is not None:
        if seats is None or seat in seats:
            yield HandPosition(start, list(actions), list(since[seat]), game.clone(state), seat,
                               game.observe(state, seat), known[seat], list(events[seat]))
        legal = game.legal_actions(state)
        action = legal[policy.randrange(len(legal))]
        hand = hand_of(state)
        tagged = game.apply(state, action)
        send(tagged)
        if hand_of(state) != hand:  # a new deal: its history starts here
            start, actions = game.clone(state), []
            since = [[] for _ in range(players)]
        else:
            actions.append(action)
            for s in range(players):
                since[s] += [t.event for t in tagged if t.visible(s)]


def replays_alike(game: Game[Any, Any, Any], start: Any, actions: Sequence[Any], seat: int,
                  seen: Sequence[Any], observation: Any) -> bool:
    """Whether ``actions``, replayed from ``start`` (a candidate deal of the hand), are all
    legal and give ``seat`` exactly the events ``seen`` and then ``observation``."""
    state = game.clone(start)
    events: list[Any] = []
    for action in actions:
        try:
            tagged = game.apply(state, action)
        except IllegalActionError:
            return False
        events += [t.event for t in tagged if t.visible(seat)]
    return events == list(seen) and game.observe(state, seat) == observation
