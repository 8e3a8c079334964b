"""King's sampler: full states consistent with what one seat has seen of the hand.

Every hand of King is a fresh uniform deal of the whole pack, so what a seat knows of the
hidden cards comes from the current hand alone (earlier hands and the first dealer's
face-up draw say nothing about it). It knows its own hand, every card played, and what the
rules of play reveal about the other hands, each learnt from a ``CardPlayed`` event read
against the trick it falls in:

- **voids**: a seat that does not follow the suit led holds none of it;
- **the ♥ lead rule** (no hearts, no K♥, quick hearts): a seat that leads a ♥ held only ♥;
- **the forced K♥** (no K♥, quick hearts): a seat that, holding the K♥, would have had to
  play it (void in the suit led, ♥ led, or leading with only ♥ left) and played another
  card does not hold it.

Every one of these is a card a seat cannot hold (cards only leave hands), so the unseen
cards are dealt by :class:`~arena.games.sampling.deals.GroupedDeal` to the other three
hands, each getting its size and none of the cards it is known not to hold: uniform over
every deal consistent with the hand's play. The auction, the contract and the trump are
public and tell nothing about the cards (a bid is not a claim).

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
from arena.games.cards import Card, Suit
from arena.games.king import (
    DECK,
    HEART_LEAD_RULE,
    KING_OF_HEARTS,
    KING_OF_HEARTS_RULE,
    NORMAL_HANDS,
    PENALTY_CARDS,
    PLAYERS,
    QUICK_HANDS,
    CardPlayed,
    HandKind,
    HandStarted,
    Observation,
    State,
    TrickTaken,
    is_penalty_card,
    power,
)
from arena.games.sampling.base import Knowledge, future_rng
from arena.games.sampling.deals import GroupedDeal
from arena.games.tricks import TrickInProgress

_NOT_HEARTS = frozenset(c for c in DECK if c.suit is not Suit.HEARTS)
_BY_SUIT = {suit: frozenset(c for c in DECK if c.suit is suit) for suit in Suit}


class KingKnowledge(Knowledge[State, Observation]):
    """One King seat's knowledge of the hand in play: the cards each other seat cannot hold."""

    def __init__(self, players: int, seat: int, options: Mapping[str, OptionValue]) -> None:
        super().__init__(players, seat, options)
        self.kind = HandKind.NO_TRICKS
        self.led: Suit | None = None  # the suit led in the trick on the table
        self.lacking: list[set[Card]] = [set() for _ in range(PLAYERS)]
        self._noted = 0  # events taken in: a plan is good for as long as none arrives
        self._cached: tuple[Observation, int, _Plan] | None = None

    def note(self, event: Any) -> None:
        self._noted += 1
        if isinstance(event, CardPlayed):
            self._played(event.seat, event.card)
        elif isinstance(event, TrickTaken):
            self.led = None
        elif isinstance(event, HandStarted):
            self.kind = event.kind
            self.led = None
            self.lacking = [set() for _ in range(PLAYERS)]

    def _played(self, seat: int, card: Card) -> None:
        """What playing ``card`` now shows of ``seat``'s hand (before it played it)."""
        lacking = self.lacking[seat]
        forced = self.kind in KING_OF_HEARTS_RULE
        if self.led is None:  # a lead
            self.led = card.suit
            if card.suit is Suit.HEARTS and self.kind in HEART_LEAD_RULE:
                lacking |= _NOT_HEARTS  # a ♥ lead is legal only with nothing but ♥
                if forced and card != KING_OF_HEARTS:
                    lacking.add(KING_OF_HEARTS)
            return
        if card.suit is not self.led:
            lacking |= _BY_SUIT[self.led]
        if forced and card != KING_OF_HEARTS and (
                card.suit is not self.led or self.led is Suit.HEARTS):
            lacking.add(KING_OF_HEARTS)

    def excluded(self, seat: int) -> frozenset[Card] | set[Card]:
        """The cards ``seat`` is known not to hold now."""
        return self.lacking[seat]

    def sample(self, observation: Observation, rng: random.Random) -> State:
        plan = self._plan(observation)
        hands: list[tuple[Card, ...]] = [observation.hand] * PLAYERS
        for s, cards in zip(plan.others, plan.deal.draw(rng), strict=True):
            hands[s] = tuple(cards)  # drawn in hand order
        o = observation
        trick: TrickInProgress[Card] | None = None
        if o.trick_leader is not None:
            trick = TrickInProgress(o.trick_leader, PLAYERS, list(o.trick_seats),
                                    list(o.trick_cards))
        return State(
            options=dict(self.options), rng=future_rng(rng), hand_kinds=plan.kinds,
            first_dealer=(o.dealer - o.hand_index) % PLAYERS,
            first_dealer_draw=o.first_dealer_draw, hand_no=plan.hand_no, kind=o.kind,
            dealer=o.dealer, phase=o.phase, to_act=o.to_act, hands=hands,
            mode=o.mode, trump=o.trump, declarer=o.declarer, sold_to=o.sold_to, price=o.price,
            calls=o.calls, ultimatum=o.ultimatum,
            high=(o.high_n, o.high_direction) if o.high_direction is not None else None,
            holder=o.high_holder, passed=list(o.passed), trick=trick, tricks=o.tricks,
            tricks_won=list(o.tricks_won), won=[list(w) for w in plan.won],
            penalty_left=plan.penalty_left, hand_scores=list(o.hand_scores),
            results=o.results, totals=list(o.totals), over=plan.over, opening=[])

    def _plan(self, observation: Observation) -> _Plan:
        """What every sample of ``observation`` shares, worked out once for it."""
        cached = self._cached
        if cached is not None and cached[1] == self._noted and (
                cached[0] is observation or cached[0] == observation):
            return cached[2]
        o, seat = observation, self.seat
        played = [c for t in o.tricks for c in t.cards] + list(o.trick_cards)
        seen = set(o.hand) | set(played)
        others = [s for s in range(PLAYERS) if s != seat]
        excluded = [self.excluded(s) for s in others]
        deal = GroupedDeal([c for c in _HAND_ORDER if c not in seen],
                           [o.hand_sizes[s] for s in others],
                           lambda p, card: card not in excluded[p])
        won: list[list[Card]] = [[] for _ in range(PLAYERS)]
        for done in o.tricks:
            won[done.winner].extend(done.cards)
        taken = sum(1 for c in played[:4 * len(o.tricks)] if is_penalty_card(o.kind, c))
        over = o.to_act is None
        plan = _Plan(deal, others, won, PENALTY_CARDS[o.kind] - taken,
                     (QUICK_HANDS if self.options["quick"] else NORMAL_HANDS)
                     + (HandKind.POSITIVE,) * 4,
                     o.hand_index + 1 if over else o.hand_index, over)
        self._cached = (observation, self._noted, plan)
        return plan


@dataclass
class _Plan:
    """What the samples of one observation share: the prepared deal of the unseen cards to
    the ``others``' hands, and the state's fields that follow from the observation."""

    deal: GroupedDeal[Card]
    others: list[int]
    won: list[list[Card]]
    penalty_left: int
    kinds: tuple[HandKind, ...]
    hand_no: int
    over: bool


def _sort_key(card: Card) -> tuple[int, int]:
    return (int(card.suit), power(card))  # a hand's order: suit, then 2 … A


_HAND_ORDER = sorted(DECK, key=_sort_key)
KNOWLEDGE = KingKnowledge
