"""Kill — 3 or 4 players — see docs/games/kill.md.

Everyone holds four cards and tries to hold 10, J, Q, K of one colour (Jokers
wild). A round ends with a true win (shown at the start of a turn, +10), a
claimed win (after a draw, +5), a kill (accusing a seat of hiding a winning
hand, +11; a failed kill costs 4 and the seat leaves), or a survivor's win (+6)
when every other seat has folded (+1), shown a trio (+3), claimed a trio (+2)
or failed a kill. Totals add up over rounds until one reaches the target.

Readings of the rules worth knowing (beyond the rulings R1-R19 of docs/games/kill.md):

* **Deck order.** A round's shuffled 42/45 cards are read from the front: the
  first card goes to the starter, the next to the seat after it, and so on; the
  next card is the top of the deck. A used-pile reshuffle is read the same way.
  Seat suits are fixed by seat (R3); only the hidden cards follow the starter, so
  a duplicate deal with rotated bots gives each bot the same hidden card only
  together with the seat's suit.
* **Which Joker.** The rules' information table shows everyone that a claim succeeded ("t had
  a Joker") and nobody whether t had two. So only the claimer and the giver learn
  which Joker changed hands: :class:`JokerClaimed` names it in their copies, the
  others' copy says ``joker=None`` (like the giver's secret refill). A seat holding
  one Joker gives that one. A seat holding both gives one that the claimer knows it
  holds (say, one it took from the table in plain sight), else the one more of the
  other seats know it holds: a seat that knew of ``X1`` only and saw ``X2`` arrive
  (the claimer at once, anyone else once the claimer's hand is shown) would learn
  that t had both. Knowing is what :class:`Tracker` knows from the seat's events;
  without the option ``two_card_gift_public: false`` every seat but t knows the
  same of t's hand, so this is "the Joker everybody saw t take". When that decides
  nothing, the seeded generator does (``below(2)``: 0 gives ``X1``, 1 ``X2``). The
  number is drawn on *every* successful claim, whether or not the seat holds two,
  so the generator's use depends only on public facts. This is the one draw
  besides the shuffles (a round's deal and the used-pile reshuffles).
* **Immunity** (R13) is cleared when the immune seat's next turn starts; a
  failed Joker claim grants none.
* **Turn accounting.** Every turn that ends (including a fold, a trio, a failed
  kill, a failed Joker claim or a false true-win claim) counts towards
  ``max_turns_per_round`` and marks the seat as having had a turn. A turn that
  ends the round is not announced by :class:`TurnEnded`.
* **Survivor** (R14) is checked whenever a seat leaves the round, before the turn
  passes on; the survivor's +6 is its one scoring event of the round.
* **Gift during the two-card method.** The received card is kept apart from the
  recipient's four previous cards until it discards one of those (R8):
  ``Discard(i)`` indexes the four previous cards, the observation shows the gift
  in ``gift``.
* **False true-win claims** (option ``allow_false_claims``, R11): the hand is
  revealed (:class:`FalseWinShown`), the seat scores nothing and the turn ends.
* **Knowledge.** The state keeps the current round's tagged events; the
  re-deal used by the hidden-information test replays the events a seat saw
  (:class:`Tracker`) to learn which hidden cards it knows the place of (a card
  taken from the table, a revealed hand until that seat discards unseen, its own
  discards in the used pile, ...) and moves only the others. Bots may use the
  same :class:`Tracker`.
* The first round's :class:`RoundStarted` and :class:`Dealt` events are produced
  by ``start`` and returned by ``opening_events``; the observation also holds
  everything they say to a seat (its hand, the seat suits).
"""

from __future__ import annotations

import copy
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from enum import IntEnum
from itertools import combinations
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
from arena.games.cards import Card, Rank, Suit, standard_deck

SEAT_SUITS = (Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS, Suit.SPADES)
FIXED_RANKS = (Rank.ACE, Rank.TWO, Rank.THREE)
HIGH_RANKS = (Rank.TEN, Rank.JACK, Rank.QUEEN, Rank.KING)
TOTAL_CARDS = 54

KILL_POINTS = 11
TRUE_WIN_POINTS = 10
SURVIVOR_POINTS = 6
CLAIMED_WIN_POINTS = 5
TRUE_TRIO_POINTS = 3
CLAIMED_TRIO_POINTS = 2
FAILED_KILL_POINTS = -4
FOLD_POINTS = 1

# Places of hidden cards in a :class:`Tracker` besides a seat's hand (the seat number).
DECK = -1
USED = -2
GIFT = -3


# -- enums ---------------------------------------------------------------------
class Status(IntEnum):
    ACTIVE = 1
    FOLDED = 2
    TRIO = 3
    KILL_FAILED = 4


class Phase(IntEnum):
    TURN_START = 1
    DRAWN = 2
    GIFT_DISCARD = 3
    POST_MOVE = 4
    JOKER_DISCARD = 5
    MATCH_OVER = 6


class LeaveReason(IntEnum):
    FOLD = 1
    TRUE_TRIO = 2
    CLAIMED_TRIO = 3
    KILL_FAILED = 4


class WinReason(IntEnum):
    KILL = 1
    TRUE_WIN = 2
    SURVIVOR = 3
    CLAIMED_WIN = 4


class RoundEnd(IntEnum):
    WON = 1
    TURN_CAP = 2


# -- actions -------------------------------------------------------------------
@dataclass(frozen=True)
class Draw:
    """Turn the top deck card face up on the table."""


@dataclass(frozen=True)
class ShowTrueWin:
    """Show a winning hand at the start of a turn (+10, the round ends)."""


@dataclass(frozen=True)
class Kill:
    """Accuse ``target`` of holding a winning hand: +11 if so, else -4 and leave."""

    target: int


