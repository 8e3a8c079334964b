"""Knives — 5 players — see docs/games/knives.md.

32-card trick-taking: players in turn *pick* (become banker, take the 2-card
bank and bury 2 cards) or pass and re-name the strong suit. The holder of the
strong suit's Ghost is the banker's secret partner (the *shadow banker*); the
banker's side needs 13 of the 25 stars. If nobody picks, everyone plays alone
(leaster or moster). First to ``target_score`` wins. The shared trick machinery
is :mod:`arena.games.tricks`; Knives adds the Joker, the two trump levels (Knives,
then the strong suit), the Ghost-over-King rule and the Thief lead.

Readings of the rules worth knowing (beyond the rulings V1-V17 of docs/games/knives.md):

* Knives has its own deck: :class:`KnivesCard` with :class:`KSuit` and
  :class:`KRank`. ``KRank`` numbers are the order inside a suit (Knives 2 … 7, A;
  the others Ghost < Thief < Maid < Jack < Queen < King); the Joker is ``X``.
* Dealing: the 32 shuffled cards are dealt one at a time from the first, to
  the dealer's left first; cards 30 and 31 form the bank. Hands are sorted.
* ``Bank(first, second)`` names the two cards in hand order (``first`` before
  ``second`` in the sorted 8-card hand); ``Reveal(cards)`` names a subset of
  the bank in bank order. Both are offered as complete lists.
* The shadow is never in the observation of other seats. What everyone sees is
  ``ghost_played_by``: the seat that played the strong Ghost (a banker who
  plays it is known to be solo). ``is_shadow`` tells the shadow itself.
  ``HandScored`` names the teams and shows the banked cards.
* A truthful solo announcement tells everyone the banker holds the Ghost; the
  re-deal used by the hidden-information test then keeps the Ghost in place.
* With ``simplified_rules`` the shadow and the solo announcement still exist
  (the text keeps "the player with the Ghost of Spades is the shadow banker");
  only the Ghost-over-King and Thief-lead powers and leaster/moster go away,
  and ``Pass`` carries no suit. A solo win then scores +4 whatever the table.
* A hand is banker, leaster or moster (:class:`KMode`). The match ends after
  the hand in which a total reaches ``target_score`` or after ``max_hands``.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import IntEnum
from functools import partial
from itertools import combinations
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
    all_but,
    competition_ranks,
    fast_constructor,
    hand_situations,
    private,
    public,
)
from arena.games.tricks import PerCard, PerPair, TrickInProgress, winner_index

PLAYERS = 5
TRICKS = 6
TOTAL_STARS = 25


class KSuit(IntEnum):
    NONE = 0  # the Joker
    KNIVES = 1
    SPADES = 2
    CLUBS = 3
    DIAMONDS = 4
    HEARTS = 5

    @property
    def code(self) -> str:
        return "-NSCDH"[self]


class KRank(IntEnum):
    JOKER = 0
    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    ACE = 8  # Knives only
    GHOST = 9
    THIEF = 10
    MAID = 11
    JACK = 12
    QUEEN = 13
    KING = 14

    @property
    def code(self) -> str:
        return _RANK_CODES[self]


_RANK_CODES = {KRank.JOKER: "X", KRank.TWO: "2", KRank.THREE: "3", KRank.FOUR: "4",
               KRank.FIVE: "5", KRank.SIX: "6", KRank.SEVEN: "7", KRank.ACE: "A",
               KRank.GHOST: "G", KRank.THIEF: "T", KRank.MAID: "M", KRank.JACK: "J",
               KRank.QUEEN: "Q", KRank.KING: "K"}
_CODE_RANKS = {c: r for r, c in _RANK_CODES.items()}
_CODE_SUITS = {s.code: s for s in KSuit if s is not KSuit.NONE}
STRONG_SUITS = (KSuit.SPADES, KSuit.CLUBS, KSuit.DIAMONDS, KSuit.HEARTS)
KNIFE_RANKS = (KRank.TWO, KRank.THREE, KRank.FOUR, KRank.FIVE, KRank.SIX, KRank.SEVEN,
               KRank.ACE)
COURT_RANKS = (KRank.GHOST, KRank.THIEF, KRank.MAID, KRank.JACK, KRank.QUEEN, KRank.KING)


@dataclass(frozen=True, order=True)
class KnivesCard:
    """A card of the Knives deck: ``2N`` … ``AN``, ``GS`` … ``KH``, Joker ``X``."""

    suit: KSuit
    rank: KRank

    def __post_init__(self) -> None:
        if self.suit is KSuit.NONE:
            ok = self.rank is KRank.JOKER
        elif self.suit is KSuit.KNIVES:
            ok = self.rank in KNIFE_RANKS
        else:
            ok = self.rank in COURT_RANKS
        if not ok:
            raise ValueError(f"no Knives card has rank {self.rank!r} and suit {self.suit!r}")

    @property
    def code(self) -> str:
        return "X" if self.suit is KSuit.NONE else self.rank.code + self.suit.code

    @property
    def stars(self) -> int:
        return _STARS.get(self.rank, 0) if self.suit is not KSuit.KNIVES else int(
            self.rank is KRank.ACE)

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return self.code

    @classmethod
    def parse(cls, code: str) -> KnivesCard:
        text = code.strip().upper()
        if text == "X":
            return JOKER
        if len(text) != 2 or text[0] not in _CODE_RANKS or text[1] not in _CODE_SUITS:
            raise ValueError(f"not a Knives card: {code!r}")
        return cls(_CODE_SUITS[text[1]], _CODE_RANKS[text[0]])


_STARS = {KRank.KING: 3, KRank.QUEEN: 2, KRank.JACK: 1}
JOKER = KnivesCard(KSuit.NONE, KRank.JOKER)
DECK = (tuple(KnivesCard(KSuit.KNIVES, r) for r in KNIFE_RANKS)
        + tuple(KnivesCard(s, r) for s in STRONG_SUITS for r in COURT_RANKS) + (JOKER,))


def kcards(codes: str) -> list[KnivesCard]:
    """``kcards("GS AN X")`` -> the cards, in order (for tests and scripted deals)."""
    return [KnivesCard.parse(c) for c in codes.split()]


def ghost(suit: KSuit) -> KnivesCard:
    return KnivesCard(suit, KRank.GHOST)


def stars(cards: Sequence[KnivesCard]) -> int:
    return sum(c.stars for c in cards)


class Phase(IntEnum):
    DECLARE = 1
    CHOOSE = 2
    BANK = 3
    SOLO = 4
    MODE = 5
    REVEAL = 6
    PLAY = 7
    OVER = 8


class KMode(IntEnum):
    BANKER = 1
    LEASTER = 2
    MOSTER = 3


class CallKind(IntEnum):
    DECLARE = 1
    PICK = 2
    PASS = 3


# -- actions -------------------------------------------------------------------
@dataclass(frozen=True)
class Declare:
    """The dealer names the first strong suit."""

    suit: KSuit


@dataclass(frozen=True)
class Pick:
    """Become banker with the current strong suit."""


@dataclass(frozen=True)
class Pass:
    """Pass and name a new strong suit (``None`` with ``simplified_rules``)."""

    suit: KSuit | None


@dataclass(frozen=True)
class Bank:
    """Set two of the banker's 8 cards aside (``first`` before ``second`` in hand order)."""

    first: KnivesCard
    second: KnivesCard


