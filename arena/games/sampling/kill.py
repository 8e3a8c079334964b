"""Kill: full states drawn from what one seat has seen this round.

Each round deals afresh, so what matters is the round under way. The seat knows its own
hand (and gift), the card on the table, the hands of the seats out of the round, and, from
the round's events, where some hidden cards are or may be. Every card it does not hold or
see face up is *tracked* with the places it may be in (an active seat's hand, the deck, the
used pile, the gift held during a two-card exchange), or *untracked*: then it is anywhere
a card the seat never saw can be.

What the events teach (see "What your sampler must honour" in docs/games/kill.md):

- every seat's A, 2, 3 are in its hand (``RoundStarted``); a card taken from the table
  (``Swapped``, ``TwoCardExchange``) is in the taker's hand; a rejected card, and the seat's
  own discards, are in the used pile (in the deck after ``UsedPileShuffled``);
- a shown hand (``KillAttempt``'s target, ``JokerClaimed``'s claimer, ``FalseWinShown``) is
  that whole hand: no other card is there; a seat that leaves shows its hand face up;
- a discard the seat does not see (``Swapped``, ``GiftDiscarded``, ``JokerDiscarded`` of
  another seat) sends one of that hand's cards to the used pile: each card known there may
  now also be in the used pile, and nowhere else; after a ``Swapped``, only a card that
  could be swapped for the card taken (the swap rule) may have gone;
- an untracked card reaches another seat's hand only as its dealt card or a Joker-claim
  refill (``JokerRefill``): a hand holds at most that many untracked cards (``room``);
- a failed Joker claim: the target holds no Joker (until it draws unseen again); a claim
  that succeeded without naming the Joker: the claimer's fifth card is a Joker the target
  may have held; a two-card gift not named: one of the two shown cards is the gift, the
  other is the giver's.

A sample is uniform over the placements of the cards the seat does not see that keep to
all of this: the split of each hand between tracked and untracked cards is drawn in
proportion to the number of deals with that split (counted, as :func:`deal_uniform` does,
by classes of interchangeable cards; the counts are kept for the observation they were
made for), then the cards are dealt with :func:`deal_uniform`, the deck in a uniform order.

Not honoured (a sample may be a placement no history could give):

- the swap rule's hint on a card the seat never saw: when a ``Swap`` discarded such a card
  (no card known in that hand could go), that card could be swapped for the card taken
  (same suit, a value one apart, or a Joker); any unseen card may be in its place;
- the coin of a claim on a seat holding both Jokers: such a placement is as likely as any,
  where the game's generator makes it half as likely when the coin decides.

History the engine keeps: the round's log (``State.round_log``, from which the engine works
out what each seat knows: to choose which of two Jokers a claim takes, and for the public
view) is the seat's own events of the round, each told as the engine tells it
(:func:`arena.games.kill.told`): a card the seat saw that only some seats see goes to those
seats, and the event without it to the others, so what the other seats know in a sample
(:func:`arena.games.kill.knowledge`) is what the public events told them, never this seat's
secrets; the match's opening events are the seat's own. ``scored`` is a seat's
status not being active, which the rules make the same; the turn's seat is the one asked,
or during a gift the seat that gave it.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from arena.games.base import OptionValue, public
from arena.games.cards import Card, Rank, standard_deck
from arena.games.kill import (
    DECK,
    GIFT,
    USED,
    Dealt,
    Drew,
    FalseWinShown,
    GiftDiscarded,
    JokerClaimed,
    JokerDiscarded,
    JokerRefill,
    KillAttempt,
    LeftRound,
    Observation,
    Phase,
    Rejected,
    RoundStarted,
    State,
    Status,
    Swapped,
    TwoCardExchange,
    UsedPileShuffled,
    can_swap,
    told,
)
from arena.games.sampling.base import Knowledge, future_rng
from arena.games.sampling.deals import count_deals, deal_uniform

ALL_CARDS = tuple(standard_deck(1, jokers=2))
JOKERS = tuple(c for c in ALL_CARDS if c.rank is Rank.JOKER)


class KillKnowledge(Knowledge[State, Observation]):
    """One seat's knowledge of the round under way: the places each tracked card may be in,
    the untracked room of each hand, the seats known to hold no Joker."""

    def __init__(self, players: int, seat: int, options: Mapping[str, OptionValue]) -> None:
        super().__init__(players, seat, options)
        self.where: dict[Card, frozenset[int]] = {}
        self.room = [0] * players
        self.no_joker = [False] * players
        self.giver = 0  # the seat of the last two-card exchange
        self.log: list[Any] = []  # the round's events, as this seat saw them
        self.opening: list[Any] = []  # the match's opening events (a round start, the deal)
        self.version = 0  # bumped by every event: a plan holds for one version
        self._last: tuple[int, Observation, _Plan] | None = None  # the last decision's plan

    # -- learning ----------------------------------------------------------------------
    def note(self, event: Any) -> None:
        self.version += 1
        if len(self.opening) <= self.players:
            self.opening.append(event)
        if isinstance(event, RoundStarted):
            self.log = []
            self._round_started(event)
        self.log.append(event)
        me = self.seat
        if isinstance(event, Dealt):
            if event.seat != me:
                self.room[event.seat] = 1
        elif isinstance(event, UsedPileShuffled):
            self._replace(USED, DECK)
        elif isinstance(event, Drew):
            self.where.pop(event.card, None)  # on the table, in the observation
        elif isinstance(event, Rejected):
            self._at(event.card, USED)
        elif isinstance(event, Swapped):
            if event.seat == me:
                if event.discarded is not None:
                    self._at(event.discarded, USED)
            else:  # the card that went could be swapped for the one taken
                self._unseen_discard(event.seat, lambda card: can_swap(event.taken, card))
                self._at(event.taken, event.seat)
        elif isinstance(event, TwoCardExchange):
            self._two(event)
        elif isinstance(event, GiftDiscarded):
            if event.seat == me:
                if event.card is not None:
                    self._at(event.card, USED)
            else:
                self._unseen_discard(event.seat)
                self._replace(GIFT, event.seat)
        elif isinstance(event, JokerClaimed):
            self._joker_claimed(event)
        elif isinstance(event, JokerRefill):
            if event.seat == me:
                if event.card is not None:
                    self.where.pop(event.card, None)  # in the seat's hand
            else:
                self.room[event.seat] += 1
                self.no_joker[event.seat] = False
                for card, places in list(self.where.items()):
                    if DECK in places:
                        self.where[card] = places | {event.seat}
        elif isinstance(event, JokerDiscarded):
            if event.seat == me:
                if event.card is not None:
                    self._at(event.card, USED)
            else:
                self._unseen_discard(event.seat)
        elif isinstance(event, KillAttempt):
            if event.target != me:
                self._shown(event.target, event.target_hand)
        elif isinstance(event, FalseWinShown):
            if event.seat != me:
                self._shown(event.seat, event.hand)
        elif isinstance(event, LeftRound):
            for card in event.hand:
                self.where.pop(card, None)  # face up, out of play
            self._remove_place(event.seat)

    def _round_started(self, event: RoundStarted) -> None:
        self.where = {}
        self.room = [0] * self.players
        self.no_joker = [False] * self.players
        for s, cards in enumerate(event.fixed):
            if s != self.seat:
                for card in cards:
                    self.where[card] = frozenset({s})

    def _at(self, card: Card, place: int) -> None:
        self.where[card] = frozenset({place})

    def _replace(self, old: int, new: int) -> None:
        for card, places in list(self.where.items()):
            if old in places:
                self.where[card] = (places - {old}) | {new}

    def _remove_place(self, place: int) -> None:
        for card, places in list(self.where.items()):
            if place in places:
                self.where[card] = places - {place}

    def _unseen_discard(self, seat: int, could_go: Callable[[Card], bool] = lambda card: True,
                        ) -> None:
        """``seat`` put one of its cards in the used pile, the seat does not see which (one
        with ``could_go``)."""
        for card, places in list(self.where.items()):
            if seat in places and could_go(card):
                self.where[card] = places | {USED}

    def _shown(self, seat: int, hand: tuple[Card, ...]) -> None:
        """``seat``'s whole hand is ``hand``."""
        self._remove_place(seat)
        for card in hand:
            self._at(card, seat)
        self.room[seat] = 0
        self.no_joker[seat] = False

    def _two(self, event: TwoCardExchange) -> None:
        p, r, me = event.seat, event.recipient, self.seat
        if p != me:
            self._at(event.taken, p)
        if event.given is None:  # one of the two is the gift, the other stays with p
            for card in event.shown:
                self.where[card] = frozenset({p, GIFT})
        else:
            kept = next(c for c in event.shown if c != event.given)
            if p != me:
                self._at(kept, p)
            if r != me:
                self._at(event.given, GIFT)
            else:
                self.where.pop(event.given, None)  # the seat's own gift
        self.giver = p

    def _joker_claimed(self, event: JokerClaimed) -> None:
        p, t, me = event.seat, event.target, self.seat
        if p != me:
            self._shown(p, event.hand)
        if not event.success:
            if t != me:
                self.no_joker[t] = True
                self._remove_place_of_jokers(t)
            return
        if event.joker is not None:  # the claimer or the target: named
            if p == me:
                self.where.pop(event.joker, None)
            else:
                self._at(event.joker, p)
            return
        # one of the Jokers the target may hold went to the claimer
        for joker in JOKERS:
            places = self.where.get(joker)
            if places is None and self.room[t] and not self.no_joker[t]:
                self.where[joker] = self._untracked_places() | {p}
            elif places is not None and t in places:
                self.where[joker] = places | {p}

    def _remove_place_of_jokers(self, seat: int) -> None:
        for joker in JOKERS:
            places = self.where.get(joker)
            if places is not None:
                self.where[joker] = places - {seat}

    def _untracked_places(self) -> frozenset[int]:
        """Where an untracked card may be: the deck, the used pile, a hand with room."""
        return frozenset({DECK, USED} | {s for s in range(self.players)
                                         if s != self.seat and self.room[s]})

    # -- sampling ------------------------------------------------------------------------
    def sample(self, observation: Observation, rng: random.Random) -> State:
        plan = self._plan(observation)
        table = plan.table
        split = _pick(plan.splits, rng)
        capacity: list[int] = []
        for s, u in zip(plan.others, split, strict=True):
            capacity += [plan.hand_room[s] - u, u]
        capacity += plan.rest
        dealt = deal_uniform(plan.loose, capacity, lambda place, card: place in table[id(card)],
                             rng)
        sure, me = plan.sure, self.seat
        hands: list[list[Card]] = [[] for _ in range(self.players)]
        hands[me] = list(observation.hand)
        for s in plan.out:
            hands[s] = list(observation.face_up[s])
        for index, s in enumerate(plan.others):
            hands[s] = sorted(sure.get(s, []) + dealt[2 * index] + dealt[2 * index + 1])
        base = 2 * len(plan.others)
        recipient = plan.recipient
        gift_card = observation.gift if recipient == me else None
        if recipient is not None and recipient != me:
            [gift_card] = sure.get(GIFT, []) + dealt[base]
        used = sure.get(USED, []) + dealt[base + 1]
        deck = sure.get(DECK, []) + dealt[base + 2]
        rng.shuffle(deck)
        return self._state(observation, hands, deck, used, gift_card, recipient, rng)

    def _plan(self, observation: Observation) -> _Plan:
        """Where each unseen card may go at this decision, and the splits' weights: the
        same for every sample of one observation and knowledge, so made once."""
        if self._last is not None and self._last[0] == self.version \
                and self._last[1] == observation:
            return self._last[2]
        n, me = self.players, self.seat
        out = [s for s in range(n) if observation.statuses[s] is not Status.ACTIVE]
        others = [s for s in range(n) if s != me and s not in out]
        recipient = observation.to_act if observation.phase is Phase.GIFT_DISCARD else None
        seen = set(observation.hand)
        for s in out:
            seen.update(observation.face_up[s])
        for card in (observation.gift, observation.drawn):
            if card is not None:
                seen.add(card)
        unseen = [c for c in ALL_CARDS if c not in seen]
        tracked = {c: self.where[c] for c in unseen if c in self.where}
        sure: dict[int, list[Card]] = {}
        loose: list[Card] = []
        for card in unseen:
            places = tracked.get(card)
            if places is not None and len(places) == 1:
                sure.setdefault(next(iter(places)), []).append(card)
            else:
                loose.append(card)
        # places: 2 per other seat (its tracked cards, its untracked cards), GIFT, USED, DECK
        hand_room = {s: observation.hand_sizes[s] - (1 if s == recipient else 0)
                     - len(sure.get(s, ())) for s in others}
        rest = [(1 if recipient is not None and recipient != me else 0) - len(sure.get(GIFT, ())),
                observation.used_size - len(sure.get(USED, ())),
                observation.deck_size - len(sure.get(DECK, ()))]
        table: dict[int, frozenset[int]] = {}
        for card in loose:
            places = tracked.get(card)
            allowed: set[int] = set()
            for index, s in enumerate(others):
                if places is not None:
                    if s in places:
                        allowed.add(2 * index)
                elif self.room[s] and not (self.no_joker[s] and card.rank is Rank.JOKER):
                    allowed.add(2 * index + 1)
            for offset, target in enumerate((GIFT, USED, DECK)):
                if (target in places) if places is not None else target != GIFT:
                    allowed.add(2 * len(others) + offset)
            table[id(card)] = frozenset(allowed)
        splits = self._split_weights(others, hand_room, loose, table, rest)
        plan = _Plan(others, out, recipient, sure, loose, table, hand_room, rest, splits)
        self._last = (self.version, observation, plan)
        return plan

    def _split_weights(self, others: list[int], hand_room: dict[int, int], loose: list[Card],
                       table: dict[int, frozenset[int]], rest: list[int],
                       ) -> list[tuple[tuple[int, ...], int]]:
        """Per split of the other hands' free places into tracked and untracked cards, the
        number of deals with it."""
        ranges = [range(0, min(self.room[s], hand_room[s]) + 1) for s in others]
        weights: list[tuple[tuple[int, ...], int]] = []
        for split in itertools.product(*ranges):
            capacity: list[int] = []
            for s, u in zip(others, split, strict=True):
                capacity += [hand_room[s] - u, u]
            capacity += rest
            if any(c < 0 for c in capacity):
                continue
            weight = _deals(loose, capacity, table)
            if weight:
                weights.append((split, weight))
        if not weights:
            raise ValueError("no deal is consistent with what is known")
        return weights

    def _state(self, observation: Observation, hands: list[list[Card]], deck: list[Card],
               used: list[Card], gift_card: Card | None, recipient: int | None,
               rng: random.Random) -> State:
        n = self.players
        over = observation.to_act is None
        turn_seat = self.giver if recipient is not None else (observation.to_act or 0)
        state = State(players=n, options=dict(self.options), rng=future_rng(rng),
                      round_index=observation.round_index, starter=observation.starter,
                      totals=list(observation.totals), deck=deck, used=used, hands=hands,
                      status=list(observation.statuses), had_turn=list(observation.had_turn),
                      immune=list(observation.immune),
                      round_points=list(observation.round_points),
                      scored=[s is not Status.ACTIVE for s in observation.statuses],
                      to_act=observation.to_act, turn_seat=turn_seat, phase=observation.phase,
                      drawn=observation.drawn, gift_recipient=recipient, gift_card=gift_card,
                      turns_completed=observation.turns_completed,
                      previous_rounds=list(observation.previous_rounds),
                      round_log=[t for e in self.log for t in told(
                          e, n, bool(self.options["two_card_gift_public"]))],
                      opening=[public(e) for e in self.opening], over=over)
        return state