@dataclass(frozen=True)
class ClaimJoker:
    """Reveal your hand and ask ``target`` for a Joker."""

    target: int


@dataclass(frozen=True)
class ShowTrio:
    """Show a trio at the start of a turn (+3) and leave the round."""


@dataclass(frozen=True)
class Fold:
    """Reveal your hand and leave the round (+1)."""


@dataclass(frozen=True)
class Reject:
    """Put the drawn card on the used pile."""


@dataclass(frozen=True)
class Swap:
    """Take the drawn card in place of ``hand[hand_index]``, which goes to the used pile unseen."""

    hand_index: int


@dataclass(frozen=True)
class Two:
    """Two-card method: show ``hand[give_index]`` and ``hand[keep_index]`` (their values
    sum to the drawn card's), give the first to ``recipient``, take the drawn card."""

    give_index: int
    keep_index: int
    recipient: int


@dataclass(frozen=True)
class Discard:
    """Discard ``hand[hand_index]`` unseen (after a gift: one of the four previous cards)."""

    hand_index: int


@dataclass(frozen=True)
class ClaimWin:
    """Claim a winning hand after a draw (+5, the round ends)."""


@dataclass(frozen=True)
class ClaimTrio:
    """Claim a trio after a draw (+2) and leave the round."""


@dataclass(frozen=True)
class EndTurn:
    """End the turn after a draw."""


Action = (Draw | ShowTrueWin | Kill | ClaimJoker | ShowTrio | Fold | Reject | Swap | Two
          | Discard | ClaimWin | ClaimTrio | EndTurn)
ACTION_TYPES: tuple[type, ...] = (Draw, ShowTrueWin, Kill, ClaimJoker, ShowTrio, Fold, Reject,
                                  Swap, Two, Discard, ClaimWin, ClaimTrio, EndTurn)


# -- events --------------------------------------------------------------------
@dataclass(frozen=True)
class RoundStarted:
    """A round starts; ``fixed`` are every seat's face-up A, 2, 3."""

    round_index: int
    starter: int
    fixed: tuple[tuple[Card, ...], ...]
    deck_size: int


@dataclass(frozen=True)
class Dealt:
    """``seat`` received its hidden card (``card`` only in the seat's own copy)."""

    seat: int
    card: Card | None


@dataclass(frozen=True)
class UsedPileShuffled:
    """The deck ran out: the used pile (``cards`` of them) was shuffled into a new deck."""

    cards: int


@dataclass(frozen=True)
class Drew:
    seat: int
    card: Card


@dataclass(frozen=True)
class Rejected:
    seat: int
    card: Card


@dataclass(frozen=True)
class Swapped:
    """``seat`` took the drawn card; ``discarded`` only in the seat's own copy."""

    seat: int
    taken: Card
    discarded: Card | None


@dataclass(frozen=True)
class TwoCardExchange:
    """``seat`` showed ``shown`` (sorted), took ``taken`` and gave one shown card to
    ``recipient``; ``given`` names it where the seat may know it."""

    seat: int
    recipient: int
    taken: Card
    shown: tuple[Card, ...]
    given: Card | None


@dataclass(frozen=True)
class GiftDiscarded:
    """The gift recipient discarded one of its previous cards (``card`` only in its own copy)."""

    seat: int
    card: Card | None


@dataclass(frozen=True)
class JokerClaimed:
    """``seat`` revealed ``hand`` and asked ``target`` for a Joker; on success ``joker``
    passed, named only in the copies of ``seat`` and ``target`` (``None`` for the others)."""

    seat: int
    target: int
    hand: tuple[Card, ...]
    success: bool
    joker: Card | None


@dataclass(frozen=True)
class JokerRefill:
    """The Joker giver drew a card from the deck (``card`` only in its own copy)."""

    seat: int
    card: Card | None


@dataclass(frozen=True)
class JokerDiscarded:
    """The Joker claimer discarded one of its five cards (``card`` only in its own copy)."""

    seat: int
    card: Card | None


@dataclass(frozen=True)
class KillAttempt:
    seat: int
    target: int
    target_hand: tuple[Card, ...]
    success: bool


@dataclass(frozen=True)
class FalseWinShown:
    """``seat`` claimed a true win without one (option ``allow_false_claims``)."""

    seat: int
    hand: tuple[Card, ...]


@dataclass(frozen=True)
class LeftRound:
    """``seat`` left the round, its hand face up, scoring ``points``."""

    seat: int
    reason: LeaveReason
    hand: tuple[Card, ...]
    points: int


@dataclass(frozen=True)
class RoundWon:
    """``seat`` won the round; ``hand`` is shown for true and claimed wins only."""

    seat: int
    reason: WinReason
    hand: tuple[Card, ...]
    points: int


@dataclass(frozen=True)
class TurnEnded:
    seat: int
    turns_completed: int


@dataclass(frozen=True)
class RoundEnded:
    """``hands`` holds every seat's hand only with ``reveal_hands_at_round_end``."""

    round_index: int
    reason: RoundEnd
    round_points: tuple[int, ...]
    totals: tuple[int, ...]
    hands: tuple[tuple[Card, ...], ...]


@dataclass(frozen=True)
class MatchEnded:
    totals: tuple[int, ...]
    ranks: tuple[int, ...]


Event = (RoundStarted | Dealt | UsedPileShuffled | Drew | Rejected | Swapped | TwoCardExchange
         | GiftDiscarded | JokerClaimed | JokerRefill | JokerDiscarded | KillAttempt
         | FalseWinShown | LeftRound | RoundWon | TurnEnded | RoundEnded | MatchEnded)