@dataclass(frozen=True)
class AnnounceSolo:
    pass


@dataclass(frozen=True)
class NoAnnouncement:
    pass


@dataclass(frozen=True)
class Leaster:
    pass


@dataclass(frozen=True)
class Moster:
    pass


@dataclass(frozen=True)
class Reveal:
    """Show these discarded bank cards to everyone (a subset of the bank, in bank order)."""

    cards: tuple[KnivesCard, ...]


@dataclass(frozen=True)
class Play:
    card: KnivesCard


Action = (Declare | Pick | Pass | Bank | AnnounceSolo | NoAnnouncement | Leaster | Moster
          | Reveal | Play)
ACTION_TYPES = (Declare, Pick, Pass, Bank, AnnounceSolo, NoAnnouncement, Leaster, Moster,
                Reveal, Play)
# One Play per card of DECK: a play phase's legal actions are built without new objects.
_PLAYS = PerCard(DECK, Play)
# So are the other phases' (actions are values: one object serves every match).
_DECLARES = tuple(Declare(s) for s in STRONG_SUITS)
_PICK = Pick()
_PASS_NONE = Pass(None)
_PASSES = tuple((s, Pass(s)) for s in STRONG_SUITS)
_ANNOUNCE_SOLO, _NO_ANNOUNCEMENT = AnnounceSolo(), NoAnnouncement()
_LEASTER, _MOSTER = Leaster(), Moster()
_REVEAL_NONE = Reveal(())
_REVEALS_ONE = PerCard(DECK, lambda card: Reveal((card,)))
_BANKS = PerPair(DECK, Bank)
_REVEALS_TWO = PerPair(DECK, lambda a, b: Reveal((a, b)))


