"""King (Brazilian) — 4 players — see docs/games/king.md.

Trick-taking over a match of 10 hands (7 with ``quick``): six negative hands
with fixed penalties (-1300 in all), then four positive hands (+325 each) in
which the dealer, the *Beneficiary*, picks the contract, sells it in an
auction, issues an ultimatum or (when allowed) forfeits 4-3-3-3. The shared
trick machinery is :mod:`arena.games.tricks`; King adds the ♥ lead rule and the
forced K♥ of N5/Q2.

Readings of the rules worth knowing (beyond the rulings K1-K16 of docs/games/king.md):

* Dealing: each hand's shuffled deck is cut in four blocks of 13; block k goes
  to seat ``(dealer + 1 + k) mod 4`` (the dealer's left first, dealer last).
  Hands are kept sorted by suit (S H D C) and rank (2 … A).
* First dealer (``kh_deal``): the shuffled pack is dealt face up from its first
  card to seats 0, 1, 2, 3, 0, … until K♥ appears; its receiver is the first
  dealer. The cards turned are public: the opening event ``FirstDealerDrawn``
  (before the first ``HandStarted``) and ``Observation.first_dealer_draw``.
* The rules' ``bid(n, dir)`` has its field named ``direction`` (``dir`` is a
  Python builtin); ``declare_up(None)`` / ``choose_trump(None)`` is no trump.
* A *match* in the auction is the action ``Bid`` with the current high bid's
  terms; the ``BidMade`` event says whether it was a match.
* In the ultimatum, the three calls are recorded in ``calls`` like auction
  calls (``Observation.ultimatum`` tells them apart).
* ``play_out_all_tricks = false``: a negative hand whose penalty cards are all
  taken ends at once (N2, N3, N4, N5, Q2, Q3; N1, N6 and Q1 always play 13
  tricks); the unplayed cards are never shown.
* Positive-hand scores are kept as a running per-hand score: down starts every
  seat at 325 and takes 75 per trick; the sold price moves at the end.
* ``Observation.passed`` marks the seats that passed; with ``pass_is_final =
  false`` it is cleared by every bid (a seat then speaks again until all the
  others have passed in a row). After an ultimatum it marks the ultimatum passes.
* Auction events carry only the call (seat, tricks, direction, value, whether
  it was a match): a bid reveals nothing about the bidder's cards.
* The first hand's ``HandStarted``/``CardsDealt`` (after ``FirstDealerDrawn``
  with ``kh_deal``) come from ``opening_events`` (``start`` cannot return them);
  every later hand's from ``apply``.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import IntEnum
from functools import partial
from typing import Any

from arena.games.base import (
    Game,
    Option,
    OptionError,
    OptionValue,
    Outcome,
    Rng,
    Situation,
    Tagged,
    competition_ranks,
    fast_constructor,
    hand_situations,
    private,
    public,
)
from arena.games.cards import Card, Rank, Suit, standard_deck
from arena.games.tricks import PerCard, TrickInProgress, winner_index

PLAYERS = 4
TRICKS = 13
# One set of card objects for every hand: membership tests then hit on identity first.
DECK = tuple(standard_deck())
KING_OF_HEARTS = next(c for c in DECK if c.rank is Rank.KING and c.suit is Suit.HEARTS)
_MEN = (Rank.KING, Rank.JACK)
_POWER = (0, 14, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13)


class HandKind(IntEnum):
    NO_TRICKS = 1           # N1
    NO_HEARTS = 2           # N2
    NO_QUEENS = 3           # N3
    NO_MEN = 4              # N4
    NO_KING_OF_HEARTS = 5   # N5
    NO_LAST = 6             # N6
    QUICK_TRICKS_AND_LAST = 7  # Q1 = N1 + N6
    QUICK_HEARTS = 8           # Q2 = N2 + N5
    QUICK_QUEENS_AND_MEN = 9   # Q3 = N3 + N4
    POSITIVE = 10


class Phase(IntEnum):
    BEN_CHOICE = 1
    AUCTION = 2
    BEN_RESPONSE = 3
    BEN_CONTRACT = 4
    ULTIMATUM = 5
    WINNER_TRUMP = 6
    PLAY = 7
    OVER = 8


class Direction(IntEnum):
    UP = 1
    DOWN = 2


class Mode(IntEnum):
    """How a hand is scored."""

    NEGATIVE = 1
    UP = 2
    DOWN = 3


class Choice(IntEnum):
    """A Beneficiary's decision that names no contract."""

    OPEN_AUCTION = 1
    ULTIMATUM = 2
    FORFEIT = 3
    ACCEPT = 4
    DECLINE = 5