EVENT_TYPES: tuple[type, ...] = (RoundStarted, Dealt, UsedPileShuffled, Drew, Rejected, Swapped,
                                 TwoCardExchange, GiftDiscarded, JokerClaimed, JokerRefill,
                                 JokerDiscarded, KillAttempt, FalseWinShown, LeftRound, RoundWon,
                                 TurnEnded, RoundEnded, MatchEnded)


SECRETS: dict[type, tuple[str, str | None]] = {
    Dealt: ("card", None), Swapped: ("discarded", None), GiftDiscarded: ("card", None),
    JokerDiscarded: ("card", None), JokerRefill: ("card", None),
    TwoCardExchange: ("given", "recipient"), JokerClaimed: ("joker", "target"),
}
"""The events that name a card only some seats see: the field naming it, and the field naming
the seat that sees it beside the event's ``seat`` (None: its seat alone)."""


def told(event: Any, players: int, gift_public: bool = True) -> list[Tagged]:
    """``event`` (as a seat that saw its secret saw it) tagged as the engine tells it: in full
    to the seats its secret is shown to (:data:`SECRETS`), without it (None) to the others;
    an event with no secret, or whose secret this seat did not see, to every seat.
    ``gift_public``: the option ``two_card_gift_public``, which makes the card given in a
    two-card exchange public. tests/games/test_kill.py checks this against the engine."""
    secret = SECRETS.get(type(event))
    if secret is None or (gift_public and isinstance(event, TwoCardExchange)):
        return [public(event)]
    name, other = secret
    if getattr(event, name) is None:
        return [public(event)]
    seats = (event.seat,) if other is None else (event.seat, getattr(event, other))
    return [all_but(replace(event, **{name: None}), players, *seats), private(event, *seats)]


# -- observation ---------------------------------------------------------------
@dataclass(frozen=True)
class Observation:
    """Everything one seat may know now (the events it saw add the history)."""

    seat: int
    players: int
    round_index: int
    starter: int
    phase: Phase
    to_act: int | None
    hand: tuple[Card, ...]
    gift: Card | None
    drawn: Card | None
    statuses: tuple[Status, ...]
    hand_sizes: tuple[int, ...]
    immune: tuple[bool, ...]
    had_turn: tuple[bool, ...]
    round_points: tuple[int, ...]
    totals: tuple[int, ...]
    seat_suits: tuple[Suit, ...]
    face_up: tuple[tuple[Card, ...], ...]
    deck_size: int
    used_size: int
    turns_completed: int
    previous_rounds: tuple[tuple[int, ...], ...]


@dataclass(frozen=True)
class PublicView:
    """Everything every seat may know (a spectator's view): the hands of the seats out of
    the round, the card drawn, the cards of active hands known to all (``shown``); no other
    card of an active hand and no gift."""

    players: int
    round_index: int
    starter: int
    phase: Phase
    to_act: int | None
    drawn: Card | None
    statuses: tuple[Status, ...]
    hand_sizes: tuple[int, ...]
    immune: tuple[bool, ...]
    had_turn: tuple[bool, ...]
    round_points: tuple[int, ...]
    totals: tuple[int, ...]
    seat_suits: tuple[Suit, ...]
    face_up: tuple[tuple[Card, ...], ...]
    deck_size: int
    used_size: int
    turns_completed: int
    previous_rounds: tuple[tuple[int, ...], ...]
    # Per seat still in the round: the cards of its hand that every other seat has seen and
    # knows it holds (its face-up A, 2, 3 until it discards unseen, a hand shown by a kill or
    # a Joker claim); the rest of its hand is hidden. A seat out of the round: () (face_up).
    shown: tuple[tuple[Card, ...], ...] = ()


# -- hand predicates -------------------------------------------------------------
def is_consistent(cards: Iterable[Card]) -> bool:
    """All high, distinct ranks among the non-Jokers, one colour among the non-Jokers."""
    ranks: set[Rank] = set()
    red: bool | None = None
    for c in cards:
        if c.rank is Rank.JOKER:
            continue
        if c.rank < Rank.TEN or c.rank in ranks:
            return False
        ranks.add(c.rank)
        if red is None:
            red = c.is_red
        elif red != c.is_red:
            return False
    return True


def is_winning(hand: Sequence[Card]) -> bool:
    return len(hand) == 4 and is_consistent(hand)


def is_trio(hand: Sequence[Card]) -> bool:
    if len(hand) != 4 or is_consistent(hand):
        return False
    return any(is_consistent(three) for three in combinations(hand, 3))


def can_swap(drawn: Card, card: Card) -> bool:
    if drawn.rank is Rank.JOKER or card.rank is Rank.JOKER:
        return True
    return drawn.suit is card.suit or abs(int(drawn.rank) - int(card.rank)) <= 1


def can_two(drawn: Card, x: Card, y: Card) -> bool:
    """Some values 1..13 for the Jokers among the three make value(x) + value(y) = value(drawn)."""
    fixed = 0
    wild = 0
    for c in (x, y):
        if c.rank is Rank.JOKER:
            wild += 1
        else:
            fixed += int(c.rank)
    lo_sum, hi_sum = fixed + wild, fixed + 13 * wild
    lo_d, hi_d = (1, 13) if drawn.rank is Rank.JOKER else (int(drawn.rank), int(drawn.rank))
    return max(lo_sum, lo_d) <= min(hi_sum, hi_d)


def fixed_cards(players: int) -> tuple[tuple[Card, ...], ...]:
    """Every seat's face-up starting A, 2, 3."""
    return tuple(tuple(Card(r, SEAT_SUITS[s]) for r in FIXED_RANKS) for s in range(players))