# -- values shared by events and the observation --------------------------------
@dataclass(frozen=True)
class Call:
    """A call while choosing the banker: a declaration, a pick or a pass (and its suit)."""

    seat: int
    kind: CallKind
    suit: KSuit | None


@dataclass(frozen=True)
class Trick:
    leader: int
    seats: tuple[int, ...]
    cards: tuple[KnivesCard, ...]
    winner: int
    next_leader: int


# -- events --------------------------------------------------------------------
@dataclass(frozen=True)
class HandStarted:
    hand: int
    dealer: int


@dataclass(frozen=True)
class CardsDealt:
    """Private to ``seat``: its 6 cards."""

    seat: int
    cards: tuple[KnivesCard, ...]


@dataclass(frozen=True)
class Declared:
    seat: int
    suit: KSuit


@dataclass(frozen=True)
class Picked:
    seat: int
    strong: KSuit


@dataclass(frozen=True)
class Passed:
    seat: int
    suit: KSuit | None


@dataclass(frozen=True)
class BankTaken:
    """The banker takes the bank; ``cards`` only in the banker's own form."""

    seat: int
    cards: tuple[KnivesCard, ...]


@dataclass(frozen=True)
class Banked:
    """The banker sets 2 cards aside; ``cards`` only in the banker's own form."""

    seat: int
    cards: tuple[KnivesCard, ...]


@dataclass(frozen=True)
class Announced:
    seat: int
    solo: bool


@dataclass(frozen=True)
class ModeChosen:
    seat: int
    mode: KMode


@dataclass(frozen=True)
class BankSeen:
    """The dealer looks at the bank (leaster/moster); ``cards`` only in his own form."""

    seat: int
    cards: tuple[KnivesCard, ...]


@dataclass(frozen=True)
class BankRevealed:
    """The bank cards the dealer shows; ``hidden`` more stay face down for good."""

    seat: int
    cards: tuple[KnivesCard, ...]
    hidden: int


@dataclass(frozen=True)
class CardPlayed:
    seat: int
    card: KnivesCard


@dataclass(frozen=True)
class TrickTaken:
    trick: int
    winner: int
    cards: tuple[KnivesCard, ...]
    stars: int
    next_leader: int


@dataclass(frozen=True)
class HandScored:
    """The hand's result; in a banker hand it names the teams and shows the banked cards."""

    hand: int
    mode: KMode
    banker: int | None
    shadow: int | None
    solo: bool
    banked: tuple[KnivesCard, ...]
    team_stars: int
    stars: tuple[int, ...]
    points: tuple[int, ...]
    totals: tuple[int, ...]


@dataclass(frozen=True)
class MatchEnded:
    totals: tuple[int, ...]
    ranks: tuple[int, ...]


Event = (HandStarted | CardsDealt | Declared | Picked | Passed | BankTaken | Banked | Announced
         | ModeChosen | BankSeen | BankRevealed | CardPlayed | TrickTaken | HandScored | MatchEnded)


def _role(hand: HandScored, seat: int) -> str:
    """``seat``'s part in the scored ``hand``, as a bot's page names it."""
    if hand.mode is not KMode.BANKER:
        return hand.mode.name.lower()
    if seat == hand.banker:
        return "banker" if hand.shadow is not None else "banker alone"
    return "shadow" if seat == hand.shadow else "defender"