NORMAL_HANDS = (HandKind.NO_TRICKS, HandKind.NO_HEARTS, HandKind.NO_QUEENS, HandKind.NO_MEN,
                HandKind.NO_KING_OF_HEARTS, HandKind.NO_LAST)
QUICK_HANDS = (HandKind.QUICK_TRICKS_AND_LAST, HandKind.QUICK_HEARTS,
               HandKind.QUICK_QUEENS_AND_MEN)
HEART_LEAD_RULE = frozenset({HandKind.NO_HEARTS, HandKind.NO_KING_OF_HEARTS, HandKind.QUICK_HEARTS})
KING_OF_HEARTS_RULE = frozenset({HandKind.NO_KING_OF_HEARTS, HandKind.QUICK_HEARTS})
HAND_TOTALS = {
    HandKind.NO_TRICKS: -260, HandKind.NO_HEARTS: -260, HandKind.NO_QUEENS: -200,
    HandKind.NO_MEN: -240, HandKind.NO_KING_OF_HEARTS: -160, HandKind.NO_LAST: -180,
    HandKind.QUICK_TRICKS_AND_LAST: -440, HandKind.QUICK_HEARTS: -420,
    HandKind.QUICK_QUEENS_AND_MEN: -440, HandKind.POSITIVE: 325,
}
# The ten bids in increasing value (K8): (tricks, direction, value).
BIDS = ((1, Direction.UP, 25), (2, Direction.UP, 50), (3, Direction.UP, 75),
        (1, Direction.DOWN, 75), (4, Direction.UP, 100), (5, Direction.UP, 125),
        (6, Direction.UP, 150), (2, Direction.DOWN, 150), (7, Direction.UP, 175),
        (8, Direction.UP, 200))
BID_VALUES = {(n, d): v for n, d, v in BIDS}
FORFEIT_LIMIT = 75
TRUMP_CHOICES: tuple[Suit | None, ...] = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS, None)


def bid_value(n: int, direction: Direction) -> int:
    """Points of a bid: 25 per up trick, 75 per down trick."""
    return BID_VALUES[(n, direction)]


def power(card: Card) -> int:
    """Rank inside a suit: 2 … 10, J 11, Q 12, K 13, A 14."""
    return _POWER[card.rank]


def _suit(card: Card) -> Suit:
    return card.suit


def _sort_key(card: Card) -> tuple[int, int]:
    return (int(card.suit), power(card))


def _card_points(kind: HandKind, card: Card) -> int:
    """Points (≤ 0) ``card`` costs its taker in a negative hand of ``kind``."""
    points = 0
    rank, suit = card.rank, card.suit
    if kind in (HandKind.NO_HEARTS, HandKind.QUICK_HEARTS) and suit is Suit.HEARTS:
        points -= 20
    if kind in (HandKind.NO_KING_OF_HEARTS, HandKind.QUICK_HEARTS) and card == KING_OF_HEARTS:
        points -= 160
    if kind in (HandKind.NO_QUEENS, HandKind.QUICK_QUEENS_AND_MEN) and rank is Rank.QUEEN:
        points -= 50
    if kind in (HandKind.NO_MEN, HandKind.QUICK_QUEENS_AND_MEN) and rank in _MEN:
        points -= 30
    return points


def _trick_points(kind: HandKind, trick_no: int) -> int:
    """Points (≤ 0) taking trick ``trick_no`` (0-based) costs in itself, whatever its cards."""
    points = 0
    if kind in (HandKind.NO_TRICKS, HandKind.QUICK_TRICKS_AND_LAST):
        points -= 20
    if kind in (HandKind.NO_LAST, HandKind.QUICK_TRICKS_AND_LAST) and trick_no >= TRICKS - 2:
        points -= 90
    return points


def penalty(kind: HandKind, trick_no: int, cards: Sequence[Card]) -> int:
    """Points (≤ 0) the winner of trick ``trick_no`` (0-based) scores in a negative hand."""
    points = _trick_points(kind, trick_no)
    costs = _CARD_POINTS[kind]
    for card in cards:
        points += costs[_index(card)]
    return points


def is_penalty_card(kind: HandKind, card: Card) -> bool:
    """Whether ``card`` costs points in ``kind`` (for stopping early; trick penalties excluded)."""
    return _card_points(kind, card) < 0


PENALTY_CARDS = {kind: sum(1 for c in DECK if is_penalty_card(kind, c))
                 for kind in HandKind}