# -- state ---------------------------------------------------------------------
@dataclass
class State:
    players: int
    options: dict[str, OptionValue]
    rng: Rng
    round_index: int = 0
    starter: int = 0
    totals: list[int] = field(default_factory=list)
    deck: list[Card] = field(default_factory=list)  # the top card is the last
    used: list[Card] = field(default_factory=list)
    hands: list[list[Card]] = field(default_factory=list)  # sorted
    status: list[Status] = field(default_factory=list)
    had_turn: list[bool] = field(default_factory=list)
    immune: list[bool] = field(default_factory=list)
    round_points: list[int] = field(default_factory=list)
    scored: list[bool] = field(default_factory=list)
    to_act: int | None = None
    turn_seat: int = 0  # the seat whose turn it is (the gift recipient acts inside it)
    phase: Phase = Phase.TURN_START
    drawn: Card | None = None
    gift_recipient: int | None = None
    gift_card: Card | None = None
    turns_completed: int = 0
    previous_rounds: list[tuple[int, ...]] = field(default_factory=list)
    round_log: list[Tagged] = field(default_factory=list)
    opening: list[Tagged] = field(default_factory=list)
    over: bool = False
    # what each seat has learnt from the round's log, brought up to date when asked (knowledge())
    knowledge: Knowledge | None = field(default=None, repr=False, compare=False)


@dataclass
class Knowledge:
    """What each seat has learnt from the events of ``log`` (a round's log) it saw, as far as
    its first ``fed``: its :class:`Tracker`, and the cards it has seen named in an event."""

    log: list[Tagged]
    trackers: list[Tracker]
    named: list[set[Card]]
    fed: int = 0


