"""Knives' sampler: full states consistent with what one seat has seen of the hand.

Every hand of Knives is a fresh uniform deal of the 32 cards (6 a seat, 2 to the bank), so
what a seat knows of the hidden cards comes from the current hand alone. The cards it
cannot see lie in up to three kinds of places besides the other hands:

- **the bank**, while it lies untouched (before a pick; in leaster or moster until the
  dealer's reveal, the dealer seeing it from ``BankSeen`` on);
- **the banked cards**, two, once the banker has banked (the banker sees them);
- **the discards** of a leaster or moster, the bank cards the dealer did not reveal (the
  dealer sees them).

What the seat has learnt, and where:

- its hand (``CardsDealt``, the observation), the bank if it picked (``BankTaken``), its
  banked cards if it banked, the bank if it is the dealer of a leaster or moster;
- every card played and revealed (``CardPlayed``, ``BankRevealed``; the observation);
- **voids**: a seat that plays neither the suit led nor the Joker, on a lead that is not
  the Joker, holds no card of that suit (a void says nothing of cards banked or discarded
  before play);
- **a solo announcement** (``Announced`` with ``solo``, offered only to a banker holding the
  strong Ghost): the Ghost, until played, is in the banker's hand or among its banked cards.

Nothing else tells anything about the cards: declarations, passes, the pick, the solo
question answered "no", the mode and the reveal's choice are free whatever the cards. Who
the shadow is follows from where the strong Ghost lies (the shadow alone knows it holds
it). The unseen cards are dealt by :class:`~arena.games.sampling.deals.GroupedDeal` to those
places, each its size, under these constraints: uniform over every consistent deal (each
assignment of the banker's 8 cards to hand and banked cards stands for the same number of
original deals, all 28 splits of them between the first 6 and the bank being consistent).

The deal is prepared once for an observation and drawn from at every sample (prepared
again once an event arrives). The rest of the state is read off the observation. A
sample's own ``opening`` (the events of the match's start, a record the engine no longer
reads) is left empty, and its generator for the later hands' deals is drawn from the
bot's generator.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from arena.games.base import OptionValue
from arena.games.knives import (
    DECK,
    PLAYERS,
    Announced,
    CardPlayed,
    HandStarted,
    KMode,
    KnivesCard,
    KSuit,
    Observation,
    Phase,
    State,
    TrickTaken,
    ghost,
)
from arena.games.sampling.base import Knowledge, future_rng
from arena.games.sampling.deals import GroupedDeal
from arena.games.tricks import TrickInProgress

_BY_SUIT = {suit: frozenset(c for c in DECK if c.suit is suit) for suit in KSuit}
# The places of hidden cards besides the other hands, numbered after them.
BANK, BANKED, DISCARDED = "bank", "banked", "discarded"


class KnivesKnowledge(Knowledge[State, Observation]):
    """One Knives seat's knowledge of the hand in play: voids shown, and the solo claim."""

    def __init__(self, players: int, seat: int, options: Mapping[str, OptionValue]) -> None:
        super().__init__(players, seat, options)
        self.lead: KnivesCard | None = None  # the card led in the trick on the table
        self.lacking: list[set[KnivesCard]] = [set() for _ in range(PLAYERS)]
        self.solo_announced = False
        self._noted = 0  # events taken in: a plan is good for as long as none arrives
        self._cached: tuple[Observation, int, _Plan] | None = None

    def note(self, event: Any) -> None:
        self._noted += 1
        if isinstance(event, CardPlayed):
            self._played(event.seat, event.card)
        elif isinstance(event, TrickTaken):
            self.lead = None
        elif isinstance(event, Announced):
            self.solo_announced = event.solo
        elif isinstance(event, HandStarted):
            self.lead = None
            self.lacking = [set() for _ in range(PLAYERS)]
            self.solo_announced = False

    def _played(self, seat: int, card: KnivesCard) -> None:
        lead = self.lead
        if lead is None:
            self.lead = card
        elif lead.suit is not KSuit.NONE and card.suit not in (lead.suit, KSuit.NONE):
            self.lacking[seat] |= _BY_SUIT[lead.suit]

    def excluded(self, seat: int) -> frozenset[KnivesCard] | set[KnivesCard]:
        """The cards ``seat`` is known not to hold in its hand now (voids)."""
        return self.lacking[seat]

    def sample(self, observation: Observation, rng: random.Random) -> State:
        o, plan = observation, self._plan(observation)
        places = dict(zip(plan.names, plan.deal.draw(rng), strict=True))  # each in hand order
        hands = [list(o.hand) if s == self.seat else places[s] for s in range(PLAYERS)]
        state = State(
            options=dict(self.options), rng=future_rng(rng), dealer=o.dealer,
            hand_no=o.hand_index + 1 if o.to_act is None else o.hand_index,
            phase=o.phase, to_act=o.to_act, hands=hands,
            bank=places.get(BANK, list(o.bank_seen) if plan.sees_bank else []),
            banked=places.get(BANKED, list(o.banked)),
            revealed=list(o.revealed),
            discarded=places.get(DISCARDED, list(o.bank_seen) if plan.discarded else []),
            strong=o.strong, calls=list(o.calls), banker=o.banker,
            announcement=o.announcement, ghost_played_by=o.ghost_played_by, mode=o.mode,
            tricks=list(o.tricks), won=[list(w) for w in plan.won],
            stars_taken=list(o.stars_taken), totals=list(o.totals),
            over=o.to_act is None, opening=[])
        if plan.banked_out:  # the shadow is fixed once the banker has banked
            holder = _ghost_holder(state, plan.ghost)
            state.solo = holder == o.banker
            state.shadow = None if state.solo else holder
        if o.trick_leader is not None:
            state.trick = TrickInProgress(o.trick_leader, PLAYERS, list(o.trick_seats),
                                          list(o.trick_cards))
        return state

    def _plan(self, observation: Observation) -> _Plan:
        """What every sample of ``observation`` shares, worked out once for it."""
        cached = self._cached
        if cached is not None and cached[1] == self._noted and (
                cached[0] is observation or cached[0] == observation):
            return cached[2]
        o, seat = observation, self.seat
        others = [s for s in range(PLAYERS) if s != seat]
        # the hidden places: the other hands, then the bank, banked and discarded cards unseen
        names: list[int | str] = list(others)
        capacity = [o.hand_sizes[s] for s in others]
        banked_out = o.banker is not None and o.phase is not Phase.BANK
        sees_bank = seat == o.dealer and o.phase is Phase.REVEAL
        discarded = o.mode in (KMode.LEASTER, KMode.MOSTER) and o.phase is Phase.PLAY
        if o.bank_size and not sees_bank:
            names.append(BANK)
            capacity.append(o.bank_size)
        if banked_out and seat != o.banker:
            names.append(BANKED)
            capacity.append(2)
        if discarded and seat != o.dealer:
            names.append(DISCARDED)
            capacity.append(2 - len(o.revealed))
        seen = set(o.hand) | set(o.bank_seen) | set(o.banked) | set(o.revealed) | set(o.trick_cards)
        seen.update(c for t in o.tricks for c in t.cards)
        excluded = [self.excluded(s) for s in others]
        ghost_card = ghost(o.strong) if o.strong is not None else None
        ghost_places: set[int] = set()
        if self.solo_announced and o.banker is not None:
            ghost_places = {p for p, name in enumerate(names) if name in (o.banker, BANKED)}

        def allowed(place: int, card: KnivesCard) -> bool:
            if ghost_places and card == ghost_card and place not in ghost_places:
                return False
            return place >= len(others) or card not in excluded[place]

        won: list[list[KnivesCard]] = [[] for _ in range(PLAYERS)]
        for trick in o.tricks:
            won[trick.winner].extend(trick.cards)
        deal = GroupedDeal([c for c in _HAND_ORDER if c not in seen], capacity, allowed)
        plan = _Plan(deal, names, won, banked_out, sees_bank, discarded, ghost_card)
        self._cached = (observation, self._noted, plan)
        return plan


@dataclass
class _Plan:
    """What the samples of one observation share: the prepared deal of the unseen cards to
    the hidden places (``names``: the other seats, then ``bank``, ``banked``, ``discarded``)
    and what the state's other fields need."""

    deal: GroupedDeal[KnivesCard]
    names: list[int | str]
    won: list[list[KnivesCard]]
    banked_out: bool
    sees_bank: bool
    discarded: bool
    ghost: KnivesCard | None


def _ghost_holder(state: State, card: KnivesCard | None) -> int | None:
    """The seat that held the strong Ghost once the banker banked (its player, once played)."""
    if state.ghost_played_by is not None:
        return state.ghost_played_by
    if card in state.banked:
        return state.banker
    return next((s for s in range(PLAYERS) if card in state.hands[s]), None)


_HAND_ORDER = sorted(DECK)  # a hand's order
KNOWLEDGE = KnivesKnowledge