# -- the hot path's tables -------------------------------------------------------
# Searches play millions of cards: what the rules above say of a card, looked up by the
# card's place in DECK and the hand's kind (a tuple indexed by the kind's number).
_index = PerCard(DECK, DECK.index)  # a card's place in DECK


_KINDS = range(max(HandKind) + 1)
_CARD_POINTS = tuple(tuple(_card_points(HandKind(k), c) for c in DECK) if k else ()
                     for k in _KINDS)


# -- actions -------------------------------------------------------------------
@dataclass(frozen=True)
class Play:
    card: Card


@dataclass(frozen=True)
class DeclareUp:
    """Beneficiary plays the hand up himself, with ``trump`` (``None``: no trump)."""

    trump: Suit | None


@dataclass(frozen=True)
class DeclareDown:
    """Beneficiary plays the hand down himself."""


@dataclass(frozen=True)
class OpenAuction:
    pass


@dataclass(frozen=True)
class Ultimatum:
    """Ultimatum: 8 up or the Beneficiary goes down."""


@dataclass(frozen=True)
class Forfeit:
    """Score the hand 4-3-3-3 without play."""


@dataclass(frozen=True)
class Bid:
    """An auction call of ``n`` tricks up or down (a match when it repeats the high bid)."""

    n: int
    direction: Direction


@dataclass(frozen=True)
class Pass:
    pass


@dataclass(frozen=True)
class Accept:
    pass


@dataclass(frozen=True)
class Decline:
    pass


@dataclass(frozen=True)
class ChooseTrump:
    """The auction winner of an up bid names the trump (``None``: no trump)."""

    trump: Suit | None


Action = (Play | DeclareUp | DeclareDown | OpenAuction | Ultimatum | Forfeit | Bid | Pass
          | Accept | Decline | ChooseTrump)


# One Play per card of DECK: a play phase's legal actions are built without new objects.
_PLAYS = PerCard(DECK, Play)
_CHOICES: dict[type, Choice] = {OpenAuction: Choice.OPEN_AUCTION, Ultimatum: Choice.ULTIMATUM,
                                Forfeit: Choice.FORFEIT, Accept: Choice.ACCEPT,
                                Decline: Choice.DECLINE}
ACTION_TYPES = (Play, DeclareUp, DeclareDown, OpenAuction, Ultimatum, Forfeit, Bid, Pass,
                Accept, Decline, ChooseTrump)


def _position(cards: Sequence[Card], card: Card) -> int | None:
    """Where ``card`` is in ``cards`` (``None``: nowhere). The cards of a hand are DECK's
    own objects, and so is the card of an offered action: found by identity, without
    comparing each card before it by value; a card made afresh (decoded) by value."""
    for at, held in enumerate(cards):
        if held is card:
            return at
    for at, held in enumerate(cards):
        if held == card:
            return at
    return None


# -- values shared by events and the observation --------------------------------
@dataclass(frozen=True)
class Call:
    """One auction or ultimatum call: ``n`` 0 (and no direction) is a pass."""

    seat: int
    n: int
    direction: Direction | None


@dataclass(frozen=True)
class Trick:
    """A completed trick: cards in play order, who played them, who won."""

    leader: int
    seats: tuple[int, ...]
    cards: tuple[Card, ...]
    winner: int


@dataclass(frozen=True)
class HandResult:
    hand: int
    kind: HandKind
    scores: tuple[int, ...]


# -- events --------------------------------------------------------------------
@dataclass(frozen=True)
class FirstDealerDrawn:
    """``kh_deal``: the cards turned face up from seat 0 on, the last one K♥ (K3)."""

    cards: tuple[Card, ...]
    dealer: int


@dataclass(frozen=True)
class HandStarted:
    hand: int
    kind: HandKind
    dealer: int


@dataclass(frozen=True)
class CardsDealt:
    """Private to ``seat``: its 13 cards."""

    seat: int
    cards: tuple[Card, ...]


@dataclass(frozen=True)
class BeneficiaryChose:
    seat: int
    choice: Choice


@dataclass(frozen=True)
class BidMade:
    seat: int
    n: int
    direction: Direction
    value: int
    matched: bool


@dataclass(frozen=True)
class Passed:
    seat: int


@dataclass(frozen=True)
class AuctionClosed:
    """The auction is over; ``holder`` holds the high bid (none if nobody bid)."""

    holder: int | None
    n: int
    direction: Direction | None


@dataclass(frozen=True)
class ContractSet:
    """The hand is played ``mode`` with ``trump``; ``sold_to`` pays ``price`` to the Beneficiary."""

    declarer: int
    mode: Mode
    trump: Suit | None
    sold_to: int | None
    price: int