# -- observation ---------------------------------------------------------------
@dataclass(frozen=True)
class Observation:
    """Everything one seat may know (docs/games/knives.md, Observation)."""

    seat: int
    hand_index: int
    dealer: int
    phase: Phase
    to_act: int | None
    hand: tuple[KnivesCard, ...]
    hand_sizes: tuple[int, ...]
    bank_size: int
    bank_seen: tuple[KnivesCard, ...]
    banked: tuple[KnivesCard, ...]
    revealed: tuple[KnivesCard, ...]
    strong: KSuit | None
    calls: tuple[Call, ...]
    banker: int | None
    announcement: bool | None
    is_shadow: bool
    ghost_played_by: int | None
    mode: KMode | None
    trick_leader: int | None
    trick_seats: tuple[int, ...]
    trick_cards: tuple[KnivesCard, ...]
    tricks: tuple[Trick, ...]
    stars_taken: tuple[int, ...]
    totals: tuple[int, ...]


@dataclass(frozen=True)
class PublicView:
    """Everything every seat may know (a spectator's view): no hand, no bank card but those
    revealed, not who the shadow is."""

    hand_index: int
    dealer: int
    phase: Phase
    to_act: int | None
    hand_sizes: tuple[int, ...]
    bank_size: int
    revealed: tuple[KnivesCard, ...]
    strong: KSuit | None
    calls: tuple[Call, ...]
    banker: int | None
    announcement: bool | None
    ghost_played_by: int | None
    mode: KMode | None
    trick_leader: int | None
    trick_seats: tuple[int, ...]
    trick_cards: tuple[KnivesCard, ...]
    tricks: tuple[Trick, ...]
    stars_taken: tuple[int, ...]
    totals: tuple[int, ...]


# Every card played, by seat: events are values, so one object serves every match.
def _card_played(seat: int, card: KnivesCard) -> Tagged:
    return public(CardPlayed(seat, card))


_CARD_PLAYED = tuple(PerCard(DECK, partial(_card_played, s)) for s in range(PLAYERS))


_observation = fast_constructor(Observation)  # one at every decision: see fast_constructor


# -- state ---------------------------------------------------------------------
@dataclass
class State:
    options: dict[str, OptionValue]
    rng: Rng
    dealer: int = 0
    hand_no: int = 0
    phase: Phase = Phase.DECLARE
    to_act: int | None = None
    hands: list[list[KnivesCard]] = field(default_factory=list)
    bank: list[KnivesCard] = field(default_factory=list)
    banked: list[KnivesCard] = field(default_factory=list)
    revealed: list[KnivesCard] = field(default_factory=list)
    discarded: list[KnivesCard] = field(default_factory=list)
    strong: KSuit | None = None
    calls: list[Call] = field(default_factory=list)
    banker: int | None = None
    shadow: int | None = None
    solo: bool = False
    announcement: bool | None = None
    ghost_played_by: int | None = None
    mode: KMode | None = None
    trick: TrickInProgress[KnivesCard] | None = None
    tricks: list[Trick] = field(default_factory=list)
    won: list[list[KnivesCard]] = field(default_factory=lambda: [[] for _ in range(PLAYERS)])
    stars_taken: list[int] = field(default_factory=lambda: [0] * PLAYERS)
    totals: list[int] = field(default_factory=lambda: [0] * PLAYERS)
    over: bool = False
    opening: list[Tagged] = field(default_factory=list)  # events of ``start``


def _suit(card: KnivesCard) -> KSuit:
    return card.suit


def band_points(team_stars: int, solo: bool, simplified_scoring: bool,
                simplified_rules: bool) -> tuple[int, int]:
    """(points for each of banker and shadow — or the solo banker —, points for each defender)."""
    if team_stars <= 12:
        return 0, 1
    if solo and simplified_rules:
        return 4, 0
    if simplified_scoring:
        each = 3 if team_stars == TOTAL_STARS else 2
    else:
        each = 3 if team_stars >= 21 else 2 if team_stars >= 17 else 1
    return (2 * each if solo else each), 0