class KillGame(Game[State, Action, Observation]):
    name = "kill"
    title = "Kill"
    version = 1
    min_players = 3
    max_players = 4
    default_players = 4
    demo_options = {"target_score": 11}
    options = (
        Option("target_score", 31, "the match ends after the round in which a total reaches this",
               minimum=1),
        Option("rounds", "none", "play exactly this many rounds instead (target ignored)",
               choices=("none",), minimum=1),
        Option("two_card_gift_public", True,
               "whether everyone learns which of the two shown cards was given"),
        Option("allow_false_claims", False,
               "offer show_true_win without a winning hand (reveals the hand, costs the turn)"),
        Option("reveal_hands_at_round_end", False, "show all hands in the round-end event"),
        Option("max_turns_per_round", 300, "safety cap: a round ends without winner after "
               "this many turns", minimum=50, pools=False),
        Option("max_rounds", 200, "safety cap on the rounds of a target-score match", minimum=1, pools=False),
    )
    action_types = ACTION_TYPES
    observation_type = Observation
    public_view_type = PublicView
    event_types = EVENT_TYPES
    # A claim shows the claimer's hand and whether the target holds a Joker. The claim
    # is shown to the claimer and the target in their own form, so the generic check
    # would not see the revealed hand as public; tests/games/test_kill.py checks these
    # steps with the target's Joker count toggled instead.
    revealing_events = (JokerClaimed,)

    def check_options(self, players: int, options: Mapping[str, OptionValue]) -> None:
        for name in ("target_score", "max_turns_per_round", "max_rounds"):
            if isinstance(options[name], bool) or not isinstance(options[name], int):
                raise OptionError(f"option {name!r} must be a whole number")

    # -- setup ----------------------------------------------------------------
    def start(self, players: int, rng: Rng, options: dict[str, OptionValue]) -> State:
        state = State(players=players, options=options, rng=rng, totals=[0] * players)
        events: list[Tagged] = []
        self._start_round(state, events)
        state.round_log = list(events)
        state.opening = list(events)
        return state

    def opening_events(self, state: State) -> list[Tagged]:
        return list(state.opening)

    def _start_round(self, state: State, events: list[Tagged]) -> None:
        n = state.players
        if state.round_index > 0:
            state.starter = (state.starter - 1) % n
        fixed = fixed_cards(n)
        fixed_set = {c for hand in fixed for c in hand}
        pool = [c for c in standard_deck(1, jokers=2) if c not in fixed_set]
        state.rng.shuffle(pool)
        pool.reverse()  # the front of the shuffled order is the top (the end of the list)
        state.deck = pool
        state.used = []
        state.hands = [list(h) for h in fixed]
        state.status = [Status.ACTIVE] * n
        state.had_turn = [False] * n
        state.immune = [False] * n
        state.round_points = [0] * n
        state.scored = [False] * n
        state.drawn = None
        state.gift_recipient = None
        state.gift_card = None
        state.turns_completed = 0
        events.append(public(RoundStarted(state.round_index, state.starter, fixed, len(pool) - n)))
        for k in range(n):
            seat = (state.starter + k) % n
            card = state.deck.pop()
            state.hands[seat].append(card)
            state.hands[seat].sort()
            events.append(all_but(Dealt(seat, None), n, seat))
            events.append(private(Dealt(seat, card), seat))
        self._begin_turn(state, state.starter)

    def _begin_turn(self, state: State, seat: int) -> None:
        state.turn_seat = seat
        state.to_act = seat
        state.phase = Phase.TURN_START
        state.immune[seat] = False
        state.drawn = None

    # -- queries --------------------------------------------------------------
    def to_act(self, state: State) -> int | None:
        return state.to_act

    def legal_actions(self, state: State) -> Sequence[Action]:
        p = state.to_act
        if p is None:
            return ()
        phase = state.phase
        hand = state.hands[p]
        actions: list[Action] = []
        if phase is Phase.TURN_START:
            actions.append(Draw())
            if not state.had_turn[p]:
                return actions
            if is_winning(hand) or state.options["allow_false_claims"]:
                actions.append(ShowTrueWin())
            others = [t for t in self._seats_after(state, p) if t != p]
            actions.extend(Kill(t) for t in others if not state.immune[t])
            actions.extend(ClaimJoker(t) for t in others)
            if is_trio(hand):
                actions.append(ShowTrio())
            actions.append(Fold())
        elif phase is Phase.DRAWN:
            drawn = state.drawn
            assert drawn is not None
            actions.append(Reject())
            actions.extend(Swap(i) for i, c in enumerate(hand) if can_swap(drawn, c))
            recipients = [r for r in self._seats_after(state, p) if r != p]
            for g, give in enumerate(hand):
                for k, keep in enumerate(hand):
                    if g != k and can_two(drawn, give, keep):
                        actions.extend(Two(g, k, r) for r in recipients)
        elif phase is Phase.GIFT_DISCARD or phase is Phase.JOKER_DISCARD:
            actions.extend(Discard(i) for i in range(len(hand)))
        elif phase is Phase.POST_MOVE:
            if is_winning(hand):
                actions.append(ClaimWin())
            if is_trio(hand):
                actions.append(ClaimTrio())
            actions.append(EndTurn())
        return actions

    def _seats_after(self, state: State, seat: int) -> list[int]:
        """Active seats clockwise after ``seat`` (``seat`` itself last, if active)."""
        n = state.players
        return [s for s in ((seat + i) % n for i in range(1, n + 1))
                if state.status[s] is Status.ACTIVE]

    # -- step -----------------------------------------------------------------
    def why_illegal(self, state: State, action: Action) -> str:
        return f"phase {state.phase.name}"

    def step(self, state: State, action: Action) -> list[Tagged]:
        events: list[Tagged] = []
        p = state.to_act
        assert p is not None
        if isinstance(action, Draw):
            self._draw(state, p, events)
        elif isinstance(action, ShowTrueWin):
            self._show_true_win(state, p, events)
        elif isinstance(action, Kill):
            self._kill(state, p, action.target, events)
        elif isinstance(action, ClaimJoker):
            self._claim_joker(state, p, action.target, events)
        elif isinstance(action, ShowTrio):
            self._leave(state, p, LeaveReason.TRUE_TRIO, TRUE_TRIO_POINTS, events)
        elif isinstance(action, Fold):
            self._leave(state, p, LeaveReason.FOLD, FOLD_POINTS, events)
        elif isinstance(action, Reject):
            self._reject(state, p, events)
        elif isinstance(action, Swap):
            self._swap(state, p, action.hand_index, events)
        elif isinstance(action, Two):
            self._two(state, p, action, events)
        elif isinstance(action, Discard):
            self._discard(state, p, action.hand_index, events)
        elif isinstance(action, ClaimWin):
            self._win(state, p, WinReason.CLAIMED_WIN, CLAIMED_WIN_POINTS, events)
        elif isinstance(action, ClaimTrio):
            self._leave(state, p, LeaveReason.CLAIMED_TRIO, CLAIMED_TRIO_POINTS, events)
        else:
            self._end_turn(state, p, events)
        for tagged in events:
            if isinstance(tagged.event, RoundStarted):
                state.round_log = []
            state.round_log.append(tagged)
        return events

    def _take_from_deck(self, state: State, events: list[Tagged]) -> Card:
        if not state.deck:
            state.deck = state.used
            state.used = []
            state.rng.shuffle(state.deck)
            state.deck.reverse()
            events.append(public(UsedPileShuffled(len(state.deck))))
        return state.deck.pop()

    def _draw(self, state: State, p: int, events: list[Tagged]) -> None:
        card = self._take_from_deck(state, events)
        state.drawn = card
        state.phase = Phase.DRAWN
        events.append(public(Drew(p, card)))

    def _reject(self, state: State, p: int, events: list[Tagged]) -> None:
        card = state.drawn
        assert card is not None
        state.used.append(card)
        state.drawn = None
        state.phase = Phase.POST_MOVE
        events.append(public(Rejected(p, card)))

    def _swap(self, state: State, p: int, index: int, events: list[Tagged]) -> None:
        card = state.drawn
        assert card is not None
        hand = state.hands[p]
        old = hand[index]
        hand[index] = card
        hand.sort()
        state.used.append(old)
        state.drawn = None
        state.phase = Phase.POST_MOVE
        events.append(all_but(Swapped(p, card, None), state.players, p))
        events.append(private(Swapped(p, card, old), p))

    def _two(self, state: State, p: int, action: Two, events: list[Tagged]) -> None:
        card = state.drawn
        assert card is not None
        hand = state.hands[p]
        give, keep = hand[action.give_index], hand[action.keep_index]
        hand[action.give_index] = card
        hand.sort()
        r = action.recipient
        state.drawn = None
        state.gift_recipient = r
        state.gift_card = give
        state.phase = Phase.GIFT_DISCARD
        state.to_act = r
        shown = tuple(sorted((give, keep)))
        if state.options["two_card_gift_public"]:
            events.append(public(TwoCardExchange(p, r, card, shown, give)))
        else:
            events.append(all_but(TwoCardExchange(p, r, card, shown, None), state.players, p, r))
            events.append(private(TwoCardExchange(p, r, card, shown, give), p, r))

    def _discard(self, state: State, seat: int, index: int, events: list[Tagged]) -> None:
        hand = state.hands[seat]
        card = hand.pop(index)
        state.used.append(card)
        n = state.players
        if state.phase is Phase.GIFT_DISCARD:
            gift = state.gift_card
            assert gift is not None
            hand.append(gift)
            hand.sort()
            state.gift_card = None
            state.gift_recipient = None
            state.phase = Phase.POST_MOVE
            state.to_act = state.turn_seat
            events.append(all_but(GiftDiscarded(seat, None), n, seat))
            events.append(private(GiftDiscarded(seat, card), seat))
            return
        state.immune[seat] = True
        events.append(all_but(JokerDiscarded(seat, None), n, seat))
        events.append(private(JokerDiscarded(seat, card), seat))
        self._end_turn(state, seat, events)

    def _claim_joker(self, state: State, p: int, t: int, events: list[Tagged]) -> None:
        hand = tuple(state.hands[p])
        target = state.hands[t]
        jokers = [c for c in target if c.rank is Rank.JOKER]
        if not jokers:
            events.append(public(JokerClaimed(p, t, hand, False, None)))
            self._end_turn(state, p, events)
            return
        # A coin on every successful claim (a public fact), used only when t holds both.
        coin = state.rng.below(2)
        joker = jokers[0] if len(jokers) == 1 else self._joker_to_pass(state, p, t, coin)
        # Which Joker passed is seen by the claimer and the giver only (the rules' information table).
        events.append(all_but(JokerClaimed(p, t, hand, True, None), state.players, p, t))
        events.append(private(JokerClaimed(p, t, hand, True, joker), p, t))
        target.remove(joker)
        state.hands[p].append(joker)
        state.hands[p].sort()
        refill = self._take_from_deck(state, events)
        target.append(refill)
        target.sort()
        events.append(all_but(JokerRefill(t, None), state.players, t))
        events.append(private(JokerRefill(t, refill), t))
        state.phase = Phase.JOKER_DISCARD

    def _joker_to_pass(self, state: State, p: int, t: int, coin: int) -> Card:
        """Which of the two Jokers ``t`` holds goes to the claimer ``p``.

        The one the claimer knows ``t`` holds, else the one more other seats know it
        holds, so that seeing it arrive tells nobody that ``t`` had two (the rules' information table);
        ``coin`` decides when that does not. Knowledge is each seat's :class:`Tracker`
        over the events of the round it saw (:func:`knowledge`).
        """
        jokers = sorted(c for c in state.hands[t] if c.rank is Rank.JOKER)
        knowers: dict[Card, set[int]] = {j: set() for j in jokers}
        for s, tracker in enumerate(knowledge(state).trackers):
            if s == t:
                continue
            for j in jokers:
                if tracker.known.get(j) == t:
                    knowers[j].add(s)

        def preference(joker: Card) -> tuple[bool, int]:
            return p in knowers[joker], len(knowers[joker])

        first, second = jokers
        if preference(first) == preference(second):
            return jokers[coin]
        return max(jokers, key=preference)

    def _show_true_win(self, state: State, p: int, events: list[Tagged]) -> None:
        if is_winning(state.hands[p]):
            self._win(state, p, WinReason.TRUE_WIN, TRUE_WIN_POINTS, events)
            return
        events.append(public(FalseWinShown(p, tuple(state.hands[p]))))
        self._end_turn(state, p, events)

    def _kill(self, state: State, p: int, t: int, events: list[Tagged]) -> None:
        target_hand = tuple(state.hands[t])
        success = is_winning(target_hand)
        events.append(public(KillAttempt(p, t, target_hand, success)))
        if success:
            self._win(state, p, WinReason.KILL, KILL_POINTS, events)
        else:
            self._leave(state, p, LeaveReason.KILL_FAILED, FAILED_KILL_POINTS, events)

    def _score(self, state: State, seat: int, points: int) -> None:
        assert not state.scored[seat], "a seat scores at most one event per round"
        state.scored[seat] = True
        state.round_points[seat] = points
        state.totals[seat] += points

    def _leave(self, state: State, p: int, reason: LeaveReason, points: int,
               events: list[Tagged]) -> None:
        state.status[p] = {LeaveReason.FOLD: Status.FOLDED,
                           LeaveReason.TRUE_TRIO: Status.TRIO,
                           LeaveReason.CLAIMED_TRIO: Status.TRIO,
                           LeaveReason.KILL_FAILED: Status.KILL_FAILED}[reason]
        state.immune[p] = False
        self._score(state, p, points)
        events.append(public(LeftRound(p, reason, tuple(state.hands[p]), points)))
        active = [s for s in range(state.players) if state.status[s] is Status.ACTIVE]
        if len(active) == 1:
            self._win(state, active[0], WinReason.SURVIVOR, SURVIVOR_POINTS, events)
            return
        self._end_turn(state, p, events)

    def _win(self, state: State, seat: int, reason: WinReason, points: int,
             events: list[Tagged]) -> None:
        self._score(state, seat, points)
        shown = reason in (WinReason.TRUE_WIN, WinReason.CLAIMED_WIN)
        hand = tuple(state.hands[seat]) if shown else ()
        events.append(public(RoundWon(seat, reason, hand, points)))
        self._end_round(state, RoundEnd.WON, events)

    def _end_turn(self, state: State, p: int, events: list[Tagged]) -> None:
        state.had_turn[p] = True
        state.turns_completed += 1
        if state.turns_completed >= int(state.options["max_turns_per_round"]):
            self._end_round(state, RoundEnd.TURN_CAP, events)
            return
        events.append(public(TurnEnded(p, state.turns_completed)))
        self._begin_turn(state, self._seats_after(state, p)[0])

    def _end_round(self, state: State, reason: RoundEnd, events: list[Tagged]) -> None:
        hands: tuple[tuple[Card, ...], ...] = ()
        if state.options["reveal_hands_at_round_end"]:
            hands = tuple(tuple(h) for h in state.hands)
        points = tuple(state.round_points)
        events.append(public(RoundEnded(state.round_index, reason, points, tuple(state.totals),
                                        hands)))
        state.previous_rounds.append(points)
        state.round_index += 1
        state.drawn = None
        rounds = state.options["rounds"]
        if isinstance(rounds, int) and not isinstance(rounds, bool):
            done = state.round_index >= rounds
        else:
            done = (max(state.totals) >= int(state.options["target_score"])
                    or state.round_index >= int(state.options["max_rounds"]))
        if not done:
            self._start_round(state, events)
            return
        state.over = True
        state.to_act = None
        state.phase = Phase.MATCH_OVER
        events.append(public(MatchEnded(tuple(state.totals), competition_ranks(state.totals))))

    # -- observation ----------------------------------------------------------
    def observe(self, state: State, seat: int) -> Observation:
        n = state.players
        gift = state.gift_card if state.gift_recipient == seat else None
        sizes = tuple(len(h) + (1 if state.gift_recipient == s else 0)
                      for s, h in enumerate(state.hands))
        face_up = tuple(tuple(h) if state.status[s] is not Status.ACTIVE else ()
                        for s, h in enumerate(state.hands))
        return Observation(
            seat=seat,
            players=n,
            round_index=state.round_index,
            starter=state.starter,
            phase=state.phase,
            to_act=state.to_act,
            hand=tuple(state.hands[seat]),
            gift=gift,
            drawn=state.drawn,
            statuses=tuple(state.status),
            hand_sizes=sizes,
            immune=tuple(state.immune),
            had_turn=tuple(state.had_turn),
            round_points=tuple(state.round_points),
            totals=tuple(state.totals),
            seat_suits=SEAT_SUITS[:n],
            face_up=face_up,
            deck_size=len(state.deck),
            used_size=len(state.used),
            turns_completed=state.turns_completed,
            previous_rounds=tuple(state.previous_rounds),
        )

    def spectate(self, state: State) -> PublicView:
        """The default public view, with :attr:`PublicView.shown`: the cards of the active
        hands known to all (see :func:`shown_to_all`)."""
        seen = self.observe(state, 0)
        return PublicView(**{f.name: getattr(seen, f.name) for f in fields(PublicView)
                             if f.name != "shown"}, shown=shown_to_all(state))

    def outcome(self, state: State) -> Outcome | None:
        if not state.over:
            return None
        return Outcome(scores=tuple(float(t) for t in state.totals),
                       ranks=competition_ranks(state.totals))

    # -- conformance helpers --------------------------------------------------
    def cards_in_play(self, state: State) -> list[Any]:
        cards = list(state.deck) + list(state.used)
        for hand in state.hands:
            cards += hand
        if state.drawn is not None:
            cards.append(state.drawn)
        if state.gift_card is not None:
            cards.append(state.gift_card)
        return cards

    def clone(self, state: State) -> State:
        """A copy sharing nothing mutable with ``state`` (faster than a deep copy); what the
        seats have learnt (:func:`knowledge`) is worked out again when asked."""
        other = copy.copy(state)
        other.options = dict(state.options)
        other.rng = state.rng.copy()
        other.totals = list(state.totals)
        other.deck = list(state.deck)
        other.used = list(state.used)
        other.hands = [list(h) for h in state.hands]
        other.status = list(state.status)
        other.had_turn = list(state.had_turn)
        other.immune = list(state.immune)
        other.round_points = list(state.round_points)
        other.scored = list(state.scored)
        other.previous_rounds = list(state.previous_rounds)
        other.round_log = list(state.round_log)
        other.opening = list(state.opening)
        other.knowledge = None
        return other

    def redeal_hidden(self, state: State, seat: int, rng: random.Random) -> State:
        other = self.clone(state)
        if other.over:
            return other
        known = knowledge(state).trackers[seat].known  # the same in both: learnt from the log
        # Hidden places: deck, used pile, other active hands, a gift held by another seat.
        places: dict[int, list[Card]] = {DECK: other.deck, USED: other.used}
        for s in range(other.players):
            if s != seat and other.status[s] is Status.ACTIVE:
                places[s] = other.hands[s]
        if other.gift_card is not None and other.gift_recipient != seat:
            places[GIFT] = [other.gift_card]
        where = {c: place for place, cards in places.items() for c in cards}
        for card, place in known.items():
            if where.get(card) != place:
                raise AssertionError(f"seat {seat} believes {card} is at {place}, "
                                     f"but it is at {where.get(card)}")
        pool = [c for c in where if c not in known]
        rng.shuffle(pool)
        for place, cards in places.items():
            if place in (DECK, USED):
                free = sum(1 for c in cards if c not in known)
                new = [c for c in cards if c in known] + pool[:free]
                del pool[:free]
                rng.shuffle(new)
            else:  # a hand: each unseen card replaced where it lies, so that an action naming
                # hand positions (a Two's cards) names the same known cards in both states
                new = [c if c in known else pool.pop() for c in cards]
            cards[:] = new
        if GIFT in places:
            other.gift_card = places[GIFT][0]
        return other