@dataclass(frozen=True)
class CardPlayed:
    seat: int
    card: Card


@dataclass(frozen=True)
class TrickTaken:
    trick: int
    winner: int
    cards: tuple[Card, ...]
    points: int


@dataclass(frozen=True)
class HandScored:
    hand: int
    kind: HandKind
    scores: tuple[int, ...]
    totals: tuple[int, ...]


@dataclass(frozen=True)
class MatchEnded:
    totals: tuple[int, ...]
    ranks: tuple[int, ...]


Event = (FirstDealerDrawn | HandStarted | CardsDealt | BeneficiaryChose | BidMade | Passed
         | AuctionClosed | ContractSet | CardPlayed | TrickTaken | HandScored | MatchEnded)


# -- observation ---------------------------------------------------------------
@dataclass(frozen=True)
class Observation:
    """Everything one seat may know (docs/games/king.md, Observation)."""

    seat: int
    hand_index: int
    hands_in_match: int
    kind: HandKind
    dealer: int
    first_dealer_draw: tuple[Card, ...]
    phase: Phase
    to_act: int | None
    hand: tuple[Card, ...]
    hand_sizes: tuple[int, ...]
    mode: Mode | None
    trump: Suit | None
    declarer: int | None
    sold_to: int | None
    price: int
    calls: tuple[Call, ...]
    ultimatum: bool
    high_n: int
    high_direction: Direction | None
    high_holder: int | None
    passed: tuple[bool, ...]
    trick_leader: int | None
    trick_seats: tuple[int, ...]
    trick_cards: tuple[Card, ...]
    tricks: tuple[Trick, ...]
    tricks_won: tuple[int, ...]
    hand_scores: tuple[int, ...]
    results: tuple[HandResult, ...]
    totals: tuple[int, ...]


@dataclass(frozen=True)
class PublicView:
    """Everything every seat may know (a spectator's view): the observation without a hand."""

    hand_index: int
    hands_in_match: int
    kind: HandKind
    dealer: int
    first_dealer_draw: tuple[Card, ...]
    phase: Phase
    to_act: int | None
    hand_sizes: tuple[int, ...]
    mode: Mode | None
    trump: Suit | None
    declarer: int | None
    sold_to: int | None
    price: int
    calls: tuple[Call, ...]
    ultimatum: bool
    high_n: int
    high_direction: Direction | None
    high_holder: int | None
    passed: tuple[bool, ...]
    trick_leader: int | None
    trick_seats: tuple[int, ...]
    trick_cards: tuple[Card, ...]
    tricks: tuple[Trick, ...]
    tricks_won: tuple[int, ...]
    hand_scores: tuple[int, ...]
    results: tuple[HandResult, ...]
    totals: tuple[int, ...]


_observation = fast_constructor(Observation)  # one at every decision: see fast_constructor
# Every card played, by seat: events are values, so one object serves every match.
def _card_played(seat: int, card: Card) -> Tagged:
    return public(CardPlayed(seat, card))


_CARD_PLAYED = tuple(PerCard(DECK, partial(_card_played, s)) for s in range(PLAYERS))


# -- state ---------------------------------------------------------------------
@dataclass
class State:
    options: dict[str, OptionValue]
    rng: Rng
    hand_kinds: tuple[HandKind, ...]
    first_dealer: int = 0
    first_dealer_draw: tuple[Card, ...] = ()
    hand_no: int = 0
    kind: HandKind = HandKind.NO_TRICKS
    dealer: int = 0
    phase: Phase = Phase.PLAY
    to_act: int | None = None
    hands: list[tuple[Card, ...]] = field(default_factory=list)  # tuples: observations share them
    # contract
    mode: Mode | None = None
    trump: Suit | None = None
    declarer: int | None = None
    sold_to: int | None = None
    price: int = 0
    # auction
    calls: tuple[Call, ...] = ()  # tuples, replaced as they grow: observations share them
    ultimatum: bool = False
    high: tuple[int, Direction] | None = None
    holder: int | None = None
    passed: list[bool] = field(default_factory=lambda: [False] * PLAYERS)
    # play
    trick: TrickInProgress[Card] | None = None
    tricks: tuple[Trick, ...] = ()
    tricks_won: list[int] = field(default_factory=lambda: [0] * PLAYERS)
    won: list[list[Card]] = field(default_factory=lambda: [[] for _ in range(PLAYERS)])
    penalty_left: int = 0
    hand_scores: list[int] = field(default_factory=lambda: [0] * PLAYERS)
    results: tuple[HandResult, ...] = ()
    totals: list[int] = field(default_factory=lambda: [0] * PLAYERS)
    over: bool = False

    @property
    def bidders(self) -> tuple[int, int, int]:
        """L1, L2, L3: the seats clockwise from the Beneficiary (preference order)."""
        b = self.dealer
        return ((b + 1) % PLAYERS, (b + 2) % PLAYERS, (b + 3) % PLAYERS)
    opening: list[Tagged] = field(default_factory=list)  # events of ``start``