def _pick(weighted: list[tuple[tuple[int, ...], int]], rng: random.Random) -> tuple[int, ...]:
    """One of the splits, in proportion to its weight."""
    pick = rng.randrange(sum(w for _, w in weighted))
    for split, weight in weighted:
        if pick < weight:
            return split
        pick -= weight
    raise AssertionError("the weights do not add up")


def _deals(cards: list[Card], capacity: list[int], table: dict[int, frozenset[int]]) -> int:
    """The number of deals of ``cards`` to places of ``capacity``, each card going only to
    places of ``table`` (by the card's identity)."""
    return count_deals(cards, capacity, lambda place, card: place in table[id(card)])


@dataclass
class _Plan:
    """Where the unseen cards of one decision may go (see :meth:`KillKnowledge._plan`)."""

    others: list[int]  # the other active seats
    out: list[int]  # the seats out of the round
    recipient: int | None  # the holder of a gift
    sure: dict[int, list[Card]]  # the cards whose place is known, by place
    loose: list[Card]  # the others
    table: dict[int, frozenset[int]]  # by id of a loose card: the places it may go to
    hand_room: dict[int, int]  # per other seat: its places for loose cards
    rest: list[int]  # places for loose cards in the gift, the used pile, the deck
    splits: list[tuple[tuple[int, ...], int]]  # untracked cards per other seat: deals


KNOWLEDGE = KillKnowledge