def knowledge(state: State) -> Knowledge:
    """What each seat has learnt from the round's log so far. The state carries it
    (:attr:`State.knowledge`) and feeds it only the events logged since it was last asked (a
    new round's log starts it afresh): a view at every step costs the new events only, and a
    step costs nothing."""
    known = state.knowledge
    if known is None or known.log is not state.round_log:
        n = state.players
        known = state.knowledge = Knowledge(state.round_log, [Tracker(s, n) for s in range(n)],
                                            [set() for _ in range(n)])
    for tagged in state.round_log[known.fed:]:
        cards = _named(tagged.event)
        for s, tracker in enumerate(known.trackers):
            if tagged.visible(s):
                tracker.update(tagged.event)
                known.named[s].update(cards)
    known.fed = len(state.round_log)
    return known


def shown_to_all(state: State) -> tuple[tuple[Card, ...], ...]:
    """Per seat, the cards of its hand that every other seat knows it holds and has seen
    named in an event (so no card only deduced): each seat's :class:`Tracker` over the events
    of the round it saw (:func:`knowledge`). A seat out of the round: () (its whole hand is
    face up)."""
    n = state.players
    known = knowledge(state)
    trackers, named = known.trackers, known.named
    out: list[tuple[Card, ...]] = []
    for t in range(n):
        if state.status[t] is not Status.ACTIVE:
            out.append(())
            continue
        others = [s for s in range(n) if s != t]
        out.append(tuple(sorted(c for c, place in trackers[others[0]].known.items()
                                if place == t and all(trackers[s].known.get(c) == t
                                                      and c in named[s] for s in others))))
    return tuple(out)