class King(Game[State, Action, Observation]):
    name = "king"
    title = "King"
    version = 1
    min_players = 4
    max_players = 4
    default_players = 4
    demo_options = {"quick": True}
    options = (
        Option("quick", False, "3 combined negative hands instead of 6"),
        Option("first_dealer", "kh_deal",
               "first dealer: deal face up until K♥ (kh_deal), or a seat",
               choices=("kh_deal",), minimum=0, maximum=3, pools=False),
        Option("pass_is_final", True, "a seat that passes in an auction may not bid again"),
        Option("forfeit_without_auction", False,
               "the Beneficiary may take 4-3-3-3 without opening an auction"),
        Option("play_out_all_tricks", True,
               "if false, a negative hand stops once its penalty cards are all taken"),
    )
    action_types = ACTION_TYPES
    observation_type = Observation
    public_view_type = PublicView
    event_types = (HandStarted, CardsDealt, BeneficiaryChose, BidMade, Passed, AuctionClosed,
                   ContractSet, CardPlayed, TrickTaken, HandScored, MatchEnded, FirstDealerDrawn)

    def check_options(self, players: int, options: Mapping[str, OptionValue]) -> None:
        first = options["first_dealer"]
        if isinstance(first, int) and not 0 <= first < players:
            raise OptionError(f"option 'first_dealer' must be kh_deal or a seat from 0 to "
                              f"{players - 1}; got {first}")

    # -- setup -------------------------------------------------------------------
    def start(self, players: int, rng: Rng, options: dict[str, OptionValue]) -> State:
        kinds = (QUICK_HANDS if options["quick"] else NORMAL_HANDS) + (HandKind.POSITIVE,) * 4
        state = State(options=options, rng=rng, hand_kinds=kinds)
        first = options["first_dealer"]
        if first == "kh_deal":
            deck = list(DECK)
            rng.shuffle(deck)
            at = deck.index(KING_OF_HEARTS)
            state.first_dealer = at % PLAYERS
            state.first_dealer_draw = tuple(deck[:at + 1])
        else:
            state.first_dealer = int(first)
        state.opening = []
        if state.first_dealer_draw:
            state.opening.append(public(FirstDealerDrawn(state.first_dealer_draw,
                                                         state.first_dealer)))
        state.opening += self._start_hand(state)
        return state

    def opening_events(self, state: State) -> list[Tagged]:
        return list(state.opening)

    def _start_hand(self, state: State) -> list[Tagged]:
        h = state.hand_no
        state.kind = kind = state.hand_kinds[h]
        state.dealer = dealer = (state.first_dealer + h) % PLAYERS
        deck = list(DECK)
        state.rng.shuffle(deck)
        hands: list[tuple[Card, ...]] = [() for _ in range(PLAYERS)]
        for k in range(PLAYERS):
            block = deck[TRICKS * k:TRICKS * (k + 1)]
            hands[(dealer + 1 + k) % PLAYERS] = tuple(sorted(block, key=_sort_key))
        state.hands = hands
        state.mode = Mode.NEGATIVE if kind is not HandKind.POSITIVE else None
        state.trump = None
        state.declarer = state.sold_to = None
        state.price = 0
        state.calls = ()
        state.ultimatum = False
        state.high = state.holder = None
        state.passed = [False] * PLAYERS
        state.trick = None
        state.tricks = ()
        state.tricks_won = [0] * PLAYERS
        state.won = [[] for _ in range(PLAYERS)]
        state.penalty_left = PENALTY_CARDS[kind]
        state.hand_scores = [0] * PLAYERS
        events = [public(HandStarted(h, kind, dealer))]
        events += [private(CardsDealt(s, tuple(hands[s])), s) for s in range(PLAYERS)]
        if kind is HandKind.POSITIVE:
            state.phase = Phase.BEN_CHOICE
            state.to_act = dealer
        else:
            self._start_play(state)
        return events

    def _start_play(self, state: State) -> None:
        state.phase = Phase.PLAY
        state.trick = TrickInProgress(state.dealer, PLAYERS)
        state.to_act = state.dealer
        if state.mode is Mode.DOWN:
            state.hand_scores = [325] * PLAYERS

    # -- rules -------------------------------------------------------------------
    def to_act(self, state: State) -> int | None:
        return state.to_act

    def playable(self, state: State, seat: int) -> list[Card]:
        """The cards ``seat`` may play now (follow suit, ♥ lead rule, forced K♥)."""
        hand = state.hands[seat]
        trick = state.trick
        assert trick is not None
        kind = state.kind
        if not trick.cards:
            only_hearts = all(c.suit is Suit.HEARTS for c in hand)
            if kind in KING_OF_HEARTS_RULE and only_hearts and KING_OF_HEARTS in hand:
                return [KING_OF_HEARTS]
            if kind in HEART_LEAD_RULE and not only_hearts:
                return [c for c in hand if c.suit is not Suit.HEARTS]
            return list(hand)
        led = trick.cards[0].suit
        follow = [c for c in hand if c.suit is led]
        if kind in KING_OF_HEARTS_RULE and KING_OF_HEARTS in hand and (
                not follow or led is Suit.HEARTS):
            return [KING_OF_HEARTS]
        return follow if follow else list(hand)

    def legal_actions(self, state: State) -> Sequence[Action]:
        seat = state.to_act
        if seat is None:
            return ()
        phase = state.phase
        if phase is Phase.PLAY:
            return [_PLAYS(c) for c in self.playable(state, seat)]
        if phase is Phase.BEN_CHOICE:
            acts: list[Action] = [DeclareUp(t) for t in TRUMP_CHOICES]
            acts += [DeclareDown(), OpenAuction(), Ultimatum()]
            if state.options["forfeit_without_auction"]:
                acts.append(Forfeit())
            return acts
        if phase is Phase.AUCTION:
            return self._auction_calls(state, seat)
        if phase is Phase.BEN_RESPONSE:
            acts = [Accept()] if state.high is not None else []
            acts.append(Decline())
            if state.high is None or bid_value(*state.high) <= FORFEIT_LIMIT:
                acts.append(Forfeit())
            acts.append(Ultimatum())
            return acts
        if phase is Phase.BEN_CONTRACT:
            return [*(DeclareUp(t) for t in TRUMP_CHOICES), DeclareDown()]
        if phase is Phase.ULTIMATUM:
            return [Bid(8, Direction.UP), Pass()]
        if phase is Phase.WINNER_TRUMP:
            return [ChooseTrump(t) for t in TRUMP_CHOICES]
        return ()

    def _auction_calls(self, state: State, seat: int) -> list[Action]:
        calls: list[Action] = [Pass()]
        high = state.high
        floor = 0
        if high is not None:
            floor = bid_value(*high)
            assert state.holder is not None
            bidders = state.bidders
            if bidders.index(seat) < bidders.index(state.holder):
                calls.append(Bid(*high))
        calls += [Bid(n, d) for n, d, v in BIDS if v > floor]
        return calls

    def is_legal(self, state: State, action: Action) -> bool:
        if isinstance(action, Play):  # without building an action per playable card
            seat = state.to_act
            assert seat is not None
            return state.phase is Phase.PLAY and _position(self.playable(state, seat),
                                                           action.card) is not None
        return action in self.legal_actions(state)

    def why_illegal(self, state: State, action: Action) -> str:
        seat = state.to_act
        if state.phase is Phase.PLAY and seat is not None:
            return f"phase PLAY, playable: {' '.join(map(str, self.playable(state, seat)))}"
        return f"phase {state.phase.name}"

    def step(self, state: State, action: Action) -> list[Tagged]:
        seat = state.to_act
        assert seat is not None
        if isinstance(action, Play):
            return self._play(state, seat, action.card)
        phase = state.phase
        if phase is Phase.AUCTION:
            return self._auction(state, seat, action)
        if phase is Phase.ULTIMATUM:
            return self._ultimatum_call(state, seat, action)
        if phase is Phase.WINNER_TRUMP:
            assert isinstance(action, ChooseTrump)
            return self._set_contract(state, seat, Mode.UP, action.trump)
        if isinstance(action, DeclareUp):
            return self._set_contract(state, seat, Mode.UP, action.trump)
        if isinstance(action, DeclareDown):
            return self._set_contract(state, seat, Mode.DOWN, None)
        choice = _CHOICES[type(action)]
        events = [public(BeneficiaryChose(seat, choice))]
        if choice is Choice.OPEN_AUCTION:
            state.phase = Phase.AUCTION
            state.to_act = state.bidders[0]
        elif choice is Choice.ULTIMATUM:
            state.phase = Phase.ULTIMATUM
            state.ultimatum = True
            state.high = state.holder = None
            state.passed = [False] * PLAYERS
            state.to_act = state.bidders[0]
        elif choice is Choice.FORFEIT:
            state.hand_scores = [100 if s == seat else 75 for s in range(PLAYERS)]
            events += self._end_hand(state)
        elif choice is Choice.DECLINE:
            state.phase = Phase.BEN_CONTRACT
        else:  # accept
            assert state.high is not None and state.holder is not None
            n, direction = state.high
            state.sold_to = state.holder
            state.price = bid_value(n, direction)
            if direction is Direction.UP:
                state.phase = Phase.WINNER_TRUMP
                state.to_act = state.holder
            else:
                events += self._set_contract(state, state.holder, Mode.DOWN, None)
        return events

    def _auction(self, state: State, seat: int, action: Action) -> list[Tagged]:
        bidders = state.bidders
        if isinstance(action, Pass):
            state.passed[seat] = True
            state.calls += (Call(seat, 0, None),)
            events = [public(Passed(seat))]
        else:
            assert isinstance(action, Bid)
            matched = state.high == (action.n, action.direction)
            state.high = (action.n, action.direction)
            state.holder = seat
            state.calls += (Call(seat, action.n, action.direction),)
            if not state.options["pass_is_final"]:
                state.passed = [False] * PLAYERS
            events = [public(BidMade(seat, action.n, action.direction,
                                     bid_value(action.n, action.direction), matched))]
        pos = bidders.index(seat)
        for k in range(1, 4):
            other = bidders[(pos + k) % 3]
            if other != state.holder and not state.passed[other]:
                state.to_act = other
                return events
        state.phase = Phase.BEN_RESPONSE
        state.to_act = state.dealer
        n, direction = state.high if state.high is not None else (0, None)
        events.append(public(AuctionClosed(state.holder, n, direction)))
        return events

    def _ultimatum_call(self, state: State, seat: int, action: Action) -> list[Tagged]:
        if isinstance(action, Bid):
            state.calls += (Call(seat, 8, Direction.UP),)
            state.high = (8, Direction.UP)
            state.holder = state.sold_to = seat
            state.price = bid_value(8, Direction.UP)
            state.phase = Phase.WINNER_TRUMP
            state.to_act = seat
            return [public(BidMade(seat, 8, Direction.UP, state.price, False))]
        state.calls += (Call(seat, 0, None),)
        state.passed[seat] = True
        events = [public(Passed(seat))]
        pos = state.bidders.index(seat)
        if pos < 2:
            state.to_act = state.bidders[pos + 1]
            return events
        return events + self._set_contract(state, state.dealer, Mode.DOWN, None)

    def _set_contract(self, state: State, declarer: int, mode: Mode,
                      trump: Suit | None) -> list[Tagged]:
        state.mode = mode
        state.trump = trump
        state.declarer = declarer
        event = ContractSet(declarer, mode, trump, state.sold_to, state.price)
        self._start_play(state)
        return [public(event)]

    def _play(self, state: State, seat: int, card: Card) -> list[Tagged]:
        trick = state.trick
        assert trick is not None
        hand = state.hands[seat]
        at = _position(hand, card)
        assert at is not None
        state.hands[seat] = hand[:at] + hand[at + 1:]
        trick.add(seat, card)
        events = [_CARD_PLAYED[seat](card)]
        if not trick.complete:
            state.to_act = trick.next_seat
            return events
        trumps = (state.trump,) if state.trump is not None else ()
        win = trick.seats[winner_index(trick.cards, trick.cards[0].suit, _suit, power, trumps)]
        number = len(state.tricks)
        kind = state.kind
        if state.mode is Mode.UP:
            points = 25
        elif state.mode is Mode.DOWN:
            points = -75
        else:
            points = penalty(kind, number, trick.cards)
            costs = _CARD_POINTS[kind]
            state.penalty_left -= sum(1 for c in trick.cards if costs[_index(c)])
        cards = tuple(trick.cards)
        state.tricks += (Trick(trick.leader, tuple(trick.seats), cards, win),)
        state.tricks_won[win] += 1
        state.won[win].extend(cards)
        state.hand_scores[win] += points
        events.append(public(TrickTaken(number, win, cards, points)))
        stop_early = (not state.options["play_out_all_tricks"] and state.mode is Mode.NEGATIVE
                      and PENALTY_CARDS[kind] > 0 and state.penalty_left == 0)
        if len(state.tricks) == TRICKS or stop_early:
            state.trick = None
            return events + self._end_hand(state)
        state.trick = TrickInProgress(win, PLAYERS)
        state.to_act = win
        return events

    def _end_hand(self, state: State) -> list[Tagged]:
        if state.sold_to is not None:
            state.hand_scores[state.sold_to] -= state.price
            state.hand_scores[state.dealer] += state.price
        scores = tuple(state.hand_scores)
        for s in range(PLAYERS):
            state.totals[s] += scores[s]
        state.results += (HandResult(state.hand_no, state.kind, scores),)
        events = [public(HandScored(state.hand_no, state.kind, scores, tuple(state.totals)))]
        state.hand_no += 1
        if state.hand_no < len(state.hand_kinds):
            return events + self._start_hand(state)
        state.over = True
        state.phase = Phase.OVER
        state.to_act = None
        state.trick = None
        ranks = competition_ranks(state.totals)
        return [*events, public(MatchEnded(tuple(state.totals), ranks))]

    # -- views ---------------------------------------------------------------------
    def observe(self, state: State, seat: int) -> Observation:
        trick = state.trick
        high = state.high
        return _observation(
            seat=seat,
            hand_index=state.hand_no if not state.over else len(state.hand_kinds) - 1,
            hands_in_match=len(state.hand_kinds),
            kind=state.kind,
            dealer=state.dealer,
            first_dealer_draw=state.first_dealer_draw,
            phase=state.phase,
            to_act=state.to_act,
            hand=state.hands[seat],
            hand_sizes=tuple(map(len, state.hands)),
            mode=state.mode,
            trump=state.trump,
            declarer=state.declarer,
            sold_to=state.sold_to,
            price=state.price,
            calls=state.calls,
            ultimatum=state.ultimatum,
            high_n=high[0] if high is not None else 0,
            high_direction=high[1] if high is not None else None,
            high_holder=state.holder,
            passed=tuple(state.passed),
            trick_leader=trick.leader if trick is not None else None,
            trick_seats=tuple(trick.seats) if trick is not None else (),
            trick_cards=tuple(trick.cards) if trick is not None else (),
            tricks=state.tricks,
            tricks_won=tuple(state.tricks_won),
            hand_scores=tuple(state.hand_scores),
            results=state.results,
            totals=tuple(state.totals),
        )

    def outcome(self, state: State) -> Outcome | None:
        if not state.over:
            return None
        return Outcome(scores=tuple(float(t) for t in state.totals),
                       ranks=competition_ranks(state.totals))

    def situations(self, events: Sequence[Any], players: int) -> list[Situation]:
        """Per scored hand and seat: its contract kind ("no hearts", "positive"...) and
        whether it dealt (and so was the Beneficiary), with the hand's points."""
        return hand_situations(
            events, HandStarted, HandScored,
            lambda hand, _seat: [("contract", hand.kind.name.lower().replace("_", " "))],
            lambda hand: hand.scores)

    # -- conformance helpers ----------------------------------------------------------
    def cards_in_play(self, state: State) -> list[Any]:
        cards = [c for h in state.hands for c in h] + [c for w in state.won for c in w]
        if state.trick is not None:
            cards += state.trick.cards
        return cards

    def clone(self, state: State) -> State:
        """A copy sharing nothing mutable with ``state`` (faster than a deep copy)."""
        other = copy.copy(state)
        other.rng = copy.deepcopy(state.rng)
        other.hands = list(state.hands)
        other.calls = state.calls
        other.passed = list(state.passed)
        if state.trick is not None:
            other.trick = TrickInProgress(state.trick.leader, PLAYERS, list(state.trick.seats),
                                          list(state.trick.cards))
        other.tricks = state.tricks
        other.tricks_won = list(state.tricks_won)
        other.won = [list(w) for w in state.won]
        other.hand_scores = list(state.hand_scores)
        other.results = state.results
        other.totals = list(state.totals)
        return other

    def redeal_hidden(self, state: State, seat: int, rng: random.Random) -> State:
        other = self.clone(state)
        others = [s for s in range(PLAYERS) if s != seat]
        pool = [c for s in others for c in other.hands[s]]
        rng.shuffle(pool)
        for s in others:
            count = len(other.hands[s])
            other.hands[s] = tuple(sorted(pool[:count], key=_sort_key))
            pool = pool[count:]
        return other


GAME = King()
