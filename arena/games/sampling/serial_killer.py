"""Serial Killer: full states drawn from what one seat knows.

Everything in Serial Killer is public but the order of the face-down stack, and every
seat sees the same: the graves, every seat's held Jacks and Aces, the set-aside pile,
the card just drawn, the clues. So the observation alone says which cards are in the
stack (the 52 less every card shown), and nothing a seat ever sees tells one order of
them from another: each shuffle is uniform, and a card drawn is shown and gone. A sample
is the observation's public state with the unseen cards in a uniformly shuffled stack.

The events add nothing to the observation but whose turn it is once the game is over
(``TurnStarted``) and how it ended (``GameEnded``); :class:`SerialKillerKnowledge` keeps
those, and checks that the observation's count of stacked cards matches the cards it did
not see.

The position in the turn's targets is rebuilt from the observation (the grave the
pending card was drawn for, or past the last target at the end of the turn).
``opening``, the record of the first events a match sent, is left empty: the engine
reads it only at the start, never to play on.
"""

from __future__ import annotations

import random
from typing import Any

from arena.games.cards import Card, standard_deck
from arena.games.sampling.base import Knowledge, future_rng
from arena.games.serial_killer import (
    EndReason,
    GameEnded,
    Observation,
    Phase,
    State,
    TurnStarted,
)

DECK = tuple(standard_deck())


def unseen(observation: Observation) -> list[Card]:
    """The cards of the pack ``observation`` does not show: the stack's, in pack order."""
    shown = {c for pile in observation.graves for c in pile}
    shown.update(c for hand in observation.held for c in hand)
    shown.update(observation.set_aside)
    if observation.drawn_card is not None:
        shown.add(observation.drawn_card)
    return [c for c in DECK if c not in shown]


class SerialKillerKnowledge(Knowledge[State, Observation]):
    """What a seat of a Serial Killer match knows: the public state, the stack's cards."""

    end_reason: EndReason | None = None  # how the game ended, once it has
    turn_seat = 0  # the seat whose turn it is, or was last

    def note(self, event: Any) -> None:
        if isinstance(event, TurnStarted):
            self.turn_seat = event.seat
        elif isinstance(event, GameEnded):
            self.end_reason = event.reason

    _seen: tuple[Observation, list[Card]] | None = None  # the last observation, its unseen cards

    def sample(self, observation: Observation, rng: random.Random) -> State:
        if self._seen is None or self._seen[0] is not observation:
            self._seen = (observation, unseen(observation))
            if len(self._seen[1]) != observation.stack_size:
                raise ValueError(f"{observation.stack_size} cards stacked, {len(self._seen[1])} unseen")
        stack = list(self._seen[1])
        rng.shuffle(stack)  # in drawing order: the first card is drawn first
        stack.reverse()  # the engine draws stack[-1]
        deciding = observation.phase in (Phase.JACK_DRAWN, Phase.ACE_DRAWN)
        position = len(observation.targets)
        if deciding:
            assert observation.current_grave is not None
            position = observation.targets.index(observation.current_grave)
        over = observation.phase is Phase.OVER
        return State(
            players=observation.players,
            options={**self.options, "max_turns": observation.max_turns},
            rng=future_rng(rng),
            stack=stack,
            graves=[list(g) for g in observation.graves],
            held=[list(h) for h in observation.held],
            set_aside=list(observation.set_aside),
            clues=list(observation.clues),
            arrested=list(observation.arrested),
            arrest_order=list(observation.arrest_order),
            first_player=observation.first_player,
            turn_player=self.turn_seat,
            to_act=observation.to_act,
            phase=observation.phase,
            targets=list(observation.targets),
            position=position,
            pending=observation.drawn_card if deciding else None,
            killed_this_turn=observation.killed_this_turn,
            turn_count=observation.turn,
            end_reason=self.end_reason if over else None,
        )


KNOWLEDGE = SerialKillerKnowledge