def _named(event: Any) -> set[Card]:
    """The cards an event names (its fields: a card, or tuples of cards)."""
    found: set[Card] = set()
    todo = [getattr(event, f.name) for f in fields(event)]
    while todo:
        value = todo.pop()
        if isinstance(value, Card):
            found.add(value)
        elif isinstance(value, tuple):
            todo.extend(value)
    return found


class Tracker:
    """Where a seat knows hidden cards to be, from the events it saw this round.

    ``known`` maps a card the seat does not hold, and that is not face up, to its
    place as far as the seat can be sure: a seat number (in that seat's hand),
    :data:`DECK`, :data:`USED`, or :data:`GIFT` (the gift being held during a
    two-card exchange). Knowledge of a hand is dropped when that seat discards
    unseen; cards whose place is only narrowed down (two-card method with a
    hidden gift, a Joker passed without being named) are dropped as well.
    """

    def __init__(self, seat: int, players: int) -> None:
        self.seat = seat
        self.players = players
        self.known: dict[Card, int] = {}
        self.pending_gift: Card | None = None

    def _forget_seat(self, seat: int) -> None:
        for card in [c for c, p in self.known.items() if p == seat]:
            del self.known[card]

    def _put(self, card: Card, place: int) -> None:
        self.known[card] = place

    def _own(self, card: Card) -> None:
        self.known.pop(card, None)

    def update(self, event: Any) -> None:
        me = self.seat
        if isinstance(event, RoundStarted):
            self.known = {}
            self.pending_gift = None
            for s, cards in enumerate(event.fixed):
                if s != me:
                    for c in cards:
                        self._put(c, s)
        elif isinstance(event, Dealt):
            if event.card is not None:
                self._own(event.card)
        elif isinstance(event, UsedPileShuffled):
            for c, p in self.known.items():
                if p == USED:
                    self.known[c] = DECK
        elif isinstance(event, Drew):
            self._own(event.card)  # face up on the table
        elif isinstance(event, Rejected):
            self._put(event.card, USED)
        elif isinstance(event, Swapped):
            if event.seat == me:
                if event.discarded is not None:
                    self._put(event.discarded, USED)
            else:
                self._forget_seat(event.seat)
                self._put(event.taken, event.seat)
        elif isinstance(event, TwoCardExchange):
            p, r = event.seat, event.recipient
            given = event.given
            if me != p:
                self._put(event.taken, p)
            if given is None:
                for c in event.shown:
                    self.known.pop(c, None)
            else:
                kept = next(c for c in event.shown if c != given)
                if me == p:
                    self._put(given, GIFT)
                elif me == r:
                    self._put(kept, p)
                    self._own(given)
                else:
                    self._put(kept, p)
                    self._put(given, GIFT)
                self.pending_gift = given
        elif isinstance(event, GiftDiscarded):
            gift = self.pending_gift
            self.pending_gift = None
            if event.seat == me:
                if event.card is not None:
                    self._put(event.card, USED)
            else:
                self._forget_seat(event.seat)
            if gift is not None and self.known.get(gift) == GIFT:
                self._put(gift, event.seat)
        elif isinstance(event, JokerClaimed):
            if event.seat != me:
                for c in event.hand:
                    self._put(c, event.seat)
            if event.joker is not None:
                if event.seat == me:
                    self._own(event.joker)
                else:
                    self._put(event.joker, event.seat)
            elif event.success:
                self._unnamed_joker_passed(event.seat, event.target)
        elif isinstance(event, JokerRefill):
            if event.seat == me:
                if event.card is not None:
                    self._own(event.card)
            else:
                for card in [c for c, p in self.known.items() if p == DECK]:
                    del self.known[card]
        elif isinstance(event, JokerDiscarded):
            if event.seat == me:
                if event.card is not None:
                    self._put(event.card, USED)
            else:
                self._forget_seat(event.seat)
        elif isinstance(event, KillAttempt):
            if event.target != me:
                for c in event.target_hand:
                    self._put(c, event.target)
        elif isinstance(event, FalseWinShown):
            if event.seat != me:
                for c in event.hand:
                    self._put(c, event.seat)
        elif isinstance(event, LeftRound):
            for c in event.hand:
                self.known.pop(c, None)

    def _unnamed_joker_passed(self, claimer: int, giver: int) -> None:
        """``giver`` passed one of its Jokers to ``claimer``, this seat does not see which."""
        jokers = [Card(Rank.JOKER, Suit.NONE, i) for i in range(2)]
        for joker in jokers:
            if self.known.get(joker) == giver:
                del self.known[joker]  # now with the giver or with the claimer
        elsewhere = [j for j in jokers if j in self.known]
        if len(elsewhere) == 1:  # the giver cannot have held that one: it passed the other
            self._put(next(j for j in jokers if j not in elsewhere), claimer)

    def hand_of(self, seat: int) -> list[Card]:
        """The cards this seat knows ``seat`` holds."""
        return sorted(c for c, p in self.known.items() if p == seat)


GAME = KillGame()
