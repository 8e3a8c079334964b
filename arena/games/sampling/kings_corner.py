"""Kings in the Corner: full states drawn from what one seat knows.

A seat sees its own hand (dealt in ``HandDealt``, grown by its ``DrewCard``), the eight
face-up piles, every seat's hand size and the stock's size; it never sees another
seat's hand nor the stock's order. The cards it cannot see are the 52 less its hand and
the piles' cards, all in the observation.

Nothing a seat is sent tells one of those cards from another: every card a rival plays
is shown and leaves its hand, a rival's draw shows only that it drew, and any card may
be played or kept at will (ending a turn is always legal, so a turn without a move
shows no missing card). A rival's played cards must have been in its hand in time, but
that holds of every way to place the unseen cards now: a placement and the true one
differ by a relabelling of cards that never showed, which replays the same match. So
the consistent states are equally likely, every split of the unseen cards over the
rivals' hands (their sizes known) and the stock, in every stock order: a sample
shuffles the unseen cards and cuts them. The penalties a deal's end announces count a
finished deal's cards, shuffled away with it.

The observation carries every other field of the state; ``opening``, the record of the
first events a match sent, is left empty: the engine reads it only at the start.
"""

from __future__ import annotations

import random
from typing import Any

from arena.games.cards import Card, standard_deck
from arena.games.kings_corner import Observation, State
from arena.games.sampling.base import Knowledge, future_rng

DECK = tuple(standard_deck())


def unseen(observation: Observation) -> list[Card]:
    """The cards ``observation`` does not show (rivals' hands and stock), in pack order."""
    shown = set(observation.hand)
    shown.update(c for pile in observation.piles for c in pile)
    return [c for c in DECK if c not in shown]


class KingsCornerKnowledge(Knowledge[State, Observation]):
    """What a seat of a Kings in the Corner match knows: its hand and the table."""

    _seen: tuple[Observation, list[Card]] | None = None  # the last observation, its unseen cards

    def note(self, event: Any) -> None:
        """Nothing to keep: what the events show is in the next observation."""

    def sample(self, observation: Observation, rng: random.Random) -> State:
        if self._seen is None or self._seen[0] is not observation:
            self._seen = (observation, unseen(observation))
            hidden = sum(observation.hand_sizes) - len(observation.hand) + observation.stock_size
            if len(self._seen[1]) != hidden:
                raise ValueError(f"{hidden} cards hidden, {len(self._seen[1])} unseen")
        pool = list(self._seen[1])
        rng.shuffle(pool)
        hands: list[list[Card]] = []
        start = 0
        for seat, size in enumerate(observation.hand_sizes):
            if seat == observation.seat:
                hands.append(list(observation.hand))
            else:
                hands.append(pool[start:start + size])
                start += size
        return State(
            players=observation.players,
            options={**self.options, "target_score": observation.target_score},
            rng=future_rng(rng),
            dealer=observation.dealer,
            deal=observation.deal,
            stock=pool[start:],  # the engine draws stock[-1]
            hands=hands,
            piles=[list(p) for p in observation.piles],
            to_act=observation.to_act,
            moves_this_turn=observation.moves_this_turn,
            consecutive_idle_turns=observation.consecutive_idle_turns,
            turns_this_deal=observation.turns_this_deal,
            totals=list(observation.totals),
            over=observation.to_act is None,
        )


KNOWLEDGE = KingsCornerKnowledge