class Knives(Game[State, Action, Observation]):
    name = "knives"
    title = "Knives"
    version = 1
    min_players = 5
    max_players = 5
    default_players = 5
    demo_options = {"target_score": 6}
    options = (
        Option("target_score", 15, "the match ends after a hand in which a total reaches this",
               minimum=1),
        Option("first_dealer", "random", "the first dealer: random or a seat",
               choices=("random",), minimum=0, maximum=4, pools=False),
        Option("simplified_scoring", False, "the text's simplified scoring table"),
        Option("simplified_rules", False,
               "Spades always strong, no Ghost or Thief powers, dealer must pick"),
        Option("max_hands", 200, "safety cap on the number of hands", minimum=1, pools=False),
    )
    action_types = ACTION_TYPES
    observation_type = Observation
    public_view_type = PublicView
    event_types = (HandStarted, CardsDealt, Declared, Picked, Passed, BankTaken, Banked,
                   Announced, ModeChosen, BankSeen, BankRevealed, CardPlayed, TrickTaken,
                   HandScored, MatchEnded)

    def check_options(self, players: int, options: Mapping[str, OptionValue]) -> None:
        first = options["first_dealer"]
        if isinstance(first, int) and not 0 <= first < players:
            raise OptionError(f"option 'first_dealer' must be random or a seat from 0 to "
                              f"{players - 1}; got {first}")

    # -- setup -------------------------------------------------------------------
    def start(self, players: int, rng: Rng, options: dict[str, OptionValue]) -> State:
        state = State(options=options, rng=rng)
        first = options["first_dealer"]
        state.dealer = rng.below(PLAYERS) if first == "random" else int(first)
        state.opening = self._start_hand(state)
        return state

    def opening_events(self, state: State) -> list[Tagged]:
        return list(state.opening)

    def _start_hand(self, state: State) -> list[Tagged]:
        dealer = state.dealer
        deck = list(DECK)
        state.rng.shuffle(deck)
        hands: list[list[KnivesCard]] = [[] for _ in range(PLAYERS)]
        for i in range(PLAYERS * TRICKS):
            hands[(dealer + 1 + i) % PLAYERS].append(deck[i])
        state.hands = [sorted(h) for h in hands]
        state.bank = sorted(deck[PLAYERS * TRICKS:])
        state.banked, state.revealed, state.discarded = [], [], []
        state.calls = []
        state.banker = state.shadow = None
        state.solo = False
        state.announcement = None
        state.ghost_played_by = None
        state.mode = None
        state.trick = None
        state.tricks = []
        state.won = [[] for _ in range(PLAYERS)]
        state.stars_taken = [0] * PLAYERS
        if state.options["simplified_rules"]:
            state.strong = KSuit.SPADES
            state.phase = Phase.CHOOSE
            state.to_act = (dealer + 1) % PLAYERS
        else:
            state.strong = None
            state.phase = Phase.DECLARE
            state.to_act = dealer
        events = [public(HandStarted(state.hand_no, dealer))]
        events += [private(CardsDealt(s, tuple(state.hands[s])), s) for s in range(PLAYERS)]
        return events

    # -- rules -------------------------------------------------------------------
    def to_act(self, state: State) -> int | None:
        return state.to_act

    def holds_ghost(self, state: State, seat: int) -> bool:
        assert state.strong is not None
        g = ghost(state.strong)
        return g in state.hands[seat] or (seat == state.banker and g in state.banked)

    def playable(self, state: State, seat: int) -> list[KnivesCard]:
        """Cards ``seat`` may play: the Joker always; the led suit if held; else anything."""
        hand = state.hands[seat]
        trick = state.trick
        assert trick is not None
        if not trick.cards or trick.cards[0].suit is KSuit.NONE:
            return list(hand)
        led = trick.cards[0].suit
        follow = [c for c in hand if c.suit is led or c.suit is KSuit.NONE]
        if any(c.suit is led for c in follow):
            return follow
        return list(hand)

    def legal_actions(self, state: State) -> Sequence[Action]:
        seat = state.to_act
        if seat is None:
            return ()
        phase = state.phase
        if phase is Phase.PLAY:
            return [_PLAYS(c) for c in self.playable(state, seat)]
        if phase is Phase.DECLARE:
            return list(_DECLARES)
        if phase is Phase.CHOOSE:
            if state.options["simplified_rules"]:
                return [_PICK] if seat == state.dealer else [_PICK, _PASS_NONE]
            return [_PICK, *(made for s, made in _PASSES if s is not state.strong)]
        if phase is Phase.BANK:
            return [_BANKS(a, b) for a, b in combinations(state.hands[seat], 2)]
        if phase is Phase.SOLO:
            acts: list[Action] = [_ANNOUNCE_SOLO] if self.holds_ghost(state, seat) else []
            return [*acts, _NO_ANNOUNCEMENT]
        if phase is Phase.MODE:
            return [_LEASTER, _MOSTER]
        if phase is Phase.REVEAL:
            b = state.bank
            return [_REVEAL_NONE, _REVEALS_ONE(b[0]), _REVEALS_ONE(b[1]),
                    _REVEALS_TWO(b[0], b[1])]
        return ()

    def is_legal(self, state: State, action: Action) -> bool:
        if isinstance(action, Play):  # without building an action per playable card
            seat = state.to_act
            assert seat is not None
            return state.phase is Phase.PLAY and action.card in self.playable(state, seat)
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
        n = PLAYERS
        if isinstance(action, Declare):
            state.strong = action.suit
            state.calls.append(Call(seat, CallKind.DECLARE, action.suit))
            state.phase = Phase.CHOOSE
            state.to_act = (state.dealer + 1) % n
            return [public(Declared(seat, action.suit))]
        if isinstance(action, Pick):
            assert state.strong is not None
            state.calls.append(Call(seat, CallKind.PICK, state.strong))
            state.banker = seat
            bank = tuple(state.bank)
            state.hands[seat] = sorted(state.hands[seat] + state.bank)
            state.bank = []
            state.phase = Phase.BANK
            return [public(Picked(seat, state.strong)),
                    all_but(BankTaken(seat, ()), n, seat), private(BankTaken(seat, bank), seat)]
        if isinstance(action, Pass):
            state.calls.append(Call(seat, CallKind.PASS, action.suit))
            if action.suit is not None:
                state.strong = action.suit
            events = [public(Passed(seat, action.suit))]
            if seat == state.dealer:
                state.phase = Phase.MODE
            else:
                state.to_act = (seat + 1) % n
            return events
        if isinstance(action, Bank):
            pair = (action.first, action.second)
            for card in pair:
                state.hands[seat].remove(card)
            state.banked = list(pair)
            if self.holds_ghost(state, seat):
                state.solo, state.shadow = True, None
            else:
                state.solo = False
                state.shadow = next(s for s in range(n) if self.holds_ghost(state, s))
            state.phase = Phase.SOLO
            return [all_but(Banked(seat, ()), n, seat), private(Banked(seat, pair), seat)]
        if isinstance(action, (AnnounceSolo, NoAnnouncement)):
            solo = isinstance(action, AnnounceSolo)
            state.announcement = solo
            state.mode = KMode.BANKER
            self._start_play(state, (seat + 1) % n)
            return [public(Announced(seat, solo))]
        if isinstance(action, (Leaster, Moster)):
            state.mode = KMode.LEASTER if isinstance(action, Leaster) else KMode.MOSTER
            state.phase = Phase.REVEAL
            bank = tuple(state.bank)
            return [public(ModeChosen(seat, state.mode)),
                    all_but(BankSeen(seat, ()), n, seat), private(BankSeen(seat, bank), seat)]
        assert isinstance(action, Reveal)
        state.revealed = list(action.cards)
        state.discarded = [c for c in state.bank if c not in action.cards]
        state.bank = []
        self._start_play(state, (seat + 1) % n)
        return [public(BankRevealed(seat, action.cards, len(state.discarded)))]

    def _start_play(self, state: State, leader: int) -> None:
        state.phase = Phase.PLAY
        state.trick = TrickInProgress(leader, PLAYERS)
        state.to_act = leader

    def _play(self, state: State, seat: int, card: KnivesCard) -> list[Tagged]:
        trick = state.trick
        assert trick is not None
        state.hands[seat].remove(card)
        trick.add(seat, card)
        if (state.mode is KMode.BANKER and card.rank is KRank.GHOST
                and card.suit is state.strong):  # the strong Ghost
            state.ghost_played_by = seat
        events = [_CARD_PLAYED[seat](card)]
        if not trick.complete:
            state.to_act = trick.next_seat
            return events
        cards = trick.cards
        win = trick.seats[self.winning_index(state, cards)]
        number = len(state.tricks)
        leader = win
        powers = not state.options["simplified_rules"]
        thieves = [i for i, c in enumerate(cards) if c.rank is KRank.THIEF]
        if powers and len(thieves) == 1 and number < TRICKS - 1:
            leader = trick.seats[thieves[0]]
        won = stars(cards)
        state.tricks.append(Trick(trick.leader, tuple(trick.seats), tuple(cards), win, leader))
        state.won[win].extend(cards)
        state.stars_taken[win] += won
        events.append(public(TrickTaken(number, win, tuple(cards), won, leader)))
        if len(state.tricks) == TRICKS:
            state.trick = None
            return events + self._end_hand(state)
        state.trick = TrickInProgress(leader, PLAYERS)
        state.to_act = leader
        return events

    def winning_index(self, state: State, cards: Sequence[KnivesCard]) -> int:
        """The winning card of a complete trick: Joker, Knives, strong suit, led suit (see "Play"
        in docs/games/knives.md)."""
        for i, card in enumerate(cards):
            if card.suit is KSuit.NONE:
                return i
        ghost_rule = not state.options["simplified_rules"]
        kings = {c.suit for c in cards if c.rank is KRank.KING} if ghost_rule else set()

        def power(card: KnivesCard) -> int:
            if card.rank is KRank.GHOST and card.suit in kings:
                return 15
            return int(card.rank)

        trumps = (KSuit.KNIVES, state.strong) if state.strong is not None else (KSuit.KNIVES,)
        return winner_index(cards, cards[0].suit, _suit, power, trumps)

    def _end_hand(self, state: State) -> list[Tagged]:
        n = PLAYERS
        points = [0] * n
        taken = tuple(state.stars_taken)
        assert state.mode is not None
        banker: int | None = None
        shadow: int | None = None
        solo, team_stars = False, 0
        banked: tuple[KnivesCard, ...] = ()
        if state.mode is KMode.BANKER:
            assert state.banker is not None
            banker, shadow, solo = state.banker, state.shadow, state.solo
            banked = tuple(state.banked)
            team = {banker} if shadow is None else {banker, shadow}
            team_stars = sum(taken[s] for s in team) + stars(banked)
            each, defender = band_points(team_stars, solo,
                                         bool(state.options["simplified_scoring"]),
                                         bool(state.options["simplified_rules"]))
            points = [each if s in team else defender for s in range(n)]
        else:
            best = min(taken) if state.mode is KMode.LEASTER else max(taken)
            points = [2 if t == best else 0 for t in taken]
        for s in range(n):
            state.totals[s] += points[s]
        events = [public(HandScored(state.hand_no, state.mode, banker, shadow, solo, banked,
                                    team_stars, taken, tuple(points), tuple(state.totals)))]
        state.hand_no += 1
        if (max(state.totals) >= int(state.options["target_score"])
                or state.hand_no >= int(state.options["max_hands"])):
            state.over = True
            state.phase = Phase.OVER
            state.to_act = None
            return [*events, public(MatchEnded(tuple(state.totals),
                                               competition_ranks(state.totals)))]
        state.dealer = (state.dealer + 1) % n
        return events + self._start_hand(state)

    # -- views ---------------------------------------------------------------------
    def observe(self, state: State, seat: int) -> Observation:
        trick = state.trick
        sees_bank = state.phase is Phase.REVEAL and seat == state.dealer
        return _observation(
            seat=seat,
            hand_index=state.hand_no if not state.over else state.hand_no - 1,
            dealer=state.dealer,
            phase=state.phase,
            to_act=state.to_act,
            hand=tuple(state.hands[seat]),
            hand_sizes=tuple(map(len, state.hands)),
            bank_size=len(state.bank),
            bank_seen=tuple(state.bank) if sees_bank else (
                tuple(state.discarded) if seat == state.dealer else ()),
            banked=tuple(state.banked) if seat == state.banker else (),
            revealed=tuple(state.revealed),
            strong=state.strong,
            calls=tuple(state.calls),
            banker=state.banker,
            announcement=state.announcement,
            is_shadow=state.shadow == seat,
            ghost_played_by=state.ghost_played_by,
            mode=state.mode,
            trick_leader=trick.leader if trick is not None else None,
            trick_seats=tuple(trick.seats) if trick is not None else (),
            trick_cards=tuple(trick.cards) if trick is not None else (),
            tricks=tuple(state.tricks),
            stars_taken=tuple(state.stars_taken),
            totals=tuple(state.totals),
        )

    def outcome(self, state: State) -> Outcome | None:
        if not state.over:
            return None
        return Outcome(scores=tuple(float(t) for t in state.totals),
                       ranks=competition_ranks(state.totals))

    def situations(self, events: Sequence[Any], players: int) -> list[Situation]:
        """Per scored hand and seat: its role (the banker, alone when it held the strong
        Ghost, the shadow or a defender; in leaster and moster hands, the mode) and whether
        it dealt, with the hand's points. ``HandScored`` names the teams to everyone."""
        return hand_situations(events, HandStarted, HandScored,
                               lambda hand, seat: [("role", _role(hand, seat))],
                               lambda hand: hand.points)

    # -- conformance helpers ----------------------------------------------------------
    def cards_in_play(self, state: State) -> list[Any]:
        cards = [c for h in state.hands for c in h]
        cards += state.bank + state.banked + state.revealed + state.discarded
        cards += [c for w in state.won for c in w]
        if state.trick is not None:
            cards += state.trick.cards
        return cards

    def clone(self, state: State) -> State:
        """A copy sharing nothing mutable with ``state`` (faster than a deep copy)."""
        other = copy.copy(state)
        other.rng = copy.deepcopy(state.rng)
        other.hands = [list(h) for h in state.hands]
        for name in ("bank", "banked", "revealed", "discarded", "calls", "tricks",
                     "stars_taken", "totals"):
            setattr(other, name, list(getattr(state, name)))
        other.won = [list(w) for w in state.won]
        if state.trick is not None:
            other.trick = TrickInProgress(state.trick.leader, PLAYERS, list(state.trick.seats),
                                          list(state.trick.cards))
        return other

    def redeal_hidden(self, state: State, seat: int, rng: random.Random) -> State:
        """Permute the other hands, the unseen bank, others' banked cards and unseen discards.

        A solo announcement tells everyone where the Ghost is: it then stays put.
        The shadow is recomputed from where the strong Ghost lands.
        """
        other = self.clone(state)
        if state.over:
            return other
        keep = None
        if state.announcement and state.strong is not None and state.ghost_played_by is None:
            keep = ghost(state.strong)
        places: list[list[KnivesCard]] = [other.hands[s] for s in range(PLAYERS) if s != seat]
        sees_bank = seat == state.banker or (seat == state.dealer and state.phase is Phase.REVEAL)
        if not sees_bank:
            places.append(other.bank)
        if seat != state.banker:
            places.append(other.banked)
        if seat != state.dealer:
            places.append(other.discarded)
        pool = [c for place in places for c in place if c != keep]
        rng.shuffle(pool)
        for place in places:
            count = sum(1 for c in place if c != keep)
            kept = [c for c in place if c == keep]
            place[:] = sorted(kept + pool[:count])
            pool = pool[count:]
        if state.banker is not None and state.strong is not None and state.phase is not Phase.BANK:
            holders = [s for s in range(PLAYERS) if s != state.banker
                       and ghost(state.strong) in other.hands[s]]
            if state.ghost_played_by is None:
                other.solo = not holders
                other.shadow = holders[0] if holders else None
        return other


GAME = Knives()
