"""Kings in the Corner — 2 to 6 players — see docs/games/kings_corner.md.

A shedding game: seats play cards from hand onto eight face-up piles built down
in alternating colours (four side piles dealt at the start, four corners only a
King may start). The first seat to empty its hand ends the deal; the others
take penalty points for the cards they hold (King 10, any other 1). Deals go on
until a total reaches the target; the lowest total wins.

Piles are numbered 0-7: side piles N, E, S, W are 0-3 and corners NE, SE, SW, NW
are 4-7 (``SIDES``, ``CORNERS``, ``PILE_NAMES``).

Readings of the rules worth knowing (beyond the rulings C1-C9 of docs/games/kings_corner.md):

* The deal maps the shuffled deck to seats in blocks, starting at the dealer's
  left: the first 7 cards to the dealer's left, the next 7 to the seat after,
  ..., then 4 cards to N, E, S, W; the rest is the stock, drawn in shuffled
  order. Randomness: the first dealer (``rng.below``, when ``first_dealer`` is
  ``random``), then one shuffle at the start of each deal.
* At the end of a deal only the penalties are announced (``DealEnded``); the
  hands stay hidden, as the rules' information table says (no seat sees another's
  hand), though a penalty of course tells how many Kings and cards it counts.
* A turn is a series of moves, each a separate decision, closed by ``EndTurn``
  (asked even when it is the only legal action). The draw at the end of a turn
  is automatic; its card is shown only to the drawer.
* ``consecutive_idle_turns`` counts turns with no move and no draw; a move sets
  it to 0 at once. A deal whose turn count reaches ``max_turns_per_deal``
  ends as an impasse (reason ``TURN_CAP``).
* ``players`` is the engine's player count (2-6), not an option.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import IntEnum
from typing import Any

from arena.games.base import (
    Game,
    Option,
    OptionError,
    OptionValue,
    Outcome,
    Rng,
    Tagged,
    all_but,
    competition_ranks,
    private,
    public,
)
from arena.games.cards import Card, Rank, standard_deck

HAND_SIZE = 7
SIDES = (0, 1, 2, 3)
CORNERS = (4, 5, 6, 7)
PILE_NAMES = ("N", "E", "S", "W", "NE", "SE", "SW", "NW")


def fits(card: Card, onto: Card) -> bool:
    """``card`` may go on ``onto``: one rank lower, the other colour."""
    return int(card.rank) == int(onto.rank) - 1 and card.is_red != onto.is_red


def penalty(hand: Sequence[Card]) -> int:
    """Penalty points of a hand: King 10, any other card 1."""
    return sum(10 if c.rank is Rank.KING else 1 for c in hand)


# -- actions -------------------------------------------------------------------
@dataclass(frozen=True)
class Play:
    """Put ``card`` from hand on non-empty pile ``pile`` (it must fit the top card)."""

    card: Card
    pile: int


@dataclass(frozen=True)
class KingToCorner:
    """Start empty corner ``corner`` (4-7) with King ``card`` from hand."""

    card: Card
    corner: int


@dataclass(frozen=True)
class FillSide:
    """Start empty side pile ``side`` (0-3) with any ``card`` from hand."""

    card: Card
    side: int


@dataclass(frozen=True)
class MovePile:
    """Move all of side pile ``src`` onto pile ``dst`` (its bottom card must fit dst's top)."""

    src: int
    dst: int


@dataclass(frozen=True)
class PileToCorner:
    """Move all of side pile ``src``, whose bottom card is a King, to empty corner ``corner``."""

    src: int
    corner: int


@dataclass(frozen=True)
class EndTurn:
    """End the turn; draw the top stock card if there is one."""


Action = Play | KingToCorner | FillSide | MovePile | PileToCorner | EndTurn
ACTION_TYPES = (Play, KingToCorner, FillSide, MovePile, PileToCorner, EndTurn)


# -- events --------------------------------------------------------------------
class DealEndReason(IntEnum):
    OUT = 1  # a seat emptied its hand
    IMPASSE = 2  # a full cycle of idle turns with the stock empty
    TURN_CAP = 3  # max_turns_per_deal reached (scored as an impasse)


@dataclass(frozen=True)
class DealStarted:
    """``sides``: the cards turned up on N, E, S, W."""

    deal: int
    dealer: int
    sides: tuple[Card, ...]
    hand_sizes: tuple[int, ...]
    stock_size: int


@dataclass(frozen=True)
class HandDealt:
    """Private to ``seat``: its hand."""

    seat: int
    cards: tuple[Card, ...]


@dataclass(frozen=True)
class Played:
    """``card`` went from ``seat``'s hand onto ``pile``."""

    seat: int
    card: Card
    pile: int


@dataclass(frozen=True)
class PileMoved:
    """Side pile ``src`` (``cards``, bottom to top) went onto pile ``dst``."""

    seat: int
    src: int
    dst: int
    cards: tuple[Card, ...]


@dataclass(frozen=True)
class Drew:
    """Public form: ``seat`` drew a card."""

    seat: int
    stock_size: int


@dataclass(frozen=True)
class DrewCard:
    """Private to ``seat``: the card it drew."""

    seat: int
    card: Card
    stock_size: int


@dataclass(frozen=True)
class TurnEnded:
    seat: int
    moves: int
    consecutive_idle_turns: int


@dataclass(frozen=True)
class DealEnded:
    """``out``: the seat that emptied its hand, if any; the hands stay hidden."""

    deal: int
    reason: DealEndReason
    out: int | None
    penalties: tuple[int, ...]
    totals: tuple[int, ...]


@dataclass(frozen=True)
class MatchEnded:
    deals: int
    totals: tuple[int, ...]


Event = (DealStarted | HandDealt | Played | PileMoved | Drew | DrewCard | TurnEnded
         | DealEnded | MatchEnded)


# -- observation ---------------------------------------------------------------
@dataclass(frozen=True)
class Observation:
    seat: int
    players: int
    deal: int
    dealer: int
    to_act: int | None
    hand: tuple[Card, ...]  # sorted
    hand_sizes: tuple[int, ...]
    piles: tuple[tuple[Card, ...], ...]  # 8 piles, bottom to top: N E S W NE SE SW NW
    stock_size: int
    totals: tuple[int, ...]
    moves_this_turn: int
    consecutive_idle_turns: int
    turns_this_deal: int
    target_score: int


@dataclass(frozen=True)
class PublicView:
    """Everything every seat may know (a spectator's view): the piles, no hand."""

    players: int
    deal: int
    dealer: int
    to_act: int | None
    hand_sizes: tuple[int, ...]
    piles: tuple[tuple[Card, ...], ...]  # 8 piles, bottom to top: N E S W NE SE SW NW
    stock_size: int
    totals: tuple[int, ...]
    moves_this_turn: int
    consecutive_idle_turns: int
    turns_this_deal: int
    target_score: int


# -- state ---------------------------------------------------------------------
@dataclass
class State:
    players: int
    options: dict[str, OptionValue]
    rng: Rng
    dealer: int = 0
    deal: int = 0
    stock: list[Card] = field(default_factory=list)  # stock[-1] is the top
    hands: list[list[Card]] = field(default_factory=list)
    piles: list[list[Card]] = field(default_factory=list)
    to_act: int | None = None
    moves_this_turn: int = 0
    consecutive_idle_turns: int = 0
    turns_this_deal: int = 0
    totals: list[int] = field(default_factory=list)
    over: bool = False
    opening: list[Tagged] = field(default_factory=list)  # events of ``start``


class KingsCorner(Game[State, Action, Observation]):
    name = "kings-corner"
    title = "Kings in the Corner"
    version = 1
    min_players = 2
    max_players = 6
    default_players = 4
    demo_options = {"target_score": 25}
    options = (
        Option("target_score", 50, "the match ends after the deal in which a total reaches this",
               minimum=1),
        Option("first_dealer", "random", "dealer of the first deal: random or a seat",
               choices=("random",), minimum=0, maximum=5, pools=False),
        Option("max_deals", 100, "safety cap on the number of deals", minimum=1, pools=False),
        Option("max_turns_per_deal", 500, "safety cap on turns per deal (then an impasse)",
               minimum=50, pools=False),
    )
    action_types = ACTION_TYPES
    observation_type = Observation
    public_view_type = PublicView
    event_types = (DealStarted, HandDealt, Played, PileMoved, Drew, DrewCard, TurnEnded,
                   DealEnded, MatchEnded)
    revealing_events = (DealEnded,)  # penalties count the Kings and cards left in hand

    def check_options(self, players: int, options: Mapping[str, OptionValue]) -> None:
        dealer = options["first_dealer"]
        if isinstance(dealer, int) and dealer >= players:
            raise OptionError(
                f"option 'first_dealer' must be random or a seat from 0 to {players - 1}; "
                f"got {dealer}")

    # -- setup ------------------------------------------------------------------
    def start(self, players: int, rng: Rng, opts: dict[str, OptionValue]) -> State:
        state = State(players=players, options=opts, rng=rng, totals=[0] * players)
        first = opts["first_dealer"]
        state.dealer = rng.below(players) if first == "random" else int(first)
        state.opening = self._start_deal(state)
        return state

    def opening_events(self, state: State) -> list[Tagged]:
        """The events of ``start``: the first deal."""
        return list(state.opening)

    def _start_deal(self, state: State) -> list[Tagged]:
        n = state.players
        deck = standard_deck()
        state.rng.shuffle(deck)
        state.deal += 1
        state.hands = [[] for _ in range(n)]
        for k in range(n):
            seat = (state.dealer + 1 + k) % n
            state.hands[seat] = deck[HAND_SIZE * k:HAND_SIZE * (k + 1)]
        layout = deck[HAND_SIZE * n:HAND_SIZE * n + 4]
        state.piles = [[c] for c in layout] + [[] for _ in CORNERS]
        state.stock = deck[HAND_SIZE * n + 4:]
        state.stock.reverse()  # the shuffle's order is the drawing order
        state.moves_this_turn = 0
        state.consecutive_idle_turns = 0
        state.turns_this_deal = 0
        state.to_act = (state.dealer + 1) % n
        events = [public(DealStarted(state.deal, state.dealer, tuple(layout),
                                     tuple(len(h) for h in state.hands), len(state.stock)))]
        for k in range(n):
            seat = (state.dealer + 1 + k) % n
            events.append(private(HandDealt(seat, tuple(state.hands[seat])), seat))
        return events

    # -- rules --------------------------------------------------------------------
    def to_act(self, state: State) -> int | None:
        return state.to_act

    def legal_actions(self, state: State) -> Sequence[Action]:
        seat = state.to_act
        if seat is None:
            return ()
        piles = state.piles
        hand = sorted(state.hands[seat])
        actions: list[Action] = []
        tops = [(p, piles[p][-1]) for p in range(8) if piles[p]]
        wanted: dict[tuple[int, bool], list[int]] = {}  # (rank, red) that fits -> piles
        for p, top in tops:
            wanted.setdefault((int(top.rank) - 1, not top.is_red), []).append(p)
        for card in hand:
            for p in wanted.get((int(card.rank), card.is_red), ()):
                actions.append(Play(card, p))
        empty_corners = [c for c in CORNERS if not piles[c]]
        if empty_corners:
            actions += [KingToCorner(card, c) for card in hand if card.rank is Rank.KING
                        for c in empty_corners]
        empty_sides = [s for s in SIDES if not piles[s]]
        if empty_sides:
            actions += [FillSide(card, s) for card in hand for s in empty_sides]
        for src in SIDES:
            if not piles[src]:
                continue
            bottom = piles[src][0]
            actions += [MovePile(src, p) for p in wanted.get((int(bottom.rank), bottom.is_red), ())
                        if p != src]  # the piles whose top it fits, as ``fits`` says
            if bottom.rank is Rank.KING:
                actions += [PileToCorner(src, c) for c in empty_corners]
        actions.append(EndTurn())
        return tuple(actions)

    def well_formed(self, action: Action) -> bool:
        # is_legal compares and indexes with the fields: a card must be a Card, the rest ints
        return all(isinstance(v, Card) if k == "card" else type(v) is int
                   for k, v in vars(action).items())

    def is_legal(self, state: State, action: Action) -> bool:
        """Whether ``action`` is legal now, without listing every legal action."""
        seat = state.to_act
        assert seat is not None
        piles = state.piles
        hand = state.hands[seat]
        if isinstance(action, EndTurn):
            return True
        if isinstance(action, Play):
            return (action.card in hand and 0 <= action.pile < 8 and bool(piles[action.pile])
                    and fits(action.card, piles[action.pile][-1]))
        if isinstance(action, KingToCorner):
            return (action.card in hand and action.card.rank is Rank.KING
                    and action.corner in CORNERS and not piles[action.corner])
        if isinstance(action, FillSide):
            return action.card in hand and action.side in SIDES and not piles[action.side]
        if isinstance(action, MovePile):
            return (action.src in SIDES and 0 <= action.dst < 8 and action.src != action.dst
                    and bool(piles[action.src]) and bool(piles[action.dst])
                    and fits(piles[action.src][0], piles[action.dst][-1]))
        return (action.src in SIDES and action.corner in CORNERS and bool(piles[action.src])
                and piles[action.src][0].rank is Rank.KING and not piles[action.corner])

    def step(self, state: State, action: Action) -> list[Tagged]:
        seat = state.to_act
        assert seat is not None
        if isinstance(action, EndTurn):
            return self._end_turn(state, seat)
        events: list[Tagged]
        if isinstance(action, (Play, KingToCorner, FillSide)):
            pile = (action.pile if isinstance(action, Play)
                    else action.corner if isinstance(action, KingToCorner) else action.side)
            state.hands[seat].remove(action.card)
            state.piles[pile].append(action.card)
            events = [public(Played(seat, action.card, pile))]
        else:
            dst = action.dst if isinstance(action, MovePile) else action.corner
            moved = state.piles[action.src]
            state.piles[action.src] = []
            state.piles[dst].extend(moved)
            events = [public(PileMoved(seat, action.src, dst, tuple(moved)))]
        state.moves_this_turn += 1
        state.consecutive_idle_turns = 0
        if not state.hands[seat]:
            events += self._end_deal(state, DealEndReason.OUT, seat)
        return events

    def _end_turn(self, state: State, seat: int) -> list[Tagged]:
        events: list[Tagged] = []
        drew = bool(state.stock)
        if drew:
            card = state.stock.pop()
            state.hands[seat].append(card)
            events.append(all_but(Drew(seat, len(state.stock)), state.players, seat))
            events.append(private(DrewCard(seat, card, len(state.stock)), seat))
        if drew or state.moves_this_turn:
            state.consecutive_idle_turns = 0
        else:
            state.consecutive_idle_turns += 1
        events.append(public(TurnEnded(seat, state.moves_this_turn,
                                       state.consecutive_idle_turns)))
        state.moves_this_turn = 0
        state.turns_this_deal += 1
        if state.consecutive_idle_turns >= state.players:
            return events + self._end_deal(state, DealEndReason.IMPASSE, None)
        if state.turns_this_deal >= int(state.options["max_turns_per_deal"]):
            return events + self._end_deal(state, DealEndReason.TURN_CAP, None)
        state.to_act = (seat + 1) % state.players
        return events

    def _end_deal(self, state: State, reason: DealEndReason, out: int | None) -> list[Tagged]:
        n = state.players
        penalties = tuple(penalty(h) for h in state.hands)
        for s in range(n):
            state.totals[s] += penalties[s]
        events = [public(DealEnded(state.deal, reason, out, penalties, tuple(state.totals)))]
        state.moves_this_turn = 0
        if (max(state.totals) >= int(state.options["target_score"])
                or state.deal >= int(state.options["max_deals"])):
            state.to_act = None
            state.over = True
            return [*events, public(MatchEnded(state.deal, tuple(state.totals)))]
        state.dealer = (state.dealer + 1) % n
        return events + self._start_deal(state)

    # -- views ----------------------------------------------------------------------
    def observe(self, state: State, seat: int) -> Observation:
        return Observation(
            seat=seat,
            players=state.players,
            deal=state.deal,
            dealer=state.dealer,
            to_act=state.to_act,
            hand=tuple(sorted(state.hands[seat])),
            hand_sizes=tuple(len(h) for h in state.hands),
            piles=tuple(tuple(p) for p in state.piles),
            stock_size=len(state.stock),
            totals=tuple(state.totals),
            moves_this_turn=state.moves_this_turn,
            consecutive_idle_turns=state.consecutive_idle_turns,
            turns_this_deal=state.turns_this_deal,
            target_score=int(state.options["target_score"]),
        )

    def outcome(self, state: State) -> Outcome | None:
        if not state.over:
            return None
        return Outcome(scores=tuple(float(t) for t in state.totals),
                       ranks=competition_ranks(state.totals, higher_is_better=False))

    # -- conformance helpers --------------------------------------------------------
    def cards_in_play(self, state: State) -> list[Any]:
        return (list(state.stock) + [c for h in state.hands for c in h]
                + [c for p in state.piles for c in p])

    def clone(self, state: State) -> State:
        """A copy sharing nothing mutable with ``state`` (faster than a deep copy)."""
        other = copy.copy(state)
        other.options = dict(state.options)
        other.rng = state.rng.copy()
        other.stock = list(state.stock)
        other.hands = [list(h) for h in state.hands]
        other.piles = [list(p) for p in state.piles]
        other.totals = list(state.totals)
        other.opening = list(state.opening)
        return other

    def redeal_hidden(self, state: State, seat: int, rng: random.Random) -> State:
        """Permute the stock and the other seats' hands (counts kept)."""
        other = self.clone(state)
        if state.over:
            return other
        pool = list(other.stock)
        for s in range(state.players):
            if s != seat:
                pool += other.hands[s]
        rng.shuffle(pool)
        for s in range(state.players):
            if s != seat:
                count = len(other.hands[s])
                other.hands[s] = pool[:count]
                pool = pool[count:]
        other.stock = pool
        return other


GAME = KingsCorner()
